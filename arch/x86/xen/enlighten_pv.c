// SPDX-License-Identifier: GPL-2.0
/*
 * PV guest entry: the C half of startup_xen (xen-head.S).
 *
 * Xen's domain builder loads the kernel at its link address and enters
 * it in ring 3, on page tables Xen built and validated, with events
 * masked and no handler of any kind registered: any fault now ends the
 * domain.  What runs here must not fault.
 *
 * The boot console of a PV domU is its console ring, which xenconsoled
 * logs from the first byte (hvc_xen.c writes to it); Xen's own console
 * refuses a domU's writes on a release build.  A dom0 has no ring and
 * writes to Xen's console.
 *
 * This is the start of the PV port: the entry reaches here, finds its
 * console, says what Xen gave it and stops the domain.  Memory, the MMU,
 * traps and the rest follow.
 */
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/linkage.h>
#include <asm/hypervisor.h>
#include <asm/page.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/interface.h>
#include <xen/hvc-console.h>
#include <xen/interface/sched.h>
#include <xen/interface/xen.h>
#include <xen/xen.h>

struct start_info *xen_start_info __ro_after_init;
EXPORT_SYMBOL_GPL(xen_start_info);

/*
 * The guest frame behind a machine frame, from Xen's read-only M2P
 * table.  Valid for frames this domain owns.
 */
static unsigned long __init xen_pv_m2p(unsigned long mfn)
{
	const unsigned long *m2p = (const unsigned long *)MACH2PHYS_VIRT_START;

	return READ_ONCE(m2p[mfn]);
}

/*
 * Xen maps every page of the boot area at VIRT_BASE (the kernel map) plus
 * its frame number; the console page is one of them.  The raw console
 * (hvc_xen.c) writes to it from now on.  A dom0 has no ring.
 */
static void __init xen_pv_boot_console_init(struct start_info *si)
{
	if (si->flags & SIF_INITDOMAIN)
		return;
	xen_raw_console_ring((void *)(__START_KERNEL_map +
				      (xen_pv_m2p(si->console.domU.mfn) << PAGE_SHIFT)),
			     si->console.domU.evtchn);
}

static u32 __init xen_pv_detect(void)
{
	return xen_pv_domain() ? UINT_MAX : 0;
}

const __initconst struct hypervisor_x86 x86_hyper_xen_pv = {
	.name		= "Xen PV",
	.detect		= xen_pv_detect,
	.type		= X86_HYPER_XEN_PV,
	.ignore_nopv	= true,
};

/**
 * xen_start_kernel() - the first C code of a PV guest
 * @si: what Xen's domain builder tells the guest
 *
 * Called by startup_xen on the init task's stack, with the GS base of
 * CPU 0 set.  Does not return.
 */
asmlinkage __visible void __init __noreturn xen_start_kernel(struct start_info *si)
{
	struct sched_shutdown off = { .reason = SHUTDOWN_poweroff };

	xen_start_info = si;
	xen_start_flags = si->flags;
	xen_domain_type = XEN_PV_DOMAIN;
	xen_pv_boot_console_init(si);

	xen_raw_printk("xen: PV entry: %.32s, %lu pages, flags %#x, ",
		       si->magic, si->nr_pages, si->flags);
	xen_raw_printk("pt_base %#lx (%lu frames), mfn_list %#lx, cmdline \"%s\"\n",
		       si->pt_base, si->nr_pt_frames, si->mfn_list,
		       (const char *)si->cmd_line);
	xen_raw_printk("xen: PV boot goes no further yet; powering off\n");
	for (;;)
		HYPERVISOR_sched_op(SCHEDOP_shutdown, &off);
}
