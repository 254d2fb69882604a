/* SPDX-License-Identifier: MIT */
/*
 * Callbacks: where a PV guest wants Xen to enter it for events, for
 * system calls from its user space, for NMIs, and when Xen could not
 * load the guest's segment registers (failsafe).
 *
 * Types and constants only.  tools/testing/xen/abi checks every
 * definition here against Xen 4.17's public headers.
 */
#ifndef _XEN_INTERFACE_CALLBACK_H
#define _XEN_INTERFACE_CALLBACK_H

#include <linux/types.h>

#define CALLBACKTYPE_event		0	/* event channel upcall */
#define CALLBACKTYPE_failsafe		1	/* bad segment on return */
#define CALLBACKTYPE_syscall		2	/* 64-bit user syscall */
#define CALLBACKTYPE_nmi		4	/* NMI (may be unregistered) */
#define CALLBACKTYPE_sysenter		5	/* 32-bit user sysenter */
#define CALLBACKTYPE_syscall32		7	/* 32-bit user syscall */

/* Events are masked when Xen enters the callback (all but event, nmi). */
#define CALLBACKF_mask_events		BIT(0)

/* HYPERVISOR_callback_op commands. */
#define CALLBACKOP_register		0
#define CALLBACKOP_unregister		1

/**
 * struct callback_register - argument of CALLBACKOP_register
 * @type: a CALLBACKTYPE_*
 * @flags: CALLBACKF_* flags
 * @address: the callback's entry point
 */
struct callback_register {
	u16 type;
	u16 flags;
	unsigned long address;
};

/**
 * struct callback_unregister - argument of CALLBACKOP_unregister
 * @type: a CALLBACKTYPE_* (Xen lets only the NMI callback go)
 * @_unused: padding
 */
struct callback_unregister {
	u16 type;
	u16 _unused;
};

#endif /* _XEN_INTERFACE_CALLBACK_H */
