/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of blkfront.
 *
 * blkfront_xenbus.c owns the device's life: it reads what the backend
 * offers once, into struct blkfront_features, has the rings set up and
 * the disk added, and takes them down.  blkfront_ring.c owns each ring:
 * its pages, event channel, shadow table and granted data pages.
 * blkfront_io.c owns the data path (blk-mq requests onto a ring, checked
 * responses back to blk-mq) and the disk.
 *
 * Lock order: the driver core's device lock -> blkfront_info.state_lock
 * (mutex: our xenbus state) -> blkfront_ring.lock (spinlock, irqsave:
 * one ring, its shadows and its persistent grants).  No two ring locks
 * are ever held together.
 */
#ifndef _XEN_BLKFRONT_H
#define _XEN_BLKFRONT_H

#include <linux/bits.h>
#include <linux/blk-mq.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
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
 * Up to 4 pages a ring (128 requests in flight) and, when the backend
 * takes indirect requests, up to 128 segments (512 KiB) a request: one
 * page of segment descriptors.  Up to 8 rings, at most one a CPU.
 */
#define BLKFRONT_MAX_RING_ORDER	2
#define BLKFRONT_MAX_RING_PAGES	BIT(BLKFRONT_MAX_RING_ORDER)
#define BLKFRONT_MAX_SEGS	128
#define BLKFRONT_SEGS_PER_PAGE	(PAGE_SIZE / sizeof(struct blkif_request_segment))
#define BLKFRONT_MAX_QUEUES	8

/*
 * The most segments the protocol can carry in one indirect request: a
 * backend offering more is talking nonsense.
 */
#define BLKFRONT_PROTO_MAX_SEGS	(BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST * \
				 BLKFRONT_SEGS_PER_PAGE)

/**
 * struct blkfront_features - what the backend offered, read once at connect
 * @sectors: the disk's size in 512-byte sectors (the one thing that may
 *	change later: resize)
 * @sector_size: its logical block size
 * @physical_sector_size: its physical block size, a multiple of that
 * @info: VDISK_* bits
 * @flush_op: what flushes its write cache: BLKIF_OP_FLUSH_DISKCACHE, or
 *	BLKIF_OP_WRITE_BARRIER (without data, a flush) when it offers only
 *	that; 0 when it has no cache to flush, or refused a flush once.
 *	blkif has no FUA: the block layer follows such writes with a flush.
 * @persistent: it keeps grants mapped (we copy through pages granted
 *	once, struct blkfront_pgrant, whether it does or not)
 * @max_segs: segments we send in one request (more than
 *	BLKIF_MAX_SEGMENTS_PER_REQUEST: indirect requests)
 * @discard: it takes BLKIF_OP_DISCARD
 * @secure_discard: with BLKIF_DISCARD_SECURE too
 * @discard_granularity: its discard extents, in bytes
 * @discard_alignment: where the first one starts, in bytes
 */
struct blkfront_features {
	u64 sectors;
	unsigned int sector_size;
	unsigned int physical_sector_size;
	unsigned int info;
	u8 flush_op;
	bool persistent;
	unsigned int max_segs;
	bool discard;
	bool secure_discard;
	unsigned int discard_granularity;
	unsigned int discard_alignment;
};

/**
 * struct blkfront_pgrant - a page of the ring's, granted to the backend for good
 * @page: the page
 * @gref: its grant, writable
 * @next: the next free one
 * @all: the next of the ring's, free or not
 */
struct blkfront_pgrant {
	struct page *page;
	grant_ref_t gref;
	struct blkfront_pgrant *next;
	struct blkfront_pgrant *all;
};

/**
 * struct blkfront_shadow - a request on the ring, as we sent it
 * @rq: the blk-mq request; NULL when the slot is free
 * @op: the ring operation sent
 * @inner_op: for BLKIF_OP_INDIRECT, the read or write it carries (which
 *	blkback echoes in the response instead)
 * @nseg: segments in @sg
 * @pg: the granted page standing in for each segment
 * @sg: its scatterlist
 * @desc: the page of segment descriptors of an indirect request
 * @desc_gref: @desc's grant, kept for good
 */
struct blkfront_shadow {
	struct request *rq;
	u8 op;
	u8 inner_op;
	unsigned int nseg;
	struct blkfront_pgrant **pg;
	struct scatterlist *sg;
	struct blkif_request_segment *desc;
	grant_ref_t desc_gref;
};

struct blkfront_info;

/**
 * struct blkfront_ring - one ring and its event channel: one blk-mq queue
 * @info: its disk
 * @id: its number
 * @lock: see the top of this file
 * @fr: our view of the ring
 * @sring: the shared ring
 * @ring_ref: the grants of its pages
 * @port: its event channel
 * @irq: the channel's irq (0 when unbound)
 * @shadow: the requests in flight, indexed by blk-mq tag (the ring id)
 * @pg_free: granted data pages not in use
 * @pg_all: all of them
 * @pg_count: how many there are
 * @pg_max: how many there may be
 */
struct blkfront_ring {
	struct blkfront_info *info;
	unsigned int id;
	spinlock_t lock;	/* see the top of this file */
	struct xen_front_ring fr;
	struct blkif_sring *sring;
	grant_ref_t ring_ref[BLKFRONT_MAX_RING_PAGES];
	evtchn_port_t port;
	int irq;
	struct blkfront_shadow *shadow;
	struct blkfront_pgrant *pg_free;
	struct blkfront_pgrant *pg_all;
	unsigned int pg_count;
	unsigned int pg_max;
};

/**
 * struct blkfront_info - one virtual disk
 * @xdev: its xenbus device
 * @vdev: the virtual device number from its node name
 * @index: the disk's index (xvda is 0)
 * @flags: BLKFRONT_BROKEN once the backend sent something invalid: no
 *	more I/O
 * @ring_pages: pages of each ring
 * @nr_rings: its rings, one per blk-mq hardware queue
 * @rings: them
 * @feat: the backend's offer
 * @tag_set: blk-mq tags, one per ring slot
 * @disk: the disk, once connected
 * @close_work: fails the requests in flight and closes the device, from
 *	process context, once it is broken
 * @grace_work: while the disk is taken down, marks it broken (so that
 *	what the backend still holds fails) once BLKFRONT_GRACE has passed
 * @state_lock: orders the close work's switch to Closing and the switch
 *	to Connected
 */
struct blkfront_info {
	struct xenbus_device *xdev;
	u32 vdev;
	unsigned int index;
	unsigned long flags;
	unsigned int ring_pages;
	unsigned int nr_rings;
	struct blkfront_ring *rings;
	struct blkfront_features feat;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	struct work_struct close_work;
	struct delayed_work grace_work;
	struct mutex state_lock;	/* see above */
};

/*
 * How long a backend that closes, or whose disk goes away, may still
 * hold requests: longer, and they fail.
 */
#define BLKFRONT_GRACE	(5 * HZ)

#define BLKFRONT_BROKEN	0

static inline bool blkfront_is_broken(const struct blkfront_info *info)
{
	return test_bit(BLKFRONT_BROKEN, &info->flags);
}

/* blkfront_ring.c */
int blkfront_rings_connect(struct blkfront_info *info, unsigned int nr_rings,
			   unsigned int order);
void blkfront_rings_disconnect(struct blkfront_info *info);
void blkfront_rings_unbind(struct blkfront_info *info);
int blkfront_shadows_alloc(struct blkfront_info *info);
void blkfront_shadows_free(struct blkfront_info *info);
struct blkfront_pgrant *blkfront_pgrant_get(struct blkfront_ring *ring);
void blkfront_pgrant_put(struct blkfront_ring *ring, struct blkfront_pgrant *pg);

/* blkfront_io.c */
irqreturn_t blkfront_interrupt(int irq, void *data);
int blkfront_disk_create(struct blkfront_info *info);
void blkfront_disk_destroy(struct blkfront_info *info);
void blkfront_fail_inflight(struct blkfront_info *info);
void blkfront_grace_expired(struct work_struct *work);
void blkfront_broken(struct blkfront_ring *ring, const char *why,
		     unsigned long long val);

#endif /* _XEN_BLKFRONT_H */
