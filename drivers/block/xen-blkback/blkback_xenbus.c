// SPDX-License-Identifier: GPL-2.0
/*
 * blkback's side of the negotiation with a frontend, through xenbus.
 *
 *   probe               -> offer rings (multi-queue-max-queues,
 *                          max-ring-page-order) and indirect requests
 *                          (feature-max-indirect-segments); InitWait;
 *                          watch physical-device
 *   physical-device     -> written by the toolstack's hotplug script as
 *                          hex major:minor: open that block device (read
 *                          only unless mode has a "w"), publish its size
 *                          and what it takes (sectors, sector-size,
 *                          physical-sector-size, info, feature-flush-cache,
 *                          feature-discard and discard-*)
 *   frontend Initialised
 *   or Connected        -> once the device is open too: read its rings
 *                          (ring-ref or ring-page-order and ring-refN,
 *                          event-channel, under queue-N/ for several) and
 *                          serve them; Connected
 *   frontend Closing    -> stop serving (what is in flight completes);
 *                          Closing
 *   frontend Closed,
 *   or gone             -> Closed; when the toolstack set online to 0,
 *                          the device is removed
 *
 * The block device growing or shrinking is seen by the first ring's
 * thread, which publishes the new size and Connected again.
 *
 * What a disk served is in sysfs, statistics/ of its device (rd_req,
 * wr_req, f_req, ds_req, oo_req, rd_sect, wr_sect), where xentop reads
 * it; the counts go on across reconnections.
 *
 * Only the native 64-bit request layout is served (protocol x86_64-abi,
 * or no protocol node): a frontend asking for another gets one log line
 * and the device closes, as for a value that is not a number, a ring
 * larger than offered, or more rings than offered.
 */

#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string_choices.h>
#include <linux/sysfs.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#include "blkback.h"

static unsigned int max_queues = BLKBACK_MAX_QUEUES;
module_param(max_queues, uint, 0444);
MODULE_PARM_DESC(max_queues,
		 "Rings a frontend may use for one disk, at most one a dom0 CPU and 4 (default 4)");

static unsigned int max_ring_page_order = BLKBACK_MAX_RING_ORDER;
module_param(max_ring_page_order, uint, 0444);
MODULE_PARM_DESC(max_ring_page_order,
		 "A ring may have 2^N pages, N at most 4 (default 4: 512 requests)");

static unsigned int blkback_max_queues(void)
{
	return clamp(min(max_queues, num_online_cpus()), 1U,
		     (unsigned int)BLKBACK_MAX_QUEUES);
}

static unsigned int blkback_max_order(void)
{
	return min_t(unsigned int, max_ring_page_order,
		     BLKBACK_MAX_RING_ORDER);
}

/* ---- xenstore ---- */

/*
 * Write nodes in one transaction, retried while xenstored asks: @fill
 * writes them, or returns a positive number to give up quietly.
 */
static int blkback_transact(struct blkback_dev *blkif,
			    int (*fill)(struct blkback_dev *blkif,
					struct xenbus_transaction t))
{
	struct xenbus_transaction t;
	unsigned int tries = 0;
	int rc;

	do {
		rc = xenbus_transaction_start(&t);
		if (rc)
			break;
		rc = fill(blkif, t);
		if (rc) {
			xenbus_transaction_end(t, 1);
			break;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (xenbus_transaction_retry(rc, &tries));
	return rc;
}

/* ---- the rings ---- */

static void blkback_stats_add(struct blkback_stats *sum,
			      const struct blkback_stats *st)
{
	sum->rd_req += READ_ONCE(st->rd_req);
	sum->wr_req += READ_ONCE(st->wr_req);
	sum->f_req += READ_ONCE(st->f_req);
	sum->ds_req += READ_ONCE(st->ds_req);
	sum->oo_req += READ_ONCE(st->oo_req);
	sum->rd_sect += READ_ONCE(st->rd_sect);
	sum->wr_sect += READ_ONCE(st->wr_sect);
}

static void blkback_disconnect(struct blkback_dev *blkif)
{
	unsigned int i;

	for (i = 0; i < blkif->nr_rings; i++) {
		blkback_ring_disconnect(&blkif->rings[i]);
		blkback_stats_add(&blkif->stats_gone, &blkif->rings[i].stats);
	}
	kfree(blkif->rings);
	blkif->rings = NULL;
	blkif->nr_rings = 0;
}

/* A ring's nodes are in the frontend's directory, or under @prefix. */
static int blkback_connect_ring(struct blkback_dev *blkif,
				struct blkback_ring *ring, const char *prefix,
				unsigned int nr_pages, bool paged)
{
	grant_ref_t grefs[XENBUS_MAX_RING_GRANTS];
	struct xenbus_device *xdev = blkif->xdev;
	unsigned int i, port;
	char node[40];
	int rc;

	for (i = 0; i < nr_pages; i++) {
		if (paged)
			snprintf(node, sizeof(node), "%sring-ref%u", prefix, i);
		else
			snprintf(node, sizeof(node), "%sring-ref", prefix);
		rc = xenbus_read_required(xdev, node, 0, UINT_MAX, &grefs[i]);
		if (rc)
			return rc;
	}
	snprintf(node, sizeof(node), "%sevent-channel", prefix);
	rc = xenbus_read_required(xdev, node, 0, UINT_MAX, &port);
	if (rc)
		return rc;
	return blkback_ring_connect(ring, grefs, nr_pages, port);
}

/* Check the frontend's choice of layout. */
static int blkback_check_protocol(struct blkback_dev *blkif)
{
	struct xenbus_device *xdev = blkif->xdev;
	char *proto;
	int rc = 0;

	proto = xenbus_read(XBT_NIL, xdev->otherend, "protocol", NULL);
	if (IS_ERR(proto))
		return PTR_ERR(proto) == -ENOENT ? 0 : PTR_ERR(proto);
	if (strcmp(proto, "x86_64-abi")) {
		rc = -EPROTONOSUPPORT;
		xenbus_dev_fatal(xdev, rc,
				 "protocol \"%*pE\": only x86_64-abi is served",
				 (int)min_t(size_t, strlen(proto), 16), proto);
	}
	kfree(proto);
	return rc;
}

static int blkback_connect(struct blkback_dev *blkif)
{
	struct xenbus_device *xdev = blkif->xdev;
	unsigned int nr, order, pers, i;
	char prefix[20] = "";
	bool paged;
	int rc;

	rc = blkback_check_protocol(blkif);
	if (rc)
		return rc;
	if (xenbus_read_offer(xdev, "multi-queue-num-queues", 1, 1,
			      blkback_max_queues(), &nr) ||
	    xenbus_read_offer(xdev, "ring-page-order", 0, 0,
			      blkback_max_order(), &order) ||
	    xenbus_read_offer(xdev, "feature-persistent", 0, 0, 1, &pers))
		return -EINVAL;
	/* What we offered when the frontend read it, not what we offer now. */
	blkif->persistent = pers && xenbus_read_unsigned(xdev->nodename,
							 "feature-persistent",
							 0);
	paged = xenbus_exists(XBT_NIL, xdev->otherend, "ring-page-order");

	blkif->rings = kcalloc(nr, sizeof(*blkif->rings), GFP_KERNEL);
	if (!blkif->rings) {
		xenbus_dev_fatal(xdev, -ENOMEM, "allocating %u rings", nr);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		blkif->rings[i].blkif = blkif;
		blkif->rings[i].id = i;
		if (nr > 1)
			snprintf(prefix, sizeof(prefix), "queue-%u/", i);
		rc = blkback_connect_ring(blkif, &blkif->rings[i], prefix,
					  1U << order, paged);
		if (rc) {
			blkback_disconnect(blkif);
			return rc;
		}
		blkif->nr_rings = i + 1;
	}
	dev_info(&xdev->dev, "serving %u:%u, %llu sectors, on %u ring%s of %u page%s%s\n",
		 MAJOR(blkif->devt), MINOR(blkif->devt), blkif->lim.sectors,
		 nr, str_plural(nr), 1U << order, order ? "s" : "",
		 blkif->persistent ? ", persistent grants" : "");
	rc = xenbus_switch_state(xdev, XenbusStateConnected);
	/* A ring that broke before that: its Closing must stand. */
	for (i = 0; i < nr; i++)
		if (test_bit(BLKBACK_BROKEN, &blkif->rings[i].flags))
			xenbus_switch_state(xdev, XenbusStateClosing);
	return rc;
}

/* Connect once both the block device and the frontend's rings are there. */
static void blkback_maybe_connect(struct blkback_dev *blkif)
{
	struct xenbus_device *xdev = blkif->xdev;

	if (!blkif->bfile || blkif->nr_rings ||
	    xdev->state != XenbusStateInitWait)
		return;
	if (xdev->otherend_state != XenbusStateInitialised &&
	    xdev->otherend_state != XenbusStateConnected)
		return;
	blkback_connect(blkif);
}

/* ---- the block device ---- */

static int blkback_disk_nodes(struct blkback_dev *blkif,
			      struct xenbus_transaction t)
{
	struct block_device *bdev = blkif->bdev;
	const char *node = blkif->xdev->nodename;
	int rc;

	rc = xenbus_printf(t, node, "sectors", "%llu", blkif->lim.sectors) ?:
	     xenbus_printf(t, node, "info", "%u", blkif->info) ?:
	     xenbus_printf(t, node, "sector-size", "%u",
			   bdev_logical_block_size(bdev)) ?:
	     xenbus_printf(t, node, "physical-sector-size", "%u",
			   bdev_physical_block_size(bdev)) ?:
	     xenbus_printf(t, node, "feature-flush-cache", "%d", 1) ?:
	     xenbus_printf(t, node, "feature-discard", "%d",
			   blkif->lim.discard);
	if (rc || !blkif->lim.discard)
		return rc;
	return xenbus_printf(t, node, "discard-granularity", "%u",
			     bdev_discard_granularity(bdev)) ?:
	       xenbus_printf(t, node, "discard-alignment", "%u",
			     bdev_discard_alignment(bdev)) ?:
	       xenbus_printf(t, node, "discard-secure", "%d",
			     blkif->lim.secure_discard);
}

/* Read how the toolstack wants the disk: writable, a CD, removable. */
static void blkback_read_mode(struct blkback_dev *blkif)
{
	struct xenbus_device *xdev = blkif->xdev;
	char *s;

	blkif->lim.readonly = true;
	s = xenbus_read(XBT_NIL, xdev->nodename, "mode", NULL);
	if (!IS_ERR(s)) {
		blkif->lim.readonly = !strchr(s, 'w');
		kfree(s);
	}
	blkif->info = blkif->lim.readonly ? VDISK_READONLY : 0;
	s = xenbus_read(XBT_NIL, xdev->nodename, "device-type", NULL);
	if (!IS_ERR(s)) {
		if (!strcmp(s, "cdrom"))
			blkif->info |= VDISK_CDROM;
		kfree(s);
	}
	if (xenbus_read_unsigned(xdev->nodename, "removable", 0))
		blkif->info |= VDISK_REMOVABLE;
}

static int blkback_open(struct blkback_dev *blkif, dev_t devt)
{
	struct xenbus_device *xdev = blkif->xdev;
	struct block_device *bdev;
	struct file *f;
	blk_mode_t mode;
	int rc;

	blkback_read_mode(blkif);
	mode = BLK_OPEN_READ | (blkif->lim.readonly ? 0 : BLK_OPEN_WRITE);
	f = bdev_file_open_by_dev(devt, mode, NULL, NULL);
	if (IS_ERR(f)) {
		xenbus_dev_fatal(xdev, PTR_ERR(f), "opening block device %u:%u",
				 MAJOR(devt), MINOR(devt));
		return PTR_ERR(f);
	}
	bdev = file_bdev(f);
	blkif->bfile = f;
	blkif->bdev = bdev;
	blkif->devt = devt;
	blkif->lim.sectors = bdev_nr_sectors(bdev);
	blkif->lim.lbs_sects = bdev_logical_block_size(bdev) >>
			       BLKBACK_SECT_SHIFT;
	blkif->lim.max_segs = BLKBACK_MAX_SEGS;
	blkif->lim.discard = bdev_max_discard_sectors(bdev) > 0;
	blkif->lim.secure_discard = bdev_max_secure_erase_sectors(bdev) > 0;
	rc = blkback_transact(blkif, blkback_disk_nodes);
	if (rc)
		xenbus_dev_fatal(xdev, rc, "publishing the disk");
	return rc;
}

static void blkback_close_bdev(struct blkback_dev *blkif)
{
	if (blkif->bfile)
		fput(blkif->bfile);
	blkif->bfile = NULL;
	blkif->bdev = NULL;
}

/* The hotplug script wrote (or rewrote) physical-device. */
static void blkback_pdev_changed(struct xenbus_watch *watch, const char *path,
				 const char *token)
{
	struct blkback_dev *blkif = container_of(watch, struct blkback_dev,
						 pdev_watch);
	struct xenbus_device *xdev = blkif->xdev;
	unsigned int major, minor;
	char *s, end;
	dev_t devt;

	s = xenbus_read(XBT_NIL, xdev->nodename, "physical-device", NULL);
	if (IS_ERR(s))
		return;		/* not yet */
	if (sscanf(s, "%x:%x%c", &major, &minor, &end) != 2 ||
	    major > 0xfff || minor > 0xfffff) {
		xenbus_dev_fatal(xdev, -EINVAL,
				 "physical-device \"%.32s\" is not major:minor in hex",
				 s);
		kfree(s);
		return;
	}
	kfree(s);
	devt = MKDEV(major, minor);

	mutex_lock(&blkif->lock);
	if (blkif->bfile) {
		if (devt != blkif->devt)
			dev_warn(&xdev->dev, "physical-device changed to %x:%x while serving %x:%x: ignored\n",
				 major, minor, MAJOR(blkif->devt),
				 MINOR(blkif->devt));
	} else if (!blkback_open(blkif, devt)) {
		blkback_maybe_connect(blkif);
	}
	mutex_unlock(&blkif->lock);
}

static int blkback_resize_nodes(struct blkback_dev *blkif,
				struct xenbus_transaction t)
{
	const char *node = blkif->xdev->nodename;
	unsigned int state;

	/* Not over a Closing the device went to meanwhile. */
	if (xenbus_scanf(t, node, "state", "%u", &state) != 1 ||
	    state != XenbusStateConnected)
		return 1;
	return xenbus_printf(t, node, "sectors", "%llu",
			     READ_ONCE(blkif->lim.sectors)) ?:
	       xenbus_printf(t, node, "state", "%d", XenbusStateConnected);
}

/**
 * blkback_check_resize() - publish the block device's new size, if it has one
 * @blkif: the disk; called by its first ring's thread
 *
 * The frontend learns of it by Connected published again.
 */
void blkback_check_resize(struct blkback_dev *blkif)
{
	struct xenbus_device *xdev = blkif->xdev;
	u64 now = bdev_nr_sectors(blkif->bdev);
	int rc;

	if (now == READ_ONCE(blkif->lim.sectors))
		return;
	WRITE_ONCE(blkif->lim.sectors, now);
	dev_info(&xdev->dev, "%u:%u now has %llu sectors\n",
		 MAJOR(blkif->devt), MINOR(blkif->devt), now);
	rc = blkback_transact(blkif, blkback_resize_nodes);
	if (rc < 0)
		dev_warn(&xdev->dev, "publishing the new size: %d\n", rc);
}

/* ---- the driver ---- */

static void blkback_otherend_changed(struct xenbus_device *xdev,
				     enum xenbus_state state)
{
	struct blkback_dev *blkif = dev_get_drvdata(&xdev->dev);
	bool unregister = false;

	mutex_lock(&blkif->lock);
	switch (state) {
	case XenbusStateInitialising:
		/* A frontend starting over (kexec): offer again. */
		if (xdev->state == XenbusStateClosed)
			xenbus_switch_state(xdev, XenbusStateInitWait);
		break;
	case XenbusStateInitialised:
	case XenbusStateConnected:
		blkback_maybe_connect(blkif);
		break;
	case XenbusStateClosing:
		blkback_disconnect(blkif);
		xenbus_switch_state(xdev, XenbusStateClosing);
		break;
	case XenbusStateClosed:
	case XenbusStateUnknown:
		blkback_disconnect(blkif);
		xenbus_switch_state(xdev, XenbusStateClosed);
		unregister = !xenbus_dev_is_online(xdev);
		break;
	default:
		break;
	}
	mutex_unlock(&blkif->lock);
	/*
	 * From the watch thread, as the bus removes devices: the watch
	 * that called us goes with the device, and nothing of either is
	 * touched once this returns.
	 */
	if (unregister)
		device_unregister(&xdev->dev);
}

static int blkback_offer_nodes(struct blkback_dev *blkif,
			       struct xenbus_transaction t)
{
	const char *node = blkif->xdev->nodename;

	return xenbus_printf(t, node, "feature-max-indirect-segments", "%u",
			     BLKBACK_MAX_SEGS) ?:
	       xenbus_printf(t, node, "multi-queue-max-queues", "%u",
			     blkback_max_queues()) ?:
	       xenbus_printf(t, node, "max-ring-page-order", "%u",
			     blkback_max_order()) ?:
	       xenbus_printf(t, node, "feature-persistent", "%d",
			     blkback_persistent_offer());
}

static int blkback_probe(struct xenbus_device *xdev,
			 const struct xenbus_device_id *id)
{
	struct blkback_dev *blkif;
	int rc;

	blkif = kzalloc(sizeof(*blkif), GFP_KERNEL);
	if (!blkif)
		return -ENOMEM;
	blkif->xdev = xdev;
	mutex_init(&blkif->lock);
	dev_set_drvdata(&xdev->dev, blkif);

	rc = blkback_transact(blkif, blkback_offer_nodes);
	if (rc) {
		xenbus_dev_fatal(xdev, rc, "publishing what we offer");
		goto fail;
	}
	rc = xenbus_switch_state(xdev, XenbusStateInitWait);
	if (rc)
		goto fail;
	/* Fires at once: the script may have been quicker than us. */
	rc = xenbus_watch_pathfmt(xdev, &blkif->pdev_watch, NULL,
				  blkback_pdev_changed, "%s/physical-device",
				  xdev->nodename);
	if (rc)
		goto fail;
	return 0;

fail:
	dev_set_drvdata(&xdev->dev, NULL);
	kfree(blkif);
	return rc;
}

static void blkback_remove(struct xenbus_device *xdev)
{
	struct blkback_dev *blkif = dev_get_drvdata(&xdev->dev);

	unregister_xenbus_watch(&blkif->pdev_watch);
	kfree(blkif->pdev_watch.node);
	mutex_lock(&blkif->lock);
	blkback_disconnect(blkif);
	blkback_close_bdev(blkif);
	mutex_unlock(&blkif->lock);
	dev_set_drvdata(&xdev->dev, NULL);
	kfree(blkif);
}

/* ---- statistics: /sys/bus/xen-backend/devices/vbd-D-N/statistics ---- */

/* Each file's counter: its offset in struct blkback_stats, in ->var. */
static ssize_t blkback_stat_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	size_t offset = (size_t)container_of(attr, struct dev_ext_attribute,
					     attr)->var;
	struct blkback_dev *blkif = dev_get_drvdata(dev);
	struct blkback_stats sum = {};
	unsigned int i;

	if (!blkif)
		return -ENODEV;
	mutex_lock(&blkif->lock);
	blkback_stats_add(&sum, &blkif->stats_gone);
	for (i = 0; i < blkif->nr_rings; i++)
		blkback_stats_add(&sum, &blkif->rings[i].stats);
	mutex_unlock(&blkif->lock);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((char *)&sum + offset));
}

static struct dev_ext_attribute blkback_stat_ext[] = {
	{ __ATTR(rd_req, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, rd_req) },
	{ __ATTR(wr_req, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, wr_req) },
	{ __ATTR(f_req, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, f_req) },
	{ __ATTR(ds_req, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, ds_req) },
	{ __ATTR(oo_req, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, oo_req) },
	{ __ATTR(rd_sect, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, rd_sect) },
	{ __ATTR(wr_sect, 0444, blkback_stat_show, NULL),
	  (void *)offsetof(struct blkback_stats, wr_sect) },
};

static struct attribute *blkback_stat_attrs[] = {
	&blkback_stat_ext[0].attr.attr,
	&blkback_stat_ext[1].attr.attr,
	&blkback_stat_ext[2].attr.attr,
	&blkback_stat_ext[3].attr.attr,
	&blkback_stat_ext[4].attr.attr,
	&blkback_stat_ext[5].attr.attr,
	&blkback_stat_ext[6].attr.attr,
	NULL
};

static const struct attribute_group blkback_stat_group = {
	.name = "statistics",
	.attrs = blkback_stat_attrs,
};

static const struct attribute_group *blkback_groups[] = {
	&blkback_stat_group,
	NULL
};

static const struct xenbus_device_id blkback_ids[] = {
	{ "vbd" },
	{ "" }
};

static struct xenbus_driver blkback_driver = {
	.ids = blkback_ids,
	.probe = blkback_probe,
	.remove = blkback_remove,
	.otherend_changed = blkback_otherend_changed,
	.driver = {
		.dev_groups = blkback_groups,
	},
};

static int __init blkback_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return xenbus_register_backend(&blkback_driver);
}
module_init(blkback_init);

static void __exit blkback_exit(void)
{
	xenbus_unregister_driver(&blkback_driver);
}
module_exit(blkback_exit);

MODULE_DESCRIPTION("Xen block device backend");
MODULE_LICENSE("GPL");
MODULE_ALIAS("xen-backend:vbd");
