/* SPDX-License-Identifier: MIT */
/*
 * Xen's device-model operations (__HYPERVISOR_dm_op): a device model
 * (QEMU for an HVM guest) asks Xen to act on the guest it serves.  Only
 * the buffer list is the kernel's business: privcmd passes the
 * operations through.
 */
#ifndef _XEN_INTERFACE_HVM_DM_OP_H
#define _XEN_INTERFACE_HVM_DM_OP_H

#include <xen/interface/xen.h>

/**
 * struct xen_dm_op_buf - one buffer of a dm_op call
 * @h: its address in the caller's space
 * @size: its length in bytes
 */
struct xen_dm_op_buf {
	void *h;
	xen_ulong_t size;
};

#endif /* _XEN_INTERFACE_HVM_DM_OP_H */
