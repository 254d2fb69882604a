/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 half of the Xen guest ABI: native word types and the
 * architecture parts of the vcpu_info and shared_info pages.
 *
 * Types and constants only.  tools/testing/xen/abi checks every definition
 * here against Xen 4.17's public headers.
 */
#ifndef _ASM_X86_XEN_INTERFACE_H
#define _ASM_X86_XEN_INTERFACE_H

#include <linux/types.h>

/* A guest frame number, as Xen takes it in hypercalls. */
typedef unsigned long xen_pfn_t;
/* A native word in shared structures (event bitmaps, multicall slots). */
typedef unsigned long xen_ulong_t;

/*
 * A guest handle is a pointer into the guest's memory carried in a struct
 * that Xen reads.  Each is wrapped in a struct of its own so that a handle
 * to one type cannot be passed where another is expected.  A handle to a
 * foo_t is named foo (Xen's headers call it foo_t).
 */
#define DEFINE_GUEST_HANDLE(name, type) \
	typedef struct { typeof(type) *p; } __guest_handle_ ## name
#define GUEST_HANDLE(name)		__guest_handle_ ## name
#define set_xen_guest_handle(hnd, val)	((hnd).p = (val))

/* vcpu_info slots in the shared info page; later vCPUs register their own. */
#define XEN_LEGACY_MAX_VCPUS	32

/**
 * struct arch_vcpu_info - per-vCPU state Xen exports on x86
 * @cr2: faulting address of the last page fault delivered to a PV guest
 * @pad: keeps struct vcpu_info at 64 bytes
 */
struct arch_vcpu_info {
	unsigned long cr2;
	unsigned long pad;
};

/**
 * struct arch_shared_info - x86 part of the shared info page
 * @max_pfn: number of valid entries in the guest's P2M
 * @pfn_to_mfn_frame_list_list: frame of the three-level P2M frame list
 *	that the toolstack reads on save and migration (0: not set up yet)
 * @nmi_reason: reason bits of a pending virtual NMI
 * @p2m_cr3: when nonzero, root of the address space in which @p2m_vaddr
 *	maps the P2M as one linear list
 * @p2m_vaddr: virtual address of that linear P2M list
 * @p2m_generation: bumped before and after each change to the list's
 *	mappings; odd while a change is in progress
 */
struct arch_shared_info {
	unsigned long max_pfn;
	xen_pfn_t pfn_to_mfn_frame_list_list;
	unsigned long nmi_reason;
	unsigned long p2m_cr3;
	unsigned long p2m_vaddr;
	unsigned long p2m_generation;
};

#endif /* _ASM_X86_XEN_INTERFACE_H */
