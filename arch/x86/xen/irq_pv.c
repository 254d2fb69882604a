// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt flag of a PV guest.
 *
 * A PV kernel runs in ring 3, where cli and sti fault.  Its interrupt
 * flag is the event mask in its vcpu_info, which Xen reads before it
 * enters the event callback: 1 holds events back, as IF=0 holds
 * interrupts.  Masking is a store.  Unmasking is a store too, but Xen
 * delivers only on its way back to the guest, so an event that came
 * while masked needs a trip into Xen to be delivered: any hypercall.
 *
 * These are paravirt ops of the callee-save kind: the generic code
 * calls them where it would have a single instruction, with every
 * register but rax live.  The C ones here, behind thunks that save
 * what C clobbers, reach the vcpu_info through the xen_vcpu pointer,
 * wherever it is; they serve the boot until Xen has the boot CPU's
 * vcpu_info in per-CPU memory.  From then on the ones of ops_pv.S do
 * the same in a few instructions on that memory.
 */
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <asm/paravirt.h>
#include <asm/processor-flags.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/interface/sched.h>
#include <xen/interface/vcpu.h>
#include <xen/interface/version.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>

#include "xen-ops.h"

/* A trip into Xen, for the delivery of what is pending. */
__visible noinstr void xen_pv_deliver_pending(void)
{
	HYPERVISOR_xen_version(XENVER_version, NULL);
}

/* For xen_pv_irq_enable_direct() (ops_pv.S), which keeps every register. */
__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_deliver_pending, ".noinstr.text");

__visible noinstr unsigned long xen_pv_save_fl(void)
{
	return this_cpu_read(xen_vcpu)->evtchn_upcall_mask ? 0 : X86_EFLAGS_IF;
}

__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_save_fl, ".noinstr.text");

/*
 * The vcpu_info is per CPU: the pointer and the store must be on the
 * same CPU, hence no preemption between them.
 */
__visible noinstr void xen_pv_irq_disable(void)
{
	preempt_disable_notrace();
	this_cpu_read(xen_vcpu)->evtchn_upcall_mask = 1;
	preempt_enable_no_resched_notrace();
}

__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_irq_disable, ".noinstr.text");

__visible noinstr void xen_pv_irq_enable(void)
{
	struct vcpu_info *vi;

	preempt_disable_notrace();
	vi = this_cpu_read(xen_vcpu);
	WRITE_ONCE(vi->evtchn_upcall_mask, 0);
	/* The unmask must be seen before the pending flag is read. */
	barrier();
	if (unlikely(READ_ONCE(vi->evtchn_upcall_pending)))
		xen_pv_deliver_pending();
	preempt_enable_notrace();
}

__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_irq_enable, ".noinstr.text");

/*
 * Idle: block in Xen until an event comes.  SCHEDOP_block unmasks
 * events itself, so an event pending now wakes it at once.
 */
static void xen_pv_safe_halt(void)
{
	HYPERVISOR_sched_op(SCHEDOP_block, NULL);
}

static void xen_pv_halt(void)
{
	if (irqs_disabled())
		HYPERVISOR_vcpu_op(VCPUOP_down, xen_vcpu_nr(smp_processor_id()),
				   NULL);
	else
		xen_pv_safe_halt();
}

/**
 * xen_pv_init_irq_ops() - install the interrupt-flag paravirt ops
 *
 * Called before anything reads the flag through them, and before the
 * alternatives turn the calls into direct ones.
 */
void __init xen_pv_init_irq_ops(void)
{
	pv_ops.irq.save_fl = __PV_IS_CALLEE_SAVE(__raw_callee_save_xen_pv_save_fl);
	pv_ops.irq.irq_disable = __PV_IS_CALLEE_SAVE(__raw_callee_save_xen_pv_irq_disable);
	pv_ops.irq.irq_enable = __PV_IS_CALLEE_SAVE(__raw_callee_save_xen_pv_irq_enable);
	pv_ops.irq.safe_halt = xen_pv_safe_halt;
	pv_ops.irq.halt = xen_pv_halt;
}

/**
 * xen_pv_init_irq_ops_direct() - the interrupt flag and cr2 in assembly
 *
 * Once the boot CPU's vcpu_info is its per-CPU xen_vcpu_info, and
 * before the paravirt calls are patched: the ops of ops_pv.S reach it
 * with one %gs-relative access.  Every other CPU must then have its
 * vcpu_info placed too before it runs (xen_pv_cpu_prepare()).
 */
void __init xen_pv_init_irq_ops_direct(void)
{
	pv_ops.irq.save_fl = __PV_IS_CALLEE_SAVE(xen_pv_save_fl_direct);
	pv_ops.irq.irq_disable = __PV_IS_CALLEE_SAVE(xen_pv_irq_disable_direct);
	pv_ops.irq.irq_enable = __PV_IS_CALLEE_SAVE(xen_pv_irq_enable_direct);
	pv_ops.mmu.read_cr2 = __PV_IS_CALLEE_SAVE(xen_pv_read_cr2_direct);
}
