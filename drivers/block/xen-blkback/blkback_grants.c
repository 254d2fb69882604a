// SPDX-License-Identifier: GPL-2.0
/*
 * blkback: a frontend's persistent grants, mapped once and kept.
 *
 * When both ends say feature-persistent, the frontend promises to grant
 * the same pages again and again and never to take one back while the
 * rings are connected.  A ring then maps each grant it meets the first
 * time, in place of an empty page of ours (xen_alloc_unpopulated_pages()),
 * and keeps it mapped until the rings go: the bios of later requests
 * read and write the frontend's page itself, with no grant operation at
 * all.  A ring keeps at most max_persistent_grants such mappings; a
 * grant met beyond that is copied as before, and so is one Xen will not
 * map writable (the frontend granted it read-only, or not at all): that
 * one is remembered, and counts among the ring's grants, so that a
 * frontend naming bad grants costs one failed map each, not one a
 * request.  A grant the copy refuses fails its request as before.
 *
 * The mappings of a ring belong to its thread, and are taken down after
 * the thread has stopped and every bio is done, once nothing else holds
 * a reference to their pages (a network block device's socket may, a
 * little longer).
 */

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <xen/grant_table.h>
#include <xen/page.h>
#include <xen/xen.h>

#include "blkback.h"

static unsigned int max_persistent_grants = 1056;
module_param(max_persistent_grants, uint, 0644);
MODULE_PARM_DESC(max_persistent_grants,
		 "Grants of a frontend that offers feature-persistent each ring keeps mapped, so that their data moves with no grant operation; others are copied (default 1056; 0: copy everything and do not offer feature-persistent)");

/* Grants unmapped per hypercall when a ring goes. */
#define BLKBACK_UNMAP_BATCH	16

/* How long a ring that goes waits for others to let go of its pages. */
#define BLKBACK_UNMAP_WAIT_MS	10000

/**
 * struct blkback_grant - a frontend's grant a ring met
 * @page: the page of ours it is mapped in place of; NULL while it is
 *	being mapped, and for good when Xen would not map it (copy it)
 * @handle: Xen's handle of the mapping
 */
struct blkback_grant {
	struct page *page;
	grant_handle_t handle;
};

/**
 * blkback_persistent_offer() - do we offer feature-persistent
 *
 * Return: true unless max_persistent_grants is 0.
 */
bool blkback_persistent_offer(void)
{
	return READ_ONCE(max_persistent_grants) != 0;
}

/**
 * blkback_grants_init() - get a ring ready to keep grants mapped
 * @ring: the ring, being connected; its disk's @persistent says whether
 *	both ends said feature-persistent
 *
 * Return: 0, or -ENOMEM.
 */
int blkback_grants_init(struct blkback_ring *ring)
{
	xa_init(&ring->grants);
	ring->nr_grants = 0;
	if (!ring->blkif->persistent)
		return 0;
	ring->map_ops = kvcalloc(BLKBACK_MAX_SEGS, sizeof(*ring->map_ops),
				 GFP_KERNEL);
	ring->map_pages = kvcalloc(BLKBACK_MAX_SEGS, sizeof(*ring->map_pages),
				   GFP_KERNEL);
	if (!ring->map_ops || !ring->map_pages)
		return -ENOMEM;
	return 0;
}

/* Forget a grant that is not mapped (its page, if any, is not ours). */
static void blkback_grant_drop(struct blkback_ring *ring, grant_ref_t gref)
{
	kfree(xa_erase(&ring->grants, gref));
	ring->nr_grants--;
}

/*
 * Map the @n grants just met, whose refs are in ring->map_ops and whose
 * entries (page NULL) in ring->grants.
 */
static void blkback_grants_map_new(struct blkback_ring *ring, unsigned int n)
{
	domid_t domid = ring->blkif->xdev->otherend_id;
	struct gnttab_map_grant_ref *ops = ring->map_ops;
	struct page **pages = ring->map_pages;
	unsigned int i, unused = 0;

	/* No empty page now: copied this time, tried again next time. */
	if (xen_alloc_unpopulated_pages(n, pages)) {
		for (i = 0; i < n; i++)
			blkback_grant_drop(ring, ops[i].ref);
		return;
	}
	for (i = 0; i < n; i++)
		gnttab_set_map_op(&ops[i], (unsigned long)page_address(pages[i]),
				  GNTMAP_host_map, ops[i].ref, domid);
	gnttab_map_refs(ops, NULL, pages, n);
	for (i = 0; i < n; i++) {
		struct blkback_grant *g = xa_load(&ring->grants, ops[i].ref);

		if (ops[i].status == GNTST_okay) {
			g->page = pages[i];
			g->handle = ops[i].handle;
			continue;
		}
		/*
		 * Copied from now on: a bad grant fails there, with its log
		 * line.  A page gnttab_map_refs() could not unmap is lost.
		 */
		if (pages[i])
			pages[unused++] = pages[i];
	}
	if (unused)
		xen_free_unpopulated_pages(unused, pages);
}

/**
 * blkback_grants_get() - the pages the frontend's grants are mapped at
 * @ring: the ring; called by its thread
 * @segs: segments, whose grant references are as the frontend gave them
 * @n: how many, at most BLKBACK_MAX_SEGS
 * @pages: per segment, the page its grant is mapped at, or NULL: copy it
 *
 * Maps, in one hypercall, the grants not mapped yet, as far as
 * max_persistent_grants allows.  Maps nothing unless both ends said
 * feature-persistent.
 */
void blkback_grants_get(struct blkback_ring *ring,
			const struct blkback_seg *segs, unsigned int n,
			struct page **pages)
{
	unsigned int max = READ_ONCE(max_persistent_grants), i, nr_new = 0;
	struct blkback_grant *g;

	if (!ring->blkif->persistent) {
		memset(pages, 0, n * sizeof(*pages));
		return;
	}
	for (i = 0; i < n && ring->nr_grants < max; i++) {
		if (xa_load(&ring->grants, segs[i].gref))
			continue;
		g = kzalloc(sizeof(*g), GFP_NOIO);
		if (!g)
			break;
		/*
		 * Found by xa_load() above when the request named it before,
		 * so this fails only for want of memory.
		 */
		if (xa_insert(&ring->grants, segs[i].gref, g, GFP_NOIO)) {
			kfree(g);
			continue;
		}
		ring->nr_grants++;
		ring->map_ops[nr_new++].ref = segs[i].gref;
	}
	if (nr_new)
		blkback_grants_map_new(ring, nr_new);
	for (i = 0; i < n; i++) {
		g = xa_load(&ring->grants, segs[i].gref);
		pages[i] = g ? g->page : NULL;
	}
}

/* Unmap @n grants; what Xen will not unmap stays mapped, and leaks. */
static void blkback_grants_unmap(struct blkback_ring *ring,
				 struct gnttab_unmap_grant_ref *ops,
				 struct page **pages, const grant_ref_t *grefs,
				 unsigned int n)
{
	unsigned int i, freed = 0;
	int rc;

	rc = gnttab_unmap_refs(ops, NULL, pages, n);
	for (i = 0; i < n; i++) {
		if (ops[i].status == GNTST_okay) {
			pages[freed++] = pages[i];
			continue;
		}
		pr_err("xen-blkback: %s: grant %u cannot be unmapped (status %d, hypercall %d): its page is lost\n",
		       dev_name(&ring->blkif->xdev->dev), grefs[i],
		       ops[i].status, rc);
	}
	if (freed)
		xen_free_unpopulated_pages(freed, pages);
}

/*
 * Wait for others to let go of a page they took a reference to while it
 * was under I/O.  Return: false when they did not within the time left.
 */
static bool blkback_page_idle(struct page *page, unsigned long deadline)
{
	while (page_count(page) > 1) {
		if (time_after(jiffies, deadline))
			return false;
		msleep(20);
	}
	return true;
}

/**
 * blkback_grants_release() - unmap every grant a ring keeps
 * @ring: the ring, its thread stopped and no bio in flight
 *
 * A grant whose page is still referenced after BLKBACK_UNMAP_WAIT_MS
 * stays mapped for good (one log line): unmapping it would let the
 * holder reach nothing, or the next user of the page.
 */
void blkback_grants_release(struct blkback_ring *ring)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(BLKBACK_UNMAP_WAIT_MS);
	struct gnttab_unmap_grant_ref ops[BLKBACK_UNMAP_BATCH];
	struct page *pages[BLKBACK_UNMAP_BATCH];
	grant_ref_t grefs[BLKBACK_UNMAP_BATCH];
	unsigned int n = 0, held = 0;
	struct blkback_grant *g;
	unsigned long gref;

	xa_for_each(&ring->grants, gref, g) {
		if (g->page && !blkback_page_idle(g->page, deadline)) {
			held++;
		} else if (g->page) {
			gnttab_set_unmap_op(&ops[n],
					    (unsigned long)page_address(g->page),
					    GNTMAP_host_map, g->handle);
			pages[n] = g->page;
			grefs[n++] = gref;
		}
		kfree(g);
		if (n == BLKBACK_UNMAP_BATCH) {
			blkback_grants_unmap(ring, ops, pages, grefs, n);
			n = 0;
		}
	}
	if (n)
		blkback_grants_unmap(ring, ops, pages, grefs, n);
	if (held)
		pr_err("xen-blkback: %s: %u grant pages still referenced %u ms after their I/O: left mapped\n",
		       dev_name(&ring->blkif->xdev->dev), held,
		       BLKBACK_UNMAP_WAIT_MS);
	/* The entries are freed above: this frees the tree's own nodes. */
	xa_destroy(&ring->grants);
	ring->nr_grants = 0;
	kvfree(ring->map_ops);
	ring->map_ops = NULL;
	kvfree(ring->map_pages);
	ring->map_pages = NULL;
}
