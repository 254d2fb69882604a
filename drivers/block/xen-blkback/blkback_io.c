// SPDX-License-Identifier: GPL-2.0
/*
 * blkback: carrying a checked request out.
 *
 * A segment whose grant the ring keeps mapped (blkback_grants.c) is read
 * or written by the bio in the frontend's page itself.  Any other
 * segment of a write is copied from the frontend's granted page into
 * ours, with one GNTTABOP_copy for the whole request, then written with
 * bios; of a read, it is read into our page, and once the request's bios
 * are done the ring's thread copies it to the frontend, batching the
 * copies of every read completed meanwhile into one hypercall.  A copy
 * Xen refuses (a grant the frontend revoked, or never gave) fails that
 * request alone.
 */

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/gfp.h>
#include <linux/ratelimit.h>
#include <xen/grant_table.h>
#include <xen/page.h>

#include "blkback.h"

/* ---- our pages ---- */

static struct page *blkback_page_get(struct blkback_ring *ring)
{
	if (ring->pool_count)
		return ring->pool[--ring->pool_count];
	return alloc_page(GFP_NOIO | __GFP_NORETRY | __GFP_NOWARN);
}

static void blkback_pages_put(struct blkback_ring *ring,
			      struct blkback_pending *p)
{
	unsigned int i;

	for (i = 0; i < p->req.nr_segs; i++) {
		if (!p->pages[i])
			continue;
		if (test_bit(i, p->mapped)) {
			p->pages[i] = NULL;	/* the grant's: it stays */
			continue;
		}
		ring->pages_used--;
		if (ring->pool_count < BLKBACK_POOL_PAGES)
			ring->pool[ring->pool_count++] = p->pages[i];
		else
			__free_page(p->pages[i]);
		p->pages[i] = NULL;
	}
}

/**
 * blkback_pool_drain() - free a ring's idle pages
 * @ring: the ring, its thread stopped
 */
void blkback_pool_drain(struct blkback_ring *ring)
{
	while (ring->pool_count)
		__free_page(ring->pool[--ring->pool_count]);
}

/*
 * A page for each segment: its grant's, mapped, or one of ours to copy
 * through.
 */
static int blkback_pages_get(struct blkback_ring *ring,
			     struct blkback_pending *p)
{
	unsigned int i, n = p->req.nr_segs;

	bitmap_zero(p->mapped, BLKBACK_MAX_SEGS);
	blkback_grants_get(ring, p->segs, n, p->pages);
	for (i = 0; i < n; i++) {
		if (p->pages[i]) {
			__set_bit(i, p->mapped);
			continue;
		}
		p->pages[i] = blkback_page_get(ring);
		if (!p->pages[i]) {
			blkback_pages_put(ring, p);
			return -ENOMEM;
		}
		ring->pages_used++;
	}
	return 0;
}

/* ---- grant copies ---- */

/* One copy between a frontend's granted page and a page of ours. */
static void blkback_copy_add(struct blkback_ring *ring,
			     struct blkback_pending *p, grant_ref_t gref,
			     struct page *page, unsigned int offset,
			     unsigned int len, bool to_frontend)
{
	struct gnttab_copy *op = &ring->copy[ring->nr_copy];
	domid_t domid = ring->blkif->xdev->otherend_id;

	memset(op, 0, sizeof(*op));
	if (to_frontend) {
		op->source.u.gmfn = xen_page_to_gfn(page);
		op->source.domid = DOMID_SELF;
		op->source.offset = offset;
		op->dest.u.ref = gref;
		op->dest.domid = domid;
		op->dest.offset = offset;
		op->flags = GNTCOPY_dest_gref;
	} else {
		op->source.u.ref = gref;
		op->source.domid = domid;
		op->source.offset = offset;
		op->dest.u.gmfn = xen_page_to_gfn(page);
		op->dest.domid = DOMID_SELF;
		op->dest.offset = offset;
		op->flags = GNTCOPY_source_gref;
	}
	op->len = len;
	ring->copy_owner[ring->nr_copy++] = p;
}

/* Issue the batch; a refused copy fails the request it was for. */
static void blkback_copy_flush(struct blkback_ring *ring)
{
	struct blkback_pending *p;
	unsigned int i;

	if (!ring->nr_copy)
		return;
	gnttab_batch_copy(ring->copy, ring->nr_copy);
	for (i = 0; i < ring->nr_copy; i++) {
		if (ring->copy[i].status == GNTST_okay)
			continue;
		p = ring->copy_owner[i];
		if (p->status == BLKIF_RSP_OKAY)
			pr_warn_ratelimited("xen-blkback: %s: grant %u: copy refused (%d)\n",
					    dev_name(&ring->blkif->xdev->dev),
					    ring->copy[i].flags & GNTCOPY_dest_gref ?
					    ring->copy[i].dest.u.ref :
					    ring->copy[i].source.u.ref,
					    ring->copy[i].status);
		p->status = BLKIF_RSP_ERROR;
	}
	ring->nr_copy = 0;
}

/* ---- bios ---- */

static void blkback_pending_done(struct blkback_pending *p)
{
	struct blkback_ring *ring = p->ring;
	unsigned long flags;

	if (!atomic_dec_and_test(&p->bios))
		return;
	/*
	 * Woken under the lock: once the thread has seen the list empty
	 * of us, the ring may be freed.
	 */
	spin_lock_irqsave(&ring->done_lock, flags);
	list_add_tail(&p->list, &ring->done);
	wake_up(&ring->wq);
	spin_unlock_irqrestore(&ring->done_lock, flags);
}

static void blkback_bio_end(struct bio *bio)
{
	struct blkback_pending *p = bio->bi_private;

	if (bio->bi_status == BLK_STS_NOTSUPP)
		WRITE_ONCE(p->status, BLKIF_RSP_EOPNOTSUPP);
	else if (bio->bi_status)
		WRITE_ONCE(p->status, BLKIF_RSP_ERROR);
	bio_put(bio);
	blkback_pending_done(p);
}

static struct bio *blkback_bio_new(struct blkback_pending *p, blk_opf_t opf,
				   sector_t sector, unsigned int segs_left)
{
	struct bio *bio;

	bio = bio_alloc(p->ring->blkif->bdev, min(segs_left, BIO_MAX_VECS),
			opf, GFP_NOIO);
	bio->bi_iter.bi_sector = sector;
	bio->bi_private = p;
	bio->bi_end_io = blkback_bio_end;
	atomic_inc(&p->bios);
	return bio;
}

static blk_opf_t blkback_opf(u8 op)
{
	switch (op) {
	case BLKIF_OP_READ:
		return REQ_OP_READ;
	case BLKIF_OP_WRITE:
		return REQ_OP_WRITE | REQ_SYNC | REQ_IDLE;
	default:	/* BLKIF_OP_FLUSH_DISKCACHE */
		return REQ_OP_WRITE | REQ_SYNC | REQ_PREFLUSH;
	}
}

/*
 * The request's segments are consecutive sectors: one bio holds them,
 * unless the block layer refuses a page, and then the next one goes on.
 */
static void blkback_submit(struct blkback_pending *p)
{
	blk_opf_t opf = blkback_opf(p->req.op);
	sector_t sector = p->req.sector;
	struct bio *bio = NULL;
	unsigned int i;

	atomic_set(&p->bios, 1);
	for (i = 0; i < p->req.nr_segs; i++) {
		const struct blkback_seg *seg = &p->segs[i];

		if (bio && bio_add_page(bio, p->pages[i], seg->len,
					seg->offset) == seg->len) {
			sector += seg->len >> BLKBACK_SECT_SHIFT;
			continue;
		}
		if (bio) {
			submit_bio(bio);
			/* Only the first bio flushes first. */
			opf &= ~REQ_PREFLUSH;
		}
		bio = blkback_bio_new(p, opf, sector, p->req.nr_segs - i);
		if (bio_add_page(bio, p->pages[i], seg->len,
				 seg->offset) != seg->len) {
			/* A page a fresh bio refuses: the disk's limits. */
			bio->bi_status = BLK_STS_IOERR;
			bio_endio(bio);
			bio = NULL;
			break;
		}
		sector += seg->len >> BLKBACK_SECT_SHIFT;
	}
	if (!p->req.nr_segs)
		bio = blkback_bio_new(p, opf, 0, 0);
	if (bio)
		submit_bio(bio);
	blkback_pending_done(p);
}

/* ---- requests ---- */

static void blkback_finish(struct blkback_ring *ring, struct blkback_pending *p)
{
	blkback_respond(ring, &p->req, p->status);
	blkback_pages_put(ring, p);
	list_add(&p->list, &ring->free);
	ring->inflight--;
}

static void blkback_discard(struct blkback_ring *ring, struct blkback_pending *p)
{
	struct block_device *bdev = ring->blkif->bdev;
	int rc;

	if (p->req.secure)
		rc = blkdev_issue_secure_erase(bdev, p->req.sector,
					       p->req.nr_sects, GFP_NOIO);
	else
		rc = blkdev_issue_discard(bdev, p->req.sector,
					  p->req.nr_sects, GFP_NOIO);
	if (rc == -EOPNOTSUPP)
		p->status = BLKIF_RSP_EOPNOTSUPP;
	else if (rc)
		p->status = BLKIF_RSP_ERROR;
}

/* Act on a verdict other than BLKBACK_OK; true when the request is over. */
static bool blkback_judged(struct blkback_ring *ring, struct blkback_pending *p,
			   enum blkback_verdict v, const char *why)
{
	switch (v) {
	case BLKBACK_OK:
		return false;
	case BLKBACK_NONSENSE:
		blkback_broken(ring, why, &p->req);
		/* Never answered: the frontend broke the protocol. */
		list_add(&p->list, &ring->free);
		ring->inflight--;
		return true;
	case BLKBACK_UNSUPPORTED:
		p->status = BLKIF_RSP_EOPNOTSUPP;
		break;
	case BLKBACK_FAIL:
		pr_info_ratelimited("xen-blkback: %s: request %llu: %s\n",
				    dev_name(&ring->blkif->xdev->dev),
				    p->req.id, why);
		p->status = BLKIF_RSP_ERROR;
		break;
	}
	p->req.nr_segs = 0;	/* no page of ours yet */
	blkback_finish(ring, p);
	return true;
}

/* Copy an indirect request's descriptors over, then check its segments. */
static enum blkback_verdict blkback_indirect(struct blkback_ring *ring,
					     struct blkback_pending *p,
					     const struct blkback_limits *lim,
					     const char **why)
{
	size_t size = p->req.nr_segs * sizeof(struct blkif_request_segment);
	struct blkback_seg page = { .gref = p->req.indirect_grefs[0] };
	struct page *mapped;

	/* BLKBACK_MAX_SEGS descriptors fit one page: nr_indirect is 1. */
	blkback_grants_get(ring, &page, 1, &mapped);
	if (mapped) {
		/* Copied once: the frontend may change its page meanwhile. */
		memcpy(p->desc, page_address(mapped), size);
	} else {
		blkback_copy_add(ring, p, p->req.indirect_grefs[0],
				 virt_to_page(p->desc), 0, size, false);
		blkback_copy_flush(ring);
		if (p->status != BLKIF_RSP_OKAY) {
			*why = "descriptor page not granted";
			return BLKBACK_FAIL;
		}
	}
	return blkback_req_parse_segs(p->desc, lim, &p->req, p->segs, why);
}

/**
 * blkback_io_start() - take a request copied out of the ring
 * @ring: its ring
 * @p: a free pending, now in use
 * @slot: the copy
 *
 * Checks it, then answers it at once (an error, a discard) or starts its
 * I/O; either way @p is the request's until it is answered.
 */
void blkback_io_start(struct blkback_ring *ring, struct blkback_pending *p,
		      const union blkif_sring_entry *slot)
{
	struct blkback_limits lim = ring->blkif->lim;
	enum blkback_verdict v;
	const char *why = NULL;
	unsigned int i;

	BUILD_BUG_ON(BLKBACK_MAX_SEGS > BLKBACK_SEGS_PER_PAGE);
	lim.sectors = READ_ONCE(ring->blkif->lim.sectors);
	p->status = BLKIF_RSP_OKAY;
	ring->inflight++;
	v = blkback_req_parse(slot, &lim, &p->req, p->segs, &why);
	if (v == BLKBACK_OK && p->req.indirect)
		v = blkback_indirect(ring, p, &lim, &why);
	if (blkback_judged(ring, p, v, why))
		return;

	switch (p->req.op) {
	case BLKIF_OP_READ:
		blkback_count(&ring->stats.rd_req, 1);
		blkback_count(&ring->stats.rd_sect, p->req.nr_sects);
		break;
	case BLKIF_OP_WRITE:
		blkback_count(&ring->stats.wr_req, 1);
		blkback_count(&ring->stats.wr_sect, p->req.nr_sects);
		break;
	case BLKIF_OP_DISCARD:
		blkback_count(&ring->stats.ds_req, 1);
		break;
	default:
		blkback_count(&ring->stats.f_req, 1);
		break;
	}
	if (p->req.op == BLKIF_OP_DISCARD) {
		blkback_discard(ring, p);
		p->req.nr_segs = 0;
		blkback_finish(ring, p);
		return;
	}
	if (blkback_pages_get(ring, p)) {
		pr_warn_ratelimited("xen-blkback: %s: no memory for a request\n",
				    dev_name(&ring->blkif->xdev->dev));
		p->status = BLKIF_RSP_ERROR;
		p->req.nr_segs = 0;
		blkback_finish(ring, p);
		return;
	}
	if (p->req.op != BLKIF_OP_READ && p->req.nr_segs) {
		for (i = 0; i < p->req.nr_segs; i++)
			if (!test_bit(i, p->mapped))
				blkback_copy_add(ring, p, p->segs[i].gref,
						 p->pages[i], p->segs[i].offset,
						 p->segs[i].len, false);
		blkback_copy_flush(ring);
		if (p->status != BLKIF_RSP_OKAY) {
			blkback_finish(ring, p);
			return;
		}
	}
	blkback_submit(p);
}

/**
 * blkback_io_reap() - answer the requests whose I/O completed
 * @ring: the ring; called by its thread
 *
 * Reads go back to the frontend in as few grant copies as the batch
 * holds, then every request is answered.
 */
void blkback_io_reap(struct blkback_ring *ring)
{
	struct blkback_pending *p, *tmp;
	unsigned int i;
	LIST_HEAD(done);

	spin_lock_irq(&ring->done_lock);
	list_splice_init(&ring->done, &done);
	spin_unlock_irq(&ring->done_lock);
	if (list_empty(&done))
		return;

	list_for_each_entry(p, &done, list) {
		if (p->req.op != BLKIF_OP_READ || p->status != BLKIF_RSP_OKAY ||
		    test_bit(BLKBACK_BROKEN, &ring->flags))
			continue;
		if (ring->nr_copy + p->req.nr_segs > BLKBACK_MAX_SEGS)
			blkback_copy_flush(ring);
		for (i = 0; i < p->req.nr_segs; i++)
			if (!test_bit(i, p->mapped))
				blkback_copy_add(ring, p, p->segs[i].gref,
						 p->pages[i], p->segs[i].offset,
						 p->segs[i].len, true);
	}
	blkback_copy_flush(ring);
	list_for_each_entry_safe(p, tmp, &done, list) {
		list_del(&p->list);
		blkback_finish(ring, p);
	}
}
