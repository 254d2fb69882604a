// SPDX-License-Identifier: GPL-2.0
/*
 * Xen guests in an HVM container: detection through the x86 hypervisor
 * framework, and the platform setup that lets the rest of the kernel boot
 * without probing hardware that is not there.
 *
 * Only PVH guests are supported so far; a fully virtualized (HVM) guest
 * is left to boot as on bare metal.
 *
 * A PVH guest has a local APIC and nothing else of a PC: no PIT, no PIC,
 * no CMOS, no legacy I/O.  Timing therefore comes from Xen: the TSC
 * frequency from CPUID, clocks and timers from time.c, so that the
 * kernel needs no PIT to calibrate anything.
 *
 * Events arrive on HYPERVISOR_CALLBACK_VECTOR: a per-vCPU upcall vector
 * when Xen offers one (it is a local APIC interrupt and needs an EOI),
 * else the domain-wide callback vector, which Xen injects by itself.
 * The callback vector would save the EOI, a VM exit where the APIC is
 * not virtualized, but it stays pending until the handler has cleared
 * evtchn_upcall_pending, where the local APIC holds a vector in service
 * until its EOI.  Under QEMU's emulated SVM it was seen delivered a
 * second time at the handler's first instruction, interrupts off and
 * the user's GS still loaded: a double fault.
 *
 * Each CPU is prepared, before it starts, by xen_hvm_cpu_prepare() on
 * the CPU that brings it up: its vCPU id, vcpu_info, upcall vector,
 * timer and IPI ports, in that order.
 */
#include <linux/bitfield.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/irq.h>
#include <asm/irq_regs.h>
#include <asm/hypervisor.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/x86_init.h>
#include <asm/xen/cpuid.h>
#include <asm/xen/events.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/features.h>
#include <xen/hvm.h>
#include <xen/interface/hvm/params.h>
#include <xen/interface/memory.h>
#include <xen/interface/version.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "xen-ops.h"

bool xen_have_vector_callback __ro_after_init;
EXPORT_SYMBOL_GPL(xen_have_vector_callback);
bool xen_percpu_upcall __ro_after_init;
EXPORT_SYMBOL_GPL(xen_percpu_upcall);

/* The page Xen's shared info replaces, in the kernel image. */
static union {
	struct shared_info info;
	u8 page[PAGE_SIZE];
} xen_hvm_shared_page __page_aligned_bss;

/* The boot CPU's vCPU id, from CPUID leaf base+4. */
static u32 xen_hvm_boot_vcpu __initdata;

DEFINE_IDTENTRY_SYSVEC(sysvec_xen_hvm_callback)
{
	struct pt_regs *interrupted;

	inc_irq_stat(irq_hv_callback_count);
	/* A vector of the vCPU's own is a local APIC interrupt: it wants EOI. */
	if (xen_percpu_upcall)
		apic_eoi();
	interrupted = set_irq_regs(regs);
	xen_evtchn_do_upcall();
	set_irq_regs(interrupted);
}

/* Xen's emulated local APIC counts its bus clock at 100 MHz. */
#define XEN_VLAPIC_BUS_HZ	100000000U

/* The guest TSC frequency Xen reports, in kHz (0 if it reports none). */
static unsigned long xen_hvm_tsc_khz __ro_after_init;

static unsigned long xen_hvm_get_tsc_khz(void)
{
	return xen_hvm_tsc_khz;
}

static int xen_hvm_set_upcall_vector(unsigned int cpu)
{
	struct xen_hvm_evtchn_upcall_vector up = {
		.vcpu = xen_vcpu_nr(cpu),
		.vector = HYPERVISOR_CALLBACK_VECTOR,
	};

	return HYPERVISOR_hvm_op(HVMOP_set_evtchn_upcall_vector, &up);
}

static int xen_hvm_set_callback_vector(void)
{
	return hvm_set_parameter(HVM_PARAM_CALLBACK_IRQ,
				 FIELD_PREP(HVM_PARAM_CALLBACK_IRQ_TYPE_MASK,
					    HVM_PARAM_CALLBACK_TYPE_VECTOR) |
				 HYPERVISOR_CALLBACK_VECTOR);
}

static int xen_hvm_cpu_prepare(unsigned int cpu)
{
	u32 acpi_id = cpu_acpi_id(cpu);
	int rc;

	/* Xen numbers a PVH guest's vCPUs as its ACPI processor ids. */
	if (cpu)
		per_cpu(xen_vcpu_id, cpu) = acpi_id != U32_MAX ? acpi_id : cpu;
	rc = xen_vcpu_setup(cpu);
	if (rc)
		return rc;
	if (xen_percpu_upcall) {
		rc = xen_hvm_set_upcall_vector(cpu);
		if (rc) {
			pr_err("xen: no upcall vector for CPU %u: %d\n", cpu, rc);
			return rc;
		}
	}
	return xen_cpu_events_up(cpu);
}

/*
 * Interrupt setup, once per-CPU memory exists: the boot CPU's vcpu_info,
 * the event channel core, then the upcall vector.
 */
static void __init xen_hvm_intr_init(void)
{
	int rc;

	native_init_IRQ();

	per_cpu(xen_vcpu_id, 0) = xen_hvm_boot_vcpu;
	per_cpu(xen_vcpu, 0) =
		&HYPERVISOR_shared_info->vcpu_info[xen_hvm_boot_vcpu];
	if (xen_vcpu_setup(0))
		panic("xen: the boot CPU has no vcpu_info\n");

	xen_init_IRQ();

	if (!xen_hvm_set_upcall_vector(0)) {
		xen_percpu_upcall = true;
	} else {
		rc = xen_hvm_set_callback_vector();
		if (rc)
			panic("xen: no way to receive events: %d\n", rc);
	}
	xen_have_vector_callback = true;
	if (xen_setup_ipis(0))
		pr_warn("xen: the boot CPU takes native IPIs\n");
	xen_smp_ipi_init();
	pr_info("xen: events on vector %#x, %s\n", HYPERVISOR_CALLBACK_VECTOR,
		xen_percpu_upcall ? "per vCPU" : "domain-wide callback");

	rc = cpuhp_setup_state_nocalls(CPUHP_XEN_PREPARE, "x86/xen/hvm:prepare",
				       xen_hvm_cpu_prepare, xen_cpu_events_down);
	if (rc)
		pr_err("xen: CPUs brought up later get no Xen setup: %d\n", rc);
}

static void __init xen_hvm_map_shared_info(void)
{
	struct xen_add_to_physmap xatp = {
		.domid = DOMID_SELF,
		.space = XENMAPSPACE_shared_info,
		.idx = 0,
		.gpfn = PHYS_PFN(__pa_symbol(&xen_hvm_shared_page)),
	};
	int rc;

	rc = HYPERVISOR_memory_op(XENMEM_add_to_physmap, &xatp);
	if (rc)
		panic("xen: cannot map the shared info page: %d\n", rc);
	HYPERVISOR_shared_info = &xen_hvm_shared_page.info;
}

static void __init xen_hvm_init_platform(void)
{
	u32 base = xen_cpuid_base();
	u32 eax, ebx, ecx, edx;
	int version = HYPERVISOR_xen_version(XENVER_version, NULL);

	pr_info("xen: booting as a PVH guest of Xen %d.%d\n",
		version >> 16, version & 0xffff);

	/* Leaf base+3, sub-leaf 0, ECX: the guest TSC frequency in kHz. */
	cpuid_count(base + 3, 0, &eax, &ebx, &ecx, &edx);
	xen_hvm_tsc_khz = ecx;
	if (xen_hvm_tsc_khz) {
		x86_platform.calibrate_tsc = xen_hvm_get_tsc_khz;
		x86_platform.calibrate_cpu = xen_hvm_get_tsc_khz;
		setup_force_cpu_cap(X86_FEATURE_TSC_KNOWN_FREQ);
		pr_info("xen: TSC at %lu kHz\n", xen_hvm_tsc_khz);
	} else {
		pr_warn("xen: no TSC frequency from Xen; the kernel will calibrate it\n");
	}

	/* APIC bus clocks per tick, as the APIC timer calibration measures. */
	lapic_timer_period = XEN_VLAPIC_BUS_HZ / HZ;

	xen_setup_features();
	xen_hvm_map_shared_info();

	/* Leaf base+4, EBX: this vCPU's id, when EAX says it is there. */
	cpuid_count(base + 4, 0, &eax, &ebx, &ecx, &edx);
	if (eax & XEN_HVM_CPUID_VCPU_ID_PRESENT)
		xen_hvm_boot_vcpu = ebx;
	/*
	 * The boot CPU's clock is read from here on (sched_clock); the
	 * per-CPU areas, made later, start with a copy of this pointer.
	 */
	per_cpu(xen_vcpu, 0) =
		&HYPERVISOR_shared_info->vcpu_info[xen_hvm_boot_vcpu];
	/* Gates can only be added before native_init_IRQ() completes the IDT. */
	sysvec_install(HYPERVISOR_CALLBACK_VECTOR, sysvec_xen_hvm_callback);
	x86_init.irqs.intr_init = xen_hvm_intr_init;
	if (xen_feature(XENFEAT_hvm_safe_pvclock))
		xen_init_time_ops();
	else
		pr_warn("xen: Xen's clock is not safe here; using the local APIC timer\n");

	/* None of a PC's legacy devices exist in a PVH container. */
	x86_platform.legacy.rtc = 0;
	x86_platform.legacy.warm_reset = 0;
	x86_platform.legacy.reserve_bios_regions = 0;
	x86_platform.legacy.i8042 = X86_LEGACY_I8042_PLATFORM_ABSENT;

	xen_reboot_init();
}

static u32 __init xen_hvm_detect(void)
{
	if (!xen_pvh_domain())
		return 0;
	return xen_cpuid_base();
}

/*
 * Xen's virtual local APIC takes x2APIC mode whenever CPUID offers it,
 * and there it needs no interrupt remapping: it routes by vCPU itself.
 * Each access is then an MSR that traps to Xen, where the xAPIC page
 * costs Xen the decoding and emulation of the instruction: one per
 * event upcall's EOI, two per IPI.
 */
static bool __init xen_hvm_x2apic_available(void)
{
	return boot_cpu_has(X86_FEATURE_X2APIC);
}

struct hypervisor_x86 x86_hyper_xen_hvm __initdata = {
	.name			= "Xen PVH",
	.detect			= xen_hvm_detect,
	.type			= X86_HYPER_XEN_HVM,
	.init.init_platform	= xen_hvm_init_platform,
	.init.x2apic_available	= xen_hvm_x2apic_available,
	.ignore_nopv		= true,
};
