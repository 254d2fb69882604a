// SPDX-License-Identifier: GPL-2.0
/*
 * The ring to xenstored.
 *
 * One page holds two byte rings of 1 KiB: requests out, replies and watch
 * events in.  A request is written whole under xs_send_lock, so requests
 * never interleave, and put on the in-flight list under its req_id before
 * its first byte is visible.  The reader thread ("xenbus") takes each
 * message off the reply ring, hands watch events to xenbus_xs.c and
 * completes the request whose req_id a reply carries, so any number of
 * callers can wait at once, each for its own reply.
 *
 * Trust: xenstored writes rsp_prod and req_cons; each is read once per
 * step, and one that puts more bytes in flight than the ring holds, or a
 * message longer than XENSTORE_PAYLOAD_MAX, breaks the connection: one
 * log line, every waiter gets -EIO and nothing further is sent.  A reply
 * to no request in flight is logged and dropped.
 *
 * Lock order: xs_send_lock (mutex) -> xs_flight_lock (spinlock).  The
 * reader takes only xs_flight_lock.
 *
 * Ordering: data before the producer index (virt_wmb), the producer
 * index before the data (virt_rmb), and the data before freeing it with
 * the consumer index (virt_mb).
 *
 * Events to xenstored: each is a hypercall, so they go only when
 * xenstored may be asleep.  xenstored looks at the ring again after each
 * request it handles, before it sleeps; so after a request is in the
 * ring (and the index published, virt_mb), an event is needed only if
 * xenstored had consumed everything before it (req_cons at the old
 * req_prod): otherwise it is still at work and will find the request.
 * A sender that finds the ring full sends one before it waits for room.
 * After reading, an event goes only when the reply ring was full, since
 * only then can xenstored be waiting for room.
 */
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <asm/barrier.h>
#include <xen/events.h>

#include "xenbus.h"
#include "xs_parse.h"

static struct xenstore_domain_interface *xs_intf;
static evtchn_port_t xs_port;
static DECLARE_WAIT_QUEUE_HEAD(xs_ring_wait);
static DEFINE_MUTEX(xs_send_lock);
static DEFINE_SPINLOCK(xs_flight_lock);
static LIST_HEAD(xs_in_flight);
static u32 xs_next_req_id;
static bool xs_broken;

static irqreturn_t xs_interrupt(int irq, void *dev_id)
{
	wake_up(&xs_ring_wait);
	return IRQ_HANDLED;
}

/* Fail every request in flight, and all later ones. */
static void xs_break(const char *why, u32 a, u32 b)
{
	struct xs_request *req, *tmp;
	LIST_HEAD(failed);

	spin_lock(&xs_flight_lock);
	if (!xs_broken)
		pr_err("xenstore: %s (%u, %u); connection closed\n", why, a, b);
	xs_broken = true;
	list_splice_init(&xs_in_flight, &failed);
	spin_unlock(&xs_flight_lock);

	list_for_each_entry_safe(req, tmp, &failed, list) {
		list_del_init(&req->list);
		req->err = -EIO;
		complete(&req->done);
	}
	wake_up_all(&xs_ring_wait);
}

/*
 * Bytes in flight on one ring, its indices read once; negative when the
 * connection is broken, or breaks now because they are impossible.
 */
static int xs_ring_check(const XENSTORE_RING_IDX *cons_p,
			 const XENSTORE_RING_IDX *prod_p, const char *which)
{
	XENSTORE_RING_IDX cons, prod;
	u32 used;

	if (READ_ONCE(xs_broken))
		return -EIO;
	cons = READ_ONCE(*cons_p);
	prod = READ_ONCE(*prod_p);
	used = xs_ring_used(cons, prod);
	if (used > XENSTORE_RING_SIZE) {
		xs_break(which, cons, prod);
		return -EIO;
	}
	return used;
}

/* ---- sending ---- */

/* Bytes we may write now; 0 if none, negative if the ring is broken. */
static int xs_write_room(void)
{
	int used = xs_ring_check(&xs_intf->req_cons, &xs_intf->req_prod,
				 "bad request ring indices");

	return used < 0 ? used : XENSTORE_RING_SIZE - used;
}

static int xs_write(const void *data, unsigned int len)
{
	int room;

	while (len) {
		XENSTORE_RING_IDX prod = xs_intf->req_prod;
		u32 n;

		room = xs_write_room();
		if (!room) {
			/* Let xenstored drain what is there, then wait. */
			notify_remote_via_evtchn(xs_port);
			wait_event(xs_ring_wait, (room = xs_write_room()) != 0);
		}
		if (room < 0)
			return room;
		/* req_cons was read before the space it frees is reused. */
		virt_mb();
		n = min3(len, (u32)room, xs_ring_chunk(prod, room));
		memcpy(xs_intf->req + MASK_XENSTORE_IDX(prod), data, n);
		virt_wmb();	/* the bytes before the index that shows them */
		WRITE_ONCE(xs_intf->req_prod, prod + n);
		data += n;
		len -= n;
	}
	return 0;
}

/*
 * Take a request that failed to send out of flight.  If the connection
 * broke meanwhile, or a reply came, someone else has it and will complete
 * it: wait for that, as the request lives on the caller's stack.
 */
static void xs_forget(struct xs_request *req)
{
	bool mine;

	spin_lock(&xs_flight_lock);
	mine = !list_empty(&req->list);
	if (mine)
		list_del_init(&req->list);
	spin_unlock(&xs_flight_lock);
	if (!mine) {
		wait_for_completion(&req->done);
		kfree(req->body);	/* a reply that raced the failure */
	}
}

/**
 * xs_send_and_wait() - send a request and wait for its reply
 * @req: the request: @req->msg.type, tx_id and the payload set; len is
 *	computed here
 *
 * Return: 0 with @req->reply and @req->body set (the caller frees
 * body), or a negative errno with nothing to free.
 */
int xs_send_and_wait(struct xs_request *req)
{
	XENSTORE_RING_IDX old_prod;
	unsigned int i;
	int rc;

	req->msg.len = 0;
	for (i = 0; i < req->nvec; i++)
		req->msg.len += req->vec[i].iov_len;
	if (req->msg.len > XENSTORE_PAYLOAD_MAX)
		return -E2BIG;
	if (!xs_intf)
		return -ENODEV;
	init_completion(&req->done);
	req->body = NULL;
	req->err = 0;

	mutex_lock(&xs_send_lock);
	spin_lock(&xs_flight_lock);
	if (xs_broken) {
		spin_unlock(&xs_flight_lock);
		mutex_unlock(&xs_send_lock);
		return -EIO;
	}
	req->msg.req_id = xs_next_req_id++;
	list_add_tail(&req->list, &xs_in_flight);
	spin_unlock(&xs_flight_lock);

	old_prod = xs_intf->req_prod;
	rc = xs_write(&req->msg, sizeof(req->msg));
	for (i = 0; !rc && i < req->nvec; i++)
		rc = xs_write(req->vec[i].iov_base, req->vec[i].iov_len);
	virt_mb();	/* the new req_prod is visible before req_cons is read */
	if (READ_ONCE(xs_intf->req_cons) == old_prod)
		notify_remote_via_evtchn(xs_port);
	mutex_unlock(&xs_send_lock);
	if (rc) {
		xs_forget(req);
		return rc;
	}

	wait_for_completion(&req->done);
	return req->err;
}

/* ---- the reader ---- */

/* Bytes we may read now; 0 if none, negative if the ring is broken. */
static int xs_read_avail(void)
{
	return xs_ring_check(&xs_intf->rsp_cons, &xs_intf->rsp_prod,
			     "bad reply ring indices");
}

static int xs_read(void *data, unsigned int len)
{
	int avail;

	while (len) {
		XENSTORE_RING_IDX cons = xs_intf->rsp_cons;
		u32 n;

		wait_event_interruptible(xs_ring_wait,
					 (avail = xs_read_avail()) != 0 ||
					 kthread_should_stop());
		if (avail < 0)
			return avail;
		if (!avail)
			return -EINTR;	/* asked to stop */
		virt_rmb();	/* the index before the bytes it shows */
		n = min(len, xs_ring_chunk(cons, avail));
		memcpy(data, xs_intf->rsp + MASK_XENSTORE_IDX(cons), n);
		virt_mb();	/* the bytes copied before their space is freed */
		WRITE_ONCE(xs_intf->rsp_cons, cons + n);
		if (avail == XENSTORE_RING_SIZE)
			notify_remote_via_evtchn(xs_port);
		data += n;
		len -= n;
	}
	return 0;
}

static void xs_deliver(const struct xsd_sockmsg *msg, char *body)
{
	struct xs_request *req;

	spin_lock(&xs_flight_lock);
	list_for_each_entry(req, &xs_in_flight, list) {
		if (req->msg.req_id == msg->req_id) {
			list_del_init(&req->list);
			spin_unlock(&xs_flight_lock);
			req->reply = *msg;
			req->body = body;
			complete(&req->done);
			return;
		}
	}
	spin_unlock(&xs_flight_lock);
	pr_warn_ratelimited("xenstore: reply (type %u) to no request in flight (id %u) dropped\n",
			    msg->type, msg->req_id);
	kfree(body);
}

static int xs_reader(void *unused)
{
	struct xsd_sockmsg msg;
	char *body;

	while (!kthread_should_stop()) {
		if (xs_read(&msg, sizeof(msg)))
			break;
		if (msg.len > XENSTORE_PAYLOAD_MAX) {
			xs_break("message longer than the protocol allows",
				 msg.type, msg.len);
			break;
		}
		body = kmalloc(msg.len + 1, GFP_KERNEL | __GFP_NOFAIL);
		if (xs_read(body, msg.len)) {
			kfree(body);
			break;
		}
		body[msg.len] = '\0';

		if (msg.type == XS_WATCH_EVENT)
			xs_watch_event(body, msg.len);
		else
			xs_deliver(&msg, body);
	}
	/* Broken: nothing more is read; the thread ends. */
	return 0;
}

/**
 * xs_comms_init() - start talking to xenstored
 * @intf: the shared page, mapped
 * @port: the event channel to xenstored
 *
 * Return: 0 or a negative errno.
 */
int xs_comms_init(struct xenstore_domain_interface *intf, evtchn_port_t port)
{
	struct task_struct *task;
	int irq;

	xs_intf = intf;
	xs_port = port;
	irq = bind_evtchn_to_irqhandler(port, xs_interrupt, 0, "xenbus", NULL);
	if (irq < 0)
		return irq;
	task = kthread_run(xs_reader, NULL, "xenbus");
	if (IS_ERR(task)) {
		/* The irq stays: unbinding would close the toolstack's port. */
		xs_intf = NULL;
		return PTR_ERR(task);
	}
	return 0;
}
