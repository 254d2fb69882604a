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
 * frequency from CPUID, and the APIC timer's from the rate Xen emulates
 * it at, so that the kernel needs no PIT to calibrate either.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/pm.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/hypervisor.h>
#include <asm/processor.h>
#include <asm/reboot.h>
#include <asm/x86_init.h>
#include <asm/xen/cpuid.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/interface/sched.h>
#include <xen/interface/version.h>
#include <xen/xen.h>

/*
 * The event upcall vector (HYPERVISOR_CALLBACK_VECTOR).  The x86 entry
 * code declares it for every HVM-container Xen guest; nothing installs it
 * yet, as event channel dispatch comes with the event channel core.
 */
DEFINE_IDTENTRY_SYSVEC(sysvec_xen_hvm_callback)
{
	apic_eoi();
	inc_irq_stat(irq_hv_callback_count);
}

/* Xen's emulated local APIC counts its bus clock at 100 MHz. */
#define XEN_VLAPIC_BUS_HZ	100000000U

/* The guest TSC frequency Xen reports, in kHz (0 if it reports none). */
static unsigned long xen_hvm_tsc_khz __ro_after_init;

static unsigned long xen_hvm_get_tsc_khz(void)
{
	return xen_hvm_tsc_khz;
}

static void xen_hvm_shutdown(unsigned int reason)
{
	struct sched_shutdown arg = { .reason = reason };

	HYPERVISOR_sched_op(SCHEDOP_shutdown, &arg);
}

static void xen_hvm_power_off(void)
{
	xen_hvm_shutdown(SHUTDOWN_poweroff);
}

static void xen_hvm_restart(char *cmd)
{
	xen_hvm_shutdown(SHUTDOWN_reboot);
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

	/* None of a PC's legacy devices exist in a PVH container. */
	x86_platform.legacy.rtc = 0;
	x86_platform.legacy.warm_reset = 0;
	x86_platform.legacy.reserve_bios_regions = 0;
	x86_platform.legacy.i8042 = X86_LEGACY_I8042_PLATFORM_ABSENT;

	pm_power_off = xen_hvm_power_off;
	machine_ops.restart = xen_hvm_restart;
	machine_ops.halt = xen_hvm_power_off;
}

static u32 __init xen_hvm_detect(void)
{
	if (!xen_pvh_domain())
		return 0;
	return xen_cpuid_base();
}

struct hypervisor_x86 x86_hyper_xen_hvm __initdata = {
	.name			= "Xen PVH",
	.detect			= xen_hvm_detect,
	.type			= X86_HYPER_XEN_HVM,
	.init.init_platform	= xen_hvm_init_platform,
	.ignore_nopv		= true,
};
