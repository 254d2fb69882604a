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
#endif

#endif /* _ARCH_X86_XEN_XEN_OPS_H */
