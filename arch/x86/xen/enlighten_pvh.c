// SPDX-License-Identifier: GPL-2.0
/*
 * PVH guest entry: the hooks the generic PVH boot code
 * (arch/x86/platform/pvh) calls when it finds Xen's CPUID leaves.
 *
 * They run on the early page tables, before the kernel has set up
 * anything: no allocation, no locks, output only through the raw console.
 */
#include <linux/cache.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <asm/bootparam.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/hvc-console.h>
#include <xen/interface/memory.h>
#include <xen/interface/sched.h>
#include <xen/interface/version.h>
#include <xen/xen.h>

bool xen_pvh __ro_after_init;
EXPORT_SYMBOL_GPL(xen_pvh);

/**
 * xen_pvh_init() - first code of ours in a PVH guest
 * @boot_params: the boot parameters the PVH entry code is building
 *
 * Records the guest type and has Xen fill the hypercall page, so that
 * every later hypercall works.
 */
void __init xen_pvh_init(struct boot_params *boot_params)
{
	u32 base = xen_cpuid_base();
	int version;

	xen_pvh = true;
	xen_domain_type = XEN_HVM_DOMAIN;
	xen_start_flags = pvh_start_info.flags;

	/* Leaf base+2, EBX: the MSR that takes the hypercall page address. */
	wrmsrl(cpuid_ebx(base + 2), __pa_symbol(hypercall_page));

	version = HYPERVISOR_xen_version(XENVER_version, NULL);
	xen_raw_printk("xen: PVH guest of Xen %d.%d, start flags %#x\n",
		       version >> 16, version & 0xffff, xen_start_flags);
}

/**
 * mem_map_via_hcall() - take the memory map from Xen
 * @boot_params: where to put it
 *
 * The PVH entry code calls this only when the start info carries no
 * memory map (a version 0 start info).
 */
void __init mem_map_via_hcall(struct boot_params *boot_params)
{
	struct xen_memory_map map = {
		.nr_entries = ARRAY_SIZE(boot_params->e820_table),
	};
	int rc;

	map.buffer = boot_params->e820_table;
	rc = HYPERVISOR_memory_op(XENMEM_memory_map, &map);
	if (rc) {
		/* Nothing to boot on: tell the toolstack this domain crashed. */
		struct sched_shutdown crash = { .reason = SHUTDOWN_crash };

		xen_raw_printk("xen: XENMEM_memory_map failed: %d\n", rc);
		for (;;)
			HYPERVISOR_sched_op(SCHEDOP_shutdown, &crash);
	}
	boot_params->e820_entries = map.nr_entries;
}
