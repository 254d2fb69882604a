// SPDX-License-Identifier: GPL-2.0
/*
 * Paravirtual queued spinlocks for an HVM-container guest.
 *
 * A vCPU that waits long for a lock should not spin: the vCPU holding it
 * (or the waiter queued ahead) may not be running at all, because Xen
 * gave its physical CPU to another vCPU, perhaps the spinning one
 * itself.  The generic paravirtual qspinlock code decides when to stop
 * spinning; this file supplies its two primitives over event channels:
 *
 * - wait: block the vCPU in SCHEDOP_poll on a port of its own (an IPI
 *   port of kind XEN_SPIN_UNLOCK_VECTOR) until that port is pending;
 * - kick: make the waiter's port pending with EVTCHNOP_send.
 *
 * The port's irq is never enabled: the port stays masked, so a kick
 * never raises an interrupt, yet still wakes a vCPU polling on it.  A
 * kick that finds nobody polling leaves the port pending; the next wait
 * then consumes it and returns at once, which the generic code takes
 * as a wakeup that may be spurious, as it takes every wakeup.
 *
 * Waits nest: a wait can be interrupted by an interrupt handler that
 * waits for another lock on the same CPU.  Only the outermost wait
 * consumes a pending kick; an inner one leaves it pending for the outer
 * one, whose poll then returns at once.
 *
 * It also tells the scheduler and the lock code which vCPUs Xen has
 * preempted (vcpu_is_preempted()), from the runstate areas, so that
 * nobody spins waiting for a vCPU that is not running.
 *
 * The kernel parameter nopvspin keeps the native queued spinlocks (and
 * a guest of one vCPU needs none of this).
 */
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <asm/paravirt.h>
#include <asm/qspinlock.h>
#include <xen/events.h>
#include <xen/xen-ops.h>

#include "xen-ops.h"

static DEFINE_PER_CPU(int, xen_lock_irq);	/* 0: not bound */
static DEFINE_PER_CPU(unsigned int, xen_lock_depth);
static bool xen_pvspin;

/* pv_ops.lock.kick: wake @cpu if it polls its port. */
static void xen_lock_kick(int cpu)
{
	if (per_cpu(xen_lock_irq, cpu) > 0)
		xen_send_IPI_one(cpu, XEN_SPIN_UNLOCK_VECTOR);
}

/* pv_ops.lock.wait: block while *@ptr is @val, until a kick. */
static void xen_lock_wait(u8 *ptr, u8 val)
{
	int irq = __this_cpu_read(xen_lock_irq);

	/* Before the port exists, and in NMIs, the caller spins. */
	if (irq <= 0 || in_nmi())
		return;

	if (this_cpu_inc_return(xen_lock_depth) == 1 &&
	    xen_test_irq_pending(irq)) {
		/* An earlier kick: consume it; the caller looks again. */
		xen_clear_irq_pending(irq);
	} else if (READ_ONCE(*ptr) == val) {
		/* Returns at once if a kick is already pending. */
		xen_poll_irq(irq);
	}
	this_cpu_dec(xen_lock_depth);
}

/* Called from the thunk below, which saves the caller's registers. */
__visible bool xen_lock_vcpu_preempted(long cpu);

__visible bool xen_lock_vcpu_preempted(long cpu)
{
	return xen_vcpu_stolen(cpu);
}

PV_CALLEE_SAVE_REGS_THUNK(xen_lock_vcpu_preempted);

static irqreturn_t xen_lock_kick_irq(int irq, void *dev_id)
{
	/* The irq is never enabled: nothing should get here. */
	WARN_ONCE(1, "xen: spinlock kick port %d raised an interrupt\n", irq);
	return IRQ_HANDLED;
}

/**
 * xen_lock_cpu_prepare() - give a CPU the port its lock waits poll
 * @cpu: the CPU, not yet running (or the boot CPU)
 *
 * Without the port (or without paravirtual spinlocks) the CPU's lock
 * waits spin natively, so a failure only costs speed.
 */
void xen_lock_cpu_prepare(unsigned int cpu)
{
	int irq;

	if (!xen_pvspin || per_cpu(xen_lock_irq, cpu) > 0)
		return;
	irq = bind_ipi_to_irqhandler(XEN_SPIN_UNLOCK_VECTOR, cpu,
				     xen_lock_kick_irq, IRQF_NO_AUTOEN,
				     "spinlock", NULL);
	if (irq < 0) {
		pr_warn("xen: CPU %u waits for locks spinning: %d\n", cpu, irq);
		return;
	}
	per_cpu(xen_lock_irq, cpu) = irq;
}

/**
 * xen_lock_cpu_dead() - unbind a dead CPU's lock port
 * @cpu: the CPU
 */
void xen_lock_cpu_dead(unsigned int cpu)
{
	int irq = per_cpu(xen_lock_irq, cpu);

	if (irq <= 0)
		return;
	per_cpu(xen_lock_irq, cpu) = 0;
	unbind_from_irqhandler(irq, NULL);
}

/**
 * xen_init_spinlocks() - choose the spinlock slow path
 *
 * Called on the boot CPU alone, before other CPUs start and before the
 * paravirt call sites are patched.
 */
void __init xen_init_spinlocks(void)
{
	/*
	 * Either way, not the test-and-set lock a guest gets by default:
	 * paravirtual queued locks, or native ones when asked for.
	 */
	static_branch_disable(&virt_spin_lock_key);
	if (num_possible_cpus() == 1)
		return;
	pv_ops.lock.vcpu_is_preempted =
		PV_CALLEE_SAVE(xen_lock_vcpu_preempted);
	if (nopvspin) {
		pr_info("xen: native spinlocks (nopvspin)\n");
		return;
	}
	xen_pvspin = true;
	__pv_init_lock_hash();
	pv_ops.lock.queued_spin_lock_slowpath = __pv_queued_spin_lock_slowpath;
	pv_ops.lock.queued_spin_unlock =
		PV_CALLEE_SAVE(__pv_queued_spin_unlock);
	pv_ops.lock.wait = xen_lock_wait;
	pv_ops.lock.kick = xen_lock_kick;
	pr_info("xen: paravirtual spinlocks\n");
}
