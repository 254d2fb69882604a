/* SPDX-License-Identifier: MIT */
/*
 * HVM parameters: values the toolstack sets for an HVM or PVH guest and
 * the guest reads with HVMOP_get_param.
 *
 * Constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_HVM_PARAMS_H
#define _XEN_INTERFACE_HVM_PARAMS_H

#include <linux/bits.h>
#include <xen/interface/hvm/hvm_op.h>

/*
 * How event upcalls are delivered when no per-vCPU vector is set: the
 * value's top byte is the type, the rest its argument.
 */
#define HVM_PARAM_CALLBACK_IRQ		0
#define HVM_PARAM_CALLBACK_IRQ_TYPE_MASK GENMASK_ULL(63, 56)
#define HVM_PARAM_CALLBACK_TYPE_GSI	0	/* argument: the GSI */
#define HVM_PARAM_CALLBACK_TYPE_PCI_INTX 1	/* argument: PCI INTx */
#define HVM_PARAM_CALLBACK_TYPE_VECTOR	2	/* argument: the vector */

/* Frame and event channel of the xenstore ring. */
#define HVM_PARAM_STORE_PFN		1
#define HVM_PARAM_STORE_EVTCHN		2

/* Frame and event channel of the PV console ring. */
#define HVM_PARAM_CONSOLE_PFN		17
#define HVM_PARAM_CONSOLE_EVTCHN	18

#endif /* _XEN_INTERFACE_HVM_PARAMS_H */
