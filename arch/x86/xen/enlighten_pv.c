// SPDX-License-Identifier: GPL-2.0
/*
 * PV guest entry: the C half of startup_xen (xen-head.S).
 *
 * Xen's domain builder loads the kernel at its link address and enters
 * it in ring 3, on page tables Xen built and validated, with events
 * masked and no handler of any kind registered: any fault before the
 * trap table is in place ends the domain.
 *
 * xen_start_kernel() puts in place what the generic boot path
 * (x86_64_start_reservations(), then start_kernel()) takes for granted
 * and a PV guest lacks: the paravirt ops that reach Xen instead of the
 * privileged instructions, the early trap table, the callbacks, the
 * kernel's own page tables, the memory map hook and boot_params.
 *
 * The boot console of a PV domU is its console ring, which xenconsoled
 * logs from the first byte (hvc_xen.c writes to it); Xen's own console
 * refuses a domU's writes on a release build.  A dom0 has no ring and
 * writes to Xen's console.
 */
#include <linux/acpi.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/console.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/linkage.h>
#include <linux/pfn.h>
#include <linux/printk.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <asm/bootparam.h>
#include <asm/cpufeature.h>
#include <asm/desc.h>
#include <asm/irq.h>
#include <asm/hypervisor.h>
#include <asm/page.h>
#include <asm/paravirt.h>
#include <asm/pci_x86.h>
#include <asm/pgtable.h>
#include <asm/pvclock.h>
#include <asm/setup.h>
#include <asm/tlbflush.h>
#include <asm/x86_init.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/interface.h>
#include <asm/xen/page.h>
#include <xen/events.h>
#include <xen/hvc-console.h>
#include <xen/interface/physdev.h>
#include <xen/interface/sched.h>
#include <xen/interface/version.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "xen-ops.h"

struct start_info *xen_start_info __ro_after_init;
EXPORT_SYMBOL_GPL(xen_start_info);

/*
 * Xen maps every page of the boot area at VIRT_BASE (the kernel map) plus
 * its frame number; the console page is one of them.  The raw console
 * (hvc_xen.c) writes to it from now on.  A dom0 has no ring.
 */
static void __init xen_pv_boot_console_init(struct start_info *si,
					    unsigned long map)
{
	if (si->flags & SIF_INITDOMAIN)
		return;
	xen_raw_console_ring((void *)(map +
				      (mfn_to_pfn(si->console.domU.mfn) << PAGE_SHIFT)),
			     si->console.domU.evtchn);
}

/*
 * The boot area as the kernel's direct map shows it.  The kernel map
 * keeps only the image (cleanup_highmap() drops the rest), so what lies
 * beyond it (start info, P2M array, console ring) is reached here.
 */
static void *__init xen_pv_boot_direct(unsigned long va)
{
	return (void *)(va - __START_KERNEL_map + PAGE_OFFSET);
}

/* Where the shared info page is mapped: a page of the image's own. */
static union {
	struct shared_info info;
	char page[PAGE_SIZE];
} xen_pv_shared_page __page_aligned_bss;

static void __init xen_pv_map_shared_info(struct start_info *si)
{
	u64 pte = (si->shared_info & PTE_PFN_MASK) | _PAGE_PRESENT | _PAGE_RW |
		  _PAGE_ACCESSED | _PAGE_DIRTY;
	int rc = HYPERVISOR_update_va_mapping((unsigned long)&xen_pv_shared_page,
					      pte, UVMF_INVLPG);

	if (rc)
		xen_pv_fatal("xen: shared info not mapped: %d\n", rc);
	HYPERVISOR_shared_info = &xen_pv_shared_page.info;
	this_cpu_write(xen_vcpu, &HYPERVISOR_shared_info->vcpu_info[0]);
}

/*
 * Virtual I/O privilege 1, which a PV kernel (ring 1 for Xen's check)
 * has then: cli, sti and popf of IF from generic code that knows no
 * better (this_cpu_cmpxchg16b_emu on CPUs without cmpxchg16b) become
 * no-ops Xen emulates instead of faults.  Port access still needs the
 * ports granted (dom0).
 */
void xen_pv_set_iopl(void)
{
	struct physdev_set_iopl iopl = { .iopl = 1 };
	int rc = HYPERVISOR_physdev_op(PHYSDEVOP_set_iopl, &iopl);

	if (rc)
		xen_raw_printk("xen: I/O privilege not set: %d\n", rc);
}

/**
 * xen_pv_fatal() - stop a PV guest that cannot go on
 * @fmt: what went wrong, printf style
 *
 * For the early boot and for refusals by Xen that leave the kernel's
 * view of the machine wrong.  Prints on the raw console (it works from
 * the first instruction) and crashes the domain, so that Xen and the
 * toolstack log it as a crash.
 */
void xen_pv_fatal(const char *fmt, ...)
{
	struct sched_shutdown crash = { .reason = SHUTDOWN_crash };
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xen_raw_console_write(buf);
	for (;;)
		HYPERVISOR_sched_op(SCHEDOP_shutdown, &crash);
}

/* The TSC frequency, from the scale Xen gives for the boot vCPU's clock. */
static unsigned long xen_pv_tsc_khz(void)
{
	return pvclock_tsc_khz((struct pvclock_vcpu_time_info *)
			       &HYPERVISOR_shared_info->vcpu_info[0].time);
}

/*
 * Interrupts: the generic IDT setup (its gates mean nothing to Xen
 * beyond the exceptions), the boot CPU's own vcpu_info and the
 * interrupt-flag ops that go with it, then the event channel core,
 * which the event callback needs before events are unmasked.
 */
static void __init xen_pv_intr_init(void)
{
	native_init_IRQ();
	if (xen_vcpu_setup(0))
		xen_pv_fatal("xen: the boot CPU has no vcpu_info\n");
	if (xen_vcpu_info_placed(0))
		xen_pv_init_irq_ops_direct();
	xen_init_IRQ();
}

/* No APIC: the clock event device is Xen's timer, set up at once. */
static void __init xen_pv_intr_mode_init(void)
{
	x86_init.timers.setup_percpu_clockev();
}

static void __init xen_pv_init_platform(void)
{
	int version = HYPERVISOR_xen_version(XENVER_version, NULL);

	pr_info("xen: booting as a PV guest of Xen %d.%d\n", version >> 16,
		version & 0xffff);
	xen_init_time_ops();
	xen_reboot_init();
	xen_pv_apic_init();
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
	.init.init_platform = xen_pv_init_platform,
};

static void __init xen_pv_pagetable_init(void)
{
	paging_init();
	xen_pv_mark_kernel_tables();
	if (xen_p2m_build(max_pfn))
		xen_pv_fatal("xen: no memory for the P2M\n");
}

static unsigned char xen_pv_get_nmi_reason(void)
{
	return 0;
}

/*
 * Features a PV guest cannot use, whatever cpuid says.  It has no local
 * APIC either: interrupts and IPIs are events, the timer is Xen's.
 */
static void __init xen_pv_set_cpu_caps(void)
{
	static const unsigned int off[] __initconst = {
		X86_FEATURE_PSE, X86_FEATURE_PGE, X86_FEATURE_PCID,
		X86_FEATURE_INVPCID, X86_FEATURE_LKGS, X86_FEATURE_FSGSBASE,
		X86_FEATURE_MTRR, X86_FEATURE_ACC, X86_FEATURE_DCA,
		X86_FEATURE_APERFMPERF, X86_FEATURE_MWAIT, X86_FEATURE_X2APIC,
		X86_FEATURE_SME, X86_FEATURE_TSC_DEADLINE_TIMER,
		X86_FEATURE_SYSCALL32, X86_FEATURE_SYSENTER32, X86_FEATURE_APIC,
	};
	unsigned int i;

	setup_force_cpu_cap(X86_FEATURE_XENPV);
	setup_force_cpu_cap(X86_FEATURE_TSC_KNOWN_FREQ);
	for (i = 0; i < ARRAY_SIZE(off); i++)
		setup_clear_cpu_cap(off[i]);
}

/* What the generic boot reads from boot_params, from the start info. */
static void __init xen_pv_boot_params(const struct start_info *si)
{
	struct setup_header *hdr = &boot_params.hdr;

	hdr->version = 0x20f;	/* anything but 0: nothing to copy in */
	hdr->type_of_loader = 0x90;	/* Xen */
	hdr->hardware_subarch = X86_SUBARCH_XEN;
	if (si->mod_start) {
		u64 start = si->flags & SIF_MOD_START_PFN ?
			    PFN_PHYS(si->mod_start) :
			    si->mod_start - __START_KERNEL_map;

		hdr->ramdisk_image = lower_32_bits(start);
		boot_params.ext_ramdisk_image = upper_32_bits(start);
		hdr->ramdisk_size = si->mod_len;
	}
	strscpy(boot_command_line, (const char *)si->cmd_line,
		min_t(size_t, COMMAND_LINE_SIZE, MAX_GUEST_CMDLINE));
}

/*
 * From setup_arch on, printk reaches the console at once (a domU's ring,
 * dom0's console_io): the boot console hands over to hvc0 when that
 * comes up.  With earlyprintk= the generic code registers one later.
 */
static void __init xen_pv_arch_setup(void)
{
	if (!strstr(boot_command_line, "earlyprintk="))
		register_console(&xenboot_console);
}

/*
 * A PV domU drives no PCI device, so it has no MSI domain.  Dom0's
 * (arch/x86/pci/xen.c) maps each vector through Xen, which owns the
 * local APICs they target.
 */
static struct irq_domain *__init xen_pv_no_msi_domain(void)
{
	return NULL;
}

/* A domU has no PCI bus to probe (port I/O to the config space faults). */
static int __init xen_pv_no_pci(void)
{
	return 0;
}

/*
 * x86_init.mpparse.parse_smp_cfg, once ACPI's tables are read: the CPUs
 * are the vCPUs; dom0 also learns the IO-APICs, Xen's (ioapic_dom0.c).
 */
static void __init xen_pv_parse_smp_cfg(void)
{
	xen_pv_register_vcpus();
	if (xen_initial_domain())
		xen_dom0_ioapic_init();
}

static void __init xen_pv_init_hooks(void)
{
	pv_info.name = "Xen PV";
	pv_info.extra_user_64bit_cs = FLAT_USER_CS64;

	x86_init.resources.memory_setup = xen_pv_memory_setup;
	x86_init.oem.arch_setup = xen_pv_arch_setup;
	x86_init.mpparse.find_mptable = x86_init_noop;
	x86_init.mpparse.early_parse_smp_cfg = x86_init_noop;
	x86_init.mpparse.parse_smp_cfg = xen_pv_parse_smp_cfg;
	x86_init.paging.pagetable_init = xen_pv_pagetable_init;
	x86_platform.get_nmi_reason = xen_pv_get_nmi_reason;
	x86_platform.realmode_reserve = x86_init_noop;
	x86_platform.realmode_init = x86_init_noop;
	/* None of a PC's legacy devices exist in a PV domain. */
	x86_platform.legacy.rtc = 0;
	x86_platform.legacy.warm_reset = 0;
	x86_platform.legacy.reserve_bios_regions = 0;
	x86_platform.legacy.i8042 = X86_LEGACY_I8042_PLATFORM_ABSENT;
	x86_platform.calibrate_tsc = xen_pv_tsc_khz;
	x86_platform.calibrate_cpu = xen_pv_tsc_khz;
	x86_init.irqs.intr_mode_select = x86_init_noop;
	x86_init.irqs.intr_mode_init = xen_pv_intr_mode_init;
	x86_init.irqs.intr_init = xen_pv_intr_init;
	x86_init.irqs.create_pci_msi_domain =
		IS_ENABLED(CONFIG_PCI_MSI) && xen_initial_domain() ?
		xen_pv_msi_domain : xen_pv_no_msi_domain;
	if (!xen_initial_domain()) {
		/* No firmware tables either: nothing to look for. */
		disable_acpi();
		pci_probe = PCI_PROBE_NOEARLY;
		x86_init.pci.arch_init = xen_pv_no_pci;
	}
}

/**
 * xen_start_kernel() - the first C code of a PV guest
 * @si: what Xen's domain builder tells the guest
 *
 * Called by startup_xen on the init task's stack, with the GS base of
 * CPU 0 set.  Does not return.
 */
asmlinkage __visible void __init __noreturn xen_start_kernel(struct start_info *si)
{
	unsigned long boot_end, first;

	xen_start_flags = si->flags;
	xen_domain_type = XEN_PV_DOMAIN;
	xen_p2m_init_flat((unsigned long *)si->mfn_list, si->nr_pages);
	xen_pv_boot_console_init(si, __START_KERNEL_map);
	/* early_printk() (a failed early exception says why) goes to the ring too. */
	early_console = &xenboot_console;
	xen_raw_printk("xen: PV entry: %.32s, %lu pages, flags %#x\n",
		       si->magic, si->nr_pages, si->flags);

	xen_pv_map_shared_info(si);
	xen_pv_set_iopl();
	if (HYPERVISOR_vm_assist(VMASST_CMD_enable,
				 VMASST_TYPE_writable_pagetables))
		xen_pv_fatal("xen: no writable page tables assist\n");

	xen_pv_init_irq_ops();
	xen_pv_init_cpu_ops();
	xen_pv_init_mmu_ops();
	xen_pv_set_cpu_caps();
	xen_pv_init_hooks();
	xen_pv_smp_init();

	xen_pv_patch_iret();
	idt_setup_early_handler();
	xen_pv_register_callbacks();

	boot_end = xen_pv_boot_pagetable(si);
	max_pfn_mapped = boot_end;
	si = xen_pv_boot_direct((unsigned long)si);
	xen_start_info = si;
	xen_p2m_init_flat(xen_pv_boot_direct(si->mfn_list), si->nr_pages);
	xen_pv_boot_console_init(si, PAGE_OFFSET);
	first = PFN_DOWN(si->mfn_list - __START_KERNEL_map);
	xen_pv_set_boot_area(first, boot_end);
	xen_pv_boot_params(si);
	cr4_init_shadow();

	xen_raw_printk("xen: PV traps, page tables and ops in place; boot area up to pfn %#lx\n",
		       boot_end);
	x86_64_start_reservations((char *)__pa_symbol(&boot_params));
}
