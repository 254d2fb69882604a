/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paravirt ops of a PV guest, in assembly.
 *
 * These stand where native code has a single instruction (cli, sti,
 * pushf, mov %cr2, the unlock's store), so they are of the callee-save
 * kind: every register but rax stays as it was.  A C function would
 * need a thunk that saves and restores the nine other caller-saved
 * registers around it, and a second call; here each is a few
 * instructions on the CPU's own data.
 *
 * The interrupt flag and cr2 live in the CPU's vcpu_info, at the
 * per-CPU xen_vcpu_info once Xen has it registered there
 * (xen_vcpu_setup()); irq_pv.c installs these only then, and a CPU
 * Xen would not register is not brought up.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/percpu.h>
#include <asm/processor-flags.h>
#include <asm/unwind_hints.h>

.pushsection .noinstr.text, "ax"

/* pushf: IF set when events are not masked. */
SYM_FUNC_START(xen_pv_save_fl_direct)
	movzbl	PER_CPU_VAR(xen_vcpu_info + XEN_vcpu_info_mask), %eax
	/* A mask of 0 becomes all ones, a mask of 1 zero. */
	subl	$1, %eax
	andl	$X86_EFLAGS_IF, %eax
	RET
SYM_FUNC_END(xen_pv_save_fl_direct)

/* cli. */
SYM_FUNC_START(xen_pv_irq_disable_direct)
	movb	$1, PER_CPU_VAR(xen_vcpu_info + XEN_vcpu_info_mask)
	RET
SYM_FUNC_END(xen_pv_irq_disable_direct)

/*
 * sti.  An event that came while masked waits for a trip into Xen
 * (xen_pv_deliver_pending(), behind its thunk).  Should the task move
 * to another CPU between the two accesses, the old CPU's events are
 * delivered there on Xen's next return to it, and the new CPU's flag
 * is read for nothing: no event is lost either way.
 */
SYM_FUNC_START(xen_pv_irq_enable_direct)
	movb	$0, PER_CPU_VAR(xen_vcpu_info + XEN_vcpu_info_mask)
	cmpb	$0, PER_CPU_VAR(xen_vcpu_info + XEN_vcpu_info_pending)
	jne	1f
	RET
1:	jmp	__raw_callee_save_xen_pv_deliver_pending
SYM_FUNC_END(xen_pv_irq_enable_direct)

/*
 * A hypercall of a PV kernel once alternatives are applied (hypercall.h):
 * the caller has the number in eax and the arguments in place; syscall
 * takes it to Xen and clobbers rcx and r11, which the caller gave up.
 * Here, beside the interrupt flag's ops, it shares their page, which the
 * kernel's hot paths touch anyway: the hypercall page would be one page
 * more to look up on each entry into the kernel.
 */
SYM_FUNC_START(xen_pv_hypercall)
	UNWIND_HINT_SAVE
	syscall
	UNWIND_HINT_RESTORE
	RET
SYM_FUNC_END(xen_pv_hypercall)
EXPORT_SYMBOL_GPL(xen_pv_hypercall)

/* mov %cr2: Xen writes the faulting address there before it enters #PF. */
SYM_FUNC_START(xen_pv_read_cr2_direct)
	movq	PER_CPU_VAR(xen_vcpu_info + XEN_vcpu_info_arch_cr2), %rax
	RET
SYM_FUNC_END(xen_pv_read_cr2_direct)

.popsection

#ifdef CONFIG_PARAVIRT_SPINLOCKS
/*
 * The unlock (spinlock_pv.c): the PV queued spinlock's own, unless PTE
 * writes wait in this CPU's batch for this very lock (mmu_pv.c); then
 * xen_pv_spin_unlock() sends them first.  @lock is in rdi.
 */
.pushsection .spinlock.text, "ax"
SYM_FUNC_START(xen_pv_spin_unlock_direct)
	cmpq	%rdi, PER_CPU_VAR(xen_pv_unlock_sends)
	je	1f
	jmp	__raw_callee_save___pv_queued_spin_unlock
1:	jmp	__raw_callee_save_xen_pv_spin_unlock
SYM_FUNC_END(xen_pv_spin_unlock_direct)

/*
 * The same on a guest of one CPU, where nobody sleeps on a lock: the
 * native unlock, the store of a zero locked byte (a release on x86).
 */
SYM_FUNC_START(xen_pv_spin_unlock_one_cpu)
	cmpq	%rdi, PER_CPU_VAR(xen_pv_unlock_sends)
	je	1f
	movb	$0, (%rdi)
	RET
1:	jmp	__raw_callee_save_xen_pv_spin_unlock
SYM_FUNC_END(xen_pv_spin_unlock_one_cpu)
.popsection
#endif
