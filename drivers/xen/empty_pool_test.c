// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the pool of empty pages (empty_pool.c) against a fake
 * Xen: the fake marks pages empty or full and can be told to refuse, as
 * Xen does when it has no memory to give or will not take a frame.  The
 * pages themselves are real, so that the pool links them as it does in
 * use.  Every page the pool frees must be full: the fake counts those
 * that are not.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "empty_pool.h"

#define FAKE_PAGES	160

struct fake_xen {
	struct page *page[FAKE_PAGES];
	bool empty[FAKE_PAGES];
	unsigned int nr;		/* pages handed out by alloc */
	int alloc_budget;		/* -1: no limit */
	int empty_budget;
	int fill_budget;
	unsigned int freed;
	unsigned int freed_empty;	/* must stay 0 */
};

static int fake_index(struct fake_xen *x, struct page *page)
{
	unsigned int i;

	for (i = 0; i < x->nr; i++)
		if (x->page[i] == page)
			return i;
	return -1;
}

/* Take what the budget allows, the first pages first, as Xen does. */
static int fake_take(int *budget)
{
	if (*budget < 0)
		return INT_MAX;
	return *budget;
}

static int fake_empty(void *ctx, struct page **pages, unsigned int nr)
{
	struct fake_xen *x = ctx;
	unsigned int i, n = min_t(unsigned int, nr, fake_take(&x->empty_budget));

	for (i = 0; i < n; i++)
		x->empty[fake_index(x, pages[i])] = true;
	if (x->empty_budget >= 0)
		x->empty_budget -= n;
	return n;
}

static int fake_fill(void *ctx, struct page **pages, unsigned int nr)
{
	struct fake_xen *x = ctx;
	unsigned int i, n = min_t(unsigned int, nr, fake_take(&x->fill_budget));

	for (i = 0; i < n; i++)
		x->empty[fake_index(x, pages[i])] = false;
	if (x->fill_budget >= 0)
		x->fill_budget -= n;
	return n ?: -ENOMEM;
}

static struct page *fake_alloc(void *ctx, gfp_t gfp)
{
	struct fake_xen *x = ctx;
	struct page *page;

	if (x->alloc_budget == 0 || x->nr == FAKE_PAGES)
		return NULL;
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return NULL;
	if (x->alloc_budget > 0)
		x->alloc_budget--;
	x->page[x->nr] = page;
	x->empty[x->nr++] = false;
	return page;
}

static void fake_free(void *ctx, struct page *page)
{
	struct fake_xen *x = ctx;
	int i = fake_index(x, page);

	x->freed++;
	if (i < 0 || x->empty[i])
		x->freed_empty++;
	/* The page itself is freed at the end of the test, with the rest. */
}

static const struct xen_empty_pool_ops fake_ops = {
	.empty = fake_empty,
	.fill = fake_fill,
	.alloc = fake_alloc,
	.free = fake_free,
};

static void fake_exit(struct kunit *test, struct fake_xen *x)
{
	unsigned int i;

	for (i = 0; i < x->nr; i++)
		__free_page(x->page[i]);
}

static struct fake_xen *fake_new(struct kunit *test)
{
	struct fake_xen *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->alloc_budget = -1;
	x->empty_budget = -1;
	x->fill_budget = -1;
	return x;
}

/* A pool is too big for the stack (its batch array). */
static struct xen_empty_pool *pool_new(struct kunit *test)
{
	struct xen_empty_pool *pool = kunit_kzalloc(test, sizeof(*pool),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pool);
	return pool;
}

static unsigned int fake_count_empty(struct fake_xen *x)
{
	unsigned int i, n = 0;

	for (i = 0; i < x->nr; i++)
		n += x->empty[i];
	return n;
}

/* Pages come back empty; idle ones are reused before new ones. */
static void empty_pool_reuse_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[5];
	unsigned int i;

	xen_empty_pool_init(pool, &fake_ops, x, 8);
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 5, pages), 0);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_TRUE(test, x->empty[fake_index(x, pages[i])]);
	KUNIT_EXPECT_EQ(test, pool->emptied, 5UL);
	KUNIT_EXPECT_EQ(test, pool->nr_used, 5UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 0UL);

	xen_empty_pool_put(pool, 5, pages);
	KUNIT_EXPECT_EQ(test, pool->nr_used, 0UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 5UL);
	KUNIT_EXPECT_EQ(test, x->freed, 0U);

	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 3, pages), 0);
	KUNIT_EXPECT_EQ(test, pool->emptied, 5UL);	/* none new */
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 2UL);
	KUNIT_EXPECT_EQ(test, pool->nr_used, 3UL);
	xen_empty_pool_put(pool, 3, pages);
	fake_exit(test, x);
}

/* Past keep, idle pages are filled and freed; never an empty one. */
static void empty_pool_keep_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[40];

	xen_empty_pool_init(pool, &fake_ops, x, 4);
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 40, pages), 0);
	KUNIT_EXPECT_EQ(test, fake_count_empty(x), 40U);
	xen_empty_pool_put(pool, 40, pages);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 4UL);
	KUNIT_EXPECT_EQ(test, pool->filled, 36UL);
	KUNIT_EXPECT_EQ(test, x->freed, 36U);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	KUNIT_EXPECT_EQ(test, fake_count_empty(x), 4U);

	xen_empty_pool_trim(pool, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 0UL);
	KUNIT_EXPECT_EQ(test, x->freed, 40U);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	fake_exit(test, x);
}

/*
 * Xen takes only some frames: the get fails whole, the pages Xen kept
 * memory for go back to the allocator, the emptied ones stay idle and
 * serve the next get.
 */
static void empty_pool_refused_empty_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[5];

	xen_empty_pool_init(pool, &fake_ops, x, 8);
	x->empty_budget = 3;
	KUNIT_EXPECT_EQ(test, xen_empty_pool_get(pool, 5, pages), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pool->failed, 1UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 3UL);
	KUNIT_EXPECT_EQ(test, pool->nr_used, 0UL);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	KUNIT_EXPECT_EQ(test, x->freed + pool->nr_idle, (unsigned long)x->nr);

	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 3, pages), 0);
	KUNIT_EXPECT_EQ(test, pool->emptied, 3UL);
	xen_empty_pool_put(pool, 3, pages);
	fake_exit(test, x);
}

/* Xen has no memory to fill pages: they stay in the pool, not freed. */
static void empty_pool_refused_fill_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[5];

	xen_empty_pool_init(pool, &fake_ops, x, 0);
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 5, pages), 0);
	x->fill_budget = 2;
	xen_empty_pool_put(pool, 5, pages);
	KUNIT_EXPECT_EQ(test, pool->filled, 2UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 3UL);
	KUNIT_EXPECT_EQ(test, x->freed, 2U);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);

	/* Memory again: a trim finishes the job. */
	x->fill_budget = -1;
	xen_empty_pool_trim(pool, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 0UL);
	KUNIT_EXPECT_EQ(test, x->freed, 5U);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	fake_exit(test, x);
}

/* No page to be had: nothing changes but the failure count. */
static void empty_pool_no_memory_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[70];

	xen_empty_pool_init(pool, &fake_ops, x, 100);
	x->alloc_budget = 0;
	KUNIT_EXPECT_EQ(test, xen_empty_pool_get(pool, 1, pages), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pool->failed, 1UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle + pool->nr_used, 0UL);

	/* More than one batch at once. */
	x->alloc_budget = -1;
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 70, pages), 0);
	KUNIT_EXPECT_EQ(test, pool->emptied, 70UL);
	KUNIT_EXPECT_EQ(test, fake_count_empty(x), 70U);
	xen_empty_pool_put(pool, 70, pages);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 70UL);
	xen_empty_pool_trim(pool, 0);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	fake_exit(test, x);
}

/*
 * The balloon's pages: grow() empties new ones and raises the floor,
 * put() and trim() leave them alone, get() hands them out first, and
 * fill() gives them memory whatever the keep, lowering the floor.
 */
static void empty_pool_balloon_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *pages[50];

	xen_empty_pool_init(pool, &fake_ops, x, 4);
	KUNIT_EXPECT_EQ(test, xen_empty_pool_fill(pool, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, xen_empty_pool_grow(pool, 40, GFP_KERNEL), 40);
	KUNIT_EXPECT_EQ(test, pool->floor, 40UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 40UL);
	KUNIT_EXPECT_EQ(test, fake_count_empty(x), 40U);

	/* A trim to nothing leaves the balloon's pages empty. */
	xen_empty_pool_trim(pool, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 40UL);
	KUNIT_EXPECT_EQ(test, x->freed, 0U);

	/* A backend takes more than the balloon holds, then gives back. */
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 50, pages), 0);
	KUNIT_EXPECT_EQ(test, pool->emptied, 50UL);
	xen_empty_pool_put(pool, 50, pages);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 40UL);	/* back to the floor */
	KUNIT_EXPECT_EQ(test, x->freed, 10U);

	/* The alloc budget stops a grow short; it says how far it got. */
	x->alloc_budget = 5;
	KUNIT_EXPECT_EQ(test, xen_empty_pool_grow(pool, 8, GFP_KERNEL), 5);
	KUNIT_EXPECT_EQ(test, xen_empty_pool_grow(pool, 8, GFP_KERNEL),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, pool->floor, 45UL);

	/* Xen has memory for 20 of 30: those go to the allocator. */
	x->fill_budget = 20;
	KUNIT_EXPECT_EQ(test, xen_empty_pool_fill(pool, 30), 20);
	KUNIT_EXPECT_EQ(test, pool->floor, 25UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 25UL);
	x->fill_budget = -1;
	KUNIT_EXPECT_EQ(test, xen_empty_pool_fill(pool, 100), 25);
	KUNIT_EXPECT_EQ(test, pool->floor, 0UL);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 0UL);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	KUNIT_EXPECT_EQ(test, fake_count_empty(x), 0U);
	fake_exit(test, x);
}

/*
 * Pages that come empty (hot-added memory) are the balloon's: counted
 * in the floor, handed out like the others, filled on demand.
 */
static void empty_pool_add_test(struct kunit *test)
{
	struct fake_xen *x = fake_new(test);
	struct xen_empty_pool *pool = pool_new(test);
	struct page *block, *pages[3];
	unsigned int i;

	xen_empty_pool_init(pool, &fake_ops, x, 0);
	block = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, block);
	/* The fake knows the pages, empty. */
	for (i = 0; i < 4; i++) {
		x->page[x->nr] = nth_page(block, i);
		x->empty[x->nr++] = true;
	}
	xen_empty_pool_add(pool, block, 4);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 4UL);
	KUNIT_EXPECT_EQ(test, pool->floor, 4UL);
	KUNIT_EXPECT_EQ(test, pool->added, 4UL);
	KUNIT_EXPECT_EQ(test, pool->emptied, 0UL);

	/* A backend takes three: none newly emptied; gives them back. */
	KUNIT_ASSERT_EQ(test, xen_empty_pool_get(pool, 3, pages), 0);
	KUNIT_EXPECT_EQ(test, pool->emptied, 0UL);
	xen_empty_pool_put(pool, 3, pages);
	KUNIT_EXPECT_EQ(test, pool->nr_idle, 4UL);
	KUNIT_EXPECT_EQ(test, x->freed, 0U);

	KUNIT_EXPECT_EQ(test, xen_empty_pool_fill(pool, 4), 4);
	KUNIT_EXPECT_EQ(test, pool->floor, 0UL);
	KUNIT_EXPECT_EQ(test, x->freed, 4U);
	KUNIT_EXPECT_EQ(test, x->freed_empty, 0U);
	/* fake_exit() frees the pages one by one: split the block. */
	split_page(block, 2);
	fake_exit(test, x);
}

static struct kunit_case empty_pool_cases[] = {
	KUNIT_CASE(empty_pool_reuse_test),
	KUNIT_CASE(empty_pool_keep_test),
	KUNIT_CASE(empty_pool_refused_empty_test),
	KUNIT_CASE(empty_pool_refused_fill_test),
	KUNIT_CASE(empty_pool_no_memory_test),
	KUNIT_CASE(empty_pool_balloon_test),
	KUNIT_CASE(empty_pool_add_test),
	{}
};

static struct kunit_suite empty_pool_suite = {
	.name = "xen-empty-pool",
	.test_cases = empty_pool_cases,
};

kunit_test_suite(empty_pool_suite);

MODULE_DESCRIPTION("KUnit tests of the pool of empty pages");
MODULE_LICENSE("GPL");
