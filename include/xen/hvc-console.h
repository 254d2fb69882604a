/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw, early output to the Xen console, before the hvc driver is up.
 */
#ifndef _XEN_HVC_CONSOLE_H
#define _XEN_HVC_CONSOLE_H

#include <linux/compiler.h>
#include <linux/types.h>

struct console;
struct xencons_interface;

#if IS_ENABLED(CONFIG_HVC_XEN)
/* The "earlyprintk=xen" boot console. */
extern struct console xenboot_console;

void xen_raw_console_write(const char *str);
__printf(1, 2) void xen_raw_printk(const char *fmt, ...);
void xen_raw_console_ring(struct xencons_interface *intf, u32 port);
#else
static inline void xen_raw_console_ring(struct xencons_interface *intf,
					u32 port)
{
}

static inline void xen_raw_console_write(const char *str)
{
}

static inline __printf(1, 2) void xen_raw_printk(const char *fmt, ...)
{
}
#endif

#endif /* _XEN_HVC_CONSOLE_H */
