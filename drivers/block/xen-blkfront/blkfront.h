/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the two halves of blkfront.
 *
 * blkfront_xenbus.c owns the device's life: it reads what the backend
 * offers once, into struct blkfront_features, sets up the ring and the
 * disk, and takes them down.  blkfront_io.c owns the data path: blk-mq
 * requests onto the ring, responses (checked) back to blk-mq.
 *
 * Lock order: the driver core's device lock -> blkfront_info.lock
 * (spinlock, irqsave: the ring, the shadow table, the broken flag).
 */
#ifndef _XEN_BLKFRONT_H
#define _XEN_BLKFRONT_H

#include <linux/bits.h>
#include <linux/blk-mq.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <xen/grant_table.h>
#include <xen/interface/io/blkif.h>
#include <xen/ring.h>
#include <xen/xenbus.h>

/* Disks are xvda, xvdb, ... on the major Linux gives Xen disks. */
#define XEN_BLKFRONT_MAJOR	202
#define XEN_BLKFRONT_MINORS	16

/*
 * Up to 4 ring pages (128 requests in flight) and, when the backend takes
 * indirect requests, up to 128 segments (512 KiB) a request: one page of
 * segment descriptors.
 */
#define BLKFRONT_MAX_RING_ORDER	2
#define BLKFRONT_MAX_RING_PAGES	BIT(BLKFRONT_MAX_RING_ORDER)
#define BLKFRONT_MAX_SEGS	128
#define BLKFRONT_SEGS_PER_PAGE	(PAGE_SIZE / sizeof(struct blkif_request_segment))

/**
 * struct blkfront_features - what the backend offered, read once at connect
 * @sectors: the disk's size in 512-byte sectors
 * @sector_size: its logical block size
 * @info: VDISK_* bits
 * @flush: it takes BLKIF_OP_FLUSH_DISKCACHE
 * @max_segs: segments we send in one request (more than
 *	BLKIF_MAX_SEGMENTS_PER_REQUEST: indirect requests)
 */
struct blkfront_features {
	u64 sectors;
	unsigned int sector_size;
	unsigned int info;
	bool flush;
	unsigned int max_segs;
};

/**
 * struct blkfront_shadow - a request on the ring, as we sent it
 * @rq: the blk-mq request; NULL when the slot is free
 * @op: the ring operation sent
 * @inner_op: for BLKIF_OP_INDIRECT, the read or write it carries (which
 *	blkback echoes in the response instead)
 * @nr_grefs: grants in @grefs
 * @grefs: the grants of its pages, then of its descriptor page
 * @sg: its scatterlist
 * @desc: the page of segment descriptors of an indirect request
 */
struct blkfront_shadow {
	struct request *rq;
	u8 op;
	u8 inner_op;
	unsigned int nr_grefs;
	grant_ref_t *grefs;
	struct scatterlist *sg;
	struct blkif_request_segment *desc;
};

/**
 * struct blkfront_info - one virtual disk
 * @xdev: its xenbus device
 * @vdev: the virtual device number from its node name
 * @index: the disk's index (xvda is 0)
 * @lock: see the top of this file
 * @fr: our view of the ring
 * @ring_pages: pages of the shared ring
 * @sring: the shared ring
 * @ring_ref: their grants
 * @port: its event channel
 * @irq: the channel's irq (0 when unbound)
 * @broken: the backend sent something invalid; no more I/O
 * @feat: the backend's offer
 * @tag_set: blk-mq tags, one per ring slot
 * @disk: the disk, once connected
 * @shadow: the requests in flight, indexed by blk-mq tag (the ring id),
 *	one per ring entry
 * @close_work: closes the device from process context
 */
struct blkfront_info {
	struct xenbus_device *xdev;
	u32 vdev;
	unsigned int index;
	spinlock_t lock;	/* see the top of this file */
	struct xen_front_ring fr;
	unsigned int ring_pages;
	struct blkif_sring *sring;
	grant_ref_t ring_ref[BLKFRONT_MAX_RING_PAGES];
	evtchn_port_t port;
	int irq;
	bool broken;
	struct blkfront_features feat;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	struct blkfront_shadow *shadow;
	struct work_struct close_work;
};

int blkfront_ring_connect(struct blkfront_info *info, unsigned int order);
void blkfront_ring_disconnect(struct blkfront_info *info);
int blkfront_disk_create(struct blkfront_info *info);
void blkfront_disk_destroy(struct blkfront_info *info);
void blkfront_broken(struct blkfront_info *info, const char *why,
		     unsigned long long val);

#endif /* _XEN_BLKFRONT_H */
