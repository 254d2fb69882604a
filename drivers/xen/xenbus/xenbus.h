/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the files of the xenbus core.
 *
 * xenbus_comms.c owns the ring to xenstored: it sends requests and its
 * interrupt handler matches replies to them; xenbus_xs.c builds requests and
 * owns watches; xenbus_probe.c finds the ring and starts it all;
 * xenbus_bus.c is the device model common to frontends and backends,
 * xenbus_probe_frontend.c the frontend bus, xenbus_probe_backend.c the
 * backend bus.
 */
#ifndef _XEN_XENBUS_XENBUS_H
#define _XEN_XENBUS_XENBUS_H

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/io/xs_wire.h>
#include <xen/xenbus.h>

/**
 * struct xs_request - one request to xenstored and, later, its reply
 * @list: on the in-flight list until the reply comes
 * @msg: the header sent; @msg.req_id is set by xs_send()
 * @vec: the payload, in pieces
 * @nvec: number of pieces
 * @reply: the reply's header
 * @body: the reply's payload, NUL-terminated (one byte more than
 *	@reply.len), allocated by the ring's reader; the caller frees it
 * @err: 0, or -EIO when the connection broke before a reply came
 * @done: completed when @reply, @body and @err are set
 */
struct xs_request {
	struct list_head list;
	struct xsd_sockmsg msg;
	const struct kvec *vec;
	unsigned int nvec;
	struct xsd_sockmsg reply;
	char *body;
	int err;
	struct completion done;
};

/**
 * struct xenbus_bus - a bus of split-device ends found in xenstore
 * @bus: the driver-model bus (xb_frontend_bus_type, ...)
 * @root: the xenstore directory its devices are under ("device")
 * @depth: components below @root that name one device (type and id: 2)
 * @frontend: its devices are frontends
 * @otherend_node: the node naming the other end's directory ("backend")
 * @otherend_id_node: the node naming the other end's domain ("backend-id")
 * @parent: the parent of its devices in sysfs (NULL for none: the frontends)
 * @lock: orders adding and removing devices (a mutex, taken before the
 *	driver core's device locks)
 * @watch: the watch on @root
 */
struct xenbus_bus {
	const struct bus_type *bus;
	const char *root;
	unsigned int depth;
	bool frontend;
	const char *otherend_node;
	const char *otherend_id_node;
	struct device *parent;
	struct mutex lock;	/* see above */
	struct xenbus_watch watch;
};

extern const struct bus_type xb_frontend_bus_type;
extern const struct bus_type xb_backend_bus_type;

int xb_bus_register(struct xenbus_bus *xbus);
int xb_bus_init(struct xenbus_bus *xbus);
void xb_bus_scan(struct xenbus_bus *xbus);
int xb_register_driver(struct xenbus_bus *xbus, struct xenbus_driver *drv,
		       struct module *owner, const char *mod_name);

int xs_comms_init(struct xenstore_domain_interface *intf,
		  evtchn_port_t port);
int xs_comms_rebind(evtchn_port_t port);
int xs_send_and_wait(struct xs_request *req);

char *xs_watch_event_alloc(unsigned int len, gfp_t gfp);
void xs_watch_event_free(char *body);
void xs_watch_event(char *body, unsigned int len);
int xs_watch_init(void);

/* /dev/xen/xenbus, also xenfs's "xenbus". */
extern const struct file_operations xen_xenbus_fops;
void xs_local_event(void);
int xenbus_local_handover(domid_t domid);

#endif /* _XEN_XENBUS_XENBUS_H */
