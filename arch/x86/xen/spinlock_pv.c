// SPDX-License-Identifier: GPL-2.0
/*
 * Spinlocks of a PV guest.
 *
 * A vCPU that spins on a lock whose holder Xen has descheduled burns its
 * time slice for nothing.  The paravirt queued spinlock (qspinlock's PV
 * slow path) lets a waiter that has spun long enough sleep instead, and
 * has the holder wake it when it lets go; this file gives it the two
 * hooks it needs.  A waiter sleeps in SCHEDOP_poll on a port of its own
 * (an IPI port, bound per CPU, its irq left disabled so that an event
 * only ends the poll); the holder wakes it by sending an event there.
 *
 * The unlock is ours too: before a page-table lock is released, the PTE
 * writes queued under it go to Xen (mmu_pv.c), so that whoever takes the
 * lock next sees them.  A guest of one possible CPU has nobody to wait
 * for a lock its CPU holds (an interrupt handler spinning on a lock it
 * interrupted would wait for ever, on any kernel): it keeps the native
 * lock and the unlock's single store, with the check for queued writes
 * beside it.  With nopvspin none of this is installed: locks spin, and
 * PTE writes are not queued under them.
 */
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <asm/paravirt.h>
#include <asm/qspinlock.h>
#include <xen/events.h>

#include "xen-ops.h"

/* Is our unlock installed (may PTE writes wait for an unlock)? */
bool xen_pv_spinlocks_on __ro_after_init;
/* Do waiters sleep, and unlocks wake them (more than one CPU)? */
static bool xen_pv_lock_sleeps __ro_after_init;

/* Each CPU's kick port, as an irq (0: none bound). */
static DEFINE_PER_CPU(int, xen_pv_kick_irq);
/* How deep this CPU's waits are nested (an interrupt can wait too). */
static DEFINE_PER_CPU(unsigned int, xen_pv_lock_waits);

/* The irq stays disabled: an event on it only ends the poll. */
static irqreturn_t xen_pv_kick_interrupt(int irq, void *dev_id)
{
	return IRQ_HANDLED;
}

/*
 * pv_wait: sleep while *@byte is @val, or until kicked.  Any return may
 * be early; the slow path checks again.
 *
 * A kick must not be lost: the pending bit of the port is cleared before
 * *@byte is read, so that an unlock after the read leaves it set and the
 * poll returns at once.  Only the outermost wait clears it: if a wait of
 * an interrupt handler cleared it, it could clear the kick meant for the
 * wait it interrupted, which would then sleep on.  A nested wait may
 * therefore return at once (the bit is still set): it spins a while
 * longer, which is all that costs.
 */
static void xen_pv_lock_wait(u8 *byte, u8 val)
{
	int irq = this_cpu_read(xen_pv_kick_irq);

	if (irq <= 0 || in_nmi())
		return;
	if (this_cpu_inc_return(xen_pv_lock_waits) == 1)
		xen_clear_irq_pending(irq);
	/* The clear above before the read below. */
	smp_mb();
	if (READ_ONCE(*byte) == val)
		xen_poll_irq(irq);
	this_cpu_dec(xen_pv_lock_waits);
}

/* pv_kick: wake @cpu, which waits (or is about to) in xen_pv_lock_wait(). */
static void xen_pv_lock_kick(int cpu)
{
	if (per_cpu(xen_pv_kick_irq, cpu) > 0)
		xen_send_IPI_one(cpu, XEN_SPIN_UNLOCK_VECTOR);
}

/*
 * The unlock: the PV slow path's own (which wakes a waiter that went to
 * sleep on the lock), or the native one on a single CPU, after any PTE
 * writes queued under @lock went out.  Only the unlocks of ops_pv.S
 * come here, and only for the lock PTE writes are queued under; any
 * other they release themselves.
 */
__visible void xen_pv_spin_unlock(struct qspinlock *lock)
{
	xen_pv_unlock_send();
	if (xen_pv_lock_sleeps)
		__raw_callee_save___pv_queued_spin_unlock(lock);
	else
		native_queued_spin_unlock(lock);
}

__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_spin_unlock, ".spinlock.text");

/**
 * xen_pv_spinlock_cpu_up() - bind a CPU's kick port
 * @cpu: the CPU, before it starts (or the boot CPU)
 *
 * Until it has one, the CPU's waits spin; where waiters do not sleep
 * (nopvspin, one CPU) there is nothing to bind.
 *
 * Return: 0 or a negative errno.
 */
int xen_pv_spinlock_cpu_up(unsigned int cpu)
{
	int irq;

	if (!xen_pv_lock_sleeps || per_cpu(xen_pv_kick_irq, cpu) > 0)
		return 0;
	irq = bind_ipi_to_irqhandler(XEN_SPIN_UNLOCK_VECTOR, cpu,
				     xen_pv_kick_interrupt,
				     IRQF_PERCPU | IRQF_NOBALANCING |
				     IRQF_NO_AUTOEN, "spinlock", NULL);
	if (irq < 0) {
		pr_err("xen: no spinlock kick port for CPU %u: %d\n", cpu, irq);
		return irq;
	}
	per_cpu(xen_pv_kick_irq, cpu) = irq;
	return 0;
}

/**
 * xen_pv_spinlock_cpu_down() - unbind a dead CPU's kick port
 * @cpu: the CPU
 */
void xen_pv_spinlock_cpu_down(unsigned int cpu)
{
	int irq = per_cpu(xen_pv_kick_irq, cpu);

	per_cpu(xen_pv_kick_irq, cpu) = 0;
	if (irq > 0)
		unbind_from_irqhandler(irq, NULL);
}

/**
 * xen_pv_spinlock_init() - install the PV spinlock operations
 *
 * From smp_prepare_boot_cpu(): before the paravirt calls are patched,
 * and while the boot CPU is the only one.  Ports come later, as CPUs
 * are prepared.
 */
void __init xen_pv_spinlock_init(void)
{
	if (nopvspin) {
		pr_info("xen: spinlocks spin (nopvspin)\n");
		return;
	}
	/* The queued lock, not the test-and-set one guests get by default. */
	static_branch_disable(&virt_spin_lock_key);
	xen_pv_spinlocks_on = true;
	if (num_possible_cpus() == 1) {
		pv_ops.lock.queued_spin_unlock =
			__PV_IS_CALLEE_SAVE(xen_pv_spin_unlock_one_cpu);
		return;
	}
	__pv_init_lock_hash();
	pv_ops.lock.queued_spin_lock_slowpath = __pv_queued_spin_lock_slowpath;
	pv_ops.lock.queued_spin_unlock =
		__PV_IS_CALLEE_SAVE(xen_pv_spin_unlock_direct);
	pv_ops.lock.wait = xen_pv_lock_wait;
	pv_ops.lock.kick = xen_pv_lock_kick;
	xen_pv_lock_sleeps = true;
}
