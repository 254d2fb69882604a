// SPDX-License-Identifier: GPL-2.0
/*
 * blkback: a ring, its event channel, and the thread that serves it.
 *
 * The event channel is bound with a late EOI: after an event, the next
 * one is held back until the thread has looked at the ring, so a
 * frontend that floods events costs dom0 one pass of the thread per
 * pass, not an interrupt per event.  Each request is copied out of the
 * ring once and checked before anything acts on it; the request index is
 * checked too (xen_ring_new_requests()), so a frontend cannot make us
 * read slots we have yet to answer.
 */

#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <xen/events.h>
#include <xen/page.h>

#include "blkback.h"

/**
 * blkback_respond() - write a response on the ring
 * @ring: the ring
 * @req: the request answered
 * @status: BLKIF_RSP_*
 *
 * Published with the next push. A broken ring is not answered.
 */
void blkback_respond(struct blkback_ring *ring, const struct blkback_req *req,
		     int status)
{
	struct blkif_response *rsp;

	if (test_bit(BLKBACK_BROKEN, &ring->flags))
		return;
	rsp = &ring->sring->ring[xen_back_ring_slot(&ring->br,
						   ring->br.rsp_prod_pvt)].rsp;
	rsp->id = req->id;
	rsp->operation = req->op;
	rsp->status = status;
	ring->br.rsp_prod_pvt++;
}

/**
 * blkback_broken() - the frontend sent nonsense on this ring
 * @ring: the ring
 * @why: what
 * @req: the request, or NULL when the ring's indices were the nonsense
 *
 * One log line; the ring takes no more requests, and the device goes to
 * Closing.  Requests in flight still complete, unanswered.
 */
void blkback_broken(struct blkback_ring *ring, const char *why,
		    const struct blkback_req *req)
{
	if (test_and_set_bit(BLKBACK_BROKEN, &ring->flags))
		return;
	if (req)
		xenbus_dev_fatal(ring->blkif->xdev, -EPROTO,
				 "ring %u: %s (operation %u, %u segments)",
				 ring->id, why, req->op, req->nr_segs);
	else
		xenbus_dev_fatal(ring->blkif->xdev, -EPROTO, "ring %u: %s",
				 ring->id, why);
}

static void blkback_push(struct blkback_ring *ring)
{
	if (test_bit(BLKBACK_BROKEN, &ring->flags))
		return;
	if (xen_ring_push_responses(&ring->br, &ring->sring->rsp_prod,
				    &ring->sring->rsp_event))
		notify_remote_via_irq(ring->irq);
}

/* Room for one more request: a pending, and pages within the budget. */
static bool blkback_room(struct blkback_ring *ring)
{
	if (list_empty(&ring->free))
		return false;
	return !ring->inflight ||
	       ring->pages_used + BLKBACK_MAX_SEGS <= BLKBACK_RING_PAGES;
}

/*
 * Take what the frontend published, one ring's worth at most, while there
 * is room for it.  Return: true when requests may be left to take now.
 */
static bool blkback_take(struct blkback_ring *ring)
{
	struct blkif_sring *s = ring->sring;
	unsigned int budget = ring->br.nr_ents, slot;
	union blkif_sring_entry copy;
	struct blkback_pending *p;
	struct blk_plug plug;
	bool more = false;
	int n;

	blk_start_plug(&plug);
	while (!test_bit(BLKBACK_BROKEN, &ring->flags)) {
		n = xen_ring_new_requests(&ring->br, READ_ONCE(s->req_prod));
		if (n < 0) {
			blkback_broken(ring, "request index beyond the ring",
				       NULL);
			break;
		}
		if (!n) {
			if (xen_ring_final_check_requests(&ring->br,
							  &s->req_event,
							  &s->req_prod))
				continue;
			break;
		}
		virt_rmb();	/* the index, then the requests */
		for (; n && budget && blkback_room(ring) &&
		     !test_bit(BLKBACK_BROKEN, &ring->flags); n--, budget--) {
			slot = xen_back_ring_slot(&ring->br, ring->br.req_cons++);
			memcpy(&copy, &s->ring[slot], sizeof(copy));
			p = list_first_entry(&ring->free,
					     struct blkback_pending, list);
			list_del(&p->list);
			blkback_io_start(ring, p, &copy);
		}
		/*
		 * Out of room: completions wake the thread again.  Out of
		 * budget: the thread comes back after a look at the rest.
		 */
		if (n) {
			more = !budget;
			if (budget && !test_bit(BLKBACK_BROKEN, &ring->flags))
				blkback_count(&ring->stats.oo_req, 1);
			break;
		}
	}
	blk_finish_plug(&plug);
	return more;
}

static irqreturn_t blkback_interrupt(int irq, void *data)
{
	struct blkback_ring *ring = data;

	set_bit(BLKBACK_KICKED, &ring->flags);
	wake_up(&ring->wq);
	return IRQ_HANDLED;
}

static bool blkback_has_work(struct blkback_ring *ring)
{
	return test_bit(BLKBACK_KICKED, &ring->flags) ||
	       !list_empty_careful(&ring->done) || kthread_should_stop();
}

static int blkback_thread(void *data)
{
	struct blkback_ring *ring = data;
	bool kicked, more = false;

	while (!kthread_should_stop()) {
		if (!more)
			wait_event_interruptible_timeout(ring->wq,
							 blkback_has_work(ring),
							 HZ);
		kicked = test_and_clear_bit(BLKBACK_KICKED, &ring->flags);
		blkback_io_reap(ring);
		more = blkback_take(ring);
		blkback_push(ring);
		if (kicked)
			xen_irq_lateeoi(ring->irq, 0);
		if (!ring->id)
			blkback_check_resize(ring->blkif);
		cond_resched();
	}
	/* Wait for what is in flight: its pages are ours to free. */
	while (ring->inflight) {
		wait_event(ring->wq, !list_empty_careful(&ring->done));
		blkback_io_reap(ring);
	}
	blkback_push(ring);
	return 0;
}

static void blkback_ring_free(struct blkback_ring *ring)
{
	unsigned int i;

	if (ring->pendings) {
		for (i = 0; i < ring->br.nr_ents; i++) {
			kfree(ring->pendings[i].segs);
			kfree(ring->pendings[i].pages);
			free_page((unsigned long)ring->pendings[i].desc);
		}
	}
	kvfree(ring->pendings);
	ring->pendings = NULL;
	blkback_grants_release(ring);
	blkback_pool_drain(ring);
	kfree(ring->pool);
	ring->pool = NULL;
	kvfree(ring->copy);
	ring->copy = NULL;
	kvfree(ring->copy_owner);
	ring->copy_owner = NULL;
}

static int blkback_ring_alloc(struct blkback_ring *ring)
{
	struct blkback_pending *p;
	unsigned int i;

	ring->pendings = kvcalloc(ring->br.nr_ents, sizeof(*p), GFP_KERNEL);
	ring->pool = kcalloc(BLKBACK_POOL_PAGES, sizeof(*ring->pool),
			     GFP_KERNEL);
	ring->copy = kvcalloc(BLKBACK_MAX_SEGS, sizeof(*ring->copy),
			      GFP_KERNEL);
	ring->copy_owner = kvcalloc(BLKBACK_MAX_SEGS,
				    sizeof(*ring->copy_owner), GFP_KERNEL);
	if (!ring->pendings || !ring->pool || !ring->copy || !ring->copy_owner)
		return -ENOMEM;
	INIT_LIST_HEAD(&ring->free);
	for (i = 0; i < ring->br.nr_ents; i++) {
		p = &ring->pendings[i];
		p->ring = ring;
		p->segs = kcalloc(BLKBACK_MAX_SEGS, sizeof(*p->segs),
				  GFP_KERNEL);
		p->pages = kcalloc(BLKBACK_MAX_SEGS, sizeof(*p->pages),
				   GFP_KERNEL);
		p->desc = (void *)get_zeroed_page(GFP_KERNEL);
		if (!p->segs || !p->pages || !p->desc)
			return -ENOMEM;
		list_add_tail(&p->list, &ring->free);
	}
	return 0;
}

/**
 * blkback_ring_connect() - map a ring, bind its event channel, start serving
 * @ring: the ring; @ring->blkif and @ring->id set, the rest zero
 * @grefs: the grants of its pages
 * @nr_grefs: how many
 * @port: the frontend's end of its event channel
 *
 * Return: 0, or a negative errno once reported on the device and all
 * undone.
 */
int blkback_ring_connect(struct blkback_ring *ring, const grant_ref_t *grefs,
			 unsigned int nr_grefs, evtchn_port_t port)
{
	struct xenbus_device *xdev = ring->blkif->xdev;
	void *addr;
	int rc;

	init_waitqueue_head(&ring->wq);
	spin_lock_init(&ring->done_lock);
	INIT_LIST_HEAD(&ring->done);
	INIT_LIST_HEAD(&ring->free);
	rc = blkback_grants_init(ring);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "ring %u: allocating grant maps",
				 ring->id);
		goto fail;
	}

	rc = xenbus_map_ring_valloc(xdev, (grant_ref_t *)grefs, nr_grefs, &addr);
	if (rc)
		goto fail;	/* reported by xenbus */
	ring->sring = addr;
	xen_back_ring_attach(&ring->br,
			     XEN_SRING_ENTRIES(blkif, nr_grefs * XEN_PAGE_SIZE),
			     READ_ONCE(ring->sring->rsp_prod));

	rc = blkback_ring_alloc(ring);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "ring %u: allocating requests",
				 ring->id);
		goto fail;
	}
	rc = bind_interdomain_evtchn_to_irqhandler_lateeoi(xdev, port,
							   blkback_interrupt,
							   0, "blkif-backend",
							   ring);
	if (rc < 0) {
		xenbus_dev_fatal(xdev, rc, "ring %u: binding event channel %u",
				 ring->id, port);
		goto fail;
	}
	ring->irq = rc;
	ring->thread = kthread_run(blkback_thread, ring, "blkback.%d.%s-%u",
				   xdev->otherend_id, dev_name(&xdev->dev),
				   ring->id);
	if (IS_ERR(ring->thread)) {
		rc = PTR_ERR(ring->thread);
		ring->thread = NULL;
		xenbus_dev_fatal(xdev, rc, "ring %u: starting its thread",
				 ring->id);
		goto fail;
	}
	return 0;

fail:
	blkback_ring_disconnect(ring);
	return rc;
}

/**
 * blkback_ring_disconnect() - stop serving a ring and undo its connection
 * @ring: the ring, connected or partly
 *
 * Waits for the requests in flight to complete.
 */
void blkback_ring_disconnect(struct blkback_ring *ring)
{
	if (ring->thread) {
		kthread_stop(ring->thread);
		ring->thread = NULL;
	}
	if (ring->irq) {
		unbind_from_irqhandler(ring->irq, ring);
		ring->irq = 0;
	}
	if (ring->sring) {
		xenbus_unmap_ring_vfree(ring->blkif->xdev, ring->sring);
		ring->sring = NULL;
	}
	blkback_ring_free(ring);
}
