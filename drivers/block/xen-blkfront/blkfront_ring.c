// SPDX-License-Identifier: GPL-2.0
/*
 * blkfront's rings: each one's shared pages and event channel, its table
 * of shadows (one per slot, sized for the largest request) and its
 * granted data pages.
 *
 * No page of the guest's own is ever granted to the backend: a backend
 * may keep any grant mapped for as long as it likes (one that offers
 * feature-persistent says it will), and a page it still maps must never
 * go back to the page cache or to a process.  Each ring instead grows,
 * on demand and up to a bound, a set of pages of its own granted
 * writable once; a request's data is copied into them (writes) or out
 * of them (reads).  Each shadow's page of indirect descriptors is
 * likewise granted once.  So a request never waits on the backend to
 * let go of a page: it ends when answered, or fails when the backend
 * is broken, and the granted pages are ended only when the rings go,
 * through gnttab_end_foreign_access(), which keeps a page the backend
 * still maps out of use until it lets go.
 *
 * Locking: blkfront_ring.lock (see blkfront.h) covers a ring's shadows
 * and its free granted pages; setting up and taking down a ring runs
 * from xenbus callbacks, one at a time, with no I/O in flight.
 */
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <xen/events.h>
#include <xen/page.h>

#include "blkfront.h"

static unsigned int persistent_pages = 1024;
module_param(persistent_pages, uint, 0444);
MODULE_PARM_DESC(persistent_pages,
		 "Pages each ring keeps granted to the backend for data, descriptor pages included (default 1024; at least one request's worth is always allowed)");

static void blkfront_ring_unbind(struct blkfront_ring *ring)
{
	if (ring->irq > 0)
		unbind_from_irqhandler(ring->irq, ring);
	ring->irq = 0;
}

static void blkfront_ring_disconnect(struct blkfront_ring *ring)
{
	unsigned long flags;
	void *pages;

	blkfront_ring_unbind(ring);
	spin_lock_irqsave(&ring->lock, flags);
	pages = ring->sring;
	ring->sring = NULL;
	spin_unlock_irqrestore(&ring->lock, flags);
	if (pages)
		xenbus_teardown_ring(&pages, ring->info->ring_pages,
				     ring->ring_ref);
}

static int blkfront_ring_connect(struct blkfront_ring *ring)
{
	struct blkfront_info *info = ring->info;
	struct xenbus_device *xdev = info->xdev;
	void *pages;
	int rc;

	rc = xenbus_setup_ring(xdev, GFP_KERNEL, &pages, info->ring_pages,
			       ring->ring_ref);
	if (rc)
		return rc;
	ring->sring = pages;
	/* Both ends want an event at the first entry. */
	ring->sring->req_event = 1;
	ring->sring->rsp_event = 1;
	ring->fr = (struct xen_front_ring) {
		.nr_ents = XEN_SRING_ENTRIES(blkif,
					     info->ring_pages * XEN_PAGE_SIZE),
	};

	rc = xenbus_alloc_evtchn(xdev, &ring->port);
	if (rc)
		goto fail;
	rc = bind_evtchn_to_irqhandler_lateeoi(ring->port, blkfront_interrupt,
					       0, "blkif", ring);
	if (rc < 0) {
		xenbus_free_evtchn(xdev, ring->port);
		xenbus_dev_fatal(xdev, rc, "binding event channel %u",
				 ring->port);
		goto fail;
	}
	ring->irq = rc;
	return 0;
fail:
	blkfront_ring_disconnect(ring);
	return rc;
}

/**
 * blkfront_rings_connect() - share fresh rings and their event channels
 * @info: the disk
 * @nr_rings: how many
 * @order: each ring has 2^@order pages
 *
 * Return: 0 or a negative errno (nothing is left behind).
 */
int blkfront_rings_connect(struct blkfront_info *info, unsigned int nr_rings,
			   unsigned int order)
{
	unsigned int i;
	int rc;

	info->rings = kcalloc(nr_rings, sizeof(*info->rings), GFP_KERNEL);
	if (!info->rings)
		return -ENOMEM;
	info->nr_rings = nr_rings;
	info->ring_pages = 1U << order;
	for (i = 0; i < nr_rings; i++) {
		struct blkfront_ring *ring = &info->rings[i];

		ring->info = info;
		ring->id = i;
		spin_lock_init(&ring->lock);
		rc = blkfront_ring_connect(ring);
		if (rc) {
			info->nr_rings = i;
			blkfront_rings_disconnect(info);
			return rc;
		}
	}
	return 0;
}

/**
 * blkfront_rings_unbind() - no more events from the backend
 * @info: the disk
 *
 * Closes every ring's event channel: no interrupt handler of the disk
 * runs once this returns.
 */
void blkfront_rings_unbind(struct blkfront_info *info)
{
	unsigned int i;

	for (i = 0; i < info->nr_rings; i++)
		blkfront_ring_unbind(&info->rings[i]);
}

/**
 * blkfront_rings_disconnect() - take the rings and channels back
 * @info: the disk, with no request in flight that could still end
 */
void blkfront_rings_disconnect(struct blkfront_info *info)
{
	unsigned int i;

	for (i = 0; i < info->nr_rings; i++)
		blkfront_ring_disconnect(&info->rings[i]);
	kfree(info->rings);
	info->rings = NULL;
	info->nr_rings = 0;
}

/**
 * blkfront_pgrant_get() - a granted data page for one segment
 * @ring: the ring, its lock held
 *
 * Return: a free one, a new one while the ring may have more, or NULL.
 */
struct blkfront_pgrant *blkfront_pgrant_get(struct blkfront_ring *ring)
{
	struct blkfront_pgrant *pg = ring->pg_free;
	int ref;

	lockdep_assert_held(&ring->lock);
	if (pg) {
		ring->pg_free = pg->next;
		return pg;
	}
	if (ring->pg_count >= ring->pg_max)
		return NULL;
	pg = kmalloc(sizeof(*pg), GFP_ATOMIC | __GFP_NOWARN);
	if (!pg)
		return NULL;
	pg->page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
	if (!pg->page)
		goto free;
	ref = gnttab_grant_foreign_access(ring->info->xdev->otherend_id,
					  xen_page_to_gfn(pg->page), 0);
	if (ref < 0)
		goto free_page;
	pg->gref = ref;
	pg->all = ring->pg_all;
	ring->pg_all = pg;
	ring->pg_count++;
	return pg;
free_page:
	__free_page(pg->page);
free:
	kfree(pg);
	return NULL;
}

/**
 * blkfront_pgrant_put() - a granted data page is free again
 * @ring: the ring, its lock held
 * @pg: the page
 */
void blkfront_pgrant_put(struct blkfront_ring *ring, struct blkfront_pgrant *pg)
{
	lockdep_assert_held(&ring->lock);
	pg->next = ring->pg_free;
	ring->pg_free = pg;
}

/* End every data page's grant; the pages go once the backend lets go. */
static void blkfront_pgrants_free(struct blkfront_ring *ring)
{
	struct blkfront_pgrant *pg;

	while ((pg = ring->pg_all)) {
		ring->pg_all = pg->all;
		gnttab_end_foreign_access(pg->gref, pg->page);
		kfree(pg);
	}
	ring->pg_free = NULL;
	ring->pg_count = 0;
}

static void blkfront_ring_shadows_free(struct blkfront_ring *ring)
{
	struct blkfront_shadow *s, *shadow;
	unsigned long flags;
	unsigned int i;

	/* An interrupt handler still bound then finds none. */
	spin_lock_irqsave(&ring->lock, flags);
	shadow = ring->shadow;
	ring->shadow = NULL;
	spin_unlock_irqrestore(&ring->lock, flags);
	if (!shadow)
		return;
	for (i = 0; i < ring->fr.nr_ents; i++) {
		s = &shadow[i];
		kfree(s->sg);
		kfree(s->pg);
		if (!s->desc)
			continue;
		if (s->desc_gref != INVALID_GRANT_REF)
			gnttab_end_foreign_access(s->desc_gref,
						  virt_to_page(s->desc));
		else
			free_page((unsigned long)s->desc);
	}
	kvfree(shadow);
	blkfront_pgrants_free(ring);
}

/* A shadow per slot, sized for the segments a request may have. */
static int blkfront_ring_shadows_alloc(struct blkfront_ring *ring)
{
	const struct blkfront_features *f = &ring->info->feat;
	domid_t domid = ring->info->xdev->otherend_id;
	bool indirect = f->max_segs > BLKIF_MAX_SEGMENTS_PER_REQUEST;
	unsigned int i, segs = f->max_segs;
	struct blkfront_shadow *s;
	int ref;

	/* An indirect request's descriptors fit one page. */
	BUILD_BUG_ON(BLKFRONT_MAX_SEGS > BLKFRONT_SEGS_PER_PAGE);
	ring->shadow = kvcalloc(ring->fr.nr_ents, sizeof(*ring->shadow),
				GFP_KERNEL);
	if (!ring->shadow)
		return -ENOMEM;
	for (i = 0; i < ring->fr.nr_ents; i++) {
		s = &ring->shadow[i];
		s->desc_gref = INVALID_GRANT_REF;
		s->sg = kcalloc(segs, sizeof(*s->sg), GFP_KERNEL);
		s->pg = kcalloc(segs, sizeof(*s->pg), GFP_KERNEL);
		if (indirect)
			s->desc = (void *)get_zeroed_page(GFP_KERNEL);
		if (!s->sg || !s->pg || (indirect && !s->desc))
			goto fail;
		sg_init_table(s->sg, segs);
		if (indirect) {
			ref = gnttab_grant_foreign_access(domid,
							  virt_to_gfn(s->desc),
							  0);
			if (ref < 0)
				goto fail;
			s->desc_gref = ref;
		}
	}
	/* Descriptor pages count too; one request must always fit. */
	ring->pg_max = persistent_pages;
	if (indirect)
		ring->pg_max -= min(ring->pg_max, ring->fr.nr_ents);
	ring->pg_max = max(ring->pg_max, segs);
	return 0;
fail:
	blkfront_ring_shadows_free(ring);
	return -ENOMEM;
}

/**
 * blkfront_shadows_alloc() - every ring's shadows, for the features read
 * @info: the disk, its rings connected and its features read
 *
 * Return: 0 or -ENOMEM (nothing is left behind).
 */
int blkfront_shadows_alloc(struct blkfront_info *info)
{
	unsigned int i;
	int rc;

	for (i = 0; i < info->nr_rings; i++) {
		rc = blkfront_ring_shadows_alloc(&info->rings[i]);
		if (rc) {
			while (i--)
				blkfront_ring_shadows_free(&info->rings[i]);
			return rc;
		}
	}
	return 0;
}

/**
 * blkfront_shadows_free() - every ring's shadows and granted data pages
 * @info: the disk, with no request in flight and its rings unbound
 */
void blkfront_shadows_free(struct blkfront_info *info)
{
	unsigned int i;

	for (i = 0; i < info->nr_rings; i++)
		blkfront_ring_shadows_free(&info->rings[i]);
}
