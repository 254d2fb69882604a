// SPDX-License-Identifier: GPL-2.0
/*
 * blkfront's data path: blk-mq requests onto the shared ring, the
 * backend's responses back to blk-mq.
 *
 * Each request takes one ring slot, its blk-mq tag, which is also the id
 * the response must echo.  Its pages are granted to the backend for the
 * request's life only: read-only for a write, writable for a read.
 *
 * Nothing the backend writes is trusted: the response producer index may
 * not claim more responses than requests in flight, and each response is
 * copied out of the ring before its id, operation and status are looked
 * at.  Anything else marks the disk broken (no more I/O), logs one line
 * and closes the device.
 *
 * Locking: blkfront_info.lock (see blkfront.h); requests are ended after
 * it is dropped, since ending one may submit another.
 */
#include <linux/blk-mq.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <xen/events.h>
#include <xen/page.h>

#include "blkfront.h"

/**
 * blkfront_broken() - the backend broke the protocol: stop and close
 * @info: the disk
 * @why: what it did, a printf format taking @val
 * @val: the offending value
 *
 * Called with the lock held.  Only the first call logs.
 */
void blkfront_broken(struct blkfront_info *info, const char *why,
		     unsigned long long val)
{
	lockdep_assert_held(&info->lock);
	if (info->broken)
		return;
	info->broken = true;
	dev_err(&info->xdev->dev, "backend %s: %s %llu; closing\n",
		info->xdev->otherend, why, val);
	schedule_work(&info->close_work);
}

/* Take back a request's grants; false if the backend still maps one. */
static bool blkfront_ungrant(struct blkfront_shadow *s)
{
	bool ok = true;
	unsigned int i;

	for (i = 0; i < s->nr_grefs; i++) {
		if (gnttab_end_foreign_access_ref(s->grefs[i]))
			gnttab_free_grant_reference(s->grefs[i]);
		else
			ok = false;	/* the reference stays taken */
	}
	s->nr_grefs = 0;
	return ok;
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

/* Responses ended per pass: each pass drops the lock to end them. */
#define BLKFRONT_BATCH	32

/*
 * Take up to BLKFRONT_BATCH checked responses off the ring into @done.
 * Returns how many; *@more says whether to come back for others.
 */
static unsigned int blkfront_collect(struct blkfront_info *info,
				     struct request **done, blk_status_t *sts,
				     bool *more, unsigned int *eoi)
{
	struct blkif_response rsp;
	struct blkfront_shadow *s;
	unsigned int ndone = 0;
	RING_IDX rp;
	int n;

	*more = false;
	if (!info->sring || info->broken)
		return 0;
	do {
		rp = READ_ONCE(info->sring->rsp_prod);
		virt_rmb();	/* the index, then the responses */
		n = xen_ring_new_responses(&info->fr, rp);
		if (n < 0) {
			blkfront_broken(info, "claims responses up to index",
					rp);
			return ndone;
		}
		if (n)
			*eoi = 0;
		while (n--) {
			unsigned int slot = xen_ring_slot(&info->fr,
							  info->fr.rsp_cons);
			struct blkif_response *r = &info->sring->ring[slot].rsp;

			if (ndone == BLKFRONT_BATCH) {
				*more = true;
				return ndone;
			}
			/* Copy first: the backend may rewrite it meanwhile. */
			rsp.id = READ_ONCE(r->id);
			rsp.operation = READ_ONCE(r->operation);
			rsp.status = READ_ONCE(r->status);
			info->fr.rsp_cons++;

			if (rsp.id >= info->fr.nr_ents ||
			    !info->shadow[rsp.id].rq) {
				blkfront_broken(info, "answered unknown id",
						rsp.id);
				return ndone;
			}
			s = &info->shadow[rsp.id];
			if (rsp.operation != s->op &&
			    !(s->op == BLKIF_OP_INDIRECT &&
			      rsp.operation == s->inner_op)) {
				blkfront_broken(info, "answered with operation",
						rsp.operation);
				return ndone;
			}
			if (!blkfront_ungrant(s)) {
				/* The pages are not ours again: never end it. */
				blkfront_broken(info, "still maps the pages of id",
						rsp.id);
				return ndone;
			}
			if (rsp.status == BLKIF_RSP_EOPNOTSUPP &&
			    s->op == BLKIF_OP_FLUSH_DISKCACHE)
				info->feat.flush = false;
			done[ndone] = s->rq;
			sts[ndone] = blkfront_rsp_status(rsp.status);
			ndone++;
			s->rq = NULL;
		}
	} while (xen_ring_final_check_responses(&info->fr,
						&info->sring->rsp_event,
						&info->sring->rsp_prod));
	return ndone;
}

static irqreturn_t blkfront_interrupt(int irq, void *data)
{
	struct blkfront_info *info = data;
	struct request *done[BLKFRONT_BATCH];
	blk_status_t sts[BLKFRONT_BATCH];
	unsigned int ndone, i, eoi = XEN_EOI_FLAG_SPURIOUS;
	unsigned long flags;
	bool more, ended = false;

	do {
		spin_lock_irqsave(&info->lock, flags);
		ndone = blkfront_collect(info, done, sts, &more, &eoi);
		spin_unlock_irqrestore(&info->lock, flags);
		for (i = 0; i < ndone; i++)
			blk_mq_end_request(done[i], sts[i]);
		ended |= ndone;
	} while (more);

	if (ended && info->disk)
		blk_mq_start_stopped_hw_queues(info->disk->queue, true);
	xen_irq_lateeoi(irq, eoi);
	return IRQ_HANDLED;
}

/*
 * Grant the request's pages and describe them in @segs (the request's own
 * array, or the descriptor page of an indirect one).  Returns the number
 * of segments, or a negative errno.
 */
static int blkfront_map(struct blkfront_info *info, struct blkfront_shadow *s,
			struct request *rq, struct blkif_request_segment *segs)
{
	bool write = rq_data_dir(rq) == WRITE;
	struct scatterlist *sg;
	unsigned int i, nseg;
	int ref;

	nseg = blk_rq_map_sg(rq->q, rq, s->sg);
	if (WARN_ON_ONCE(nseg > info->feat.max_segs))
		return -EIO;
	for_each_sg(s->sg, sg, nseg, i) {
		unsigned int off = sg->offset, len = sg->length;

		ref = gnttab_grant_foreign_access(info->xdev->otherend_id,
						  xen_page_to_gfn(sg_page(sg)),
						  write);
		if (ref < 0) {
			blkfront_ungrant(s);
			return ref;
		}
		s->grefs[s->nr_grefs++] = ref;
		segs[i] = (struct blkif_request_segment) {
			.gref = ref,
			.first_sect = off >> SECTOR_SHIFT,
			.last_sect = (off + len - 1) >> SECTOR_SHIFT,
		};
	}
	return nseg;
}

/* Fill ring slot @slot for a read or write; 0 or a blk_status_t. */
static blk_status_t blkfront_rw(struct blkfront_info *info,
				struct blkfront_shadow *s, struct request *rq,
				union blkif_sring_entry *slot)
{
	u8 op = rq_data_dir(rq) == WRITE ? BLKIF_OP_WRITE : BLKIF_OP_READ;
	struct blkif_request_indirect ind = {};
	struct blkif_request req = {};
	int nseg, ref;

	if (blk_rq_nr_phys_segments(rq) <= BLKIF_MAX_SEGMENTS_PER_REQUEST) {
		nseg = blkfront_map(info, s, rq, req.seg);
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

	/* Indirect: the segments go in the descriptor page, granted too. */
	nseg = blkfront_map(info, s, rq, s->desc);
	if (nseg < 0)
		return nseg == -EIO ? BLK_STS_IOERR : BLK_STS_RESOURCE;
	ref = gnttab_grant_foreign_access(info->xdev->otherend_id,
					  virt_to_gfn(s->desc), 1);
	if (ref < 0) {
		blkfront_ungrant(s);
		return BLK_STS_RESOURCE;
	}
	s->grefs[s->nr_grefs++] = ref;
	ind.operation = BLKIF_OP_INDIRECT;
	ind.indirect_op = op;
	ind.nr_segments = nseg;
	ind.id = rq->tag;
	ind.sector_number = blk_rq_pos(rq);
	ind.handle = info->vdev;
	ind.indirect_grefs[0] = ref;
	s->op = BLKIF_OP_INDIRECT;
	s->inner_op = op;
	memcpy(&slot->req, &ind, sizeof(ind));
	return BLK_STS_OK;
}

static blk_status_t blkfront_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct blkfront_info *info = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	union blkif_sring_entry *slot;
	struct blkfront_shadow *s;
	unsigned long flags;
	blk_status_t sts;
	bool notify;

	blk_mq_start_request(rq);
	spin_lock_irqsave(&info->lock, flags);
	if (info->broken || !info->sring) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	if (!xen_ring_free_requests(&info->fr)) {
		blk_mq_stop_hw_queue(hctx);
		sts = BLK_STS_DEV_RESOURCE;
		goto out;
	}
	s = &info->shadow[rq->tag];
	if (WARN_ON_ONCE(s->rq)) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	slot = &info->sring->ring[xen_ring_slot(&info->fr,
						info->fr.req_prod_pvt)];

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		if (!info->feat.flush) {
			/* Nothing cached to flush. */
			spin_unlock_irqrestore(&info->lock, flags);
			blk_mq_end_request(rq, BLK_STS_OK);
			return BLK_STS_OK;
		}
		slot->req = (struct blkif_request) {
			.operation = BLKIF_OP_FLUSH_DISKCACHE,
			.id = rq->tag,
			.handle = info->vdev,
			.sector_number = blk_rq_pos(rq),
		};
		s->op = BLKIF_OP_FLUSH_DISKCACHE;
		break;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		sts = blkfront_rw(info, s, rq, slot);
		if (sts)
			goto out;
		break;
	default:
		sts = BLK_STS_NOTSUPP;
		goto out;
	}
	s->rq = rq;
	info->fr.req_prod_pvt++;
	notify = xen_ring_push_requests(&info->fr, &info->sring->req_prod,
					&info->sring->req_event);
	spin_unlock_irqrestore(&info->lock, flags);
	if (notify)
		notify_remote_via_irq(info->irq);
	return BLK_STS_OK;
out:
	spin_unlock_irqrestore(&info->lock, flags);
	return sts;
}

static const struct blk_mq_ops blkfront_mq_ops = {
	.queue_rq = blkfront_queue_rq,
};

static const struct block_device_operations blkfront_fops = {
	.owner = THIS_MODULE,
};

/**
 * blkfront_ring_connect() - share a fresh ring and its event channel
 * @info: the disk
 * @order: the ring has 2^@order pages
 *
 * Return: 0 or a negative errno (the device is closed, nothing is left).
 */
int blkfront_ring_connect(struct blkfront_info *info, unsigned int order)
{
	struct xenbus_device *xdev = info->xdev;
	void *ring;
	int rc;

	info->ring_pages = 1U << order;
	rc = xenbus_setup_ring(xdev, GFP_KERNEL, &ring, info->ring_pages,
			       info->ring_ref);
	if (rc)
		return rc;
	info->sring = ring;
	/* Both ends want an event at the first entry. */
	info->sring->req_event = 1;
	info->sring->rsp_event = 1;
	info->fr = (struct xen_front_ring) {
		.nr_ents = XEN_SRING_ENTRIES(blkif,
					     info->ring_pages * XEN_PAGE_SIZE),
	};

	rc = xenbus_alloc_evtchn(xdev, &info->port);
	if (rc)
		goto fail;
	rc = bind_evtchn_to_irqhandler_lateeoi(info->port, blkfront_interrupt,
					       0, "blkif", info);
	if (rc < 0) {
		xenbus_free_evtchn(xdev, info->port);
		xenbus_dev_fatal(xdev, rc, "binding the event channel");
		goto fail;
	}
	info->irq = rc;
	return 0;
fail:
	xenbus_teardown_ring((void **)&info->sring, info->ring_pages,
			     info->ring_ref);
	return rc;
}

/**
 * blkfront_ring_disconnect() - take the ring and the channel back
 * @info: the disk, with no request in flight that could still end
 */
void blkfront_ring_disconnect(struct blkfront_info *info)
{
	unsigned long flags;
	void *ring;

	if (info->irq > 0)
		unbind_from_irqhandler(info->irq, info);
	info->irq = 0;
	spin_lock_irqsave(&info->lock, flags);
	ring = info->sring;
	info->sring = NULL;
	spin_unlock_irqrestore(&info->lock, flags);
	if (ring)
		xenbus_teardown_ring(&ring, info->ring_pages, info->ring_ref);
}

static void blkfront_free_shadows(struct blkfront_info *info)
{
	unsigned int i;

	if (!info->shadow)
		return;
	for (i = 0; i < info->fr.nr_ents; i++) {
		kfree(info->shadow[i].sg);
		kfree(info->shadow[i].grefs);
		free_page((unsigned long)info->shadow[i].desc);
	}
	kvfree(info->shadow);
	info->shadow = NULL;
}

/* A shadow per ring entry, sized for the segments a request may have. */
static int blkfront_alloc_shadows(struct blkfront_info *info)
{
	unsigned int i, segs = info->feat.max_segs;
	struct blkfront_shadow *s;

	/* An indirect request's descriptors fit one page. */
	BUILD_BUG_ON(BLKFRONT_MAX_SEGS > BLKFRONT_SEGS_PER_PAGE);
	info->shadow = kvcalloc(info->fr.nr_ents, sizeof(*info->shadow),
				GFP_KERNEL);
	if (!info->shadow)
		return -ENOMEM;
	for (i = 0; i < info->fr.nr_ents; i++) {
		s = &info->shadow[i];
		s->sg = kcalloc(segs, sizeof(*s->sg), GFP_KERNEL);
		s->grefs = kcalloc(segs + 1, sizeof(*s->grefs), GFP_KERNEL);
		if (segs > BLKIF_MAX_SEGMENTS_PER_REQUEST)
			s->desc = (void *)get_zeroed_page(GFP_KERNEL);
		if (!s->sg || !s->grefs ||
		    (segs > BLKIF_MAX_SEGMENTS_PER_REQUEST && !s->desc)) {
			blkfront_free_shadows(info);
			return -ENOMEM;
		}
		sg_init_table(s->sg, segs);
	}
	return 0;
}

/**
 * blkfront_disk_create() - the disk the backend offers, as a gendisk
 * @info: the disk, its features read
 *
 * Return: 0 or a negative errno.
 */
int blkfront_disk_create(struct blkfront_info *info)
{
	unsigned int segs = info->feat.max_segs;
	struct queue_limits lim = {
		.logical_block_size = info->feat.sector_size,
		.physical_block_size = info->feat.sector_size,
		.max_hw_sectors = segs * (PAGE_SIZE >> SECTOR_SHIFT),
		.max_segments = segs,
		.max_segment_size = PAGE_SIZE,
		.seg_boundary_mask = PAGE_SIZE - 1,
		/* A segment is whole sectors of one page. */
		.dma_alignment = SECTOR_SIZE - 1,
		.features = info->feat.flush ? BLK_FEAT_WRITE_CACHE : 0,
	};
	struct gendisk *disk;
	int rc;

	rc = blkfront_alloc_shadows(info);
	if (rc)
		return rc;
	info->tag_set = (struct blk_mq_tag_set) {
		.ops = &blkfront_mq_ops,
		.nr_hw_queues = 1,
		.queue_depth = info->fr.nr_ents,
		.numa_node = NUMA_NO_NODE,
		.flags = BLK_MQ_F_SHOULD_MERGE,
		.driver_data = info,
	};
	rc = blk_mq_alloc_tag_set(&info->tag_set);
	if (rc)
		goto free_shadows;
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
	set_capacity(disk, info->feat.sectors);
	set_disk_ro(disk, info->feat.info & VDISK_READONLY);
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
	blkfront_free_shadows(info);
	return rc;
}

/**
 * blkfront_disk_destroy() - remove the disk; waits for I/O in flight
 * @info: the disk
 */
void blkfront_disk_destroy(struct blkfront_info *info)
{
	if (!info->disk)
		return;
	del_gendisk(info->disk);
	put_disk(info->disk);
	blk_mq_free_tag_set(&info->tag_set);
	info->disk = NULL;
	blkfront_free_shadows(info);
}
