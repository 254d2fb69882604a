/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HVM parameters of this domain (HVMOP_get_param / HVMOP_set_param): where
 * the toolstack put xenstore and the console, how events are delivered.
 */
#ifndef _XEN_HVM_H
#define _XEN_HVM_H

#include <linux/types.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/hvm/params.h>

/**
 * hvm_get_parameter() - read one of this domain's HVM parameters
 * @idx: an HVM_PARAM_* index
 * @value: out: its value (0 when the call fails)
 *
 * Return: 0 or a negative Xen errno.
 */
static inline int hvm_get_parameter(int idx, u64 *value)
{
	struct xen_hvm_param p = { .domid = DOMID_SELF, .index = idx };
	int rc = HYPERVISOR_hvm_op(HVMOP_get_param, &p);

	*value = rc ? 0 : p.value;
	return rc;
}

/**
 * hvm_set_parameter() - set one of this domain's HVM parameters
 * @idx: an HVM_PARAM_* index
 * @value: the value
 *
 * Return: 0 or a negative Xen errno.
 */
static inline int hvm_set_parameter(int idx, u64 value)
{
	struct xen_hvm_param p = {
		.domid = DOMID_SELF, .index = idx, .value = value,
	};

	return HYPERVISOR_hvm_op(HVMOP_set_param, &p);
}

#endif /* _XEN_HVM_H */
