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

/* One page of ring: 32 requests in flight. */
#define BLKFRONT_RING_PAGES	1
#define BLKFRONT_MAX_RING	32
#define BLKFRONT_SEGS		BLKIF_MAX_SEGMENTS_PER_REQUEST

/**
 * struct blkfront_features - what the backend offered, read once at connect
 * @sectors: the disk's size in 512-byte sectors
 * @sector_size: its logical block size
 * @info: VDISK_* bits
 * @flush: it takes BLKIF_OP_FLUSH_DISKCACHE
 */
struct blkfront_features {
	u64 sectors;
	unsigned int sector_size;
	unsigned int info;
	bool flush;
};

/**
 * struct blkfront_shadow - a request on the ring, as we sent it
 * @rq: the blk-mq request; NULL when the slot is free
 * @op: the ring operation sent
 * @nr_grefs: grants in @grefs
 * @grefs: the grants of its pages
 * @sg: its scatterlist
 */
struct blkfront_shadow {
	struct request *rq;
	u8 op;
	u8 nr_grefs;
	grant_ref_t grefs[BLKFRONT_SEGS];
	struct scatterlist sg[BLKFRONT_SEGS];
};

/**
 * struct blkfront_info - one virtual disk
 * @xdev: its xenbus device
 * @vdev: the virtual device number from its node name
 * @index: the disk's index (xvda is 0)
 * @lock: see the top of this file
 * @fr: our view of the ring
 * @sring: the shared ring
 * @ring_ref: its grant
 * @port: its event channel
 * @irq: the channel's irq (0 when unbound)
 * @broken: the backend sent something invalid; no more I/O
 * @feat: the backend's offer
 * @tag_set: blk-mq tags, one per ring slot
 * @disk: the disk, once connected
 * @shadow: the requests in flight, indexed by blk-mq tag (the ring id)
 * @close_work: closes the device from process context
 */
struct blkfront_info {
	struct xenbus_device *xdev;
	u32 vdev;
	unsigned int index;
	spinlock_t lock;	/* see the top of this file */
	struct xen_front_ring fr;
	struct blkif_sring *sring;
	grant_ref_t ring_ref;
	evtchn_port_t port;
	int irq;
	bool broken;
	struct blkfront_features feat;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	struct blkfront_shadow shadow[BLKFRONT_MAX_RING];
	struct work_struct close_work;
};

int blkfront_ring_connect(struct blkfront_info *info);
void blkfront_ring_disconnect(struct blkfront_info *info);
int blkfront_disk_create(struct blkfront_info *info);
void blkfront_disk_destroy(struct blkfront_info *info);
void blkfront_broken(struct blkfront_info *info, const char *why,
		     unsigned long long val);

#endif /* _XEN_BLKFRONT_H */
