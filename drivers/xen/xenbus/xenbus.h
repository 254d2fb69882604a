/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the files of the xenbus core.
 *
 * xenbus_comms.c owns the ring to xenstored: it sends requests and the
 * reader thread matches replies to them; xenbus_xs.c builds requests and
 * owns watches; xenbus_probe.c finds the ring and starts it all.
 */
#ifndef _XEN_XENBUS_XENBUS_H
#define _XEN_XENBUS_XENBUS_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/io/xs_wire.h>

/**
 * struct xs_request - one request to xenstored and, later, its reply
 * @list: on the in-flight list until the reply comes
 * @msg: the header sent; @msg.req_id is set by xs_send()
 * @vec: the payload, in pieces
 * @nvec: number of pieces
 * @reply: the reply's header
 * @body: the reply's payload, NUL-terminated (one byte more than
 *	@reply.len), allocated by the reader; the caller frees it
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

int xs_comms_init(struct xenstore_domain_interface *intf,
		  evtchn_port_t port);
int xs_send_and_wait(struct xs_request *req);

/* Called by the reader thread for each XS_WATCH_EVENT; owns @body. */
void xs_watch_event(char *body, unsigned int len);
int xs_watch_init(void);

#endif /* _XEN_XENBUS_XENBUS_H */
