/* SPDX-License-Identifier: MIT */
/*
 * The vcpu_op hypercall: bring vCPUs up and down, their timers, and where
 * Xen writes their state (vcpu_info, runstate).
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_VCPU_H
#define _XEN_INTERFACE_VCPU_H

#include <xen/interface/xen.h>

/* Set a vCPU's initial register state (PV). */
#define VCPUOP_initialise		0
/* Start a vCPU that has been initialised. */
#define VCPUOP_up			1
/* Stop a vCPU; it keeps its state. */
#define VCPUOP_down			2
/* Returns 1 if the vCPU is running, 0 if it is down. */
#define VCPUOP_is_up			3
/* Copy out a vCPU's struct vcpu_runstate_info. */
#define VCPUOP_get_runstate_info	4
/* Have Xen keep a vcpu_runstate_info up to date in guest memory. */
#define VCPUOP_register_runstate_memory_area 5
/* A periodic timer raising VIRQ_TIMER: struct vcpu_set_periodic_timer. */
#define VCPUOP_set_periodic_timer	6
#define VCPUOP_stop_periodic_timer	7
/* A one-shot timer raising VIRQ_TIMER: struct vcpu_set_singleshot_timer. */
#define VCPUOP_set_singleshot_timer	8
#define VCPUOP_stop_singleshot_timer	9
/* Move the vCPU's vcpu_info out of shared_info: vcpu_register_vcpu_info. */
#define VCPUOP_register_vcpu_info	10
/* Send an NMI to a vCPU. */
#define VCPUOP_send_nmi			11
/* The physical CPU id a vCPU maps to (dom0). */
#define VCPUOP_get_physid		12
/* Have Xen keep a copy of vcpu_time_info in guest memory. */
#define VCPUOP_register_vcpu_time_memory_area 13

/* States in vcpu_runstate_info.state. */
#define RUNSTATE_running		0	/* on a physical CPU */
#define RUNSTATE_runnable		1	/* waiting for one */
#define RUNSTATE_blocked		2	/* waiting for an event */
#define RUNSTATE_offline		3	/* down, or paused */

/* Set in state_entry_time while Xen updates the area. */
#define XEN_RUNSTATE_UPDATE		BIT_ULL(63)

/**
 * struct vcpu_runstate_info - how a vCPU has spent its time
 * @state: current RUNSTATE_* state
 * @state_entry_time: system time @state was entered, with
 *	XEN_RUNSTATE_UPDATE set while Xen writes the structure
 * @time: nanoseconds spent in each state, indexed by RUNSTATE_*
 */
struct vcpu_runstate_info {
	int state;
	u64 state_entry_time;
	u64 time[4];
};

/**
 * struct vcpu_register_runstate_memory_area - where to keep the runstate
 * @addr: the guest virtual address of a struct vcpu_runstate_info
 * @addr.v: as a pointer
 * @addr.p: as a number
 */
struct vcpu_register_runstate_memory_area {
	union {
		struct vcpu_runstate_info *v;
		u64 p;
	} addr;
};

/**
 * struct vcpu_set_periodic_timer - argument of VCPUOP_set_periodic_timer
 * @period_ns: the period
 */
struct vcpu_set_periodic_timer {
	u64 period_ns;
};

/* Fail with -ETIME if the timeout is already in the past. */
#define VCPU_SSHOTTMR_future		BIT(0)

/**
 * struct vcpu_set_singleshot_timer - argument of VCPUOP_set_singleshot_timer
 * @timeout_abs_ns: absolute system time to fire at
 * @flags: VCPU_SSHOTTMR_* flags
 */
struct vcpu_set_singleshot_timer {
	u64 timeout_abs_ns;
	u32 flags;
};

/**
 * struct vcpu_register_vcpu_info - argument of VCPUOP_register_vcpu_info
 * @mfn: frame to hold the vCPU's struct vcpu_info
 * @offset: its offset in the frame; it may not cross the page
 * @rsvd: zero
 */
struct vcpu_register_vcpu_info {
	u64 mfn;
	u32 offset;
	u32 rsvd;
};

#endif /* _XEN_INTERFACE_VCPU_H */
