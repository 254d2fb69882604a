/* SPDX-License-Identifier: MIT */
/*
 * Xen's CPUID leaves on x86.
 *
 * Xen answers a range of leaves starting at XEN_CPUID_FIRST_LEAF, or a
 * multiple of 0x100 above it when it also offers another hypervisor's
 * interface; the base leaf returns the signature "XenVMMXenVMM" in
 * EBX, ECX, EDX and the last leaf of the range in EAX.
 */
#ifndef _ASM_X86_XEN_CPUID_H
#define _ASM_X86_XEN_CPUID_H

#include <linux/bits.h>

#define XEN_CPUID_FIRST_LEAF		0x40000000
#define XEN_CPUID_LEAF(i)		(XEN_CPUID_FIRST_LEAF + (i))

/* Leaf 0: the signature, "XenV" "MMXe" "nVMM". */
#define XEN_CPUID_SIGNATURE_EBX		0x566e6558
#define XEN_CPUID_SIGNATURE_ECX		0x65584d4d
#define XEN_CPUID_SIGNATURE_EDX		0x4d4d566e

/* Leaf 2, EDX: PV feature bits; the guest may use MMU_PT_UPDATE_PRESERVE_AD. */
#define XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD	BIT(0)

/*
 * Leaf 4 (HVM and PVH guests), EAX: what the guest may rely on.  With
 * VCPU_ID_PRESENT, EBX holds the Xen vCPU id of the CPU that asks.
 */
#define XEN_HVM_CPUID_VCPU_ID_PRESENT	BIT(3)
/* HVMOP_set_evtchn_upcall_vector is available (per-vCPU upcall vectors). */
#define XEN_HVM_CPUID_UPCALL_VECTOR	BIT(6)

/* Leaf 5 is the highest defined by Xen 4.17. */
#define XEN_CPUID_MAX_NUM_LEAVES	5

#endif /* _ASM_X86_XEN_CPUID_H */
