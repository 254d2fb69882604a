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

#include "empty_pool.h"

/* Pages emptied or filled per operation: an array on the stack. */
#define POOL_BATCH	32

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
	*pool = (struct xen_empty_pool) {
		.idle = LIST_HEAD_INIT(pool->idle),
		.keep = keep,
		.ops = ops,
		.ctx = ctx,
	};
	mutex_init(&pool->lock);
}

/* Empty up to POOL_BATCH new pages onto the idle list; how many, or errno. */
static int pool_grow(struct xen_empty_pool *pool, unsigned int want)
{
	struct page *batch[POOL_BATCH];
	unsigned int i, n = 0;
	int done;

	want = min_t(unsigned int, want, POOL_BATCH);
	while (n < want && (batch[n] = pool->ops->alloc(pool->ctx)))
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

/* Fill up to POOL_BATCH idle pages past @keep and free them. */
static int pool_shrink(struct xen_empty_pool *pool, unsigned long keep)
{
	struct page *batch[POOL_BATCH];
	unsigned int i, n = 0;
	int done;

	while (pool->nr_idle - n > keep && n < POOL_BATCH) {
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
		rc = pool_grow(pool, nr - pool->nr_idle);
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
	while (pool->nr_idle > pool->keep && pool_shrink(pool, pool->keep) > 0)
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
	while (pool->nr_idle > keep && pool_shrink(pool, keep) > 0)
		;
	mutex_unlock(&pool->lock);
}
