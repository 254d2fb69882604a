/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 half of the Xen guest ABI: native word types, the
 * architecture parts of the vcpu_info and shared_info pages, and what a
 * 64-bit PV guest needs of the CPU side (selectors, Xen's address range,
 * segment bases, the iret frame, the virtual IDT).  The constants are
 * usable from assembly.
 *
 * Types and constants only.  tools/testing/xen/abi checks every definition
 * here against Xen 4.17's public headers.
 */
#ifndef _ASM_X86_XEN_INTERFACE_H
#define _ASM_X86_XEN_INTERFACE_H

#include <linux/types.h>

#ifndef __ASSEMBLY__
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
#endif /* !__ASSEMBLY__ */

/*
 * A 64-bit PV kernel runs in ring 3, as its user space does, on selectors
 * Xen keeps in the reserved top page of every GDT.  Kernel and user share
 * them; Xen tells the two apart by the page tables it has loaded.
 */
#define FLAT_RING3_CS32		0xe023
#define FLAT_RING3_CS64		0xe033
#define FLAT_RING3_DS32		0xe02b
#define FLAT_RING3_DS64		0x0000
#define FLAT_RING3_SS32		0xe02b
#define FLAT_RING3_SS64		0xe02b
#define FLAT_KERNEL_CS		FLAT_RING3_CS64
#define FLAT_KERNEL_DS		FLAT_RING3_DS64
#define FLAT_KERNEL_SS		FLAT_RING3_SS64
#define FLAT_USER_CS32		FLAT_RING3_CS32
#define FLAT_USER_CS64		FLAT_RING3_CS64
#define FLAT_USER_DS		FLAT_RING3_DS64
#define FLAT_USER_SS		FLAT_RING3_SS64

/*
 * Xen's own part of every PV address space (L4 slots 256 to 271), and in
 * it the machine-to-physical table: one word per machine frame, the
 * guest frame it backs, read-only to the guest.
 */
#define HYPERVISOR_VIRT_START	0xFFFF800000000000UL
#define HYPERVISOR_VIRT_END	0xFFFF880000000000UL
#define MACH2PHYS_VIRT_START	0xFFFF800000000000UL
#define MACH2PHYS_VIRT_END	0xFFFF804000000000UL

/* HYPERVISOR_set_segment_base(which, value): the registers it sets. */
#define SEGBASE_FS		0	/* FS base */
#define SEGBASE_GS_USER		1	/* GS base of user mode */
#define SEGBASE_GS_KERNEL	2	/* GS base of kernel mode */
#define SEGBASE_GS_USER_SEL	3	/* user mode's GS selector */

/*
 * HYPERVISOR_iret takes, at the stack pointer, struct iret_context less
 * its first three words (the hypercall stub pushes those from rax, r11
 * and rcx).  With VGCF_in_syscall in @flags Xen returns with sysret and
 * leaves rcx and r11 as sysret sets them.
 */
#define VGCF_in_syscall		BIT(8)

#ifndef __ASSEMBLY__
/**
 * struct iret_context - the frame HYPERVISOR_iret returns through
 * @rax: restored rax
 * @r11: restored r11 (unless VGCF_in_syscall)
 * @rcx: restored rcx (unless VGCF_in_syscall)
 * @flags: VGCF_in_syscall or 0
 * @rip: where to return
 * @cs: code selector; RPL 3 returns to user mode
 * @rflags: flags; IF gives the event mask to return with
 * @rsp: stack pointer
 * @ss: stack selector
 */
struct iret_context {
	u64 rax;
	u64 r11;
	u64 rcx;
	u64 flags;
	u64 rip;
	u64 cs;
	u64 rflags;
	u64 rsp;
	u64 ss;
};

/**
 * struct trap_info - one entry of a PV guest's virtual IDT
 * @vector: the exception or software-interrupt vector
 * @flags: bits 0-1: the lowest privilege (0 or 3) that may raise the
 *	vector with "int"; bit 2: Xen masks events on entry
 * @cs: ignored for 64-bit guests (Xen enters with FLAT_KERNEL_CS)
 * @address: the handler; 0 ends the table given to set_trap_table
 */
struct trap_info {
	u8 vector;
	u8 flags;
	u16 cs;
	unsigned long address;
};
#endif /* !__ASSEMBLY__ */

#endif /* _ASM_X86_XEN_INTERFACE_H */
