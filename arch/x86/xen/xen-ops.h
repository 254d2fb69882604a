/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions the files of arch/x86/xen share; not for the rest of Linux.
 */
#ifndef _ARCH_X86_XEN_XEN_OPS_H
#define _ARCH_X86_XEN_XEN_OPS_H

#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <asm/desc_defs.h>
#include <asm/pgtable_types.h>
#include <asm/xen/interface.h>

/* Each CPU's vcpu_info, once xen_vcpu_setup() had Xen put it there. */
DECLARE_PER_CPU_ALIGNED(struct vcpu_info, xen_vcpu_info);
bool xen_vcpu_info_placed(unsigned int cpu);

void xen_init_time_ops(void);
void xen_reboot_init(void);
int xen_setup_timer(unsigned int cpu);
void xen_teardown_timer(unsigned int cpu);
void xen_setup_cpu_clockevents(void);
int xen_cpu_events_up(unsigned int cpu);
int xen_cpu_events_down(unsigned int cpu);

#ifdef CONFIG_SMP
int xen_setup_ipis(unsigned int cpu);
void xen_teardown_ipis(unsigned int cpu);
void xen_smp_ipi_init(void);
#else
static inline int xen_setup_ipis(unsigned int cpu)
{
	return 0;
}

static inline void xen_teardown_ipis(unsigned int cpu)
{
}

static inline void xen_smp_ipi_init(void)
{
}
#endif

#ifdef CONFIG_XEN_PV
struct desc_ptr;
struct mm_struct;
struct qspinlock;
struct start_info;
struct task_struct;

/* enlighten_pv.c */
/*
 * Does not return; not declared __noreturn, since objtool knows global
 * noreturn functions only from a list of its own.
 */
__printf(1, 2) void xen_pv_fatal(const char *fmt, ...);

/* entry_pv.S */
void xen_pv_iret(void);
void xen_pv_entry_syscall(void);

/* The generic entry code's (entry_64.S). */
void xen_failsafe_callback(void);
extern char early_xen_iret_patch[];

/* traps_pv.c */
void xen_pv_load_idt(const struct desc_ptr *dtr);
void xen_pv_write_idt_entry(gate_desc *idt, int entry, const gate_desc *gate);
void xen_pv_register_callbacks(void);
void xen_pv_patch_iret(void);

/* irq_pv.c, cpu_pv.c, mmu_pv.c; the first five behind callee-save thunks */
__visible unsigned long xen_pv_save_fl(void);
__visible void xen_pv_irq_disable(void);
__visible void xen_pv_irq_enable(void);
__visible u64 xen_pv_entry_val(u64 val);
__visible u64 xen_pv_make_entry(u64 val);
__visible unsigned long xen_pv_read_cr2(void);
/* ops_pv.S: the same on the per-CPU vcpu_info */
__visible unsigned long xen_pv_save_fl_direct(void);
__visible void xen_pv_irq_disable_direct(void);
__visible void xen_pv_irq_enable_direct(void);
__visible unsigned long xen_pv_read_cr2_direct(void);
__visible void xen_pv_deliver_pending(void);
void xen_pv_init_irq_ops_direct(void);
void xen_pv_init_irq_ops(void);
void xen_pv_init_cpu_ops(void);
void xen_pv_init_mmu_ops(void);
void xen_pv_set_page_rw(unsigned long pfn, bool rw);
void xen_pv_set_va_rw(unsigned long va, bool rw);
void xen_pv_mmuext(unsigned int cmd, unsigned long arg1, unsigned long arg2);
void xen_pv_batch_begin(void);
void xen_pv_batch_end(void);
void xen_pv_batch_send(void);
/* The lock whose unlock must call xen_pv_unlock_send() first. */
void xen_pv_unlock_send(void);
DECLARE_PER_CPU(struct qspinlock *, xen_pv_unlock_sends);

/* spinlock_pv.c */
#ifdef CONFIG_PARAVIRT_SPINLOCKS
extern bool xen_pv_spinlocks_on;
__visible void xen_pv_spin_unlock(struct qspinlock *lock);
__visible void xen_pv_spin_unlock_direct(struct qspinlock *lock);
__visible void xen_pv_spin_unlock_one_cpu(struct qspinlock *lock);
void xen_pv_spinlock_init(void);
int xen_pv_spinlock_cpu_up(unsigned int cpu);
void xen_pv_spinlock_cpu_down(unsigned int cpu);
#else
#define xen_pv_spinlocks_on	false

static inline void xen_pv_spinlock_init(void)
{
}

static inline int xen_pv_spinlock_cpu_up(unsigned int cpu)
{
	return 0;
}

static inline void xen_pv_spinlock_cpu_down(unsigned int cpu)
{
}
#endif
void xen_pv_mark_kernel_tables(void);
unsigned long xen_pv_boot_pagetable(const struct start_info *si);
void xen_pv_start_context_switch(struct task_struct *prev);
void xen_pv_end_context_switch(struct task_struct *next);
bool xen_pv_switch_queue(unsigned int op, unsigned long a0, unsigned long a1);
bool xen_pv_switch_end(unsigned long ss, unsigned long sp0);

/* mmu_pin_pv.c: the L4 slots of user space, the lower half. */
#define XEN_PV_USER_PGDS	(PTRS_PER_PGD / 2)
pgd_t *xen_pv_user_pgd(const pgd_t *pgd);
void xen_pv_pin_mm(struct mm_struct *mm);
void xen_pv_init_pin_ops(void);

/* traps_pv.c, smp_pv.c, entry_pv.S */
void xen_pv_trap_table(struct trap_info *ctxt);
void xen_pv_cpu_entry(void);
asmlinkage __visible void __noreturn cpu_bringup_and_idle(void);
asmlinkage void __noreturn xen_cpu_bringup_again(unsigned long stack);
#ifdef CONFIG_SMP
void xen_pv_smp_init(void);
void xen_pv_register_vcpus(void);
#else
static inline void xen_pv_smp_init(void)
{
}

static inline void xen_pv_register_vcpus(void)
{
}
#endif

/* ioapic_dom0.c */
#if defined(CONFIG_XEN_DOM0) && defined(CONFIG_ACPI)
void xen_dom0_ioapic_init(void);
#else
static inline void xen_dom0_ioapic_init(void)
{
}
#endif

/* enlighten_pv.c: on each vCPU as it starts */
void xen_pv_set_iopl(void);

/* apic_pv.c */
void xen_pv_apic_init(void);

/* p2m.c, setup_pv.c */
void xen_p2m_init_flat(unsigned long *mfn_list, unsigned long nr_pages);
struct xen_memmap_plan;
void xen_p2m_released(unsigned long pfn);
void xen_p2m_moved(struct xen_memmap_plan *plan);
int xen_p2m_build(unsigned long limit);
struct e820_entry;
void xen_p2m_identity_holes(const struct e820_entry *map, unsigned int nr,
			    unsigned long floor);
void xen_pv_set_boot_area(unsigned long first, unsigned long end);
char *xen_pv_memory_setup(void);
#endif

#endif /* _ARCH_X86_XEN_XEN_OPS_H */
