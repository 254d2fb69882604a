/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of blkback, the Xen block backend.
 *
 * blkback_xenbus.c owns a virtual disk's life: the block device the
 * hotplug script names, what we offer the frontend, connecting its rings
 * and taking them down.  blkback_ring.c owns each ring: its mapping, its
 * event channel, the thread that takes requests and writes responses.
 * blkback_io.c carries a checked request out: grant copies between the
 * frontend's pages and ours, bios to the block device.  blkback_grants.c
 * keeps the grants of a frontend that offers feature-persistent mapped,
 * so that their bios need no copy.  blkback_req.c checks requests (pure
 * logic).
 *
 * Data moves by grant copy unless both ends said feature-persistent: a
 * frontend that revokes a grant under I/O makes that copy fail and
 * nothing else.  Persistent grants stay mapped until the rings go, which
 * the frontend promised to allow.
 *
 * Lock order: blkback_dev.lock (mutex: connect, disconnect, the block
 * device) -> blkback_ring.done_lock (spinlock, irqsave: the completed
 * list).  Everything else of a ring belongs to its thread.
 */
#ifndef _XEN_BLKBACK_H
#define _XEN_BLKBACK_H

#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <xen/grant_table.h>
#include <xen/interface/io/blkif.h>
#include <xen/ring.h>
#include <xen/xenbus.h>

#include "blkback_req.h"

/*
 * What we offer: rings of up to 16 pages (512 requests), up to 4 rings a
 * disk, and indirect requests of up to 256 segments (1 MiB: one bio,
 * one page of descriptors).
 */
#define BLKBACK_MAX_RING_ORDER	XENBUS_MAX_RING_GRANT_ORDER
#define BLKBACK_MAX_QUEUES	4
#define BLKBACK_MAX_SEGS	256

/* Pages a ring keeps for data between requests, beyond those in use. */
#define BLKBACK_POOL_PAGES	512

/*
 * Pages a ring may have in use for data: it takes no more requests
 * until some complete (4 MiB: four of the largest requests).
 */
#define BLKBACK_RING_PAGES	1024

/* blkback_ring.flags */
#define BLKBACK_KICKED	0	/* an event came; the irq waits for its EOI */
#define BLKBACK_BROKEN	1	/* the frontend sent nonsense: no more requests */

/**
 * struct blkback_stats - what a disk served, as xentop reads it
 * @rd_req: reads carried out (checked and started)
 * @wr_req: writes
 * @f_req: cache flushes
 * @ds_req: discards
 * @oo_req: times a ring left requests on the ring for want of room
 * @rd_sect: sectors of the reads
 * @wr_sect: sectors of the writes
 *
 * A ring's thread alone writes its own; sysfs reads them under
 * blkback_dev.lock.
 */
struct blkback_stats {
	u64 rd_req;
	u64 wr_req;
	u64 f_req;
	u64 ds_req;
	u64 oo_req;
	u64 rd_sect;
	u64 wr_sect;
};

struct blkback_dev;
struct blkback_ring;

/**
 * struct blkback_pending - a request taken from the ring and not yet answered
 * @ring: its ring
 * @list: on the ring's free or done list
 * @req: the request, checked
 * @segs: its segments, checked (BLKBACK_MAX_SEGS)
 * @pages: the page behind each segment: a persistent grant's, or ours
 * @mapped: the segments whose page is a persistent grant's (no copy)
 * @desc: a page for an indirect request's segment descriptors, copied in
 * @bios: bios in flight, plus one while they are being submitted
 * @status: the BLKIF_RSP_* to answer; an error from any bio or copy sticks
 */
struct blkback_pending {
	struct blkback_ring *ring;
	struct list_head list;
	struct blkback_req req;
	struct blkback_seg *segs;
	struct page **pages;
	DECLARE_BITMAP(mapped, BLKBACK_MAX_SEGS);
	struct blkif_request_segment *desc;
	atomic_t bios;
	int status;
};

/**
 * struct blkback_ring - one of a disk's rings, and its thread
 * @blkif: its disk
 * @id: its number
 * @sring: the shared ring, mapped
 * @br: our indices
 * @irq: its event channel's irq (0 when unbound)
 * @thread: the thread that serves it
 * @wq: the thread waits here
 * @flags: BLKBACK_KICKED, BLKBACK_BROKEN
 * @done_lock: guards @done
 * @done: requests whose bios all completed
 * @free: pendings not in use
 * @pendings: all of them, one a ring slot
 * @inflight: pendings in use
 * @pool: idle data pages
 * @pool_count: how many
 * @pages_used: data pages of ours in use
 * @grants: the persistent grants met, by grant reference
 * @nr_grants: how many
 * @map_ops: room to map a request's grants at once
 * @map_pages: their pages
 * @copy: a batch of grant copies
 * @copy_owner: the pending each copy is for
 * @nr_copy: copies in the batch
 * @stats: what it served
 */
struct blkback_ring {
	struct blkback_dev *blkif;
	unsigned int id;
	struct blkif_sring *sring;
	struct xen_back_ring br;
	int irq;
	struct task_struct *thread;
	wait_queue_head_t wq;
	unsigned long flags;
	spinlock_t done_lock;	/* see above */
	struct list_head done;
	struct list_head free;
	struct blkback_pending *pendings;
	unsigned int inflight;
	struct page **pool;
	unsigned int pool_count;
	unsigned int pages_used;
	struct xarray grants;
	unsigned int nr_grants;
	struct gnttab_map_grant_ref *map_ops;
	struct page **map_pages;
	struct gnttab_copy *copy;
	struct blkback_pending **copy_owner;
	unsigned int nr_copy;
	struct blkback_stats stats;
};

/**
 * struct blkback_dev - one virtual disk served to a frontend
 * @xdev: its xenbus device
 * @lock: see the top of this file
 * @pdev_watch: the watch on our "physical-device" node
 * @bfile: the block device, once the hotplug script named it
 * @bdev: the same
 * @devt: its number
 * @lim: its limits; @lim.sectors changes when it is resized
 * @info: VDISK_* bits we publish
 * @persistent: both ends said feature-persistent
 * @nr_rings: rings connected (0: none)
 * @rings: them
 * @stats_gone: what rings that were disconnected served
 */
struct blkback_dev {
	struct xenbus_device *xdev;
	struct mutex lock;	/* see above */
	struct xenbus_watch pdev_watch;
	struct file *bfile;
	struct block_device *bdev;
	dev_t devt;
	struct blkback_limits lim;
	unsigned int info;
	bool persistent;
	unsigned int nr_rings;
	struct blkback_ring *rings;
	struct blkback_stats stats_gone;
};

/* Count @n on a ring's statistic; its thread only. */
static inline void blkback_count(u64 *stat, u64 n)
{
	WRITE_ONCE(*stat, *stat + n);
}

/* blkback_ring.c */
int blkback_ring_connect(struct blkback_ring *ring, const grant_ref_t *grefs,
			 unsigned int nr_grefs, evtchn_port_t port);
void blkback_ring_disconnect(struct blkback_ring *ring);
void blkback_respond(struct blkback_ring *ring, const struct blkback_req *req,
		     int status);
void blkback_broken(struct blkback_ring *ring, const char *why,
		    const struct blkback_req *req);

/* blkback_io.c */
void blkback_io_start(struct blkback_ring *ring, struct blkback_pending *p,
		      const union blkif_sring_entry *slot);
void blkback_io_reap(struct blkback_ring *ring);
void blkback_pool_drain(struct blkback_ring *ring);

/* blkback_grants.c */
bool blkback_persistent_offer(void);
int blkback_grants_init(struct blkback_ring *ring);
void blkback_grants_get(struct blkback_ring *ring,
			const struct blkback_seg *segs, unsigned int n,
			struct page **pages);
void blkback_grants_release(struct blkback_ring *ring);

/* blkback_xenbus.c */
void blkback_check_resize(struct blkback_dev *blkif);

#endif /* _XEN_BLKBACK_H */
