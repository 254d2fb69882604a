// SPDX-License-Identifier: GPL-2.0
/*
 * A PV guest's exceptions and events: the virtual IDT it gives Xen, the
 * callbacks Xen enters for events and system calls, and the C ends of
 * the entries the generic code has PV variants of.
 *
 * A PV kernel has no IDT of its own.  Xen keeps a trap table per vCPU
 * and enters the handler it names through a bounce frame (entry_pv.S).
 * The generic code still builds an IDT and loads it through the
 * paravirt ops; load_idt and write_idt_entry turn its gates into trap
 * table entries, each generic asm_<func> into the stub xen_asm_<func>
 * that takes the bounce frame apart first.  The IST entries (#DB, NMI,
 * #DF, #MC) get the generic code's PV variants instead, since Xen has no
 * IST and enters them on the current stack.  Gates of the vectors Xen
 * never delivers (device interrupts, APIC vectors) are left out.
 */
#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/entry-common.h>
#include <linux/hardirq.h>
#include <linux/instrumentation.h>
#include <linux/printk.h>
#include <linux/sched/signal.h>
#include <asm/desc.h>
#include <asm/idtentry.h>
#include <asm/irq_regs.h>
#include <asm/irq_stack.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/interface.h>
#include <xen/interface/callback.h>
#include <xen/events.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "xen-ops.h"

DEFINE_PER_CPU(bool, xen_in_preemptible_hcall);
EXPORT_PER_CPU_SYMBOL_GPL(xen_in_preemptible_hcall);

/*
 * The event came between two pieces of a hypercall marked preemptible
 * (xen_preemptible_hcall_begin()), in a kernel without preemption.
 * Run the scheduler as a preemptible kernel would on the way out of an
 * interrupt; the next piece of the hypercall runs when the task is
 * back, maybe on another CPU, which then gets the mark.  The mark is
 * off meanwhile, for the events of other tasks.
 */
static void xen_pv_hcall_resched(struct pt_regs *regs, irqentry_state_t state)
{
	if (user_mode(regs) || regs_irqs_disabled(regs) || state.exit_rcu)
		return;
	this_cpu_write(xen_in_preemptible_hcall, false);
	raw_irqentry_exit_cond_resched();
	this_cpu_write(xen_in_preemptible_hcall, true);
}

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
	if (unlikely(this_cpu_read(xen_in_preemptible_hcall)))
		xen_pv_hcall_resched(regs, state);
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

/*
 * The generic entries and the stubs (entry_pv.S) that Xen enters
 * instead.
 */
#define XEN_PV_TRAP(func)	{ asm_##func, xen_asm_##func }
#define XEN_PV_TRAP_AS(func, pv) { asm_##func, xen_asm_##pv }

static const struct {
	const void *generic;
	const void *xen;
} xen_pv_traps[] = {
	XEN_PV_TRAP(exc_divide_error),
	XEN_PV_TRAP_AS(exc_debug, xenpv_exc_debug),
	XEN_PV_TRAP_AS(exc_nmi, xenpv_exc_nmi),
	XEN_PV_TRAP(exc_int3),
	XEN_PV_TRAP(exc_overflow),
	XEN_PV_TRAP(exc_bounds),
	XEN_PV_TRAP(exc_invalid_op),
	XEN_PV_TRAP(exc_device_not_available),
	XEN_PV_TRAP_AS(exc_double_fault, xenpv_exc_double_fault),
	XEN_PV_TRAP(exc_coproc_segment_overrun),
	XEN_PV_TRAP(exc_invalid_tss),
	XEN_PV_TRAP(exc_segment_not_present),
	XEN_PV_TRAP(exc_stack_segment),
	XEN_PV_TRAP(exc_general_protection),
	XEN_PV_TRAP(exc_page_fault),
	XEN_PV_TRAP(exc_spurious_interrupt_bug),
	XEN_PV_TRAP(exc_coprocessor_error),
	XEN_PV_TRAP(exc_alignment_check),
#ifdef CONFIG_X86_MCE
	XEN_PV_TRAP_AS(exc_machine_check, xenpv_exc_machine_check),
#endif
	XEN_PV_TRAP(exc_simd_coprocessor_error),
#ifdef CONFIG_X86_CET
	XEN_PV_TRAP(exc_control_protection),
#endif
#ifdef CONFIG_IA32_EMULATION
	XEN_PV_TRAP(int80_emulation),
#endif
};

/* Bit 2 of trap_info.flags: Xen masks events on entry, as an interrupt gate clears IF. */
#define XEN_TI_MASK_EVENTS	BIT(2)

/*
 * The trap table entry for @gate of @vector.  Return: false for a gate
 * Xen has no use for (nothing to deliver through it).  The early
 * handlers are init text, and so are the gates that name them: once
 * init memory is gone, no IDT names them any more.
 */
static bool __ref xen_pv_trap_entry(unsigned int vector,
				    const gate_desc *gate, struct trap_info *ti)
{
	unsigned long addr = gate_offset(gate);
	const void *xen = NULL;
	unsigned int i;

	if (!gate->bits.p)
		return false;
	for (i = 0; i < ARRAY_SIZE(xen_pv_traps); i++) {
		if (addr == (unsigned long)xen_pv_traps[i].generic) {
			xen = xen_pv_traps[i].xen;
			break;
		}
	}
	if (!xen && vector < NUM_EXCEPTION_VECTORS) {
		unsigned long early = (unsigned long)early_idt_handler_array;

		if (addr - early < sizeof(early_idt_handler_array) &&
		    (addr - early) % EARLY_IDT_HANDLER_SIZE == 0)
			xen = xen_early_idt_handler_array[(addr - early) /
							  EARLY_IDT_HANDLER_SIZE];
		else
			xen = xen_asm_exc_xen_unknown_trap;
	}
	if (!xen)
		return false;

	ti->vector = vector;
	ti->flags = gate->bits.dpl;
	if (gate->bits.type == GATE_INTERRUPT)
		ti->flags |= XEN_TI_MASK_EVENTS;
	ti->cs = __KERNEL_CS;
	ti->address = (unsigned long)xen;
	return true;
}

/* The IDT each CPU last loaded, to know which writes Xen must hear of. */
static DEFINE_PER_CPU(struct desc_ptr, xen_pv_idt);

/*
 * One table for all CPUs, built under a lock: with a terminating entry
 * it is 4 KiB, too much for a stack.
 */
static DEFINE_SPINLOCK(xen_pv_trap_lock);
static struct trap_info xen_pv_trap_list[IDT_ENTRIES + 1];

/**
 * xen_pv_load_idt() - the load_idt paravirt op
 * @dtr: the IDT to load
 *
 * Gives Xen a trap table made from the IDT's gates, replacing the
 * calling vCPU's whole table.
 */
void xen_pv_load_idt(const struct desc_ptr *dtr)
{
	const gate_desc *idt = (const gate_desc *)dtr->address;
	unsigned int nr = (dtr->size + 1) / sizeof(gate_desc);
	unsigned int vector, n = 0;
	int rc;

	*this_cpu_ptr(&xen_pv_idt) = *dtr;
	spin_lock(&xen_pv_trap_lock);
	for (vector = 0; vector < min_t(unsigned int, nr, IDT_ENTRIES); vector++)
		n += xen_pv_trap_entry(vector, &idt[vector],
				       &xen_pv_trap_list[n]);
	xen_pv_trap_list[n].address = 0;
	rc = HYPERVISOR_set_trap_table(NULL);
	if (!rc)
		rc = HYPERVISOR_set_trap_table(xen_pv_trap_list);
	spin_unlock(&xen_pv_trap_lock);
	if (rc)
		xen_pv_fatal("xen: set_trap_table failed: %d\n", rc);
}

/**
 * xen_pv_write_idt_entry() - the write_idt_entry paravirt op
 * @idt: the IDT written to
 * @entry: the vector
 * @gate: the new gate
 *
 * Writes the gate; when @idt is the one this CPU loaded, Xen's entry
 * for the vector follows.  Xen cannot drop a single entry, so a gate
 * of an exception that is nothing to Xen reloads the whole table.  Above
 * the exceptions only the gates of xen_pv_traps[] (int 0x80) mean
 * anything to Xen, and those always do: the others (device and APIC
 * vectors, of which the generic code writes hundreds) are skipped.
 */
void xen_pv_write_idt_entry(gate_desc *idt, int entry, const gate_desc *gate)
{
	struct trap_info ti[2] = {};
	int rc;

	native_write_idt_entry(idt, entry, gate);
	if (this_cpu_read(xen_pv_idt.address) != (unsigned long)idt)
		return;
	if (!xen_pv_trap_entry(entry, gate, &ti[0])) {
		struct desc_ptr loaded;

		if (entry >= NUM_EXCEPTION_VECTORS)
			return;
		loaded = *this_cpu_ptr(&xen_pv_idt);
		xen_pv_load_idt(&loaded);
		return;
	}
	rc = HYPERVISOR_set_trap_table(ti);
	if (rc)
		xen_pv_fatal("xen: trap %d not set: %d\n", entry, rc);
}

/**
 * xen_pv_trap_table() - this CPU's trap table, as a vCPU context holds it
 * @ctxt: the 256 entries of struct vcpu_guest_context, indexed by vector
 *
 * For a vCPU about to start: it gets the IDT the calling CPU loaded.
 */
void xen_pv_trap_table(struct trap_info *ctxt)
{
	const struct desc_ptr *dtr = this_cpu_ptr(&xen_pv_idt);
	const gate_desc *idt = (const gate_desc *)dtr->address;
	unsigned int nr = (dtr->size + 1) / sizeof(gate_desc);
	unsigned int vector;

	for (vector = 0; vector < min_t(unsigned int, nr, IDT_ENTRIES); vector++)
		xen_pv_trap_entry(vector, &idt[vector], &ctxt[vector]);
}

/**
 * xen_pv_register_callbacks() - tell Xen where events and system calls go
 *
 * For the calling vCPU: events to the generic event entry, a failed
 * segment load or iret on a return to the generic failsafe entry, and
 * 64-bit system calls to the syscall entry, with events masked as the
 * syscall instruction clears IF natively.  32-bit system calls are left
 * unregistered: Xen raises #UD for them, as a kernel without IA32
 * emulation expects.
 */
void xen_pv_register_callbacks(void)
{
	static const struct {
		u16 type;
		u16 flags;
		const void *entry;
	} cb[] = {
		{ CALLBACKTYPE_event, 0, xen_asm_exc_xen_hypervisor_callback },
		{ CALLBACKTYPE_failsafe, CALLBACKF_mask_events,
		  xen_failsafe_callback },
		{ CALLBACKTYPE_syscall, CALLBACKF_mask_events,
		  xen_pv_entry_syscall },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cb); i++) {
		struct callback_register reg = {
			.type = cb[i].type,
			.flags = cb[i].flags,
			.address = (unsigned long)cb[i].entry,
		};
		int rc = HYPERVISOR_callback_op(CALLBACKOP_register, &reg);

		if (rc)
			xen_pv_fatal("xen: callback %u not registered: %d\n",
				     cb[i].type, rc);
	}
}

/**
 * xen_pv_patch_iret() - make the generic returns go through Xen
 *
 * The generic return path jumps over its native iret at
 * early_xen_iret_patch; the jump is pointed at xen_pv_iret.  The kernel
 * text is still writable (Xen maps the boot area read-write).
 */
void __init xen_pv_patch_iret(void)
{
	u8 *jmp = (u8 *)early_xen_iret_patch;
	s32 rel = (long)xen_pv_iret - (long)(jmp + 5);

	BUILD_BUG_ON(sizeof(rel) != 4);
	if (jmp[0] != 0xe9)
		xen_pv_fatal("xen: early_xen_iret_patch is not a jump\n");
	memcpy(jmp + 1, &rel, sizeof(rel));
}
