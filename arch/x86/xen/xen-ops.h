/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions the files of arch/x86/xen share; not for the rest of Linux.
 */
#ifndef _ARCH_X86_XEN_XEN_OPS_H
#define _ARCH_X86_XEN_XEN_OPS_H

#include <linux/init.h>

void xen_init_time_ops(void);
int xen_setup_timer(unsigned int cpu);
void xen_teardown_timer(unsigned int cpu);
void xen_setup_cpu_clockevents(void);

#ifdef CONFIG_SMP
int xen_setup_ipis(unsigned int cpu);
void xen_teardown_ipis(unsigned int cpu);
void xen_hvm_smp_init(void);
void xen_hvm_smp_early_init(void);
#else
static inline int xen_setup_ipis(unsigned int cpu)
{
	return 0;
}

static inline void xen_teardown_ipis(unsigned int cpu)
{
}

static inline void xen_hvm_smp_init(void)
{
}

static inline void xen_hvm_smp_early_init(void)
{
}
#endif

#ifdef CONFIG_XEN_PV_SPINLOCKS
void xen_init_spinlocks(void);
void xen_lock_cpu_prepare(unsigned int cpu);
void xen_lock_cpu_dead(unsigned int cpu);
#else
static inline void xen_init_spinlocks(void)
{
}

static inline void xen_lock_cpu_prepare(unsigned int cpu)
{
}

static inline void xen_lock_cpu_dead(unsigned int cpu)
{
}
#endif

#endif /* _ARCH_X86_XEN_XEN_OPS_H */
