/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 side of the event channel core: the IPIs Linux sends over event
 * channels, and how this guest receives its event upcalls.
 */
#ifndef _ASM_X86_XEN_EVENTS_H
#define _ASM_X86_XEN_EVENTS_H

#include <linux/types.h>
#include <xen/xen.h>

/**
 * enum ipi_vector - the inter-processor interrupts carried by events
 * @XEN_RESCHEDULE_VECTOR: run the scheduler
 * @XEN_CALL_FUNCTION_SINGLE_VECTOR: run queued function calls for this CPU
 * @XEN_CALL_FUNCTION_VECTOR: the same, sent to several CPUs
 * @XEN_IRQ_WORK_VECTOR: run queued irq_work
 * @XEN_SPIN_UNLOCK_VECTOR: wake a vCPU polling on a lock
 * @XEN_NMI_VECTOR: stand-in for an NMI IPI
 * @XEN_NR_IPIS: how many there are
 */
enum ipi_vector {
	XEN_RESCHEDULE_VECTOR,
	XEN_CALL_FUNCTION_SINGLE_VECTOR,
	XEN_CALL_FUNCTION_VECTOR,
	XEN_IRQ_WORK_VECTOR,
	XEN_SPIN_UNLOCK_VECTOR,
	XEN_NMI_VECTOR,
	XEN_NR_IPIS,
};

/*
 * Events reach an HVM-container guest as an interrupt vector, either one
 * per vCPU (xen_percpu_upcall) or the domain-wide callback vector.
 */
extern bool xen_have_vector_callback;
extern bool xen_percpu_upcall;

/*
 * Events can be moved between vCPUs: always in a PV guest (the event
 * callback is per vCPU), in an HVM container unless they come by a GSI.
 */
static inline bool xen_support_evtchn_rebind(void)
{
	return xen_pv_domain() || xen_have_vector_callback;
}

#endif /* _ASM_X86_XEN_EVENTS_H */
