/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pool of empty pages: struct pages this domain owns whose memory went
 * back to Xen.  Grants of other domains are mapped in their place
 * (backends, gntdev), and the balloon parks its pages here.
 *
 * The pool's logic does not talk to Xen itself: emptying a page and
 * filling it again are operations it is given, so that KUnit drives it
 * with fakes (empty_pool_test.c) and unpopulated.c with Xen.
 *
 * An empty page must never reach the page allocator: whatever reads or
 * writes it there would touch memory that is not this domain's.  So a
 * page leaves the pool for the allocator only once it has been filled
 * again, and one that cannot be stays in the pool.
 */
#ifndef _XEN_EMPTY_POOL_H
#define _XEN_EMPTY_POOL_H

#include <linux/gfp_types.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

/* Pages emptied or filled per operation. */
#define XEN_EMPTY_POOL_BATCH	512

/**
 * struct xen_empty_pool_ops - how pages are emptied and filled
 * @empty: give the memory behind @nr pages back; returns how many of the
 *	first went (the rest are as they were) or a negative errno
 * @fill: give @nr empty pages memory again; returns how many of the first
 *	got it, or a negative errno
 * @alloc: a page from the page allocator, allocated with @gfp, or NULL
 * @free: give a page (with memory) back to the page allocator
 */
struct xen_empty_pool_ops {
	int (*empty)(void *ctx, struct page **pages, unsigned int nr);
	int (*fill)(void *ctx, struct page **pages, unsigned int nr);
	struct page *(*alloc)(void *ctx, gfp_t gfp);
	void (*free)(void *ctx, struct page *page);
};

/**
 * struct xen_empty_pool - the pool and its accounting
 * @lock: protects the list and the counters
 * @idle: empty pages nobody uses, linked through page->lru
 * @nr_idle: pages on @idle
 * @nr_used: empty pages handed out and not yet given back
 * @keep: at most this many idle pages are kept; past it, put() fills
 *	pages again and frees them
 * @floor: the balloon's share: put() and trim() never fill a page when
 *	that would leave fewer than this many empty pages (idle or used);
 *	xen_empty_pool_grow() raises it, xen_empty_pool_fill() lowers it
 * @emptied: pages emptied since the pool was made
 * @filled: pages filled again since the pool was made
 * @added: pages that came empty (hot-added memory), since the pool was made
 * @failed: gets refused for want of memory, or of pages Xen would take
 * @ops: the operations
 * @ctx: passed to them
 * @batch: the pages of one operation, under @lock
 */
struct xen_empty_pool {
	struct mutex lock;	/* see above */
	struct list_head idle;
	unsigned long nr_idle;
	unsigned long nr_used;
	unsigned long keep;
	unsigned long floor;
	unsigned long emptied;
	unsigned long filled;
	unsigned long added;
	unsigned long failed;
	const struct xen_empty_pool_ops *ops;
	void *ctx;
	struct page *batch[XEN_EMPTY_POOL_BATCH];
};

void xen_empty_pool_init(struct xen_empty_pool *pool,
			 const struct xen_empty_pool_ops *ops, void *ctx,
			 unsigned long keep);
int xen_empty_pool_get(struct xen_empty_pool *pool, unsigned int nr,
		       struct page **pages);
void xen_empty_pool_put(struct xen_empty_pool *pool, unsigned int nr,
			struct page **pages);
void xen_empty_pool_put_keep(struct xen_empty_pool *pool, unsigned int nr,
			     struct page **pages, unsigned long keep);
void xen_empty_pool_trim(struct xen_empty_pool *pool, unsigned long keep);
int xen_empty_pool_grow(struct xen_empty_pool *pool, unsigned int nr,
			gfp_t gfp);
int xen_empty_pool_fill(struct xen_empty_pool *pool, unsigned int nr);
void xen_empty_pool_add(struct xen_empty_pool *pool, struct page *page,
			unsigned long nr);

#endif /* _XEN_EMPTY_POOL_H */
