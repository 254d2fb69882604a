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

#endif /* _XEN_XEN_OPS_H */
