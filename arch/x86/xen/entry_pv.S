/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Returns of a PV guest through Xen.
 *
 * A PV kernel cannot iret to user mode itself: Xen holds the user page
 * tables and the event mask.  HYPERVISOR_iret takes a frame of five
 * words (rip, cs, rflags, rsp, ss) under a flags word at the stack
 * pointer, with rax, rcx and r11 still live (the stub in the hypercall
 * page pushes them itself), and does not return.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/unwind_hints.h>
#include <xen/interface/xen.h>

#include "../entry/calling.h"

	.text

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
	jmp	hypercall_page + __HYPERVISOR_iret * 32
SYM_CODE_END(xenpv_restore_regs_and_return_to_usermode)
