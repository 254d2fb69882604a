/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entries and returns of a PV guest through Xen.
 *
 * Xen enters a PV kernel's handlers with sysret, so the rcx and r11 of
 * the interrupted context are lost to the instruction: Xen saves them on
 * the stack first.  What the handler finds at the stack pointer is rcx,
 * r11, then what the CPU itself would have pushed (the error code if the
 * vector has one, rip, cs, rflags, rsp, ss).  Each stub below gets rcx
 * and r11 back and goes on to the generic entry, which finds the frame
 * it expects.
 *
 * A PV kernel cannot iret to user mode itself either: Xen holds the user
 * page tables and the event mask.  HYPERVISOR_iret takes a frame of five
 * words (rip, cs, rflags, rsp, ss) under a flags word at the stack
 * pointer, with rax, rcx and r11 still live (the stub in the hypercall
 * page pushes them itself), and does not return.
 */
#include <linux/init.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/ibt.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>
#include <xen/interface/xen.h>

#include "../entry/calling.h"

	.text

/*
 * HYPERVISOR_iret, made here as the hypercall page's stub makes it (rcx,
 * r11 and rax pushed under the frame, then syscall), so that no return
 * to user space touches that page too.
 */
.macro xen_pv_iret_hypercall
	pushq	%rcx
	pushq	%r11
	pushq	%rax
	movl	$__HYPERVISOR_iret, %eax
	syscall
	ud2
.endm

/*
 * From the generic return path (swapgs_restore_regs_and_return_to_usermode)
 * with a full struct pt_regs on the stack.  Once the registers are
 * popped, orig_ax's slot sits just under the hardware frame: it becomes
 * the flags word (0: return with iret, restoring rcx and r11).
 */
SYM_CODE_START(xenpv_restore_regs_and_return_to_usermode)
	UNWIND_HINT_REGS
	POP_REGS
	movq	$0, (%rsp)
	UNWIND_HINT_IRET_REGS offset=8
	xen_pv_iret_hypercall
SYM_CODE_END(xenpv_restore_regs_and_return_to_usermode)

/*
 * Every other return of the generic entry code, to the kernel or to user
 * space, passes early_xen_iret_patch with the registers restored and the
 * five-word frame at the stack pointer.  xen_pv_patch_iret() points that
 * jump here.  Xen restores the event mask from the frame's IF.
 */
SYM_CODE_START(xen_pv_iret)
	UNWIND_HINT_IRET_REGS
	ANNOTATE_NOENDBR
	pushq	$0
	xen_pv_iret_hypercall
SYM_CODE_END(xen_pv_iret)

/* Get rcx and r11 back from the bounce frame and go on to @target. */
.macro xen_pv_bounce name target
SYM_CODE_START(\name)
	UNWIND_HINT_UNDEFINED
	ENDBR
	popq	%rcx
	popq	%r11
	jmp	\target
SYM_CODE_END(\name)
.endm

/* The handler xen_pv_trap_entry() gives Xen for a generic asm_<func>. */
.macro xen_pv_trap func
	xen_pv_bounce xen_asm_\func asm_\func
.endm

	xen_pv_trap exc_divide_error
	xen_pv_trap xenpv_exc_debug
	xen_pv_trap xenpv_exc_nmi
	xen_pv_trap exc_int3
	xen_pv_trap exc_overflow
	xen_pv_trap exc_bounds
	xen_pv_trap exc_invalid_op
	xen_pv_trap exc_device_not_available
	xen_pv_trap xenpv_exc_double_fault
	xen_pv_trap exc_coproc_segment_overrun
	xen_pv_trap exc_invalid_tss
	xen_pv_trap exc_segment_not_present
	xen_pv_trap exc_stack_segment
	xen_pv_trap exc_general_protection
	xen_pv_trap exc_page_fault
	xen_pv_trap exc_spurious_interrupt_bug
	xen_pv_trap exc_coprocessor_error
	xen_pv_trap exc_alignment_check
#ifdef CONFIG_X86_MCE
	xen_pv_trap xenpv_exc_machine_check
#endif
	xen_pv_trap exc_simd_coprocessor_error
#ifdef CONFIG_X86_CET
	xen_pv_trap exc_control_protection
#endif
#ifdef CONFIG_IA32_EMULATION
	xen_pv_trap int80_emulation
#endif
	xen_pv_trap exc_xen_unknown_trap
	xen_pv_trap exc_xen_hypervisor_callback

/*
 * A system call from user space.  Xen bounces it with the frame of an
 * exception (rcx and r11 hold the user rip and rflags, as syscall left
 * them), which is what the generic entry builds by hand natively, but
 * with Xen's flat selectors: the frame gets the kernel's user ones, which
 * ptrace shows and debuggers test for a 64-bit task.
 */
SYM_CODE_START(xen_pv_entry_syscall)
	UNWIND_HINT_UNDEFINED
	ENDBR
	/* The bounce frame: rcx, r11, rip, cs, rflags, rsp, ss. */
	movq	$__USER_CS, 3*8(%rsp)
	movq	$__USER_DS, 6*8(%rsp)
	movq	0*8(%rsp), %rcx
	movq	1*8(%rsp), %r11
	addq	$2*8, %rsp
	jmp	entry_SYSCALL_64_after_hwframe
SYM_CODE_END(xen_pv_entry_syscall)

/*
 * A secondary vCPU starts here (VCPUOP_initialise), on its idle task's
 * stack, and so does one that comes back from VCPUOP_down through
 * xen_cpu_bringup_again(stack top).  Neither returns.
 */
SYM_CODE_START(xen_pv_cpu_entry)
	UNWIND_HINT_END_OF_STACK
	ANNOTATE_NOENDBR
	andq	$~15, %rsp
	call	cpu_bringup_and_idle
SYM_CODE_END(xen_pv_cpu_entry)

SYM_CODE_START(xen_cpu_bringup_again)
	UNWIND_HINT_END_OF_STACK
	ANNOTATE_NOENDBR
	movq	%rdi, %rsp
	jmp	xen_pv_cpu_entry
SYM_CODE_END(xen_cpu_bringup_again)

/*
 * Before the trap table proper: a prologue for each of the generic early
 * handlers (head_64.S), of the size <asm/segment.h> gives.
 */
	__INIT
SYM_CODE_START(xen_early_idt_handler_array)
	vector = 0
	.rept NUM_EXCEPTION_VECTORS
	UNWIND_HINT_UNDEFINED
	ENDBR
	popq	%rcx
	popq	%r11
	jmp	early_idt_handler_array + vector * EARLY_IDT_HANDLER_SIZE
	vector = vector + 1
	.fill xen_early_idt_handler_array + vector * XEN_EARLY_IDT_HANDLER_SIZE - ., 1, 0xcc
	.endr
SYM_CODE_END(xen_early_idt_handler_array)
	__FINIT
