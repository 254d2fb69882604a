// SPDX-License-Identifier: GPL-2.0
/*
 * The xenbus device model, common to the frontend and backend buses.
 *
 * A device is a xenstore directory the toolstack creates, such as
 * device/vbd/51712 for a frontend.  The bus adds a device when such a
 * directory appears in state Initialising and removes it when the
 * directory goes away; a watch on the bus's root tells it which.  While a
 * driver is bound, the bus watches the other end's "state" node and hands
 * each new, valid state to the driver; a value that is no state closes
 * the device with one log line.  The decisions themselves are pure
 * functions in xb_state.h.
 *
 * Locking: xbus->lock (mutex) serialises adding and removing devices and
 * is taken before the driver core's device locks.  Watch callbacks all
 * run in the one xenwatch thread, so a device's other-end callback never
 * races its own removal: unregistering the watch waits for it.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <xen/xenbus.h>

#include "xb_state.h"
#include "xenbus.h"

/* -ENOENT when @path is gone, 0 when it is there, other errors as is. */
static int xb_node_state(const char *path)
{
	unsigned int n;
	char **dir = xenbus_directory(XBT_NIL, path, "", &n);

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	kfree(dir);
	return 0;
}

/* ---- the other end ---- */

/*
 * Only a write of the state node itself is news: whatever the other end
 * writes below it is dropped before it is queued.
 */
static bool xb_otherend_will_handle(struct xenbus_watch *watch,
				    const char *path, const char *token)
{
	return !strcmp(path, watch->node);
}

static void xb_otherend_changed(struct xenbus_watch *watch, const char *path,
				const char *token)
{
	struct xenbus_device *xdev = container_of(watch, struct xenbus_device,
						  otherend_watch);
	struct xenbus_driver *drv = to_xenbus_driver(xdev->dev.driver);
	enum xenbus_state state = XenbusStateUnknown;
	char *val;
	int rc;

	val = xenbus_read(XBT_NIL, xdev->otherend, "state", NULL);
	if (IS_ERR(val) && PTR_ERR(val) != -ENOENT) {
		dev_warn_ratelimited(&xdev->dev, "reading %s/state: %ld\n",
				     xdev->otherend, PTR_ERR(val));
		return;
	}
	rc = IS_ERR(val) ? -ENOENT : xb_parse_state(val, &state);

	switch (xb_otherend_action(xdev->bus->frontend, xdev->otherend_state,
				   rc, state, system_state > SYSTEM_RUNNING)) {
	case XB_IGNORE:
		break;
	case XB_DELIVER:
		xdev->otherend_state = state;
		if (drv->otherend_changed)
			drv->otherend_changed(xdev, state);
		break;
	case XB_SHUTDOWN_CLOSE:
		xenbus_frontend_closed(xdev);
		break;
	case XB_BAD:
		if (xdev->state != XenbusStateClosing &&
		    xdev->state != XenbusStateClosed) {
			dev_err(&xdev->dev, "%s/state holds \"%.16s\", not a state: closing\n",
				xdev->otherend, val);
			xenbus_switch_state(xdev, XenbusStateClosing);
		}
		break;
	}
	if (!IS_ERR(val))
		kfree(val);
}

/* Read and check where the other end is; one log line when it is bad. */
static int xb_read_otherend(struct xenbus_device *xdev)
{
	const struct xenbus_bus *xbus = xdev->bus;
	char *path, *id;
	domid_t domid;
	int rc = -EINVAL;

	path = xenbus_read(XBT_NIL, xdev->nodename, xbus->otherend_node, NULL);
	if (IS_ERR(path)) {
		dev_err(&xdev->dev, "cannot read %s/%s: %ld\n", xdev->nodename,
			xbus->otherend_node, PTR_ERR(path));
		return PTR_ERR(path);
	}
	id = xenbus_read(XBT_NIL, xdev->nodename, xbus->otherend_id_node, NULL);
	if (IS_ERR(id)) {
		dev_err(&xdev->dev, "cannot read %s/%s: %ld\n", xdev->nodename,
			xbus->otherend_id_node, PTR_ERR(id));
		kfree(path);
		return PTR_ERR(id);
	}
	if (xb_check_otherend_path(path))
		dev_err(&xdev->dev, "%s/%s is not a usable path: \"%.64s\"\n",
			xdev->nodename, xbus->otherend_node, path);
	else if (xb_parse_domid(id, &domid))
		dev_err(&xdev->dev, "%s/%s is not a domain id: \"%.16s\"\n",
			xdev->nodename, xbus->otherend_id_node, id);
	else
		rc = 0;
	kfree(id);
	if (rc) {
		kfree(path);
		return rc;
	}
	xdev->otherend = path;
	xdev->otherend_id = domid;
	return 0;
}

static void xb_forget_otherend(struct xenbus_device *xdev)
{
	kfree(xdev->otherend_watch.node);
	xdev->otherend_watch.node = NULL;
	kfree(xdev->otherend);
	xdev->otherend = NULL;
}

/* ---- the bus's driver-model callbacks ---- */

static const struct xenbus_device_id *
xb_match_id(const struct xenbus_device_id *ids, const struct xenbus_device *xdev)
{
	for (; ids && ids->devicetype[0]; ids++)
		if (!strcmp(ids->devicetype, xdev->devicetype))
			return ids;
	return NULL;
}

static int xb_match(struct device *d, const struct device_driver *drv)
{
	return !!xb_match_id(to_xenbus_driver(drv)->ids, to_xenbus_device(d));
}

static int xb_probe(struct device *d)
{
	struct xenbus_device *xdev = to_xenbus_device(d);
	struct xenbus_driver *drv = to_xenbus_driver(d->driver);
	const struct xenbus_device_id *id = xb_match_id(drv->ids, xdev);
	int rc;

	if (!id || !drv->probe)
		return -ENODEV;
	/* Logged there; -ENODEV keeps the driver core from logging again. */
	if (xb_read_otherend(xdev)) {
		xenbus_switch_state(xdev, XenbusStateClosing);
		return -ENODEV;
	}
	xdev->state = XenbusStateInitialising;
	xdev->otherend_state = XenbusStateUnknown;
	reinit_completion(&xdev->down);

	rc = drv->probe(xdev, id);
	if (rc) {
		dev_err(d, "probe failed: %d\n", rc);
		goto fail;
	}
	/* Fires once at once: the driver learns the other end's state. */
	rc = xenbus_watch_pathfmt(xdev, &xdev->otherend_watch,
				  xb_otherend_will_handle,
				  xb_otherend_changed, "%s/state",
				  xdev->otherend);
	if (!rc)
		return 0;
	if (drv->remove)
		drv->remove(xdev);
fail:
	xenbus_switch_state(xdev, XenbusStateClosed);
	xb_forget_otherend(xdev);
	return rc;
}

static void xb_remove(struct device *d)
{
	struct xenbus_device *xdev = to_xenbus_device(d);
	struct xenbus_driver *drv = to_xenbus_driver(d->driver);

	unregister_xenbus_watch(&xdev->otherend_watch);
	if (drv->remove)
		drv->remove(xdev);
	if (!drv->allow_rebind)
		xenbus_switch_state(xdev, XenbusStateClosed);
	xb_forget_otherend(xdev);
}

/*
 * On the way down, give a connected frontend's backend a few seconds to
 * see it close (and to flush what it was writing).
 */
static void xb_shutdown(struct device *d)
{
	struct xenbus_device *xdev = to_xenbus_device(d);

	if (!d->driver || !xdev->bus->frontend ||
	    xdev->state != XenbusStateConnected)
		return;
	xenbus_switch_state(xdev, XenbusStateClosing);
	if (!wait_for_completion_timeout(&xdev->down, 5 * HZ))
		dev_info(d, "%s did not close in 5 s\n", xdev->otherend);
}

static int xb_uevent(const struct device *d, struct kobj_uevent_env *env)
{
	const struct xenbus_device *xdev = to_xenbus_device(d);

	if (add_uevent_var(env, "XENBUS_TYPE=%s", xdev->devicetype) ||
	    add_uevent_var(env, "XENBUS_PATH=%s", xdev->nodename) ||
	    add_uevent_var(env, "MODALIAS=xen%s:%s",
			   xdev->bus->frontend ? "" : "-backend",
			   xdev->devicetype))
		return -ENOMEM;
	/* Hotplug scripts that serve backends find the bus's root here. */
	if (!xdev->bus->frontend &&
	    add_uevent_var(env, "XENBUS_BASE_PATH=%s", xdev->bus->root))
		return -ENOMEM;
	if (d->driver && to_xenbus_driver(d->driver)->uevent)
		return to_xenbus_driver(d->driver)->uevent(xdev, env);
	return 0;
}

static ssize_t nodename_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", to_xenbus_device(d)->nodename);
}
static DEVICE_ATTR_RO(nodename);

static ssize_t devtype_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_xenbus_device(d)->devicetype);
}
static DEVICE_ATTR_RO(devtype);

static ssize_t modalias_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	const struct xenbus_device *xdev = to_xenbus_device(d);

	return sysfs_emit(buf, "xen%s:%s\n",
			  xdev->bus->frontend ? "" : "-backend",
			  xdev->devicetype);
}
static DEVICE_ATTR_RO(modalias);

static ssize_t state_show(struct device *d, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", xb_state_name(to_xenbus_device(d)->state));
}
static DEVICE_ATTR_RO(state);

static struct attribute *xb_dev_attrs[] = {
	&dev_attr_nodename.attr,
	&dev_attr_devtype.attr,
	&dev_attr_modalias.attr,
	&dev_attr_state.attr,
	NULL,
};
ATTRIBUTE_GROUPS(xb_dev);

/* ---- adding and removing devices ---- */

static int xb_match_node(struct device *d, const void *nodename)
{
	return !strcmp(to_xenbus_device(d)->nodename, nodename);
}

/* The device for @nodename, with a reference; or NULL. */
static struct xenbus_device *xb_find(struct xenbus_bus *xbus,
				     const char *nodename)
{
	struct device *d = bus_find_device(xbus->bus, NULL, nodename,
					   xb_match_node);

	return d ? to_xenbus_device(d) : NULL;
}

static void xb_release(struct device *d)
{
	kfree(to_xenbus_device(d));
}

/* Add the device at @nodename unless it is known or not new. */
static void xb_add(struct xenbus_bus *xbus, const char *nodename)
{
	size_t len = strlen(nodename), rlen = strlen(xbus->root);
	enum xenbus_state state;
	struct xenbus_device *xdev;
	char *name, *type, *val;
	int rc;

	lockdep_assert_held(&xbus->lock);
	xdev = xb_find(xbus, nodename);
	if (xdev) {
		put_device(&xdev->dev);
		return;
	}
	/* Only a new device: one that is closing is going away. */
	val = xenbus_read(XBT_NIL, nodename, "state", NULL);
	if (IS_ERR(val))
		return;
	rc = xb_parse_state(val, &state);
	kfree(val);
	if (rc || state != XenbusStateInitialising)
		return;

	/* The struct, then its node name, its type and its device name. */
	xdev = kzalloc(sizeof(*xdev) + 3 * (len + 1), GFP_KERNEL);
	if (!xdev)
		return;
	name = (char *)(xdev + 1);
	memcpy(name, nodename, len + 1);
	xdev->nodename = name;
	type = name + len + 1;
	strscpy(type, nodename + rlen + 1, len + 1);
	*strchrnul(type, '/') = '\0';
	xdev->devicetype = type;
	name = type + len + 1;
	strscpy(name, nodename + rlen + 1, len + 1);
	strreplace(name, '/', '-');

	xdev->bus = xbus;
	xdev->state = XenbusStateInitialising;
	init_completion(&xdev->down);
	xdev->dev.bus = xbus->bus;
	xdev->dev.parent = xbus->parent;
	xdev->dev.release = xb_release;
	dev_set_name(&xdev->dev, "%s", name);
	rc = device_register(&xdev->dev);
	if (rc) {
		pr_warn("xenbus: cannot add %s: %d\n", nodename, rc);
		put_device(&xdev->dev);
	}
}

static void xb_del(struct xenbus_device *xdev)
{
	device_unregister(&xdev->dev);
}

static int xb_match_gone(struct device *d, const void *unused)
{
	return xb_node_state(to_xenbus_device(d)->nodename) == -ENOENT;
}

/* Remove every device whose directory is gone. */
static void xb_prune(struct xenbus_bus *xbus)
{
	struct device *d;

	lockdep_assert_held(&xbus->lock);
	while ((d = bus_find_device(xbus->bus, NULL, NULL, xb_match_gone))) {
		xb_del(to_xenbus_device(d));
		put_device(d);
	}
}

static void xb_scan_dir(struct xenbus_bus *xbus, const char *path,
			unsigned int level)
{
	unsigned int i, n;
	char **dir, *sub;

	if (level == xbus->depth) {
		xb_add(xbus, path);
		return;
	}
	dir = xenbus_directory(XBT_NIL, path, "", &n);
	if (IS_ERR(dir))
		return;
	for (i = 0; i < n; i++) {
		sub = kasprintf(GFP_KERNEL, "%s/%s", path, dir[i]);
		if (!sub)
			break;
		/* Names come from xenstore: the same checks as for events. */
		if (xb_device_of_path(sub, xbus->root, xbus->depth) >= 0)
			xb_scan_dir(xbus, sub, level + 1);
		kfree(sub);
	}
	kfree(dir);
}

/**
 * xb_bus_scan() - add the devices in xenstore that the bus lacks
 * @xbus: the bus
 */
void xb_bus_scan(struct xenbus_bus *xbus)
{
	mutex_lock(&xbus->lock);
	xb_scan_dir(xbus, xbus->root, 0);
	mutex_unlock(&xbus->lock);
}

static void xb_root_changed(struct xenbus_watch *watch, const char *path,
			    const char *token)
{
	struct xenbus_bus *xbus = container_of(watch, struct xenbus_bus, watch);
	int len = xb_device_of_path(path, xbus->root, xbus->depth);
	struct xenbus_device *xdev;
	char *node;
	int rc;

	if (len < 0) {
		pr_warn_ratelimited("xenbus: ignoring malformed device path %.64s\n",
				    path);
		return;
	}
	mutex_lock(&xbus->lock);
	if (len == 0) {		/* a whole type, or the root */
		xb_prune(xbus);
		xb_scan_dir(xbus, xbus->root, 0);
		goto out;
	}
	node = kstrndup(path, len, GFP_KERNEL);
	if (!node)
		goto out;
	xdev = xb_find(xbus, node);
	if (!xdev) {
		xb_add(xbus, node);
	} else {
		/* Below a known device: its own nodes, nothing to do. */
		if (!path[len]) {
			rc = xb_node_state(node);
			if (rc == -ENOENT)
				xb_del(xdev);
		}
		put_device(&xdev->dev);
	}
	kfree(node);
out:
	mutex_unlock(&xbus->lock);
}

/**
 * xb_bus_register() - register a bus with the driver core
 * @xbus: the bus, with its description filled in
 *
 * Drivers may register from then on; devices come with xb_bus_init().
 *
 * Return: 0 or a negative errno.
 */
int xb_bus_register(struct xenbus_bus *xbus)
{
	mutex_init(&xbus->lock);
	return bus_register(xbus->bus);
}

/* The frontend bus, /sys/bus/xen. */
const struct bus_type xb_frontend_bus_type = {
	.name = "xen",
	.match = xb_match,
	.uevent = xb_uevent,
	.probe = xb_probe,
	.remove = xb_remove,
	.shutdown = xb_shutdown,
	.dev_groups = xb_dev_groups,
};

/* The backend bus, /sys/bus/xen-backend. */
const struct bus_type xb_backend_bus_type = {
	.name = "xen-backend",
	.match = xb_match,
	.uevent = xb_uevent,
	.probe = xb_probe,
	.remove = xb_remove,
	.dev_groups = xb_dev_groups,
};

/**
 * xb_bus_init() - start following xenstore
 * @xbus: the bus, with its description filled in
 *
 * Call once xenstore is up: adds the devices present, then watches for
 * more.
 *
 * Return: 0 or a negative errno.
 */
int xb_bus_init(struct xenbus_bus *xbus)
{
	xb_bus_scan(xbus);
	xbus->watch.node = xbus->root;
	xbus->watch.callback = xb_root_changed;
	return register_xenbus_watch(&xbus->watch);
}

/**
 * xb_register_driver() - register a driver on a bus
 * @xbus: the bus
 * @drv: the driver
 * @owner: its module
 * @mod_name: its module's name
 *
 * Return: 0 or a negative errno.
 */
int xb_register_driver(struct xenbus_bus *xbus, struct xenbus_driver *drv,
		       struct module *owner, const char *mod_name)
{
	if (!drv->ids || !drv->ids[0].devicetype[0])
		return -EINVAL;
	drv->driver.name = drv->name ?: drv->ids[0].devicetype;
	drv->driver.bus = xbus->bus;
	drv->driver.owner = owner;
	drv->driver.mod_name = mod_name;
	return driver_register(&drv->driver);
}

/**
 * xenbus_unregister_driver() - unregister a frontend or backend driver
 * @drv: a registered driver
 *
 * Its devices are unbound first: each is told remove() and, unless the
 * driver allows rebinding, publishes Closed.
 */
void xenbus_unregister_driver(struct xenbus_driver *drv)
{
	driver_unregister(&drv->driver);
}
EXPORT_SYMBOL_GPL(xenbus_unregister_driver);
