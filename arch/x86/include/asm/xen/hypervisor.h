/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 Xen guest: detection and the few hooks that core x86 code calls.
 */
#ifndef _ASM_X86_XEN_HYPERVISOR_H
#define _ASM_X86_XEN_HYPERVISOR_H

#include <linux/bits.h>
#include <linux/linkage.h>
#include <linux/types.h>
#include <asm/cpufeatures.h>
#include <asm/cpuid.h>

struct pci_dev;
struct shared_info;

/* The shared info page, once mapped (NULL before). */
extern struct shared_info *HYPERVISOR_shared_info;

struct start_info;

/* What Xen's domain builder told a PV guest at boot (only if xen_pv_domain()). */
extern struct start_info *xen_start_info;

#ifdef CONFIG_XEN_PV
struct pt_regs;

/* Called by the generic entry code (entry_64.S) and by startup_xen. */
__visible void xen_pv_evtchn_do_upcall(struct pt_regs *regs);
asmlinkage __visible void __noreturn xen_start_kernel(struct start_info *si);
#endif

/*
 * Xen's CPUID leaves carry the signature "XenVMMXenVMM".  They start at
 * 0x40000000, or higher when Xen offers another hypervisor's interface
 * first, so they are searched for; leaf base+2 (hypercall page) must exist.
 * The hypervisor bit is read from CPUID itself, not from boot_cpu_data:
 * the PVH entry code asks before the kernel has filled that in.
 */
static inline u32 xen_cpuid_base(void)
{
	if (!(cpuid_ecx(1) & BIT(X86_FEATURE_HYPERVISOR & 31)))
		return 0;
	return hypervisor_cpuid_base("XenVMMXenVMM", 2);
}

#if IS_ENABLED(CONFIG_PVH)
struct boot_params;

/* Called by the PVH entry code (arch/x86/platform/pvh) on Xen. */
void xen_pvh_init(struct boot_params *boot_params);
void mem_map_via_hcall(struct boot_params *boot_params);
#endif

struct irq_domain;

/* A PV dom0's MSI domain (arch/x86/pci/xen.c). */
struct irq_domain *xen_pv_msi_domain(void);

#if IS_ENABLED(CONFIG_XEN_DOM0) && IS_ENABLED(CONFIG_PCI_MSI)
bool xen_initdom_restore_msi(struct pci_dev *dev);
#else
/* true: let the caller restore MSI state natively. */
static inline bool xen_initdom_restore_msi(struct pci_dev *dev)
{
	return true;
}
#endif

/**
 * struct xen_isa_irq - what the firmware says of one ISA IRQ in dom0
 * @gsi: the GSI it arrives on
 * @level: level-triggered (else edge)
 * @active_low: active low (else high)
 */
struct xen_isa_irq {
	u32 gsi;
	bool level;
	bool active_low;
};

#if IS_ENABLED(CONFIG_XEN_DOM0) && IS_ENABLED(CONFIG_ACPI)
void xen_sanitize_proc_cap_bits(u32 *buf);
bool xen_dom0_isa_irq(unsigned int isa, struct xen_isa_irq *irq);
#else
static inline void xen_sanitize_proc_cap_bits(u32 *buf)
{
}

/* No MADT to say otherwise: the ISA bus's way. */
static inline bool xen_dom0_isa_irq(unsigned int isa, struct xen_isa_irq *irq)
{
	*irq = (struct xen_isa_irq){ .gsi = isa };
	return true;
}
#endif

#endif /* _ASM_X86_XEN_HYPERVISOR_H */
