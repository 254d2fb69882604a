/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-vCPU state of a Xen guest that the core services share: which Xen
 * vCPU each Linux CPU is, and where its struct vcpu_info lives.
 */
#ifndef _XEN_XEN_OPS_H
#define _XEN_XEN_OPS_H

#include <linux/percpu.h>
#include <linux/types.h>

struct vcpu_info;

/* This CPU's vcpu_info: in the shared info page, or registered. */
DECLARE_PER_CPU(struct vcpu_info *, xen_vcpu);
/* The Xen vCPU id of each Linux CPU. */
DECLARE_PER_CPU(u32, xen_vcpu_id);

/**
 * xen_vcpu_nr() - the Xen vCPU a Linux CPU is
 * @cpu: the Linux CPU number
 *
 * Return: the vCPU id to pass to Xen in VCPUOP and event channel calls.
 */
static inline u32 xen_vcpu_nr(unsigned int cpu)
{
	return per_cpu(xen_vcpu_id, cpu);
}

int xen_vcpu_setup(unsigned int cpu);

struct vcpu_runstate_info;

/* Runstate and steal time (drivers/xen/time.c). */
int xen_setup_runstate_info(unsigned int cpu);
void xen_time_setup_guest(void);
void xen_runstate_snapshot_cpu(struct vcpu_runstate_info *res,
			       unsigned int cpu);
u64 xen_steal_clock(int cpu);

/* Xen's clock (arch/x86/xen/time.c). */
u64 xen_system_time(void);

/* Machine-contiguous memory for DMA (arch/x86/xen/mmu_contig_pv.c). */
int xen_create_contiguous_region(phys_addr_t pstart, unsigned int order,
				 unsigned int address_bits,
				 dma_addr_t *dma_handle);
void xen_destroy_contiguous_region(phys_addr_t pstart, unsigned int order);

struct page;

/* A PV guest's frames given back and taken again (mmu_reserve_pv.c). */
int xen_pv_release_frames(struct page **pages, unsigned int nr);
int xen_pv_claim_frames(struct page **pages, unsigned int nr);

/* The pool of empty pages (drivers/xen/unpopulated.c). */
void xen_unpopulated_trim(unsigned long keep);

struct dentry;

/* debugfs xen/, where our files go (arch/x86/xen/enlighten.c). */
struct dentry *xen_debugfs_dir(void);

/*
 * A hypercall the toolstack makes through privcmd may run for seconds
 * (the destruction of a large domain, say).  Xen does it in pieces and,
 * between two of them, may deliver an event with the vCPU's instruction
 * pointer put back on the hypercall, so that returning from the event
 * runs the next piece.  A kernel without preemption would never leave
 * such a call for another task: a PV guest's event handler
 * (arch/x86/xen/traps_pv.c) lets the scheduler run there when the CPU
 * is marked as being in one.  The mark is for calls made with nothing
 * else in progress: no lock held, events enabled.
 */
DECLARE_PER_CPU(bool, xen_in_preemptible_hcall);

/**
 * xen_preemptible_hcall_begin() - let other tasks run during a hypercall
 *
 * Marks this CPU as in a hypercall that the scheduler may interrupt.
 *
 * Context: process context, no lock held, interrupts enabled.  Call
 * xen_preemptible_hcall_end() right after the hypercall.
 */
static inline void xen_preemptible_hcall_begin(void)
{
	if (IS_ENABLED(CONFIG_XEN_PV) && !IS_ENABLED(CONFIG_PREEMPTION))
		this_cpu_write(xen_in_preemptible_hcall, true);
}

/**
 * xen_preemptible_hcall_end() - the hypercall is over
 *
 * The task may have moved to another CPU in the meantime: the mark
 * moves with it (see xen_preemptible_hcall_begin()).
 */
static inline void xen_preemptible_hcall_end(void)
{
	if (IS_ENABLED(CONFIG_XEN_PV) && !IS_ENABLED(CONFIG_PREEMPTION))
		this_cpu_write(xen_in_preemptible_hcall, false);
}

#endif /* _XEN_XEN_OPS_H */
