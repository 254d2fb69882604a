// SPDX-License-Identifier: GPL-2.0
/*
 * What dom0's ACPI processor code asks of Xen.
 *
 * Dom0 runs on a few vCPUs of a machine whose processors Xen owns: the
 * ACPI processor driver must still find every physical processor the
 * firmware lists (so that Xen can be told of their power states later),
 * and the capability bits it hands the firmware (_PDC, _OSC) must be the
 * ones Xen wants, since Xen, not dom0, drives the C-, P- and T-states.
 */
#include <linux/init.h>
#include <linux/types.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/interface/platform.h>
#include <xen/xen.h>

/* The revision word Xen wants at the head of a _PDC buffer. */
#define XEN_PDC_REVISION	1

/**
 * xen_processor_present() - is a physical processor present?
 * @acpi_id: its ACPI processor id
 *
 * Return: true when Xen has a present CPU with that ACPI id.
 */
bool __init xen_processor_present(u32 acpi_id)
{
	struct xen_platform_op op = { .cmd = XENPF_get_cpuinfo };
	u32 cpu = 0, last = 0;

	if (!xen_initial_domain())
		return false;
	do {
		op.u.pcpu_info.xen_cpuid = cpu;
		if (HYPERVISOR_platform_op(&op))
			return false;
		last = op.u.pcpu_info.max_present;
		if (!(op.u.pcpu_info.flags & XEN_PCPU_FLAGS_INVALID) &&
		    op.u.pcpu_info.acpi_id == acpi_id)
			return true;
	} while (cpu++ < last);
	return false;
}

/**
 * xen_sanitize_proc_cap_bits() - the processor capabilities Xen wants
 * @cap: the bits the ACPI code would hand the firmware; rewritten
 *
 * Xen keeps the C-, P- and T-state bits it handles itself and drops the
 * rest of those.  Should Xen refuse, the bits stay as they are.
 */
void xen_sanitize_proc_cap_bits(u32 *cap)
{
	u32 pdc[3] = { XEN_PDC_REVISION, 1, *cap };
	struct xen_platform_op op = {
		.cmd = XENPF_set_processor_pminfo,
		.u.set_pminfo = { .id = -1, .type = XEN_PM_PDC, .u.pdc = pdc },
	};

	if (!HYPERVISOR_platform_op(&op))
		*cap = pdc[2];
}
