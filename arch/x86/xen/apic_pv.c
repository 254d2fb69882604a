// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC of a PV guest, which it does not have.
 *
 * Interrupts, IPIs and the timer of a PV guest are events, but the
 * generic x86 code still reads a CPU's APIC id (the topology is keyed by
 * it) through the APIC driver.  This driver answers with the vCPU
 * number, the id under which smp_pv.c registered each vCPU, and does
 * nothing for everything else: there is no register to write and no
 * interrupt to acknowledge, and IPIs go through smp_ops, not here.
 */
#include <linux/init.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <xen/xen-ops.h>

#include "xen-ops.h"

static u32 xen_pv_apic_read(u32 reg)
{
	/* The APIC id, in the register's bits 31:24. */
	if (reg == APIC_ID)
		return xen_vcpu_nr(smp_processor_id()) << 24;
	return 0;
}

static void xen_pv_apic_write(u32 reg, u32 val)
{
}

static void xen_pv_apic_eoi(void)
{
}

static u64 xen_pv_apic_icr_read(void)
{
	return 0;
}

static void xen_pv_apic_icr_write(u32 low, u32 high)
{
}

static void xen_pv_apic_send_ipi(int cpu, int vector)
{
}

static void xen_pv_apic_send_ipi_mask(const struct cpumask *mask, int vector)
{
}

static void xen_pv_apic_send_ipi_vector(int vector)
{
}

static u32 xen_pv_apic_get_id(u32 reg)
{
	return reg >> 24;
}

static u32 xen_pv_apic_dest(unsigned int cpu)
{
	return per_cpu(x86_cpu_to_apicid, cpu);
}

static struct apic xen_pv_apic __ro_after_init = {
	.name			= "Xen PV",
	.max_apic_id		= 0xfffe,
	.get_apic_id		= xen_pv_apic_get_id,
	.calc_dest_apicid	= xen_pv_apic_dest,
	.cpu_present_to_apicid	= default_cpu_present_to_apicid,
	.read			= xen_pv_apic_read,
	.write			= xen_pv_apic_write,
	.eoi			= xen_pv_apic_eoi,
	.icr_read		= xen_pv_apic_icr_read,
	.icr_write		= xen_pv_apic_icr_write,
	.send_IPI		= xen_pv_apic_send_ipi,
	.send_IPI_mask		= xen_pv_apic_send_ipi_mask,
	.send_IPI_mask_allbutself = xen_pv_apic_send_ipi_mask,
	.send_IPI_allbutself	= xen_pv_apic_send_ipi_vector,
	.send_IPI_all		= xen_pv_apic_send_ipi_vector,
	.send_IPI_self		= xen_pv_apic_send_ipi_vector,
};

/**
 * xen_pv_apic_init() - make the APIC driver the PV one
 *
 * Called from the platform setup, before anything reads an APIC id.
 */
void __init xen_pv_apic_init(void)
{
	apic_install_driver(&xen_pv_apic);
}
