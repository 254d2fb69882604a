// SPDX-License-Identifier: GPL-2.0
/*
 * The backend bus: the devices the toolstack asks this domain to serve,
 * one per directory backend/<type>/<frontend domid>/<id> of its xenstore
 * home, each naming its frontend in "frontend" and "frontend-id".  They
 * appear in sysfs as /sys/bus/xen-backend/devices/<type>-<domid>-<id>,
 * below /sys/devices/xen-backend/.
 *
 * The device model is xenbus_bus.c, shared with the frontends; this file
 * describes the bus and starts it once xenstore is up (in a dom0, when
 * its own xenstored has come).  The toolstack runs the hotplug scripts
 * itself; the uevents carry XENBUS_TYPE, XENBUS_PATH and
 * XENBUS_BASE_PATH for a udev rule that wants them.
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

static struct xenbus_bus xb_backend = {
	.bus = &xb_backend_bus_type,
	.root = "backend",
	.depth = 3,		/* <type>/<frontend domid>/<id> */
	.frontend = false,
	.otherend_node = "frontend",
	.otherend_id_node = "frontend-id",
};

static bool xb_backend_registered;

/**
 * __xenbus_register_backend() - register a backend driver
 * @drv: the driver
 * @owner: its module
 * @mod_name: its module's name
 *
 * Use xenbus_register_backend().  The driver is bound to each device of a
 * type in its ids, present or to come.
 *
 * Return: 0, -ENODEV when this kernel serves no backends, or a negative
 * errno.
 */
int __xenbus_register_backend(struct xenbus_driver *drv, struct module *owner,
			      const char *mod_name)
{
	if (!xb_backend_registered)
		return -ENODEV;
	return xb_register_driver(&xb_backend, drv, owner, mod_name);
}
EXPORT_SYMBOL_GPL(__xenbus_register_backend);

/**
 * xenbus_dev_is_online() - does the toolstack want the device served
 * @dev: a backend device
 *
 * The toolstack writes "online" 1 in the backend's directory while the
 * device is to stay; 0 (or nothing) once it is to go when the frontend
 * closes.
 *
 * Return: 1 when it is to stay, 0 when not.
 */
int xenbus_dev_is_online(struct xenbus_device *dev)
{
	return xenbus_read_unsigned(dev->nodename, "online", 0) != 0;
}
EXPORT_SYMBOL_GPL(xenbus_dev_is_online);

static int xb_backend_start(struct notifier_block *nb, unsigned long event,
			    void *data)
{
	int rc = xb_bus_init(&xb_backend);

	if (rc)
		pr_err("xenbus: cannot watch for backend devices: %d\n", rc);
	return NOTIFY_DONE;
}

static struct notifier_block xb_backend_nb = {
	.notifier_call = xb_backend_start,
};

static int __init xb_backend_init(void)
{
	struct device *root;
	int rc;

	if (!xen_domain())
		return 0;
	root = root_device_register("xen-backend");
	if (IS_ERR(root))
		return PTR_ERR(root);
	xb_backend.parent = root;
	rc = xb_bus_register(&xb_backend);
	if (rc) {
		root_device_unregister(root);
		return rc;
	}
	xb_backend_registered = true;
	return register_xenstore_notifier(&xb_backend_nb);
}

/* With the frontend bus: after xenstore's own initcall, before drivers. */
subsys_initcall_sync(xb_backend_init);
