// SPDX-License-Identifier: GPL-2.0
/*
 * Time for Xen guests in an HVM container: the Xen clocksource, one
 * clock event device per vCPU, and the wall clock.
 *
 * Xen keeps, per vCPU, a pvclock record (struct vcpu_time_info) that
 * turns the TSC into Xen system time: nanoseconds since the domain was
 * built.  The clocksource reads it; a vCPU's timer is a singleshot
 * VCPUOP timer at an absolute system time that fires VIRQ_TIMER on that
 * vCPU; the wall clock is shared_info's boot time plus system time.
 * sched_clock() counts system time too, from when it was switched over:
 * every vCPU reads the same clock, which the TSC need not be here (the
 * clocksource watchdog may find it unstable, and a TSC sched_clock would
 * then turn unstable while the kernel runs).
 *
 * Each CPU's timer VIRQ is bound before the CPU starts (xen_setup_timer,
 * which may sleep) and its clock event device registered on the CPU
 * itself (xen_setup_cpu_clockevents).  Nothing here takes a lock.
 */
#include <linux/clockchips.h>
#include <linux/clocksource.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/time64.h>
#include <asm/paravirt.h>
#include <asm/pvclock.h>
#include <asm/x86_init.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/vcpu.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>

#include "xen-ops.h"

/* Shortest timer Xen is asked for: below this, it fires late anyway. */
#define XEN_TIMER_MIN_NS	100000

/**
 * struct xen_clock - one vCPU's clock event device
 * @evt: the device
 * @irq: its VIRQ_TIMER irq, 0 when not bound
 * @name: the irq's name
 */
struct xen_clock {
	struct clock_event_device evt;
	int irq;
	char name[16];
};

static DEFINE_PER_CPU(struct xen_clock, xen_clock);

/* Xen system time when sched_clock() started counting from it. */
static u64 xen_sched_clock_offset __ro_after_init;

static __always_inline struct pvclock_vcpu_time_info *xen_this_pvclock(void)
{
	/* struct vcpu_time_info is the pvclock record; the layouts match. */
	BUILD_BUG_ON(sizeof(struct vcpu_time_info) !=
		     sizeof(struct pvclock_vcpu_time_info));
	BUILD_BUG_ON(offsetof(struct vcpu_time_info, flags) !=
		     offsetof(struct pvclock_vcpu_time_info, flags));
	return (struct pvclock_vcpu_time_info *)&__this_cpu_read(xen_vcpu)->time;
}

/**
 * xen_system_time() - Xen's system time, as its timeouts count it
 *
 * Return: nanoseconds since Xen started.
 */
u64 xen_system_time(void)
{
	u64 now;

	preempt_disable_notrace();
	now = pvclock_clocksource_read_nowd(xen_this_pvclock());
	preempt_enable_notrace();
	return now;
}

/* Called from NMIs and tracing: nothing here may be instrumented. */
static noinstr u64 xen_sched_clock(void)
{
	u64 now;

	preempt_disable_notrace();
	now = pvclock_clocksource_read_nowd(xen_this_pvclock());
	preempt_enable_notrace();
	return now - xen_sched_clock_offset;
}

static u64 xen_clocksource_read(struct clocksource *cs)
{
	return xen_system_time();
}

static struct clocksource xen_clocksource = {
	.name	= "xen",
	.rating	= 400,
	.read	= xen_clocksource_read,
	.mask	= CLOCKSOURCE_MASK(64),
	.flags	= CLOCK_SOURCE_IS_CONTINUOUS,
};

static void xen_read_wallclock(struct timespec64 *ts)
{
	struct shared_info *s = HYPERVISOR_shared_info;
	u32 version;
	u64 sec, nsec;

	/* wc.version is odd while Xen writes the record. */
	do {
		version = READ_ONCE(s->wc.version);
		virt_rmb();	/* the record after the version that guards it */
		sec = ((u64)READ_ONCE(s->wc_sec_hi) << 32) | READ_ONCE(s->wc.sec);
		nsec = READ_ONCE(s->wc.nsec);
		virt_rmb();	/* and the version again after the record */
	} while ((version & 1) || version != READ_ONCE(s->wc.version));

	*ts = ns_to_timespec64(xen_system_time() + nsec);
	ts->tv_sec += sec;
}

static int xen_set_wallclock(const struct timespec64 *now)
{
	/* Only dom0 may set Xen's wall clock, with a platform op. */
	return -ENODEV;
}

static int xen_timer_set_next_event(unsigned long delta,
				    struct clock_event_device *evt)
{
	struct vcpu_set_singleshot_timer single = {
		.timeout_abs_ns = xen_system_time() + delta,
	};

	/* Runs on the timer's own CPU, as Xen requires. */
	return HYPERVISOR_vcpu_op(VCPUOP_set_singleshot_timer,
				  xen_vcpu_nr(smp_processor_id()), &single);
}

static int xen_timer_shutdown(struct clock_event_device *evt)
{
	unsigned int cpu = cpumask_first(evt->cpumask);

	/* Xen refuses for another vCPU; a CPU going down stops anyway. */
	if (cpu == smp_processor_id())
		HYPERVISOR_vcpu_op(VCPUOP_stop_singleshot_timer,
				   xen_vcpu_nr(cpu), NULL);
	return 0;
}

static irqreturn_t xen_timer_interrupt(int irq, void *dev_id)
{
	struct clock_event_device *evt = &this_cpu_ptr(&xen_clock)->evt;

	if (!evt->event_handler)
		return IRQ_NONE;
	evt->event_handler(evt);
	return IRQ_HANDLED;
}

/**
 * xen_setup_timer() - bind a CPU's timer VIRQ
 * @cpu: the CPU, not yet running
 *
 * Also stops the vCPU's periodic timer, which would otherwise tick for
 * nothing.
 *
 * Return: 0 or a negative errno.
 */
int xen_setup_timer(unsigned int cpu)
{
	struct xen_clock *xc = per_cpu_ptr(&xen_clock, cpu);
	int irq, rc;

	if (xc->irq > 0)
		return 0;
	HYPERVISOR_vcpu_op(VCPUOP_stop_periodic_timer, xen_vcpu_nr(cpu), NULL);

	snprintf(xc->name, sizeof(xc->name), "timer%u", cpu);
	irq = bind_virq_to_irqhandler(VIRQ_TIMER, cpu, xen_timer_interrupt,
				      IRQF_TIMER, xc->name, NULL);
	if (irq < 0) {
		pr_err("xen: no timer for CPU %u: %d\n", cpu, irq);
		return irq;
	}
	/*
	 * The timer's events go in a queue of their own, served before
	 * the devices' ones: a backlog of those does not hold back the
	 * tick, nor can a queue of them that goes wrong stop it.
	 */
	rc = xen_set_irq_priority(irq, EVTCHN_FIFO_PRIORITY_MAX);
	if (rc && rc != -EOPNOTSUPP)
		pr_warn("xen: CPU %u's timer keeps the default priority: %d\n",
			cpu, rc);
	xc->irq = irq;
	return 0;
}

/**
 * xen_teardown_timer() - unbind a dead CPU's timer VIRQ
 * @cpu: the CPU
 */
void xen_teardown_timer(unsigned int cpu)
{
	struct xen_clock *xc = per_cpu_ptr(&xen_clock, cpu);

	if (xc->irq > 0)
		unbind_from_irqhandler(xc->irq, NULL);
	xc->irq = 0;
}

/**
 * xen_setup_cpu_clockevents() - register this CPU's clock event device
 *
 * Runs on the CPU, with interrupts off, after xen_setup_timer().
 */
void xen_setup_cpu_clockevents(void)
{
	unsigned int cpu = smp_processor_id();
	struct clock_event_device *evt = &per_cpu_ptr(&xen_clock, cpu)->evt;

	evt->name = "xen";
	evt->features = CLOCK_EVT_FEAT_ONESHOT;
	evt->rating = 500;
	evt->set_next_event = xen_timer_set_next_event;
	evt->set_state_shutdown = xen_timer_shutdown;
	evt->cpumask = cpumask_of(cpu);
	evt->irq = per_cpu(xen_clock, cpu).irq;
	/* Programmed in nanoseconds of Xen system time. */
	clockevents_config_and_register(evt, NSEC_PER_SEC, XEN_TIMER_MIN_NS,
					0xffffffff);
}

static void __init xen_time_init(void)
{
	clocksource_register_hz(&xen_clocksource, NSEC_PER_SEC);
	if (!xen_setup_runstate_info(0))
		xen_time_setup_guest();
	if (xen_setup_timer(0))
		return;
	xen_setup_cpu_clockevents();
}

/**
 * xen_init_time_ops() - take time from Xen
 *
 * Called from the platform setup, before the kernel sets up its clocks,
 * with the boot CPU's vcpu_info in place.  sched_clock() switches to
 * Xen's system time at once; the boot CPU's clock event device comes up
 * with the local APIC's (which it replaces); there is no HPET and no
 * PIT to look for.
 */
void __init xen_init_time_ops(void)
{
	xen_sched_clock_offset = xen_system_time();
	paravirt_set_sched_clock(xen_sched_clock);

	x86_init.timers.timer_init = x86_init_noop;
	x86_init.timers.setup_percpu_clockev = xen_time_init;
	x86_cpuinit.setup_percpu_clockev = xen_setup_cpu_clockevents;
	x86_platform.get_wallclock = xen_read_wallclock;
	x86_platform.set_wallclock = xen_set_wallclock;
}
