// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-processor interrupts of an HVM-container guest over event
 * channels: one IPI port per CPU and kind, bound before the CPU starts,
 * so that an IPI is one EVTCHNOP_send instead of an emulated local APIC
 * write.  A CPU whose ports are not bound (yet, or any more) is sent the
 * native IPI instead, so no IPI is ever lost.
 *
 * xen_ipi_ready says which CPUs have their ports; it is changed only by
 * CPU hotplug callbacks, which the hotplug lock serialises, and read
 * when sending.
 */
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/hardirq.h>
#include <asm/smp.h>
#include <xen/events.h>

#include "xen-ops.h"

static struct cpumask xen_ipi_ready;
static DEFINE_PER_CPU(int [XEN_NR_IPIS], xen_ipi_irq);

static irqreturn_t xen_reschedule_ipi(int irq, void *dev_id)
{
	inc_irq_stat(irq_resched_count);
	scheduler_ipi();
	return IRQ_HANDLED;
}

static irqreturn_t xen_call_function_ipi(int irq, void *dev_id)
{
	inc_irq_stat(irq_call_count);
	generic_smp_call_function_interrupt();
	return IRQ_HANDLED;
}

static irqreturn_t xen_call_function_single_ipi(int irq, void *dev_id)
{
	inc_irq_stat(irq_call_count);
	generic_smp_call_function_single_interrupt();
	return IRQ_HANDLED;
}

static const struct {
	enum ipi_vector ipi;
	irq_handler_t handler;
	const char *name;
} xen_ipis[] = {
	{ XEN_RESCHEDULE_VECTOR, xen_reschedule_ipi, "resched" },
	{ XEN_CALL_FUNCTION_VECTOR, xen_call_function_ipi, "callfunc" },
	{ XEN_CALL_FUNCTION_SINGLE_VECTOR, xen_call_function_single_ipi,
	  "callfuncsingle" },
};

/**
 * xen_teardown_ipis() - unbind a CPU's IPI ports
 * @cpu: the CPU, dead or never started
 */
void xen_teardown_ipis(unsigned int cpu)
{
	int *irq = per_cpu(xen_ipi_irq, cpu);
	unsigned int i;

	cpumask_clear_cpu(cpu, &xen_ipi_ready);
	for (i = 0; i < ARRAY_SIZE(xen_ipis); i++) {
		if (irq[xen_ipis[i].ipi] > 0)
			unbind_from_irqhandler(irq[xen_ipis[i].ipi], NULL);
		irq[xen_ipis[i].ipi] = 0;
	}
}

/**
 * xen_setup_ipis() - bind a CPU's IPI ports
 * @cpu: the CPU, not yet running (or the boot CPU, at start)
 *
 * Return: 0 or a negative errno (nothing left bound).
 */
int xen_setup_ipis(unsigned int cpu)
{
	int *irq = per_cpu(xen_ipi_irq, cpu);
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(xen_ipis); i++) {
		rc = bind_ipi_to_irqhandler(xen_ipis[i].ipi, cpu,
					    xen_ipis[i].handler, 0,
					    xen_ipis[i].name, NULL);
		if (rc < 0) {
			pr_err("xen: no %s IPI for CPU %u: %d\n",
			       xen_ipis[i].name, cpu, rc);
			xen_teardown_ipis(cpu);
			return rc;
		}
		irq[xen_ipis[i].ipi] = rc;
	}
	cpumask_set_cpu(cpu, &xen_ipi_ready);
	return 0;
}

static void xen_smp_send_reschedule(int cpu)
{
	if (cpumask_test_cpu(cpu, &xen_ipi_ready))
		xen_send_IPI_one(cpu, XEN_RESCHEDULE_VECTOR);
	else
		native_smp_send_reschedule(cpu);
}

static void xen_smp_send_call_function_ipi(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask) {
		if (cpumask_test_cpu(cpu, &xen_ipi_ready))
			xen_send_IPI_one(cpu, XEN_CALL_FUNCTION_VECTOR);
		else
			native_send_call_func_single_ipi(cpu);
	}
}

static void xen_smp_send_call_function_single_ipi(int cpu)
{
	if (cpumask_test_cpu(cpu, &xen_ipi_ready))
		xen_send_IPI_one(cpu, XEN_CALL_FUNCTION_SINGLE_VECTOR);
	else
		native_send_call_func_single_ipi(cpu);
}

/**
 * xen_smp_ipi_init() - send IPIs over event channels
 *
 * Called once event channels work; CPUs get their ports as they are
 * prepared.
 */
void __init xen_smp_ipi_init(void)
{
	smp_ops.smp_send_reschedule = xen_smp_send_reschedule;
	smp_ops.send_call_func_ipi = xen_smp_send_call_function_ipi;
	smp_ops.send_call_func_single_ipi = xen_smp_send_call_function_single_ipi;
}
