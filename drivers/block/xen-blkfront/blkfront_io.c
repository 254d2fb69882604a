// SPDX-License-Identifier: GPL-2.0
/*
 * blkfront's data path: blk-mq requests onto the shared ring, the
 * backend's responses back to blk-mq.
 *
 * Each blk-mq hardware queue has a ring of its own (blkfront_ring.c).
 * Each request takes one slot of it, its blk-mq tag, which is also the
 * id the response must echo.  Each segment goes through one of the
 * ring's granted data pages, at the same offset: copied there before a
 * write is sent, copied back when a read is done.  The request's own
 * pages are never granted (see blkfront_ring.c).
 *
 * Nothing the backend writes is trusted: the response producer index may
 * not claim more responses than requests in flight, and each response is
 * copied out of the ring before its id, operation and status are looked
 * at.  Anything else marks the disk broken (no more I/O), logs one line
 * and closes the device; the requests then still in flight are failed
 * when it closes.  A backend that holds a request past the queue's
 * timeout (30 s unless sysfs io_timeout says otherwise), or for more
 * than BLKFRONT_GRACE once the disk is being taken down, is broken too:
 * no wait for it is unbounded.
 *
 * Locking: blkfront_ring.lock (see blkfront.h); requests are ended after
 * it is dropped, since ending one may submit another.
 */
#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <xen/events.h>
#include <xen/page.h>

#include "blkfront.h"

/**
 * blkfront_broken() - the backend broke the protocol: stop and close
 * @ring: the ring it broke it on, its lock held
 * @why: what it did
 * @val: the offending value
 *
 * Only the first call for a disk logs.
 */
void blkfront_broken(struct blkfront_ring *ring, const char *why,
		     unsigned long long val)
{
	struct blkfront_info *info = ring->info;

	lockdep_assert_held(&ring->lock);
	if (test_and_set_bit(BLKFRONT_BROKEN, &info->flags))
		return;
	dev_err(&info->xdev->dev, "backend %s: %s %llu on ring %u; closing\n",
		info->xdev->otherend, why, val, ring->id);
	schedule_work(&info->close_work);
}

static bool blkfront_is_read(const struct blkfront_shadow *s)
{
	return s->op == BLKIF_OP_READ ||
	       (s->op == BLKIF_OP_INDIRECT && s->inner_op == BLKIF_OP_READ);
}

/*
 * Hand a request's granted data pages back to the ring, first copying a
 * read's data out of them when @copy.
 */
static void blkfront_unmap(struct blkfront_ring *ring,
			   struct blkfront_shadow *s, bool copy)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(s->sg, sg, s->nseg, i) {
		struct blkfront_pgrant *pg = s->pg[i];

		if (!pg)
			break;
		if (copy)
			memcpy_to_page(sg_page(sg), sg->offset,
				       page_address(pg->page) + sg->offset,
				       sg->length);
		blkfront_pgrant_put(ring, pg);
		s->pg[i] = NULL;
	}
	s->nseg = 0;
}

static blk_status_t blkfront_rsp_status(s16 status)
{
	switch (status) {
	case BLKIF_RSP_OKAY:
		return BLK_STS_OK;
	case BLKIF_RSP_EOPNOTSUPP:
		return BLK_STS_NOTSUPP;
	default:
		return BLK_STS_IOERR;
	}
}

/*
 * The backend may refuse a flush or a discard at any time, even one it
 * offered: not sent again, said once.
 */
static void blkfront_refused(struct blkfront_info *info, u8 op)
{
	struct gendisk *disk = info->disk;

	switch (op) {
	case BLKIF_OP_FLUSH_DISKCACHE:
	case BLKIF_OP_WRITE_BARRIER:
		if (xchg(&info->feat.flush_op, 0))
			dev_warn(&info->xdev->dev, "%s: backend refused a flush; no more\n",
				 disk ? disk->disk_name : "disk");
		break;
	case BLKIF_OP_DISCARD:
		if (xchg(&info->feat.discard, false)) {
			dev_warn(&info->xdev->dev, "%s: backend refused a discard; no more\n",
				 disk ? disk->disk_name : "disk");
			if (disk) {
				blk_queue_disable_discard(disk->queue);
				blk_queue_disable_secure_erase(disk->queue);
			}
		}
		break;
	default:
		break;
	}
}

/* Responses ended per pass: each pass drops the lock to end them. */
#define BLKFRONT_BATCH	32

/*
 * Take up to BLKFRONT_BATCH checked responses off the ring into @done.
 * Returns how many; *@more says whether others are already there.  It
 * does not ask for the next event: see blkfront_interrupt().
 */
static unsigned int blkfront_collect(struct blkfront_ring *ring,
				     struct request **done, blk_status_t *sts,
				     bool *more, unsigned int *eoi)
{
	struct blkfront_info *info = ring->info;
	struct blkif_response rsp;
	struct blkfront_shadow *s;
	unsigned int ndone = 0;
	RING_IDX rp;
	int n;

	*more = false;
	if (!ring->sring || blkfront_is_broken(info))
		return 0;
	rp = READ_ONCE(ring->sring->rsp_prod);
	virt_rmb();	/* the index, then the responses */
	n = xen_ring_new_responses(&ring->fr, rp);
	if (n < 0) {
		blkfront_broken(ring, "claims responses up to index", rp);
		return ndone;
	}
	if (n)
		*eoi = 0;
	while (n--) {
		unsigned int slot = xen_ring_slot(&ring->fr, ring->fr.rsp_cons);
		struct blkif_response *r = &ring->sring->ring[slot].rsp;

		if (ndone == BLKFRONT_BATCH) {
			*more = true;
			return ndone;
		}
		/* Copy first: the backend may rewrite it meanwhile. */
		rsp.id = READ_ONCE(r->id);
		rsp.operation = READ_ONCE(r->operation);
		rsp.status = READ_ONCE(r->status);
		ring->fr.rsp_cons++;

		if (rsp.id >= ring->fr.nr_ents || !ring->shadow ||
		    !ring->shadow[rsp.id].rq) {
			blkfront_broken(ring, "answered unknown id", rsp.id);
			return ndone;
		}
		s = &ring->shadow[rsp.id];
		if (rsp.operation != s->op &&
		    !(s->op == BLKIF_OP_INDIRECT &&
		      rsp.operation == s->inner_op)) {
			blkfront_broken(ring, "answered with operation",
					rsp.operation);
			return ndone;
		}
		if (rsp.status != BLKIF_RSP_OKAY &&
		    rsp.status != BLKIF_RSP_ERROR &&
		    rsp.status != BLKIF_RSP_EOPNOTSUPP) {
			blkfront_broken(ring, "answered with unknown status",
					(u16)rsp.status);
			return ndone;
		}
		blkfront_unmap(ring, s, rsp.status == BLKIF_RSP_OKAY &&
			       blkfront_is_read(s));
		if (rsp.status == BLKIF_RSP_EOPNOTSUPP)
			blkfront_refused(info, s->op);
		done[ndone] = s->rq;
		sts[ndone] = blkfront_rsp_status(rsp.status);
		ndone++;
		s->rq = NULL;
	}
	return ndone;
}

/*
 * End the requests a ring's responses answer; *@eoi becomes 0 when there
 * were any.  The next event is asked for only once the requests taken
 * are ended: responses the backend writes meanwhile are taken in the
 * same call, without an event each.
 */
static void blkfront_process(struct blkfront_ring *ring, unsigned int *eoi)
{
	struct blkfront_info *info = ring->info;
	struct request *done[BLKFRONT_BATCH];
	blk_status_t sts[BLKFRONT_BATCH];
	unsigned int ndone, i;
	unsigned long flags;
	bool more, ended = false;

	do {
		spin_lock_irqsave(&ring->lock, flags);
		ndone = blkfront_collect(ring, done, sts, &more, eoi);
		spin_unlock_irqrestore(&ring->lock, flags);
		for (i = 0; i < ndone; i++)
			blk_mq_end_request(done[i], sts[i]);
		ended |= ndone;
		if (more)
			continue;
		spin_lock_irqsave(&ring->lock, flags);
		more = ring->sring && !blkfront_is_broken(info) &&
		       xen_ring_final_check_responses(&ring->fr,
						      &ring->sring->rsp_event,
						      &ring->sring->rsp_prod, 1);
		spin_unlock_irqrestore(&ring->lock, flags);
	} while (more);

	if (ended && info->disk)
		blk_mq_start_stopped_hw_queues(info->disk->queue, true);
}

/**
 * blkfront_interrupt() - a ring's event: end the requests it answered
 * @irq: the ring's irq
 * @data: the ring
 *
 * The late EOI says the event was spurious when it brought no response.
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t blkfront_interrupt(int irq, void *data)
{
	unsigned int eoi = XEN_EOI_FLAG_SPURIOUS;

	blkfront_process(data, &eoi);
	xen_irq_lateeoi(irq, eoi);
	return IRQ_HANDLED;
}

/*
 * blk-mq's timeout: a request the backend holds too long.  Answers it
 * may have written without an event are taken first; a request still
 * held then breaks the disk, whose close work fails it.
 */
static enum blk_eh_timer_return blkfront_timeout(struct request *rq)
{
	struct blkfront_ring *ring = rq->mq_hctx->driver_data;
	unsigned int eoi = XEN_EOI_FLAG_SPURIOUS;
	unsigned long flags;
	bool held;

	blkfront_process(ring, &eoi);
	spin_lock_irqsave(&ring->lock, flags);
	held = ring->shadow && ring->shadow[rq->tag].rq == rq;
	if (held)
		blkfront_broken(ring, "held past the timeout the request of id",
				rq->tag);
	spin_unlock_irqrestore(&ring->lock, flags);
	/* Ended by now, or soon by the close work. */
	return held ? BLK_EH_RESET_TIMER : BLK_EH_DONE;
}

/*
 * Give each of the request's segments a granted data page (a write's data
 * copied in) and describe them in @segs (the request's own array, or the
 * descriptor page of an indirect one).  Returns the number of segments,
 * or a negative errno.
 */
static int blkfront_map(struct blkfront_ring *ring, struct blkfront_shadow *s,
			struct request *rq, struct blkif_request_segment *segs)
{
	struct blkfront_info *info = ring->info;
	bool write = rq_data_dir(rq) == WRITE;
	struct blkfront_pgrant *pg;
	struct scatterlist *sg;
	unsigned int i, nseg;

	nseg = blk_rq_map_sg(rq->q, rq, s->sg);
	if (WARN_ON_ONCE(nseg > info->feat.max_segs))
		return -EIO;
	s->nseg = nseg;
	for_each_sg(s->sg, sg, nseg, i) {
		unsigned int off = sg->offset, len = sg->length;

		pg = blkfront_pgrant_get(ring);
		if (!pg) {
			blkfront_unmap(ring, s, false);
			return -ENOMEM;
		}
		s->pg[i] = pg;
		if (write)
			memcpy_from_page(page_address(pg->page) + off,
					 sg_page(sg), off, len);
		segs[i] = (struct blkif_request_segment) {
			.gref = pg->gref,
			.first_sect = off >> SECTOR_SHIFT,
			.last_sect = (off + len - 1) >> SECTOR_SHIFT,
		};
	}
	return nseg;
}

/* Fill ring slot @slot for a read or write; 0 or a blk_status_t. */
static blk_status_t blkfront_rw(struct blkfront_ring *ring,
				struct blkfront_shadow *s, struct request *rq,
				union blkif_sring_entry *slot)
{
	struct blkfront_info *info = ring->info;
	u8 op = rq_data_dir(rq) == WRITE ? BLKIF_OP_WRITE : BLKIF_OP_READ;
	struct blkif_request_indirect ind = {};
	struct blkif_request req = {};
	int nseg;

	if (blk_rq_nr_phys_segments(rq) <= BLKIF_MAX_SEGMENTS_PER_REQUEST) {
		nseg = blkfront_map(ring, s, rq, req.seg);
		if (nseg < 0)
			return nseg == -EIO ? BLK_STS_IOERR : BLK_STS_RESOURCE;
		req.operation = op;
		req.nr_segments = nseg;
		req.id = rq->tag;
		req.handle = info->vdev;
		req.sector_number = blk_rq_pos(rq);
		s->op = op;
		slot->req = req;
		return BLK_STS_OK;
	}

	/* Indirect: the segments go in the descriptor page, granted once. */
	nseg = blkfront_map(ring, s, rq, s->desc);
	if (nseg < 0)
		return nseg == -EIO ? BLK_STS_IOERR : BLK_STS_RESOURCE;
	ind.operation = BLKIF_OP_INDIRECT;
	ind.indirect_op = op;
	ind.nr_segments = nseg;
	ind.id = rq->tag;
	ind.sector_number = blk_rq_pos(rq);
	ind.handle = info->vdev;
	ind.indirect_grefs[0] = s->desc_gref;
	s->op = BLKIF_OP_INDIRECT;
	s->inner_op = op;
	memcpy(&slot->req, &ind, sizeof(ind));
	return BLK_STS_OK;
}

/* Fill ring slot @slot for a discard, secure or not. */
static void blkfront_discard(struct blkfront_info *info,
			     struct blkfront_shadow *s, struct request *rq,
			     union blkif_sring_entry *slot)
{
	struct blkif_request_discard d = {
		.operation = BLKIF_OP_DISCARD,
		.flag = req_op(rq) == REQ_OP_SECURE_ERASE ?
			BLKIF_DISCARD_SECURE : 0,
		.handle = info->vdev,
		.id = rq->tag,
		.sector_number = blk_rq_pos(rq),
		.nr_sectors = blk_rq_sectors(rq),
	};

	memcpy(&slot->req, &d, sizeof(d));
	s->op = BLKIF_OP_DISCARD;
	s->nseg = 0;
}

static blk_status_t blkfront_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct blkfront_ring *ring = hctx->driver_data;
	struct blkfront_info *info = ring->info;
	struct request *rq = bd->rq;
	union blkif_sring_entry *slot;
	struct blkfront_shadow *s;
	unsigned long flags;
	blk_status_t sts;
	bool notify;
	u8 op;

	blk_mq_start_request(rq);
	spin_lock_irqsave(&ring->lock, flags);
	if (blkfront_is_broken(info) || !ring->sring) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	if (!xen_ring_free_requests(&ring->fr)) {
		blk_mq_stop_hw_queue(hctx);
		sts = BLK_STS_DEV_RESOURCE;
		goto out;
	}
	s = &ring->shadow[rq->tag];
	if (WARN_ON_ONCE(s->rq)) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	slot = &ring->sring->ring[xen_ring_slot(&ring->fr,
						ring->fr.req_prod_pvt)];

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		op = READ_ONCE(info->feat.flush_op);
		if (!op) {
			/* Nothing cached to flush, or it cannot. */
			blk_mq_end_request(rq, BLK_STS_OK);
			goto push;
		}
		slot->req = (struct blkif_request) {
			.operation = op,
			.id = rq->tag,
			.handle = info->vdev,
			.sector_number = blk_rq_pos(rq),
		};
		s->op = op;
		s->nseg = 0;
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
		if (!READ_ONCE(info->feat.discard)) {
			sts = BLK_STS_NOTSUPP;
			goto out;
		}
		blkfront_discard(info, s, rq, slot);
		break;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		sts = blkfront_rw(ring, s, rq, slot);
		if (sts)
			goto out;
		break;
	default:
		sts = BLK_STS_NOTSUPP;
		goto out;
	}
	s->rq = rq;
	ring->fr.req_prod_pvt++;
push:
	/* More to come: the last one, or blkfront_commit_rqs(), publishes. */
	notify = bd->last &&
		 xen_ring_push_requests(&ring->fr, &ring->sring->req_prod,
					&ring->sring->req_event);
	spin_unlock_irqrestore(&ring->lock, flags);
	if (notify)
		notify_remote_via_irq(ring->irq);
	return BLK_STS_OK;
out:
	spin_unlock_irqrestore(&ring->lock, flags);
	return sts;
}

/*
 * blk-mq said more requests would follow, then did not queue them (a
 * full ring, an error, the end of its list): publish what it queued.
 */
static void blkfront_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct blkfront_ring *ring = hctx->driver_data;
	unsigned long flags;
	bool notify = false;

	spin_lock_irqsave(&ring->lock, flags);
	if (ring->sring)
		notify = xen_ring_push_requests(&ring->fr,
						&ring->sring->req_prod,
						&ring->sring->req_event);
	spin_unlock_irqrestore(&ring->lock, flags);
	if (notify)
		notify_remote_via_irq(ring->irq);
}

static int blkfront_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			      unsigned int index)
{
	struct blkfront_info *info = data;

	if (WARN_ON_ONCE(index >= info->nr_rings))
		return -EINVAL;
	hctx->driver_data = &info->rings[index];
	return 0;
}

static const struct blk_mq_ops blkfront_mq_ops = {
	.queue_rq = blkfront_queue_rq,
	.commit_rqs = blkfront_commit_rqs,
	.timeout = blkfront_timeout,
	.init_hctx = blkfront_init_hctx,
};

static const struct block_device_operations blkfront_fops = {
	.owner = THIS_MODULE,
};

/*
 * Each ring's event to a CPU that does not feed it (@info: its tag set
 * allocated, its rings connected; they stay as long as the disk).
 *
 * blk-mq maps every CPU to one ring.  Where some CPU does not submit to
 * a ring, the ring's event goes to such a CPU: its requests are then
 * ended beside the task that submits the next ones, which the backend
 * finds while it is still busy rather than after it went idle, when
 * each would need a notification.  Measured with fio-pairs-pvh (4 KiB
 * random reads, two rings, two vCPUs): about 106 notifications per
 * 1,000 reads this way, 145.7 with the event on the submitting CPU.
 * With a single ring, or as many rings as CPUs map to, nothing moves.
 */
static void blkfront_spread_irqs(struct blkfront_info *info)
{
	const unsigned int *map = info->tag_set.map[HCTX_TYPE_DEFAULT].mq_map;
	cpumask_var_t mask;
	unsigned int i, cpu;

	if (info->nr_rings < 2 || !zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	for (i = 0; i < info->nr_rings; i++) {
		cpumask_clear(mask);
		for_each_online_cpu(cpu)
			if (map[cpu] != i)
				cpumask_set_cpu(cpu, mask);
		if (!cpumask_empty(mask))
			irq_set_affinity(info->rings[i].irq, mask);
	}
	free_cpumask_var(mask);
}

/**
 * blkfront_disk_create() - the disk the backend offers, as a gendisk
 * @info: the disk, its features read
 *
 * Return: 0 or a negative errno.
 */
int blkfront_disk_create(struct blkfront_info *info)
{
	const struct blkfront_features *f = &info->feat;
	struct queue_limits lim = {
		.logical_block_size = f->sector_size,
		.physical_block_size = f->physical_sector_size,
		.max_hw_sectors = f->max_segs * (PAGE_SIZE >> SECTOR_SHIFT),
		.max_segments = f->max_segs,
		.max_segment_size = PAGE_SIZE,
		.seg_boundary_mask = PAGE_SIZE - 1,
		/* A segment is whole sectors of one page. */
		.dma_alignment = SECTOR_SIZE - 1,
		/* No FUA in blkif: the block layer flushes after those. */
		.features = f->flush_op ? BLK_FEAT_WRITE_CACHE : 0,
	};
	struct gendisk *disk;
	int rc;

	if (f->discard) {
		lim.max_hw_discard_sectors = UINT_MAX;
		lim.discard_granularity = f->discard_granularity;
		lim.discard_alignment = f->discard_alignment;
		if (f->secure_discard)
			lim.max_secure_erase_sectors = UINT_MAX;
	}

	rc = blkfront_shadows_alloc(info);
	if (rc)
		return rc;
	info->tag_set = (struct blk_mq_tag_set) {
		.ops = &blkfront_mq_ops,
		.nr_hw_queues = info->nr_rings,
		.queue_depth = info->rings[0].fr.nr_ents,
		.numa_node = NUMA_NO_NODE,
		.flags = BLK_MQ_F_SHOULD_MERGE,
		.driver_data = info,
	};
	rc = blk_mq_alloc_tag_set(&info->tag_set);
	if (rc)
		goto free_shadows;
	blkfront_spread_irqs(info);
	disk = blk_mq_alloc_disk(&info->tag_set, &lim, info);
	if (IS_ERR(disk)) {
		rc = PTR_ERR(disk);
		goto free_tags;
	}
	disk->major = XEN_BLKFRONT_MAJOR;
	disk->first_minor = info->index * XEN_BLKFRONT_MINORS;
	disk->minors = XEN_BLKFRONT_MINORS;
	disk->fops = &blkfront_fops;
	disk->private_data = info;
	snprintf(disk->disk_name, DISK_NAME_LEN, "xvd%c", 'a' + info->index);
	set_capacity(disk, f->sectors);
	set_disk_ro(disk, f->info & VDISK_READONLY);
	rc = device_add_disk(&info->xdev->dev, disk, NULL);
	if (rc) {
		put_disk(disk);
		goto free_tags;
	}
	info->disk = disk;
	return 0;
free_tags:
	blk_mq_free_tag_set(&info->tag_set);
free_shadows:
	blkfront_shadows_free(info);
	return rc;
}

/**
 * blkfront_disk_destroy() - remove the disk; waits for I/O in flight
 * @info: the disk
 *
 * The caller bounds the wait (blkfront_info.grace_work), and frees the
 * shadows once the rings are unbound.
 */
void blkfront_disk_destroy(struct blkfront_info *info)
{
	if (!info->disk)
		return;
	del_gendisk(info->disk);
	put_disk(info->disk);
	blk_mq_free_tag_set(&info->tag_set);
	info->disk = NULL;
}

/**
 * blkfront_fail_inflight() - end the requests a broken backend holds
 * @info: the disk, marked broken (so that no response is taken any more)
 *
 * Each ends with an I/O error; the data pages it used go back to its
 * ring (a backend that still maps them can write only there).  Requests
 * waiting for a ring slot are let through, to fail as well.
 */
void blkfront_fail_inflight(struct blkfront_info *info)
{
	struct blkfront_ring *ring;
	struct blkfront_shadow *s;
	struct request *rq;
	unsigned long flags;
	unsigned int r, i;

	if (WARN_ON_ONCE(!blkfront_is_broken(info)))
		return;
	for (r = 0; r < info->nr_rings; r++) {
		ring = &info->rings[r];
		for (i = 0; i < ring->fr.nr_ents; i++) {
			spin_lock_irqsave(&ring->lock, flags);
			s = ring->shadow ? &ring->shadow[i] : NULL;
			rq = s ? s->rq : NULL;
			if (rq) {
				blkfront_unmap(ring, s, false);
				s->rq = NULL;
			}
			spin_unlock_irqrestore(&ring->lock, flags);
			if (rq)
				blk_mq_end_request(rq, BLK_STS_IOERR);
		}
	}
	if (info->disk)
		blk_mq_start_stopped_hw_queues(info->disk->queue, true);
}

/**
 * blkfront_grace_expired() - the disk is going and the backend still holds
 * requests past BLKFRONT_GRACE
 * @work: blkfront_info.grace_work
 *
 * Breaks the disk, so that its close work fails them.
 */
void blkfront_grace_expired(struct work_struct *work)
{
	struct blkfront_info *info = container_of(to_delayed_work(work),
						  struct blkfront_info,
						  grace_work);
	struct blkfront_ring *ring;
	unsigned long flags;
	unsigned int r, i;

	for (r = 0; r < info->nr_rings; r++) {
		ring = &info->rings[r];
		spin_lock_irqsave(&ring->lock, flags);
		for (i = 0; ring->shadow && i < ring->fr.nr_ents; i++)
			if (ring->shadow[i].rq)
				break;
		if (ring->shadow && i < ring->fr.nr_ents)
			blkfront_broken(ring, "held past closing the request of id",
					i);
		spin_unlock_irqrestore(&ring->lock, flags);
	}
}
