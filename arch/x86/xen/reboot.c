// SPDX-License-Identifier: GPL-2.0
/*
 * Power off, reboot and crash of a Xen guest of any type: the domain
 * asks Xen to shut it down with the reason, and the toolstack does what
 * the domain's configuration says for that reason.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/pm.h>
#include <asm/reboot.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/sched.h>

#include "xen-ops.h"

static void xen_shutdown(unsigned int reason)
{
	struct sched_shutdown arg = { .reason = reason };

	HYPERVISOR_sched_op(SCHEDOP_shutdown, &arg);
}

static void xen_power_off(void)
{
	xen_shutdown(SHUTDOWN_poweroff);
}

static void xen_restart(char *cmd)
{
	xen_shutdown(SHUTDOWN_reboot);
}

/*
 * A panic tells Xen that the domain crashed, so that the toolstack's
 * on_crash applies (destroy, restart, or preserve for a post-mortem)
 * instead of a vCPU spinning in panic() for ever.  It does so from
 * the emergency restart at the end of panic(), after the console has
 * printed everything: with panic=0, the default, that restart comes at
 * once; a panic=N delay is kept.
 */
static bool xen_panicked;

static void xen_emergency_restart(void)
{
	xen_shutdown(READ_ONCE(xen_panicked) ? SHUTDOWN_crash : SHUTDOWN_reboot);
}

static int xen_panic(struct notifier_block *nb, unsigned long event, void *msg)
{
	WRITE_ONCE(xen_panicked, true);
	if (!panic_timeout)
		panic_timeout = -1;
	return NOTIFY_DONE;
}

static struct notifier_block xen_panic_nb = {
	.notifier_call = xen_panic,
};

/**
 * xen_reboot_init() - power off, reboot and crash through Xen
 */
void __init xen_reboot_init(void)
{
	pm_power_off = xen_power_off;
	machine_ops.restart = xen_restart;
	machine_ops.emergency_restart = xen_emergency_restart;
	machine_ops.halt = xen_power_off;
	atomic_notifier_chain_register(&panic_notifier_list, &xen_panic_nb);
}
