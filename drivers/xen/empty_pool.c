// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of empty pages (see empty_pool.h): handing them out, taking
 * them back, and emptying or filling pages in batches when the pool has
 * too few or too many.
 *
 * Locking: pool->lock (a mutex) is held across the operations, which
 * sleep (hypercalls, page allocation); the pool is not on a hot path.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "empty_pool.h"

/**
 * xen_empty_pool_init() - set up a pool
 * @pool: the pool
 * @ops: how pages are emptied and filled
 * @ctx: passed to @ops
 * @keep: idle pages kept before put() starts filling them again
 */
void xen_empty_pool_init(struct xen_empty_pool *pool,
			 const struct xen_empty_pool_ops *ops, void *ctx,
			 unsigned long keep)
{
	memset(pool, 0, sizeof(*pool));
	INIT_LIST_HEAD(&pool->idle);
	pool->keep = keep;
	pool->ops = ops;
	pool->ctx = ctx;
	mutex_init(&pool->lock);
}

/* Empty a batch of new pages onto the idle list; how many, or errno. */
static int pool_grow(struct xen_empty_pool *pool, unsigned int want, gfp_t gfp)
{
	struct page **batch = pool->batch;
	unsigned int i, n = 0;
	int done;

	want = min_t(unsigned int, want, XEN_EMPTY_POOL_BATCH);
	while (n < want && (batch[n] = pool->ops->alloc(pool->ctx, gfp)))
		n++;
	if (!n)
		return -ENOMEM;
	done = pool->ops->empty(pool->ctx, batch, n);
	if (done < 0)
		done = 0;
	/* The pages Xen would not take still have memory: free them. */
	for (i = done; i < n; i++)
		pool->ops->free(pool->ctx, batch[i]);
	for (i = 0; i < done; i++)
		list_add_tail(&batch[i]->lru, &pool->idle);
	pool->nr_idle += done;
	pool->emptied += done;
	return done ?: -ENOMEM;
}

/*
 * Fill up to @want idle pages (a batch at most) and free them; how many
 * got memory.
 */
static int pool_fill(struct xen_empty_pool *pool, unsigned long want)
{
	struct page **batch = pool->batch;
	unsigned int i, n = 0;
	int done;

	want = min3(want, pool->nr_idle, (unsigned long)XEN_EMPTY_POOL_BATCH);
	while (n < want) {
		batch[n] = list_first_entry(&pool->idle, struct page, lru);
		list_del(&batch[n]->lru);
		n++;
	}
	if (!n)
		return 0;
	done = pool->ops->fill(pool->ctx, batch, n);
	if (done < 0)
		done = 0;
	for (i = 0; i < done; i++)
		pool->ops->free(pool->ctx, batch[i]);
	/* Still empty: back on the list, never to the allocator. */
	for (i = done; i < n; i++)
		list_add(&batch[i]->lru, &pool->idle);
	pool->nr_idle -= done;
	pool->filled += done;
	return done;
}

/*
 * Fill one batch of the idle pages past @keep, as far as the balloon's
 * floor allows.  Return: how many got memory; 0 when none should or Xen
 * gave none.
 */
static int pool_shrink(struct xen_empty_pool *pool, unsigned long keep)
{
	unsigned long total = pool->nr_idle + pool->nr_used;

	if (pool->nr_idle <= keep || total <= pool->floor)
		return 0;
	return pool_fill(pool, min(pool->nr_idle - keep, total - pool->floor));
}

/**
 * xen_empty_pool_get() - take empty pages
 * @pool: the pool
 * @nr: how many
 * @pages: where their struct pages go
 *
 * Idle pages first; the pool empties new ones when it has too few.  All
 * or nothing: on failure the pool holds whatever it emptied, for the
 * next call.
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOMEM when memory or Xen refused.
 */
int xen_empty_pool_get(struct xen_empty_pool *pool, unsigned int nr,
		       struct page **pages)
{
	unsigned int i;
	int rc = 0;

	mutex_lock(&pool->lock);
	while (pool->nr_idle < nr) {
		rc = pool_grow(pool, nr - pool->nr_idle, GFP_KERNEL);
		if (rc < 0) {
			pool->failed++;
			goto out;
		}
	}
	for (i = 0; i < nr; i++) {
		pages[i] = list_first_entry(&pool->idle, struct page, lru);
		list_del(&pages[i]->lru);
	}
	pool->nr_idle -= nr;
	pool->nr_used += nr;
	rc = 0;
out:
	mutex_unlock(&pool->lock);
	return rc;
}

/**
 * xen_empty_pool_put() - give empty pages back
 * @pool: the pool
 * @nr: how many
 * @pages: pages xen_empty_pool_get() gave, empty again (nothing mapped
 *	in their place)
 *
 * Past the pool's @keep, idle pages get memory again and go back to the
 * page allocator, as far as Xen has memory to give.
 *
 * Context: process context; sleeps.
 */
void xen_empty_pool_put(struct xen_empty_pool *pool, unsigned int nr,
			struct page **pages)
{
	xen_empty_pool_put_keep(pool, nr, pages, pool->keep);
}

/**
 * xen_empty_pool_put_keep() - give empty pages back, with a new keep
 * @pool: the pool
 * @nr: how many
 * @pages: as for xen_empty_pool_put()
 * @keep: the pool's keep from now on
 *
 * Context: process context; sleeps.
 */
void xen_empty_pool_put_keep(struct xen_empty_pool *pool, unsigned int nr,
			     struct page **pages, unsigned long keep)
{
	unsigned int i;

	mutex_lock(&pool->lock);
	pool->keep = keep;
	for (i = 0; i < nr; i++)
		list_add(&pages[i]->lru, &pool->idle);
	pool->nr_idle += nr;
	WARN_ON(pool->nr_used < nr);
	pool->nr_used -= min_t(unsigned long, nr, pool->nr_used);
	while (pool_shrink(pool, pool->keep) > 0)
		;
	mutex_unlock(&pool->lock);
}

/**
 * xen_empty_pool_trim() - fill idle pages again and free them
 * @pool: the pool
 * @keep: idle pages to keep
 *
 * Stops early when Xen has no more memory to give.
 *
 * Context: process context; sleeps.
 */
void xen_empty_pool_trim(struct xen_empty_pool *pool, unsigned long keep)
{
	mutex_lock(&pool->lock);
	while (pool_shrink(pool, keep) > 0)
		;
	mutex_unlock(&pool->lock);
}

/**
 * xen_empty_pool_grow() - empty new pages for the balloon
 * @pool: the pool
 * @nr: how many at most
 * @gfp: how the page allocator is asked for them
 *
 * The pages go to the idle list, where put() leaves them (the floor
 * rises by as many) and get() hands them out first.
 *
 * Context: process context; sleeps.
 * Return: how many were emptied, or -ENOMEM when the page allocator or
 * Xen gave none.
 */
int xen_empty_pool_grow(struct xen_empty_pool *pool, unsigned int nr,
			gfp_t gfp)
{
	unsigned int done = 0;
	int rc = 0;

	mutex_lock(&pool->lock);
	while (done < nr) {
		rc = pool_grow(pool, nr - done, gfp);
		if (rc <= 0)
			break;
		done += rc;
	}
	pool->floor += done;
	mutex_unlock(&pool->lock);
	return done ?: rc;
}

/**
 * xen_empty_pool_fill() - give idle pages memory again for the balloon
 * @pool: the pool
 * @nr: how many at most
 *
 * Idle pages get memory and go back to the page allocator, whatever the
 * pool's keep; the floor falls by as many.
 *
 * Context: process context; sleeps.
 * Return: how many got memory (0 when Xen gave none), or -ENOSPC when
 * the pool has no idle page to fill.
 */
int xen_empty_pool_fill(struct xen_empty_pool *pool, unsigned int nr)
{
	unsigned int done = 0;
	int rc = 0;

	mutex_lock(&pool->lock);
	if (!pool->nr_idle) {
		mutex_unlock(&pool->lock);
		return -ENOSPC;
	}
	while (done < nr && pool->nr_idle) {
		rc = pool_fill(pool, nr - done);
		if (rc <= 0)
			break;
		done += rc;
	}
	pool->floor -= min_t(unsigned long, pool->floor, done);
	mutex_unlock(&pool->lock);
	return done;
}

/**
 * xen_empty_pool_add() - take in pages that are empty already
 * @pool: the pool
 * @page: the first of @nr pages with consecutive pfns, with no memory
 *	behind them (memory added to the domain's physical space and not
 *	filled)
 * @nr: how many
 *
 * They become the balloon's: the floor rises by as many.  The pool's
 * free operation is what gives such a page to the page allocator once
 * it is filled.
 *
 * Context: process context; sleeps.
 */
void xen_empty_pool_add(struct xen_empty_pool *pool, struct page *page,
			unsigned long nr)
{
	unsigned long i;

	mutex_lock(&pool->lock);
	for (i = 0; i < nr; i++)
		list_add_tail(&nth_page(page, i)->lru, &pool->idle);
	pool->nr_idle += nr;
	pool->floor += nr;
	pool->added += nr;
	mutex_unlock(&pool->lock);
}
