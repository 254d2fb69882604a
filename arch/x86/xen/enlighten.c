// SPDX-License-Identifier: GPL-2.0
/*
 * State every x86 Xen guest type shares: which kind of guest this is,
 * the flags Xen booted it with, the shared info page and each CPU's
 * vcpu_info.  Set early by the entry code of the guest type
 * (enlighten_pvh.c, enlighten_hvm.c), read everywhere through <xen/xen.h>
 * and <xen/xen-ops.h>.
 *
 * A vCPU's vcpu_info starts in the shared info page, which has room for
 * the first 32 vCPUs only.  xen_vcpu_setup() moves it into per-CPU
 * memory, which Xen allows once per vCPU, for the life of the domain.
 */
#include <linux/bvec.h>
#include <linux/cache.h>
#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/types.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/interface/vcpu.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "xen-ops.h"

enum xen_domain_type xen_domain_type __ro_after_init = XEN_NATIVE;
EXPORT_SYMBOL_GPL(xen_domain_type);

u32 xen_start_flags __ro_after_init;
EXPORT_SYMBOL(xen_start_flags);

struct shared_info *HYPERVISOR_shared_info __ro_after_init;
EXPORT_SYMBOL_GPL(HYPERVISOR_shared_info);

DEFINE_PER_CPU(struct vcpu_info *, xen_vcpu);
EXPORT_PER_CPU_SYMBOL_GPL(xen_vcpu);

DEFINE_PER_CPU(u32, xen_vcpu_id);
EXPORT_PER_CPU_SYMBOL_GPL(xen_vcpu_id);

/* Aligned to 64 bytes, so a vcpu_info never crosses a page. */
DEFINE_PER_CPU_ALIGNED(struct vcpu_info, xen_vcpu_info);

/**
 * xen_vcpu_info_placed() - is a CPU's vcpu_info its per-CPU xen_vcpu_info?
 * @cpu: the CPU
 *
 * Return: true once xen_vcpu_setup() had Xen register it there; false
 * while the vCPU uses its slot in the shared info page.
 */
bool xen_vcpu_info_placed(unsigned int cpu)
{
	return per_cpu(xen_vcpu, cpu) == per_cpu_ptr(&xen_vcpu_info, cpu);
}

/**
 * xen_vcpu_setup() - give a CPU its own vcpu_info
 * @cpu: the CPU; it must be the calling CPU or not yet running
 *
 * Registers per-CPU memory for the vCPU's vcpu_info.  When Xen refuses,
 * vCPUs below 32 keep their slot in the shared info page.
 *
 * Return: 0, or a negative errno when the CPU has no vcpu_info at all.
 */
int xen_vcpu_setup(unsigned int cpu)
{
	struct vcpu_info *mine = per_cpu_ptr(&xen_vcpu_info, cpu);
	phys_addr_t pa = per_cpu_ptr_to_phys(mine);
	struct vcpu_register_vcpu_info info = {
		.mfn = pfn_to_mfn(PHYS_PFN(pa)),
		.offset = offset_in_page(pa),
	};
	u32 vcpu = xen_vcpu_nr(cpu);
	int rc;

	if (xen_vcpu_info_placed(cpu))
		return 0;

	BUILD_BUG_ON(sizeof(struct vcpu_info) > SMP_CACHE_BYTES ||
		     PAGE_SIZE % SMP_CACHE_BYTES);
	rc = HYPERVISOR_vcpu_op(VCPUOP_register_vcpu_info, vcpu, &info);
	if (!rc) {
		per_cpu(xen_vcpu, cpu) = mine;
		return 0;
	}
	if (vcpu < XEN_LEGACY_MAX_VCPUS) {
		pr_warn_once("xen: vcpu_info stays in shared info (%d)\n", rc);
		per_cpu(xen_vcpu, cpu) = &HYPERVISOR_shared_info->vcpu_info[vcpu];
		return 0;
	}
	pr_err("xen: no vcpu_info for vCPU %u: %d\n", vcpu, rc);
	return rc;
}

/**
 * xen_cpu_events_up() - a CPU's steal clock, timer and IPI ports
 * @cpu: the CPU, prepared before it starts
 *
 * Its vcpu_info must be in place.  No steal time is no reason to stop.
 *
 * Return: 0, or the error of the timer or the IPIs (nothing left bound).
 */
int xen_cpu_events_up(unsigned int cpu)
{
	int rc;

	xen_setup_runstate_info(cpu);
	rc = xen_setup_timer(cpu);
	if (rc)
		return rc;
	rc = xen_setup_ipis(cpu);
	if (rc)
		xen_teardown_timer(cpu);
	return rc;
}

/**
 * xen_cpu_events_down() - undo xen_cpu_events_up() for a dead CPU
 * @cpu: the CPU
 *
 * Return: 0, as a CPU hotplug callback.
 */
int xen_cpu_events_down(unsigned int cpu)
{
	xen_teardown_ipis(cpu);
	xen_teardown_timer(cpu);
	return 0;
}

/**
 * xen_debugfs_dir() - the debugfs directory of the Xen support
 *
 * Created on first use, for the grant table's and the multicall
 * batch's files (and the next ones).  Call from init code only: there
 * is no lock.
 *
 * Return: debugfs xen/ (an error pointer if debugfs has none to give,
 * which debugfs_create_file() accepts).
 */
struct dentry *xen_debugfs_dir(void)
{
	static struct dentry *dir;

	if (!dir)
		dir = debugfs_create_dir("xen", NULL);
	return dir;
}

/*
 * In an HVM container (PVH) Xen translates guest frames itself, so two
 * pages contiguous in the guest's physical space are contiguous for a
 * device as well, and the block layer has checked the former already.
 * A PV guest's (dom0's) pages are machine frames in no order: a segment
 * across two of them that are not frames in a row would be bounced
 * through the swiotlb (a copy), so it is not made.
 */
bool xen_biovec_phys_mergeable(const struct bio_vec *vec1,
			       const struct page *page)
{
	unsigned long last, next = page_to_pfn(page);

	if (!xen_pv_domain())
		return true;
	/* The block layer has seen @page hold the byte just past @vec1. */
	last = page_to_pfn(vec1->bv_page) +
	       PFN_DOWN(vec1->bv_offset + vec1->bv_len - 1);
	return next == last || pfn_to_mfn(last) + 1 == pfn_to_mfn(next);
}
