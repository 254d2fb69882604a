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
 * that Xen reads.  On x86 it is a plain pointer, as Linux code outside
 * this subtree (KVM's Xen emulation) takes it to be; Xen's headers wrap it
 * in a struct of the same size.  A handle to a foo_t is named foo (Xen's
 * headers call it foo_t).
 */
#define DEFINE_GUEST_HANDLE(name, type) \
	typedef typeof(type) *__guest_handle_ ## name
#define GUEST_HANDLE(name)		__guest_handle_ ## name
#define set_xen_guest_handle(hnd, val)	((hnd) = (val))

/* vcpu_info slots in the shared info page; later vCPUs register their own. */
#define XEN_LEGACY_MAX_VCPUS	32
/* Linux's name for it. */
#define MAX_VIRT_CPUS		XEN_LEGACY_MAX_VCPUS

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

/*
 * struct cpu_user_regs - a vCPU's registers as Xen saves them.  In
 * struct vcpu_guest_context; a PV guest starting a vCPU sets ip, sp,
 * flags, cs, ss and the registers the entry code wants.  error_code,
 * entry_vector and saved_upcall_mask are Xen's.  Beside each 64-bit
 * name, the 32-bit ones Xen's header gives compilers that allow
 * anonymous unions.
 */
struct cpu_user_regs {
	u64 r15;
	u64 r14;
	u64 r13;
	u64 r12;
	union { u64 rbp, ebp; u32 _ebp; };
	union { u64 rbx, ebx; u32 _ebx; };
	u64 r11;
	u64 r10;
	u64 r9;
	u64 r8;
	union { u64 rax, eax; u32 _eax; };
	union { u64 rcx, ecx; u32 _ecx; };
	union { u64 rdx, edx; u32 _edx; };
	union { u64 rsi, esi; u32 _esi; };
	union { u64 rdi, edi; u32 _edi; };
	u32 error_code;
	u32 entry_vector;
	union { u64 rip, eip; u32 _eip; };
	u16 cs, _pad0[1];
	u8 saved_upcall_mask;
	u8 _pad1[3];
	union { u64 rflags, eflags; u32 _eflags; };
	union { u64 rsp, esp; u32 _esp; };
	u16 ss, _pad2[3];
	u16 es, _pad3[3];
	u16 ds, _pad4[3];
	u16 fs, _pad5[3];
	u16 gs, _pad6[3];
};

/* struct vcpu_guest_context flags. */
#define VGCF_i387_valid			BIT(0)
#define VGCF_in_kernel			BIT(2)
#define VGCF_failsafe_disables_events	BIT(3)
#define VGCF_syscall_disables_events	BIT(4)
#define VGCF_online			BIT(5)

/**
 * struct vcpu_guest_context - the state VCPUOP_initialise starts a PV vCPU in
 * @fpu_ctxt: FXSAVE image (with VGCF_i387_valid)
 * @flags: VGCF_*
 * @user_regs: the registers
 * @trap_ctxt: the trap table, as set_trap_table takes it
 * @ldt_base: linear address of the LDT
 * @ldt_ents: its entries
 * @gdt_frames: machine frames of the GDT
 * @gdt_ents: its entries
 * @kernel_ss: stack segment for entries from user mode
 * @kernel_sp: stack pointer for entries from user mode (stack_switch)
 * @ctrlreg: control registers: [3] the kernel L4 and [1] the user L4,
 *	both as xen_pfn_to_cr3() of their machine frames
 * @debugreg: debug registers
 * @event_callback_eip: the event callback
 * @failsafe_callback_eip: the failsafe callback
 * @syscall_callback_eip: the 64-bit syscall callback
 * @vm_assist: VMASST_TYPE_* bits
 * @fs_base: FS base
 * @gs_base_kernel: GS base in kernel mode
 * @gs_base_user: GS base in user mode
 */
struct vcpu_guest_context {
	struct { char x[512]; } fpu_ctxt;
	unsigned long flags;
	struct cpu_user_regs user_regs;
	struct trap_info trap_ctxt[256];
	unsigned long ldt_base, ldt_ents;
	unsigned long gdt_frames[16], gdt_ents;
	unsigned long kernel_ss, kernel_sp;
	unsigned long ctrlreg[8];
	unsigned long debugreg[8];
	unsigned long event_callback_eip;
	unsigned long failsafe_callback_eip;
	unsigned long syscall_callback_eip;
	unsigned long vm_assist;
	u64 fs_base;
	u64 gs_base_kernel;
	u64 gs_base_user;
};

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_X86_XEN_INTERFACE_H */
