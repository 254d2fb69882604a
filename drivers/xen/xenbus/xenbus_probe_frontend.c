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
 * Locking: none of its own (see xenbus_bus.c).
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/notifier.h>
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
