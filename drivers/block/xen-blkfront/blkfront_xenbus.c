// SPDX-License-Identifier: GPL-2.0
/*
 * blkfront's negotiation with blkback, through xenbus.
 *
 *   backend InitWait   -> share the rings (multi-queue-max-queues,
 *                         max-ring-page-order), publish their ring-refs
 *                         and event channels (under queue-N/ when more
 *                         than one), protocol and feature-persistent; we
 *                         are Initialised
 *   backend Connected  -> read what it offers once (sectors, sector-size,
 *                         physical-sector-size, info, feature-flush-cache,
 *                         feature-barrier, feature-persistent,
 *                         feature-max-indirect-segments, feature-discard
 *                         and its discard-*), checked; add the disk; we
 *                         are Connected.  Connected again later: only a
 *                         new size is taken (resize).
 *   backend Closing    -> remove the disk (its I/O drains, or fails if the
 *                         backend broke the protocol or still holds
 *                         requests after BLKFRONT_GRACE), take the rings
 *                         back; we are Closed
 *
 * A value the backend publishes that makes no sense (not a number, a
 * boolean that is neither 0 nor 1, no queue, a ring or an indirect
 * request larger than the protocol can describe, sizes that are not
 * whole sectors) gets one log line and the device closes (read through
 * xenbus_read_offer()).  Limits it publishes are bounds: we take as
 * many rings (one a CPU, at most max_queues) and ring pages (at most 4)
 * as it allows, and requests of up to 128 segments (indirect requests).
 * A Connected again may change the size only; a new sector-size closes
 * the device.
 *
 * Locking: xenbus callbacks run one at a time (the xenwatch thread, or
 * probe/remove under the device lock); the data path is blkfront_io.c's.
 */
#include <linux/blkdev.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "blkfront.h"

static unsigned int max_queues = 4;
module_param(max_queues, uint, 0444);
MODULE_PARM_DESC(max_queues,
		 "Rings (blk-mq hardware queues) a disk may have, at most one a CPU and 8 (default 4)");

static bool persistent = true;
module_param(persistent, bool, 0444);
MODULE_PARM_DESC(persistent,
		 "Offer persistent grants: data is copied through pages granted once, so the backend never sees other pages of the guest (default on)");

/*
 * The backend broke the protocol: fail what it holds (the disk's own
 * creation may be waiting on a read of it) and close.
 */
static void blkfront_close_work(struct work_struct *work)
{
	struct blkfront_info *info = container_of(work, struct blkfront_info,
						  close_work);

	blkfront_fail_inflight(info);
	mutex_lock(&info->state_lock);
	if (info->xdev->state < XenbusStateClosing)
		xenbus_switch_state(info->xdev, XenbusStateClosing);
	mutex_unlock(&info->state_lock);
}

/* One ring's grants and channel, in @dir (the device's, or queue-N/). */
static int blkfront_write_ring(struct blkfront_info *info,
			       struct xenbus_transaction t, const char *dir,
			       const struct blkfront_ring *ring)
{
	unsigned int i;
	char name[32];
	int rc = 0;

	if (info->ring_pages == 1)
		rc = xenbus_printf(t, dir, "ring-ref", "%u", ring->ring_ref[0]);
	for (i = 0; !rc && info->ring_pages > 1 && i < info->ring_pages; i++) {
		snprintf(name, sizeof(name), "ring-ref%u", i);
		rc = xenbus_printf(t, dir, name, "%u", ring->ring_ref[i]);
	}
	if (!rc)
		rc = xenbus_printf(t, dir, "event-channel", "%u", ring->port);
	return rc;
}

static int blkfront_write_rings(struct blkfront_info *info,
				struct xenbus_transaction t)
{
	const char *node = info->xdev->nodename;
	unsigned int i;
	char *dir;
	int rc = 0;

	if (info->ring_pages > 1)
		rc = xenbus_printf(t, node, "ring-page-order", "%u",
				   ilog2(info->ring_pages));
	if (rc)
		return rc;
	if (info->nr_rings == 1)
		return blkfront_write_ring(info, t, node, &info->rings[0]);
	rc = xenbus_printf(t, node, "multi-queue-num-queues", "%u",
			   info->nr_rings);
	for (i = 0; !rc && i < info->nr_rings; i++) {
		dir = kasprintf(GFP_KERNEL, "%s/queue-%u", node, i);
		if (!dir)
			return -ENOMEM;
		rc = blkfront_write_ring(info, t, dir, &info->rings[i]);
		kfree(dir);
	}
	return rc;
}

/* Share the ring and tell the backend where it is. */
static int blkfront_talk(struct blkfront_info *info)
{
	struct xenbus_device *xdev = info->xdev;
	struct xenbus_transaction t;
	unsigned int order, nr;
	const char *what;
	unsigned int tries = 0;
	int rc;

	/*
	 * As many ring pages and rings as the backend takes, up to ours.
	 * Its offer must make sense: at least one queue, and a ring whose
	 * page count fits the 32 bits of num-ring-pages.
	 */
	if (xenbus_read_offer(xdev, "max-ring-page-order", 0, 0, 31, &order) ||
	    xenbus_read_offer(xdev, "multi-queue-max-queues", 1, 1, UINT_MAX,
			      &nr))
		return -EINVAL;
	order = min(order, BLKFRONT_MAX_RING_ORDER);
	nr = min3(nr, max_queues, num_online_cpus());
	nr = clamp(nr, 1U, BLKFRONT_MAX_QUEUES);
	rc = blkfront_rings_connect(info, nr, order);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "sharing %u rings", nr);
		return rc;
	}
	do {
		rc = xenbus_transaction_start(&t);
		if (rc) {
			what = "starting a transaction";
			goto fail;
		}
		what = "writing the rings";
		rc = blkfront_write_rings(info, t);
		if (!rc) {
			what = "writing protocol";
			rc = xenbus_write(t, xdev->nodename, "protocol",
					  "x86_64-abi");
		}
		if (!rc) {
			what = "writing feature-persistent";
			rc = xenbus_write(t, xdev->nodename,
					  "feature-persistent",
					  persistent ? "1" : "0");
		}
		if (rc) {
			xenbus_transaction_end(t, 1);
			goto fail;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (xenbus_transaction_retry(rc, &tries));
	if (rc) {
		what = "ending the transaction";
		goto fail;
	}
	return xenbus_switch_state(xdev, XenbusStateInitialised);
fail:
	xenbus_dev_fatal(xdev, rc, "%s", what);
	blkfront_rings_disconnect(info);
	return rc;
}

/* The backend's discard extents, checked: whole 512-byte sectors. */
static int blkfront_read_discard(struct xenbus_device *xdev,
				 struct blkfront_features *f)
{
	unsigned int discard, secure;

	if (xenbus_read_offer(xdev, "feature-discard", 0, 0, 1, &discard))
		return -EINVAL;
	f->discard = discard;
	if (!discard)
		return 0;
	if (xenbus_read_offer(xdev, "discard-granularity", 0, 0, UINT_MAX,
			      &f->discard_granularity) ||
	    xenbus_read_offer(xdev, "discard-alignment", 0, 0, UINT_MAX,
			      &f->discard_alignment) ||
	    xenbus_read_offer(xdev, "discard-secure", 0, 0, 1, &secure))
		return -EINVAL;
	f->secure_discard = secure;
	if (!f->discard_granularity)
		f->discard_granularity = f->sector_size;
	if (f->discard_granularity % SECTOR_SIZE ||
	    f->discard_alignment % SECTOR_SIZE) {
		xenbus_dev_fatal(xdev, -EINVAL,
				 "backend discard-granularity %u, discard-alignment %u: not whole sectors",
				 f->discard_granularity, f->discard_alignment);
		return -EINVAL;
	}
	return 0;
}

/* Read the backend's offer, checked, into a snapshot. */
static int blkfront_read_features(struct blkfront_info *info,
				  struct blkfront_features *f)
{
	struct xenbus_device *xdev = info->xdev;
	unsigned int ssize, pssize, vinfo, flush, barrier, pers, segs;
	unsigned long long sectors;
	int rc;

	memset(f, 0, sizeof(*f));
	rc = xenbus_gather(XBT_NIL, xdev->otherend, "sectors", "%llu",
			   &sectors, "info", "%u", &vinfo, "sector-size", "%u",
			   &ssize, NULL);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "reading the backend's disk details");
		return rc;
	}
	if (ssize < SECTOR_SIZE || ssize > PAGE_SIZE || !is_power_of_2(ssize)) {
		xenbus_dev_fatal(xdev, -EINVAL, "backend sector-size %u", ssize);
		return -EINVAL;
	}
	/* sectors counts 512-byte sectors: a whole number of blocks. */
	if (!sectors || sectors > (U64_MAX >> SECTOR_SHIFT) ||
	    sectors & ((ssize >> SECTOR_SHIFT) - 1)) {
		xenbus_dev_fatal(xdev, -EINVAL, "backend sectors %llu", sectors);
		return -EINVAL;
	}
	f->sectors = sectors;
	f->sector_size = ssize;
	f->info = vinfo;
	if (xenbus_read_offer(xdev, "physical-sector-size", ssize, ssize,
			      SZ_1M, &pssize))
		return -EINVAL;
	if (!is_power_of_2(pssize)) {
		xenbus_dev_fatal(xdev, -EINVAL, "backend physical-sector-size %u",
				 pssize);
		return -EINVAL;
	}
	f->physical_sector_size = pssize;

	if (xenbus_read_offer(xdev, "feature-flush-cache", 0, 0, 1, &flush) ||
	    xenbus_read_offer(xdev, "feature-barrier", 0, 0, 1, &barrier) ||
	    xenbus_read_offer(xdev, "feature-persistent", 0, 0, 1, &pers) ||
	    xenbus_read_offer(xdev, "feature-max-indirect-segments", 0, 0,
			      BLKFRONT_PROTO_MAX_SEGS, &segs))
		return -EINVAL;
	if (flush)
		f->flush_op = BLKIF_OP_FLUSH_DISKCACHE;
	else if (barrier)
		f->flush_op = BLKIF_OP_WRITE_BARRIER;
	f->persistent = persistent && pers;
	/* Indirect requests when offered: up to 128 segments. */
	f->max_segs = clamp(segs, BLKIF_MAX_SEGMENTS_PER_REQUEST,
			    BLKFRONT_MAX_SEGS);
	return blkfront_read_discard(xdev, f);
}

static void blkfront_connect(struct blkfront_info *info)
{
	struct xenbus_device *xdev = info->xdev;
	struct blkfront_features f;

	if (xdev->state != XenbusStateInitialised &&
	    xdev->state != XenbusStateConnected)
		return;
	if (blkfront_read_features(info, &f))
		return;
	if (info->disk) {
		/* Connected again: only the size may change. */
		if (f.sector_size != info->feat.sector_size) {
			xenbus_dev_fatal(xdev, -EINVAL,
					 "backend sector-size %u, was %u",
					 f.sector_size, info->feat.sector_size);
			return;
		}
		if (f.sectors != info->feat.sectors) {
			dev_info(&xdev->dev, "%s: new size %llu sectors\n",
				 info->disk->disk_name, f.sectors);
			info->feat.sectors = f.sectors;
			set_capacity_and_notify(info->disk, f.sectors);
		}
		return;
	}
	info->feat = f;
	if (blkfront_disk_create(info)) {
		xenbus_dev_fatal(xdev, -ENOMEM, "adding the disk");
		return;
	}
	/* Not Connected after Closing, if it broke meanwhile. */
	mutex_lock(&info->state_lock);
	if (!blkfront_is_broken(info))
		xenbus_switch_state(xdev, XenbusStateConnected);
	mutex_unlock(&info->state_lock);
	dev_info(&xdev->dev, "%s: %llu sectors of %u bytes, %u rings of %u pages, %u segments a request%s%s%s%s\n",
		 info->disk->disk_name, f.sectors, f.sector_size,
		 info->nr_rings, info->ring_pages, f.max_segs,
		 f.persistent ? ", persistent grants" : "",
		 f.flush_op == BLKIF_OP_FLUSH_DISKCACHE ? ", flush" :
		 f.flush_op ? ", flush by barrier" : "",
		 f.discard ? (f.secure_discard ? ", secure discard" :
			      ", discard") : "",
		 f.info & VDISK_READONLY ? ", read-only" : "");
}

/*
 * Take the disk and rings down.  The backend gets BLKFRONT_GRACE to
 * answer the requests it holds; then they fail, so that neither the watch
 * thread nor a removal waits on it for longer.  The close work may run
 * until the channels are closed; it is cancelled before what it looks at
 * is freed.
 */
static void blkfront_teardown(struct blkfront_info *info)
{
	flush_work(&info->close_work);
	if (blkfront_is_broken(info))
		blkfront_fail_inflight(info);
	schedule_delayed_work(&info->grace_work, BLKFRONT_GRACE);
	blkfront_disk_destroy(info);
	cancel_delayed_work_sync(&info->grace_work);
	blkfront_rings_unbind(info);
	cancel_work_sync(&info->close_work);
	blkfront_shadows_free(info);
	blkfront_rings_disconnect(info);
}

static void blkfront_close(struct blkfront_info *info)
{
	blkfront_teardown(info);
	xenbus_frontend_closed(info->xdev);
}

static void blkfront_otherend_changed(struct xenbus_device *xdev,
				      enum xenbus_state state)
{
	struct blkfront_info *info = dev_get_drvdata(&xdev->dev);

	switch (state) {
	case XenbusStateInitWait:
		if (xdev->state == XenbusStateInitialising)
			blkfront_talk(info);
		break;
	case XenbusStateConnected:
		/* It cannot be connected to rings we have not shared. */
		if (xdev->state == XenbusStateInitialising)
			xenbus_dev_fatal(xdev, -EINVAL,
					 "backend Connected before it waited for us");
		else
			blkfront_connect(info);
		break;
	case XenbusStateClosing:
	case XenbusStateClosed:
		if (xdev->state != XenbusStateClosed)
			blkfront_close(info);
		break;
	default:
		break;
	}
}

/* xvdX: the disk index from a virtual device number. */
static int blkfront_index(u32 vdev, unsigned int *index)
{
	if ((vdev >> 8) == XEN_BLKFRONT_MAJOR && !(vdev & 0xf))
		*index = (vdev & 0xff) >> 4;
	else if ((vdev & BIT(28)) && !(vdev & 0xff))
		*index = (vdev >> 8) & 0xfffff;	/* the extended form */
	else
		return -EINVAL;
	return *index < 26 ? 0 : -EINVAL;
}

static int blkfront_probe(struct xenbus_device *xdev,
			  const struct xenbus_device_id *id)
{
	struct blkfront_info *info;
	const char *leaf = strrchr(xdev->nodename, '/');
	u32 vdev;
	int rc;

	rc = kstrtou32(leaf ? leaf + 1 : "", 10, &vdev);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	if (rc || blkfront_index(vdev, &info->index)) {
		dev_err(&xdev->dev, "virtual device %s is not an xvd disk we name\n",
			leaf ? leaf + 1 : xdev->nodename);
		kfree(info);
		return -ENODEV;
	}
	info->xdev = xdev;
	info->vdev = vdev;
	mutex_init(&info->state_lock);
	INIT_WORK(&info->close_work, blkfront_close_work);
	INIT_DELAYED_WORK(&info->grace_work, blkfront_grace_expired);
	dev_set_drvdata(&xdev->dev, info);
	return 0;
}

static void blkfront_remove(struct xenbus_device *xdev)
{
	struct blkfront_info *info = dev_get_drvdata(&xdev->dev);

	blkfront_teardown(info);
	kfree(info);
}

static const struct xenbus_device_id blkfront_ids[] = {
	{ "vbd" },
	{ "" }
};

static struct xenbus_driver blkfront_driver = {
	.ids = blkfront_ids,
	.probe = blkfront_probe,
	.otherend_changed = blkfront_otherend_changed,
	.remove = blkfront_remove,
};

static int __init blkfront_init(void)
{
	int rc;

	if (!xen_domain())
		return -ENODEV;
	rc = register_blkdev(XEN_BLKFRONT_MAJOR, "xvd");
	if (rc)
		return rc;
	rc = xenbus_register_frontend(&blkfront_driver);
	if (rc)
		unregister_blkdev(XEN_BLKFRONT_MAJOR, "xvd");
	return rc;
}
module_init(blkfront_init);

static void __exit blkfront_exit(void)
{
	xenbus_unregister_driver(&blkfront_driver);
	unregister_blkdev(XEN_BLKFRONT_MAJOR, "xvd");
}
module_exit(blkfront_exit);

MODULE_DESCRIPTION("Xen virtual block device frontend");
MODULE_LICENSE("GPL");
MODULE_ALIAS("xen:vbd");
