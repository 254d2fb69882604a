// SPDX-License-Identifier: GPL-2.0
/*
 * The frontend bus: the devices the toolstack gives this domain, one per
 * directory device/<type>/<id> of its xenstore home, each naming its
 * backend in "backend" and "backend-id".  They appear in sysfs as
 * /sys/bus/xen/devices/<type>-<id>, at the top of /sys/devices/ with no
 * parent: udev names a vif's interface enX<id> from that path, and
 * scripts that know Xen guests look there.
 *
 * The device model itself is xenbus_bus.c; this file describes the bus,
 * registers it before drivers can register, and starts it once xenstore
 * is up.
 *
 * Boot waits (late_initcall) until each device present that has a driver
 * has connected, or given up, or xenbus.boot_wait seconds have passed:
 * frontends connect in the watch thread, and the kernel must not look
 * for its root disk before that disk has been added whole.  The wait
 * polls the devices' states, every WAIT_POLL_MS, and says every 5 s
 * which one it is waiting for.
 *
 * Locking: none of its own (see xenbus_bus.c); the wait only reads
 * states, each once.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "xenbus.h"

static struct xenbus_bus xb_frontend = {
	.bus = &xb_frontend_bus_type,
	.root = "device",
	.depth = 2,		/* <type>/<id> */
	.frontend = true,
	.otherend_node = "backend",
	.otherend_id_node = "backend-id",
};

static bool xb_frontend_registered;

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "xenbus."
static unsigned int boot_wait = 30;
module_param(boot_wait, uint, 0444);
MODULE_PARM_DESC(boot_wait,
		 "Seconds boot waits for the frontend devices present to connect (0: not at all)");

#define WAIT_POLL_MS	10

/**
 * __xenbus_register_frontend() - register a frontend driver
 * @drv: the driver
 * @owner: its module
 * @mod_name: its module's name
 *
 * Use xenbus_register_frontend().  The driver is bound to each device of
 * a type in its ids, present or to come.
 *
 * Return: 0, -ENODEV when this is not a Xen guest, or a negative errno.
 */
int __xenbus_register_frontend(struct xenbus_driver *drv, struct module *owner,
			       const char *mod_name)
{
	if (!xb_frontend_registered)
		return -ENODEV;
	return xb_register_driver(&xb_frontend, drv, owner, mod_name);
}
EXPORT_SYMBOL_GPL(__xenbus_register_frontend);

static int xb_frontend_start(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	int rc = xb_bus_init(&xb_frontend);

	if (rc)
		pr_err("xenbus: cannot watch for frontend devices: %d\n", rc);
	return NOTIFY_DONE;
}

static struct notifier_block xb_frontend_nb = {
	.notifier_call = xb_frontend_start,
};

static int __init xb_frontend_init(void)
{
	int rc;

	if (!xen_domain())
		return 0;
	rc = xb_bus_register(&xb_frontend);
	if (rc)
		return rc;
	xb_frontend_registered = true;
	return register_xenstore_notifier(&xb_frontend_nb);
}

/* After xenstore's own subsys_initcall, before any driver's. */
subsys_initcall_sync(xb_frontend_init);

/**
 * struct xb_wait - devices boot still waits for
 * @count: how many
 * @node: the first one's xenstore directory
 * @state: its state
 * @other: its other end's state
 */
struct xb_wait {
	unsigned int count;
	char node[48];
	int state;
	int other;
};

/* Count @d if its driver is bound and it is neither connected nor done. */
static int xb_wait_count(struct device *d, void *data)
{
	struct xenbus_device *xdev = to_xenbus_device(d);
	struct device_driver *drv = READ_ONCE(d->driver);
	enum xenbus_state mine = READ_ONCE(xdev->state);
	enum xenbus_state other = READ_ONCE(xdev->otherend_state);
	struct xb_wait *w = data;

	if (!drv || to_xenbus_driver(drv)->not_essential)
		return 0;
	if (mine >= XenbusStateConnected || other == XenbusStateClosing ||
	    other == XenbusStateClosed)
		return 0;
	if (!w->count++) {
		strscpy(w->node, xdev->nodename, sizeof(w->node));
		w->state = mine;
		w->other = other;
	}
	return 0;
}

static int __init xb_frontend_wait(void)
{
	unsigned long start = jiffies, say = start + 5 * HZ;
	struct xb_wait w;
	bool waited = false;

	if (!xb_frontend_registered || !boot_wait || !xenbus_ready())
		return 0;
	for (;;) {
		w = (struct xb_wait) {};
		bus_for_each_dev(&xb_frontend_bus_type, NULL, &w,
				 xb_wait_count);
		if (!w.count)
			break;
		if (time_after(jiffies, start + boot_wait * HZ)) {
			pr_warn("xenbus: %u device(s) not connected after %u s, %s first (state %d, backend %d); booting on\n",
				w.count, boot_wait, w.node, w.state, w.other);
			return 0;
		}
		if (time_after(jiffies, say)) {
			pr_info("xenbus: waiting for %u device(s) to connect, %s first\n",
				w.count, w.node);
			say += 5 * HZ;
		}
		waited = true;
		msleep(WAIT_POLL_MS);
	}
	if (waited)
		pr_info("xenbus: frontend devices connected after %u ms\n",
			jiffies_to_msecs(jiffies - start));
	return 0;
}

/* Before the root file system is looked for. */
late_initcall(xb_frontend_wait);
