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

#endif /* _ARCH_X86_XEN_XEN_OPS_H */
