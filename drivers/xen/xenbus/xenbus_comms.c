// SPDX-License-Identifier: GPL-2.0
/*
 * The ring to xenstored.
 *
 * One page holds two byte rings of 1 KiB: requests out, replies and watch
 * events in.  A request is written whole under xs_send_lock, so requests
 * never interleave, and put on the in-flight list under its req_id before
 * its first byte is visible.  The ring's interrupt handler takes each
 * message off the reply ring, hands watch events to xenbus_xs.c (whose
 * thread delivers them) and completes the request whose req_id a reply
 * carries, so any number of callers can wait at once, each for its own
 * reply, and a reply costs its caller one wakeup.  A message's bytes
 * may arrive over several interrupts; the one being read is kept
 * between them.  Its body is allocated atomically; should that fail, a
 * work item allocates it and reading goes on from there.
 *
 * Trust: xenstored writes rsp_prod and req_cons; each is read once per
 * step, and one that puts more bytes in flight than the ring holds, or a
 * message longer than XENSTORE_PAYLOAD_MAX, breaks the connection: one
 * log line, every waiter gets -EIO and nothing further is sent.  A reply
 * to no request in flight is logged and dropped.  No wait on xenstored is
 * unbounded: a request with no reply after XS_TIMEOUT fails with
 * -ETIMEDOUT (its reply, should it come, then finds no request and is
 * dropped), and a ring that takes no byte of a request for XS_TIMEOUT
 * breaks the connection, since what was written of the request can no
 * longer be taken back.  The interrupt reads
 * at most XS_READ_BUDGET bytes, however fast xenstored refills the ring,
 * and leaves the rest to a work item; its channel is bound with late
 * EOI, and an event that brought nothing (no byte to read, no room
 * freed) is spurious, so that a flood of empty events is slowed down.
 *
 * Lock order: xs_send_lock (mutex) -> xs_flight_lock (spinlock), and
 * xs_read_lock (spinlock, the message being read) -> xs_flight_lock.
 * Both spinlocks are taken in the interrupt handler, so elsewhere with
 * interrupts off.
 *
 * Ordering: data before the producer index (virt_wmb), the producer
 * index before the data (virt_rmb), and the data before freeing it with
 * the consumer index (virt_mb).
 *
 * Events to xenstored: each is a hypercall, so they go only when
 * xenstored may be asleep.  xenstored looks at the ring again after each
 * request it handles, before it sleeps; so after a request is in the
 * ring (and the index published, virt_mb), an event is needed unless
 * bytes from before it are still unread (xenstored is then at work and
 * will find the request).  Having read part of the request proves
 * nothing: its header is published before its payload, and xenstored
 * may have read the header and gone to sleep waiting for the rest (see
 * xs_request_needs_event()).  A sender that finds the ring full sends
 * one before it waits for room.
 * After reading, an event goes only when the reply ring was full, since
 * only then can xenstored be waiting for room.
 */
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
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

/* The longest xenstored may take to make room, or to answer. */
#define XS_TIMEOUT	(60 * HZ)

/* Bytes the reader takes in one go: the rest waits for the work item. */
#define XS_READ_BUDGET	(4 * XENSTORE_RING_SIZE)

/* Fail every request in flight, and all later ones. */
static void xs_break(const char *why, u32 a, u32 b)
{
	struct xs_request *req, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&xs_flight_lock, flags);
	if (!xs_broken)
		pr_err("xenstore: %s (%u, %u); connection closed\n", why, a, b);
	xs_broken = true;
	/* Under the lock, so that xs_forget() sees each one taken. */
	list_for_each_entry_safe(req, tmp, &xs_in_flight, list) {
		list_del_init(&req->list);
		req->err = -EIO;
		complete(&req->done);
	}
	spin_unlock_irqrestore(&xs_flight_lock, flags);
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
			notify_remote_via_evtchn(READ_ONCE(xs_port));
			wait_event_timeout(xs_ring_wait,
					   (room = xs_write_room()) != 0,
					   XS_TIMEOUT);
			if (!room) {
				xs_break("no room in the request ring for seconds",
					 XS_TIMEOUT / HZ, len);
				return -EIO;
			}
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

	spin_lock_irq(&xs_flight_lock);
	mine = !list_empty(&req->list);
	if (mine)
		list_del_init(&req->list);
	spin_unlock_irq(&xs_flight_lock);
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
	bool mine;
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
	spin_lock_irq(&xs_flight_lock);
	if (xs_broken) {
		spin_unlock_irq(&xs_flight_lock);
		mutex_unlock(&xs_send_lock);
		return -EIO;
	}
	req->msg.req_id = xs_next_req_id++;
	list_add_tail(&req->list, &xs_in_flight);
	spin_unlock_irq(&xs_flight_lock);

	old_prod = xs_intf->req_prod;
	rc = xs_write(&req->msg, sizeof(req->msg));
	for (i = 0; !rc && i < req->nvec; i++)
		rc = xs_write(req->vec[i].iov_base, req->vec[i].iov_len);
	virt_mb();	/* the new req_prod is visible before req_cons is read */
	if (xs_request_needs_event(old_prod, READ_ONCE(xs_intf->req_cons)))
		notify_remote_via_evtchn(READ_ONCE(xs_port));
	mutex_unlock(&xs_send_lock);
	if (rc) {
		xs_forget(req);
		return rc;
	}

	if (!wait_for_completion_timeout(&req->done, XS_TIMEOUT)) {
		spin_lock_irq(&xs_flight_lock);
		mine = !list_empty(&req->list);
		if (mine)
			list_del_init(&req->list);
		spin_unlock_irq(&xs_flight_lock);
		if (mine) {
			pr_warn_ratelimited("xenstore: no reply in %d s to a request of type %u; given up\n",
					    XS_TIMEOUT / HZ, req->msg.type);
			return -ETIMEDOUT;
		}
		/* Its reply came meanwhile, or the connection broke. */
		wait_for_completion(&req->done);
	}
	return req->err;
}

/* ---- the reader ---- */

/*
 * The message being read, under xs_read_lock: its header, then its
 * body, which is allocated once the header is whole.  xs_in_got counts
 * the bytes of both read so far.
 */
static DEFINE_SPINLOCK(xs_read_lock);
static struct xsd_sockmsg xs_in_msg;
static char *xs_in_body;
static unsigned int xs_in_got;

static void xs_read_retry(struct work_struct *work);
static DECLARE_WORK(xs_read_work, xs_read_retry);

/*
 * Copy up to @len bytes off the reply ring into @data.  Return: the
 * bytes copied, 0 when the ring is empty, negative when it is broken.
 */
static int xs_read_some(void *data, unsigned int len)
{
	XENSTORE_RING_IDX cons = xs_intf->rsp_cons;
	int avail = xs_ring_check(&xs_intf->rsp_cons, &xs_intf->rsp_prod,
				  "bad reply ring indices");
	u32 n;

	if (avail <= 0)
		return avail;
	virt_rmb();	/* the index before the bytes it shows */
	n = min(len, xs_ring_chunk(cons, avail));
	memcpy(data, xs_intf->rsp + MASK_XENSTORE_IDX(cons), n);
	virt_mb();	/* the bytes copied before their space is freed */
	WRITE_ONCE(xs_intf->rsp_cons, cons + n);
	if (avail == XENSTORE_RING_SIZE)
		notify_remote_via_evtchn(READ_ONCE(xs_port));
	return n;
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

static void xs_free_body(u32 type, char *body)
{
	if (type == XS_WATCH_EVENT)
		xs_watch_event_free(body);
	else
		kfree(body);
}

/*
 * Read every whole message the ring holds and hand each on; stop at an
 * empty ring, after XS_READ_BUDGET bytes, or when a body cannot be
 * allocated with @gfp (in the last two cases the work item goes on).
 * Interrupts off, with xs_read_lock held.  Returns the bytes read.
 */
static unsigned int xs_read_ring(gfp_t gfp)
{
	const unsigned int hdr = sizeof(xs_in_msg);
	unsigned int len, got = 0;
	char *body;
	int n;

	lockdep_assert_held(&xs_read_lock);
	for (;;) {
		if (got >= XS_READ_BUDGET) {
			schedule_work(&xs_read_work);
			break;
		}
		if (xs_in_got < hdr) {
			n = xs_read_some((char *)&xs_in_msg + xs_in_got,
					 hdr - xs_in_got);
			if (n <= 0)
				break;
			xs_in_got += n;
			got += n;
			if (xs_in_got < hdr)
				continue;
			if (xs_in_msg.len > XENSTORE_PAYLOAD_MAX) {
				xs_break("message longer than the protocol allows",
					 xs_in_msg.type, xs_in_msg.len);
				break;
			}
		}
		len = xs_in_msg.len;
		if (!xs_in_body) {
			xs_in_body = xs_in_msg.type == XS_WATCH_EVENT ?
				     xs_watch_event_alloc(len, gfp) :
				     kmalloc(len + 1, gfp);
			if (!xs_in_body) {
				schedule_work(&xs_read_work);
				return got;
			}
		}
		if (xs_in_got - hdr < len) {
			n = xs_read_some(xs_in_body + xs_in_got - hdr,
					 len - (xs_in_got - hdr));
			if (n <= 0)
				break;
			xs_in_got += n;
			got += n;
			continue;
		}

		body = xs_in_body;
		body[len] = '\0';
		xs_in_body = NULL;
		xs_in_got = 0;
		if (xs_in_msg.type == XS_WATCH_EVENT)
			xs_watch_event(body, len);
		else
			xs_deliver(&xs_in_msg, body);
	}
	/* Broken: nothing more is read, and the message in progress goes. */
	if (READ_ONCE(xs_broken) && xs_in_body) {
		xs_free_body(xs_in_msg.type, xs_in_body);
		xs_in_body = NULL;
	}
	return got;
}

/*
 * Go on reading where the interrupt stopped: after its budget, or at a
 * body it could not allocate, which is allocated here.
 */
static void xs_read_retry(struct work_struct *work)
{
	unsigned long flags;
	char *body = NULL;
	u32 type, len;
	bool need;

	spin_lock_irqsave(&xs_read_lock, flags);
	need = xs_in_got >= sizeof(xs_in_msg) && !xs_in_body &&
	       !xs_broken;
	type = xs_in_msg.type;
	len = xs_in_msg.len;
	spin_unlock_irqrestore(&xs_read_lock, flags);
	if (need)
		body = type == XS_WATCH_EVENT ?
		       xs_watch_event_alloc(len, GFP_KERNEL | __GFP_NOFAIL) :
		       kmalloc(len + 1, GFP_KERNEL | __GFP_NOFAIL);

	/* The interrupt may have gone on meanwhile: a body of this shape? */
	spin_lock_irqsave(&xs_read_lock, flags);
	if (body && xs_in_got >= sizeof(xs_in_msg) && !xs_in_body &&
	    !xs_broken && xs_in_msg.type == type && xs_in_msg.len == len) {
		xs_in_body = body;
		body = NULL;
	}
	xs_read_ring(GFP_ATOMIC | __GFP_NOWARN);
	spin_unlock_irqrestore(&xs_read_lock, flags);
	if (body)
		xs_free_body(type, body);
	wake_up(&xs_ring_wait);
}

/* req_cons as the last event saw it: only the interrupt handler uses it. */
static XENSTORE_RING_IDX xs_event_req_cons;

static irqreturn_t xs_interrupt(int irq, void *dev_id)
{
	XENSTORE_RING_IDX req_cons = READ_ONCE(xs_intf->req_cons);
	unsigned int got;

	xs_local_event();
	spin_lock(&xs_read_lock);
	got = xs_read_ring(GFP_ATOMIC | __GFP_NOWARN);
	spin_unlock(&xs_read_lock);
	/* Room in the request ring, for a sender waiting for it. */
	wake_up(&xs_ring_wait);
	xen_irq_lateeoi(irq, got || req_cons != xs_event_req_cons ?
			0 : XEN_EOI_FLAG_SPURIOUS);
	xs_event_req_cons = req_cons;
	return IRQ_HANDLED;
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
	int irq;

	xs_intf = intf;
	xs_port = port;
	xs_event_req_cons = READ_ONCE(intf->req_cons);
	irq = bind_evtchn_to_irqhandler_lateeoi(port, xs_interrupt, 0, "xenbus",
						NULL);
	if (irq < 0) {
		xs_intf = NULL;
		return irq;
	}
	return 0;
}

/**
 * xs_comms_rebind() - go on with the same ring through another port
 * @port: the new event channel, ours
 *
 * For dom0 giving its ring to a xenstore domain before any xenstored
 * has connected: what the ring holds stays, the old port is closed.
 *
 * Return: 0, or a negative errno with the old port kept.
 */
int xs_comms_rebind(evtchn_port_t port)
{
	unsigned int old = irq_from_evtchn(xs_port);
	int irq;

	irq = bind_evtchn_to_irqhandler_lateeoi(port, xs_interrupt, 0, "xenbus",
						NULL);
	if (irq < 0)
		return irq;
	/* Senders notify under the lock: none uses the old port after. */
	mutex_lock(&xs_send_lock);
	WRITE_ONCE(xs_port, port);
	mutex_unlock(&xs_send_lock);
	unbind_from_irqhandler(old, NULL);
	return 0;
}
