/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the xenbus device model: parsing what the toolstack and
 * the other end of a device write in xenstore, and deciding what the bus
 * does when the other end's state changes.  No xenstore access, no
 * allocation, so that KUnit tests it on any kernel (xb_state_test.c).
 *
 * All input is untrusted: a frontend's directory may be written by its
 * own guest, a backend's by the backend's domain.
 */
#ifndef _XEN_XENBUS_XB_STATE_H
#define _XEN_XENBUS_XB_STATE_H

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <xen/interface/io/xenbus.h>
#include <xen/interface/io/xs_wire.h>
#include <xen/interface/xen.h>

/* Longest device type the driver model takes (xenbus_device_id). */
#define XB_TYPE_MAX	31

/**
 * xb_parse_uint() - a decimal number below a limit
 * @s: NUL-terminated text: one or more digits, nothing else
 * @limit: the value must be below this
 * @val: where to store it
 *
 * Return: 0, or -EINVAL for anything else (sign, space, overflow).
 */
static inline int xb_parse_uint(const char *s, u32 limit, u32 *val)
{
	u64 v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (*s - '0');
		if (v >= limit)
			return -EINVAL;
	}
	*val = v;
	return 0;
}

/**
 * xb_parse_state() - a "state" node's value
 * @s: the value read
 * @state: where to store it
 *
 * Return: 0, or -EINVAL when @s is not one of the states.
 */
static inline int xb_parse_state(const char *s, enum xenbus_state *state)
{
	u32 v;

	if (xb_parse_uint(s, XenbusStateReconfigured + 1, &v))
		return -EINVAL;
	*state = v;
	return 0;
}

/**
 * xb_parse_domid() - an ordinary domain's id, as in "backend-id"
 * @s: the value read
 * @domid: where to store it
 *
 * Return: 0, or -EINVAL (not a number, or a reserved id such as
 * DOMID_SELF).
 */
static inline int xb_parse_domid(const char *s, domid_t *domid)
{
	u32 v;

	if (xb_parse_uint(s, DOMID_FIRST_RESERVED, &v))
		return -EINVAL;
	*domid = v;
	return 0;
}

/**
 * xb_check_otherend_path() - is this a usable path to the other end
 * @path: what the "backend" (or "frontend") node holds
 *
 * It must be absolute, shorter than xenstore allows, and have no empty
 * component: the bus appends "/state" to it and watches that.
 *
 * Return: 0 or -EINVAL.
 */
static inline int xb_check_otherend_path(const char *path)
{
	size_t len = strlen(path);

	if (len < 2 || path[0] != '/' || path[len - 1] == '/' ||
	    len + sizeof("/state") > XENSTORE_ABS_PATH_MAX ||
	    strstr(path, "//"))
		return -EINVAL;
	return 0;
}

/**
 * xb_device_of_path() - the device a watch event's path is about
 * @path: the path the event names, e.g. "device/vbd/51712/state"
 * @root: the bus's directory, e.g. "device"
 * @depth: components below @root that name a device (2 for a frontend:
 *	type and id)
 *
 * The first component below @root is the device type: it must fit
 * XB_TYPE_MAX.  No component may be empty.
 *
 * Return: the length of the device's directory within @path ("device/vbd/
 * 51712" above), 0 when @path is above any device (@root or a type
 * directory), or -EINVAL when it is not below @root or is malformed.
 */
static inline int xb_device_of_path(const char *path, const char *root,
				    unsigned int depth)
{
	size_t rlen = strlen(root);
	const char *p = path + rlen, *c;
	unsigned int i;

	if (strncmp(path, root, rlen) || (*p && *p != '/'))
		return -EINVAL;
	for (i = 0; i < depth; i++) {
		if (!*p)
			return 0;
		c = ++p;		/* skip the '/' */
		while (*p && *p != '/')
			p++;
		if (p == c || (i == 0 && p - c > XB_TYPE_MAX))
			return -EINVAL;
	}
	return p - path;
}

/**
 * enum xb_action - what the bus does with a state the other end published
 * @XB_IGNORE: nothing: the state is the one last delivered, or the system
 *	is going down and it does not matter
 * @XB_DELIVER: tell the driver (its otherend_changed callback); a
 *	Connected written again is delivered again: the other end asks
 *	this one to read its nodes anew (a backend whose disk grew does so)
 * @XB_SHUTDOWN_CLOSE: the system is going down and the other end closes:
 *	publish Closed without asking the driver
 * @XB_BAD: the value is not a state: log it and close the device
 */
enum xb_action {
	XB_IGNORE,
	XB_DELIVER,
	XB_SHUTDOWN_CLOSE,
	XB_BAD,
};

/**
 * xb_otherend_action() - decide what a state change of the other end means
 * @frontend: this end is a frontend
 * @last: the other end's state last delivered (XenbusStateUnknown before
 *	the first)
 * @rc: 0 when @state was read and parsed, -ENOENT when the node is gone
 *	(the toolstack removed the other end), other errors for bad values
 * @state: the state read, when @rc is 0
 * @shutting_down: the system is halting, rebooting or powering off
 *
 * Return: the action.
 */
static inline enum xb_action xb_otherend_action(bool frontend,
						enum xenbus_state last, int rc,
						enum xenbus_state state,
						bool shutting_down)
{
	if (rc == -ENOENT)
		state = XenbusStateUnknown;
	else if (rc)
		return XB_BAD;
	if (shutting_down)
		return frontend && (state == XenbusStateClosing ||
				    state == XenbusStateClosed ||
				    state == XenbusStateUnknown) ?
			XB_SHUTDOWN_CLOSE : XB_IGNORE;
	if (state == last && state != XenbusStateConnected)
		return XB_IGNORE;
	return XB_DELIVER;
}

/**
 * xb_state_name() - a state's name
 * @state: any value
 *
 * Return: "Connected" and so on, "Invalid" for a value that is no state.
 */
static inline const char *xb_state_name(unsigned int state)
{
	static const char *const names[] = {
		[XenbusStateUnknown] = "Unknown",
		[XenbusStateInitialising] = "Initialising",
		[XenbusStateInitWait] = "InitWait",
		[XenbusStateInitialised] = "Initialised",
		[XenbusStateConnected] = "Connected",
		[XenbusStateClosing] = "Closing",
		[XenbusStateClosed] = "Closed",
		[XenbusStateReconfiguring] = "Reconfiguring",
		[XenbusStateReconfigured] = "Reconfigured",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "Invalid";
}

#endif /* _XEN_XENBUS_XB_STATE_H */
