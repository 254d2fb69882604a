// SPDX-License-Identifier: GPL-2.0
/*
 * Runstate and steal time.
 *
 * Xen keeps, for each vCPU that registers an area, how long it has been
 * running, runnable (waiting for a physical CPU), blocked and offline.
 * The time a vCPU was runnable or offline while it had work is time
 * stolen from the guest: the scheduler's steal clock reports it, and it
 * shows in /proc/stat.
 *
 * Xen rewrites an area whenever the vCPU changes state.  With the
 * runstate_update_flag assist it sets XEN_RUNSTATE_UPDATE while doing so,
 * which makes reading another vCPU's area safe: read, and read again
 * until the entry time is unchanged and the flag is clear.  Without the
 * assist only a vCPU's own area can be read that way (Xen writes it only
 * while that vCPU is not running), so the steal clock is then used for
 * the local CPU only.
 *
 * Locking: none; each area is written by Xen and read as above.
 */
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/static_call.h>
#include <asm/paravirt.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/vcpu.h>
#include <xen/xen-ops.h>

static DEFINE_PER_CPU(struct vcpu_runstate_info, xen_runstate);
static bool xen_runstate_remote;

/**
 * xen_runstate_snapshot_cpu() - a consistent copy of a vCPU's runstate
 * @res: where to copy it
 * @cpu: the Linux CPU; another than the caller's only when Xen marks its
 *	updates (see the top of this file)
 */
void xen_runstate_snapshot_cpu(struct vcpu_runstate_info *res,
			       unsigned int cpu)
{
	const struct vcpu_runstate_info *rs = per_cpu_ptr(&xen_runstate, cpu);
	u64 entry;
	int i;

	do {
		entry = READ_ONCE(rs->state_entry_time);
		smp_rmb();	/* the entry time, then the rest */
		res->state = READ_ONCE(rs->state);
		for (i = 0; i < ARRAY_SIZE(rs->time); i++)
			res->time[i] = READ_ONCE(rs->time[i]);
		smp_rmb();	/* the rest, then the entry time again */
	} while (READ_ONCE(rs->state_entry_time) != entry ||
		 (entry & XEN_RUNSTATE_UPDATE));
	res->state_entry_time = entry;
}

/**
 * xen_steal_clock() - nanoseconds stolen from a CPU
 * @cpu: the Linux CPU
 *
 * Return: the time its vCPU was runnable or offline, since Xen started
 * counting.
 */
u64 xen_steal_clock(int cpu)
{
	struct vcpu_runstate_info rs;

	xen_runstate_snapshot_cpu(&rs, cpu);
	return rs.time[RUNSTATE_runnable] + rs.time[RUNSTATE_offline];
}

/**
 * xen_setup_runstate_info() - have Xen keep a CPU's runstate area
 * @cpu: the Linux CPU, before it runs (or the boot CPU)
 *
 * Return: 0 or a negative errno.
 */
int xen_setup_runstate_info(unsigned int cpu)
{
	struct vcpu_register_runstate_memory_area area = {
		.addr.v = per_cpu_ptr(&xen_runstate, cpu),
	};
	int rc;

	rc = HYPERVISOR_vcpu_op(VCPUOP_register_runstate_memory_area,
				xen_vcpu_nr(cpu), &area);
	if (rc)
		pr_warn("xen: no runstate area for CPU %u: %d\n", cpu, rc);
	return rc;
}

/**
 * xen_time_setup_guest() - report steal time to the scheduler
 *
 * Call once the boot CPU's runstate area is registered.
 */
void __init xen_time_setup_guest(void)
{
	xen_runstate_remote = !HYPERVISOR_vm_assist(VMASST_CMD_enable,
					VMASST_TYPE_runstate_update_flag);

	static_call_update(pv_steal_clock, xen_steal_clock);
	static_key_slow_inc(&paravirt_steal_enabled);
	if (xen_runstate_remote)
		static_key_slow_inc(&paravirt_steal_rq_enabled);
	pr_info("xen: steal time from runstate areas%s\n",
		xen_runstate_remote ? "" : " (this CPU's only)");
}
