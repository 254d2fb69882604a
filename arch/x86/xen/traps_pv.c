// SPDX-License-Identifier: GPL-2.0
/*
 * The C ends of a PV guest's exception and event entries.
 *
 * The generic entry code (arch/x86/entry) has PV variants of a few
 * idtentry stubs and calls the handlers below from them.
 */
#include <linux/bug.h>
#include <linux/entry-common.h>
#include <linux/hardirq.h>
#include <linux/instrumentation.h>
#include <linux/printk.h>
#include <linux/sched/signal.h>
#include <asm/idtentry.h>
#include <asm/irq_regs.h>
#include <asm/irq_stack.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/xen.h>

/* The event handlers proper, on the IRQ stack. */
static void xen_pv_upcall_on_stack(struct pt_regs *regs)
{
	struct pt_regs *prev = set_irq_regs(regs);

	xen_evtchn_do_upcall();
	set_irq_regs(prev);
}

/**
 * xen_pv_evtchn_do_upcall() - the event callback's handler
 * @regs: the interrupted context
 *
 * Called by the generic stub that Xen enters for events
 * (asm_exc_xen_hypervisor_callback), on the interrupted kernel stack
 * and with events masked.  It is an interrupt like any other: the
 * generic stub leaves the entry, the stack switch and the exit to it.
 */
__visible noinstr void xen_pv_evtchn_do_upcall(struct pt_regs *regs)
{
	irqentry_state_t state;

	state = irqentry_enter(regs);
	instrumentation_begin();
	inc_irq_stat(irq_hv_callback_count);
	run_sysvec_on_irqstack_cond(xen_pv_upcall_on_stack, regs);
	instrumentation_end();
	irqentry_exit(regs, state);
}

/*
 * Natively NMI, #DB, #DF and #MC run on IST stacks of their own, and the
 * generic handlers of the kernel-mode case expect that.  Under Xen they
 * arrive on the stack in use, like any other trap.
 */
DEFINE_IDTENTRY_RAW(xenpv_exc_nmi)
{
	exc_nmi(regs);
}

DEFINE_IDTENTRY_RAW(xenpv_exc_debug)
{
	if (!user_mode(regs)) {
		exc_debug(regs);
		return;
	}
	noist_exc_debug(regs);
}

DEFINE_IDTENTRY_RAW_ERRORCODE(xenpv_exc_double_fault)
{
	exc_double_fault(regs, error_code);
}

#ifdef CONFIG_X86_MCE
DEFINE_IDTENTRY_RAW(xenpv_exc_machine_check)
{
	if (!user_mode(regs)) {
		exc_machine_check(regs);
		return;
	}
	noist_exc_machine_check(regs);
}
#endif

/*
 * A vector we gave Xen no handler of its own for.  Returning would only
 * run the instruction again: user space gets SIGILL, the kernel dies as
 * it would on an unknown trap natively.
 */
DEFINE_IDTENTRY_RAW(exc_xen_unknown_trap)
{
	irqentry_state_t state = irqentry_enter(regs);

	instrumentation_begin();
	if (user_mode(regs)) {
		force_sig(SIGILL);
	} else {
		pr_emerg("xen: unexpected trap at %pS\n", (void *)regs->ip);
		die("xen: unexpected trap", regs, 0);
	}
	instrumentation_end();
	irqentry_exit(regs, state);
}
