/* SPDX-License-Identifier: MIT */
/*
 * The hvm_op hypercall, as HVM and PVH guests use it: their parameters
 * (where xenstore and the console are, how events are delivered) and the
 * per-vCPU event upcall vector.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_HVM_HVM_OP_H
#define _XEN_INTERFACE_HVM_HVM_OP_H

#include <xen/interface/xen.h>

/* Set or get an HVM_PARAM_*: struct xen_hvm_param. */
#define HVMOP_set_param			0
#define HVMOP_get_param			1
/* The guest is about to free a page table (shadow paging hint). */
#define HVMOP_pagetable_dying		9
/* Deliver this vCPU's events on a vector: xen_hvm_evtchn_upcall_vector. */
#define HVMOP_set_evtchn_upcall_vector	23

/**
 * struct xen_hvm_param - argument of HVMOP_set_param and HVMOP_get_param
 * @domid: the domain (DOMID_SELF)
 * @pad: zero
 * @index: an HVM_PARAM_* index
 * @value: the value to set, or out: the value read
 */
struct xen_hvm_param {
	domid_t domid;
	u16 pad;
	u32 index;
	u64 value;
};

/**
 * struct xen_hvm_evtchn_upcall_vector - argument of
 *	HVMOP_set_evtchn_upcall_vector
 * @vcpu: the vCPU
 * @vector: the interrupt vector its event upcalls arrive on
 */
struct xen_hvm_evtchn_upcall_vector {
	u32 vcpu;
	u8 vector;
};

#endif /* _XEN_INTERFACE_HVM_HVM_OP_H */
