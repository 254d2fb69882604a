// SPDX-License-Identifier: GPL-2.0
/*
 * The vCPUs of a PV guest.
 *
 * A PV guest has no local APIC: its vCPUs are what VCPUOP_is_up knows,
 * a vCPU starts in the state VCPUOP_initialise gives it (registers, page
 * tables, descriptor tables, trap table, callbacks), and IPIs are event
 * channels (smp_ipi.c).  VCPUOP_down stops a vCPU where it is and
 * VCPUOP_up resumes it there, so a CPU that went offline comes back out
 * of the hypercall in its play_dead() and starts over on its idle stack.
 * Each vCPU also gets a port to be woken on when it waits for a
 * spinlock (spinlock_pv.c).
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/hotplug.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/fpu/api.h>
#include <asm/idtentry.h>
#include <asm/mpspec.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/tlbflush.h>
#include <asm/topology.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/interface.h>
#include <asm/xen/page.h>
#include <xen/events.h>
#include <xen/interface/vcpu.h>
#include <xen/xen-ops.h>

#include "xen-ops.h"

/* vCPUs that were started once: they come back with VCPUOP_up alone. */
static struct cpumask xen_pv_vcpu_started;

/**
 * xen_pv_register_vcpus() - make each vCPU a CPU of the topology
 *
 * Registers every vCPU Xen gave the domain as a CPU, vCPU n as APIC id
 * n (the generic topology code wants one).  vCPU 0 is the boot CPU.
 */
void __init xen_pv_register_vcpus(void)
{
	unsigned int vcpu;

	topology_register_boot_apic(0);
	for (vcpu = 0; vcpu < nr_cpu_ids; vcpu++) {
		if (HYPERVISOR_vcpu_op(VCPUOP_is_up, vcpu, NULL) < 0)
			break;
		topology_register_apic(vcpu, CPU_ACPIID_INVALID, true);
	}
	smp_found_config = 1;
}

/*
 * What Xen needs of a CPU before it starts: vcpu_info, timer, IPIs.
 * The interrupt-flag ops of ops_pv.S, which read the per-CPU vcpu_info,
 * are in use when the boot CPU's is there (xen_pv_intr_init()): then a
 * CPU whose vcpu_info Xen would not move there stays down.
 */
static int xen_pv_cpu_prepare(unsigned int cpu)
{
	int rc;

	per_cpu(xen_vcpu_id, cpu) = cpu;
	rc = xen_vcpu_setup(cpu);
	if (!rc && xen_vcpu_info_placed(0) && !xen_vcpu_info_placed(cpu)) {
		pr_err("xen: CPU %u stays down: its vcpu_info is not per CPU\n",
		       cpu);
		rc = -ENODEV;
	}
	rc = rc ?: xen_cpu_events_up(cpu);
	if (!rc)
		xen_pv_spinlock_cpu_up(cpu);	/* without, it spins */
	return rc;
}

static int xen_pv_cpu_dead(unsigned int cpu)
{
	xen_pv_spinlock_cpu_down(cpu);
	return xen_cpu_events_down(cpu);
}

static void __init xen_pv_smp_prepare_boot_cpu(void)
{
	native_smp_prepare_boot_cpu();
	xen_pv_spinlock_init();
}

static void __init xen_pv_smp_prepare_cpus(unsigned int max_cpus)
{
	int rc;

	smp_prepare_cpus_common();
	if (xen_setup_ipis(0))
		xen_pv_fatal("xen: no IPIs for the boot CPU\n");
	xen_pv_spinlock_cpu_up(0);
	rc = cpuhp_setup_state_nocalls(CPUHP_XEN_PREPARE, "x86/xen/pv:prepare",
				       xen_pv_cpu_prepare, xen_pv_cpu_dead);
	if (rc)
		pr_err("xen: CPUs cannot be prepared: %d\n", rc);
}

/**
 * cpu_bringup_and_idle() - the first C code of a secondary vCPU
 *
 * Entered by xen_pv_cpu_entry (entry_pv.S) on the idle task's stack,
 * with the GS base, page tables, GDT and trap table VCPUOP_initialise
 * gave, events masked.  The name is one objtool knows not to return.
 */
asmlinkage __visible void __noreturn cpu_bringup_and_idle(void)
{
	unsigned int cpu = smp_processor_id();

	cr4_init();
	xen_pv_set_iopl();
	cpu_init_exception_handling(false);
	cpuhp_ap_sync_alive();
	cpu_init();
	fpu__init_cpu();
	smp_store_cpu_info(cpu);
	set_cpu_sibling_map(cpu);
	notify_cpu_starting(cpu);
	set_cpu_online(cpu, true);
	local_irq_enable();
	x86_cpuinit.setup_percpu_clockev();
	cpu_startup_entry(CPUHP_AP_ONLINE_IDLE);
}

/* The state a secondary vCPU starts in. */
static void xen_pv_vcpu_context(struct vcpu_guest_context *ctxt,
				unsigned int cpu, struct task_struct *idle)
{
	struct desc_struct *gdt = get_cpu_gdt_rw(cpu);

	ctxt->flags = VGCF_in_kernel | VGCF_failsafe_disables_events |
		      VGCF_syscall_disables_events;
	ctxt->user_regs.rip = (unsigned long)xen_pv_cpu_entry;
	ctxt->user_regs.rsp = idle->thread.sp;
	ctxt->user_regs.cs = __KERNEL_CS;
	ctxt->user_regs.ss = __KERNEL_DS;
	/* Xen sets IF; events stay masked by the vcpu_info's mask. */
	ctxt->user_regs.rflags = X86_EFLAGS_FIXED;
	ctxt->gs_base_kernel = per_cpu_offset(cpu);

	xen_pv_trap_table(ctxt->trap_ctxt);

	/* The CPU's GDT, read-only as Xen wants a descriptor table. */
	xen_pv_set_page_rw(PFN_DOWN(__pa(gdt)), false);
	ctxt->gdt_frames[0] = virt_to_mfn(gdt);
	ctxt->gdt_ents = GDT_ENTRIES;

	ctxt->kernel_ss = __KERNEL_DS;
	ctxt->kernel_sp = task_top_of_stack(idle);
	ctxt->ctrlreg[3] = PFN_PHYS(virt_to_mfn(swapper_pg_dir));
	ctxt->event_callback_eip = (unsigned long)xen_asm_exc_xen_hypervisor_callback;
	ctxt->failsafe_callback_eip = (unsigned long)xen_failsafe_callback;
	ctxt->syscall_callback_eip = (unsigned long)xen_pv_entry_syscall;
	ctxt->vm_assist = BIT(VMASST_TYPE_writable_pagetables);
}

static int xen_pv_kick_ap_alive(unsigned int cpu, struct task_struct *idle)
{
	struct vcpu_guest_context *ctxt;
	int rc;

	rc = common_cpu_up(cpu, idle);
	if (rc)
		return rc;
	if (!cpumask_test_cpu(cpu, &xen_pv_vcpu_started)) {
		ctxt = kzalloc(sizeof(*ctxt), GFP_KERNEL);
		if (!ctxt)
			return -ENOMEM;
		idle->thread.sp = (unsigned long)task_pt_regs(idle);
		xen_pv_vcpu_context(ctxt, cpu, idle);
		rc = HYPERVISOR_vcpu_op(VCPUOP_initialise, xen_vcpu_nr(cpu), ctxt);
		kfree(ctxt);
		if (rc) {
			pr_err("xen: vCPU %u not initialised: %d\n", cpu, rc);
			return rc;
		}
		__cpumask_set_cpu(cpu, &xen_pv_vcpu_started);
	}
	rc = HYPERVISOR_vcpu_op(VCPUOP_up, xen_vcpu_nr(cpu), NULL);
	if (rc)
		pr_err("xen: vCPU %u not started: %d\n", cpu, rc);
	return rc;
}

static int xen_pv_cpu_disable(void)
{
	if (!smp_processor_id())
		return -EBUSY;	/* the boot vCPU keeps the timekeeping */
	cpu_disable_common();
	load_cr3(swapper_pg_dir);
	return 0;
}

/* Wait until the vCPU is down for Xen too. */
static void xen_pv_cpu_die(unsigned int cpu)
{
	while (HYPERVISOR_vcpu_op(VCPUOP_is_up, xen_vcpu_nr(cpu), NULL) > 0)
		schedule_timeout_uninterruptible(1);
}

static void __noreturn xen_pv_play_dead(void)
{
	play_dead_common();
	HYPERVISOR_vcpu_op(VCPUOP_down, xen_vcpu_nr(smp_processor_id()), NULL);
	/* VCPUOP_up: start again, as on the first bringup. */
	xen_cpu_bringup_again((unsigned long)task_pt_regs(current));
}

static void xen_pv_stop_self(void *unused)
{
	set_cpu_online(smp_processor_id(), false);
	HYPERVISOR_vcpu_op(VCPUOP_down, xen_vcpu_nr(smp_processor_id()), NULL);
}

static void xen_pv_stop_other_cpus(int wait)
{
	smp_call_function(xen_pv_stop_self, NULL, 0);
}

/**
 * xen_pv_smp_init() - install the SMP operations of a PV guest
 */
void __init xen_pv_smp_init(void)
{
	x86_cpuinit.parallel_bringup = false;
	smp_ops.smp_prepare_boot_cpu = xen_pv_smp_prepare_boot_cpu;
	smp_ops.smp_prepare_cpus = xen_pv_smp_prepare_cpus;
	smp_ops.kick_ap_alive = xen_pv_kick_ap_alive;
	smp_ops.cpu_disable = xen_pv_cpu_disable;
	smp_ops.cpu_die = xen_pv_cpu_die;
	smp_ops.play_dead = xen_pv_play_dead;
	smp_ops.stop_other_cpus = xen_pv_stop_other_cpus;
	xen_smp_ipi_init();
}
