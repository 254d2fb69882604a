/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hypercalls for x86-64 Xen guests.
 *
 * Every hypercall goes through the hypercall page: Xen fills it with one
 * 32-byte stub per hypercall number, holding the right instruction for the
 * guest type and CPU (syscall for PV, vmcall or vmmcall for HVM and PVH).
 * A PV kernel names the page in an ELF note; an HVM or PVH kernel writes
 * its address to the MSR Xen names in CPUID, first thing at boot.
 *
 * Arguments go in rdi, rsi, rdx, r10, r8; the result comes back in rax.
 * Xen may clobber the argument registers (debug builds do on purpose), and
 * the PV stub's syscall clobbers rcx and r11, so all of them are outputs.
 *
 * A PV kernel's calls go to xen_pv_hypercall (ops_pv.S) with the number
 * in eax once alternatives are applied: the stub's own syscall, on a page
 * the kernel's hot paths touch anyway.  The hypercall page is one page
 * more on each entry into the kernel, which costs a page walk under an
 * emulator whose TLB each address-space switch empties.  Until then, and
 * in other guests, the page is called.
 */
#ifndef _ASM_X86_XEN_HYPERCALL_H
#define _ASM_X86_XEN_HYPERCALL_H

#include <linux/stringify.h>
#include <linux/types.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/cpufeature.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#include <asm/xen/interface.h>
#include <xen/interface/platform.h>
#include <xen/interface/xen.h>

/* Bytes of each stub in the hypercall page. */
#define XEN_HYPERCALL_STUB_SIZE	32

/**
 * struct xen_hypercall_stub - one entry of the hypercall page
 * @code: the instructions Xen writes
 */
struct xen_hypercall_stub {
	u8 code[XEN_HYPERCALL_STUB_SIZE];
};

extern struct xen_hypercall_stub hypercall_page[];

#define __XEN_PAGE_HYPERCALL						\
	"call hypercall_page + %c[num] * " __stringify(XEN_HYPERCALL_STUB_SIZE)
#ifdef CONFIG_XEN_PV
#define __XEN_HYPERCALL_INSN						\
	ALTERNATIVE(__XEN_PAGE_HYPERCALL,				\
		    "movl %[num], %%eax; call xen_pv_hypercall",	\
		    X86_FEATURE_XENPV)
#else
/* Without PV support only the hypercall page can be there. */
#define __XEN_HYPERCALL_INSN	__XEN_PAGE_HYPERCALL
#endif

#define __xen_hypercall(nr, a1, a2, a3, a4, a5)				\
({									\
	unsigned long __a1 = (unsigned long)(a1);			\
	unsigned long __a2 = (unsigned long)(a2);			\
	unsigned long __a3 = (unsigned long)(a3);			\
	register unsigned long __a4 asm("r10") = (unsigned long)(a4);	\
	register unsigned long __a5 asm("r8") = (unsigned long)(a5);	\
	long __ret;							\
									\
	asm volatile(__XEN_HYPERCALL_INSN				\
		     : "=a" (__ret), "+D" (__a1), "+S" (__a2),		\
		       "+d" (__a3), "+r" (__a4), "+r" (__a5),		\
		       ASM_CALL_CONSTRAINT				\
		     : [num] "i" (nr)					\
		     : "memory", "rcx", "r11");				\
	__ret;								\
})

/**
 * xen_hypercall_any() - a hypercall whose number is known only at run time
 * @op: the hypercall number, below the hypercall page's stubs
 * @a1: first argument
 * @a2: second argument
 * @a3: third argument
 * @a4: fourth argument
 * @a5: fifth argument
 *
 * For privcmd, which passes on the toolstack's hypercalls.  A PV guest
 * enters Xen with syscall; an HVM container calls the stub of @op, by
 * an indirect call that speculation cannot steer.
 *
 * Return: Xen's answer.
 */
static inline long xen_hypercall_any(unsigned int op, unsigned long a1,
				     unsigned long a2, unsigned long a3,
				     unsigned long a4, unsigned long a5)
{
	register unsigned long __a4 asm("r10") = a4;
	register unsigned long __a5 asm("r8") = a5;
	unsigned long ret;

	if (IS_ENABLED(CONFIG_XEN_PV) && boot_cpu_has(X86_FEATURE_XENPV)) {
		ret = op;
		asm volatile("call xen_pv_hypercall"
			     : "+a" (ret), "+D" (a1), "+S" (a2), "+d" (a3),
			       "+r" (__a4), "+r" (__a5), ASM_CALL_CONSTRAINT
			     : : "memory", "rcx", "r11");
	} else {
		ret = (unsigned long)&hypercall_page[op];
		asm volatile(CALL_NOSPEC
			     : "=a" (ret), "+D" (a1), "+S" (a2), "+d" (a3),
			       "+r" (__a4), "+r" (__a5), ASM_CALL_CONSTRAINT
			     : [thunk_target] "a" (ret)
			     : "memory", "rcx", "r11");
	}
	return ret;
}

static inline int HYPERVISOR_console_io(int cmd, int count, const char *str)
{
	return __xen_hypercall(__HYPERVISOR_console_io, cmd, count, str, 0, 0);
}

static inline int HYPERVISOR_xen_version(int cmd, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_xen_version, cmd, arg, 0, 0, 0);
}

static inline int HYPERVISOR_sched_op(int cmd, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_sched_op, cmd, arg, 0, 0, 0);
}

static inline int HYPERVISOR_memory_op(unsigned int cmd, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_memory_op, cmd, arg, 0, 0, 0);
}

struct xen_dm_op_buf;

static inline int HYPERVISOR_dm_op(domid_t dom, unsigned int nr_bufs,
				   struct xen_dm_op_buf *bufs)
{
	return __xen_hypercall(__HYPERVISOR_dm_op, dom, nr_bufs, bufs, 0, 0);
}

static inline int HYPERVISOR_hvm_op(int op, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_hvm_op, op, arg, 0, 0, 0);
}

static inline int HYPERVISOR_vm_assist(unsigned int cmd, unsigned int type)
{
	return __xen_hypercall(__HYPERVISOR_vm_assist, cmd, type, 0, 0, 0);
}

static inline int HYPERVISOR_vcpu_op(int cmd, int vcpu, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_vcpu_op, cmd, vcpu, arg, 0, 0);
}

static inline int HYPERVISOR_event_channel_op(int cmd, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_event_channel_op, cmd, arg,
			       0, 0, 0);
}

static inline int HYPERVISOR_multicall(struct multicall_entry *calls,
				       unsigned int nr)
{
	return __xen_hypercall(__HYPERVISOR_multicall, calls, nr, 0, 0, 0);
}

static inline int HYPERVISOR_grant_table_op(unsigned int cmd, void *uop,
					    unsigned int count)
{
	return __xen_hypercall(__HYPERVISOR_grant_table_op, cmd, uop, count,
			       0, 0);
}

/*
 * The calls below exist for PV guests only: an HVM container has real
 * descriptor tables, control registers and page tables of its own.
 */
static inline int HYPERVISOR_set_trap_table(const struct trap_info *table)
{
	return __xen_hypercall(__HYPERVISOR_set_trap_table, table, 0, 0, 0, 0);
}

static inline int HYPERVISOR_callback_op(int cmd, const void *arg)
{
	return __xen_hypercall(__HYPERVISOR_callback_op, cmd, arg, 0, 0, 0);
}

static inline int HYPERVISOR_stack_switch(unsigned long ss, unsigned long sp)
{
	return __xen_hypercall(__HYPERVISOR_stack_switch, ss, sp, 0, 0, 0);
}

static inline int HYPERVISOR_set_segment_base(int which, unsigned long base)
{
	return __xen_hypercall(__HYPERVISOR_set_segment_base, which, base,
			       0, 0, 0);
}

static inline int HYPERVISOR_set_gdt(const unsigned long *frames,
				     unsigned int entries)
{
	return __xen_hypercall(__HYPERVISOR_set_gdt, frames, entries, 0, 0, 0);
}

static inline int HYPERVISOR_update_descriptor(u64 maddr, u64 desc)
{
	return __xen_hypercall(__HYPERVISOR_update_descriptor, maddr, desc,
			       0, 0, 0);
}

static inline int HYPERVISOR_mmu_update(const struct mmu_update *req,
					unsigned int count,
					unsigned int *done, domid_t dom)
{
	return __xen_hypercall(__HYPERVISOR_mmu_update, req, count, done,
			       dom, 0);
}

static inline int HYPERVISOR_mmuext_op(const struct mmuext_op *op,
				       unsigned int count,
				       unsigned int *done, domid_t dom)
{
	return __xen_hypercall(__HYPERVISOR_mmuext_op, op, count, done,
			       dom, 0);
}

static inline int HYPERVISOR_update_va_mapping(unsigned long va, u64 pte,
					       unsigned long flags)
{
	return __xen_hypercall(__HYPERVISOR_update_va_mapping, va, pte, flags,
			       0, 0);
}

static inline int HYPERVISOR_set_debugreg(int reg, unsigned long value)
{
	return __xen_hypercall(__HYPERVISOR_set_debugreg, reg, value, 0, 0, 0);
}

static inline unsigned long HYPERVISOR_get_debugreg(int reg)
{
	return __xen_hypercall(__HYPERVISOR_get_debugreg, reg, 0, 0, 0, 0);
}

static inline int HYPERVISOR_fpu_taskswitch(int set)
{
	return __xen_hypercall(__HYPERVISOR_fpu_taskswitch, set, 0, 0, 0, 0);
}

static inline int HYPERVISOR_physdev_op(int cmd, void *arg)
{
	return __xen_hypercall(__HYPERVISOR_physdev_op, cmd, arg, 0, 0, 0);
}

/* dom0 only.  Sets @op's interface version. */
static inline int HYPERVISOR_platform_op(struct xen_platform_op *op)
{
	op->interface_version = XENPF_INTERFACE_VERSION;
	return __xen_hypercall(__HYPERVISOR_platform_op, op, 0, 0, 0, 0);
}

#endif /* _ASM_X86_XEN_HYPERCALL_H */
