// SPDX-License-Identifier: GPL-2.0
/*
 * Xen console.
 *
 * For now only the raw, early output path: the "earlyprintk=xen" boot
 * console and xen_raw_printk().  A guest in an HVM container (PVH) writes
 * to I/O port 0xe9, which Xen prints on its own console as "(dN) ..."
 * when started with guest_loglvl=all; a PV guest uses the console_io
 * hypercall, which Xen honours for dom0.  The hvc driver on the console
 * ring comes next.
 */
#include <linux/console.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/xen/hypercall.h>
#include <xen/hvc-console.h>
#include <xen/xen.h>

/* Xen's debug port for HVM and PVH guests. */
#define XEN_HVM_DEBUG_PORT	0xe9

static void xen_raw_write(const char *s, unsigned int len)
{
	unsigned int i;

	if (xen_pv_domain()) {
		HYPERVISOR_console_io(CONSOLEIO_write, len, s);
		return;
	}
	/*
	 * Also before the guest type is known: the PVH entry code prints
	 * its errors before it calls us.
	 */
	for (i = 0; i < len; i++)
		outb(s[i], XEN_HVM_DEBUG_PORT);
}

/**
 * xen_raw_console_write() - write a string to Xen's console, unbuffered
 * @str: NUL-terminated string
 *
 * Usable from the first instruction of a Xen guest, with no locking.
 */
void xen_raw_console_write(const char *str)
{
	xen_raw_write(str, strlen(str));
}

/**
 * xen_raw_printk() - printf to Xen's console, unbuffered
 * @fmt: format
 *
 * Like xen_raw_console_write(); lines longer than 255 bytes are cut.
 * Not reentrant: for early boot and last-resort messages only.
 */
void xen_raw_printk(const char *fmt, ...)
{
	static char buf[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	xen_raw_console_write(buf);
}

static void xenboot_write(struct console *con, const char *s, unsigned int n)
{
	xen_raw_write(s, n);
}

struct console xenboot_console = {
	.name	= "xenboot",
	.write	= xenboot_write,
	.flags	= CON_PRINTBUFFER | CON_BOOT | CON_ANYTIME,
	.index	= -1,
};
