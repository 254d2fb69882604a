// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the P2M tree (p2m_tree.c): pure, so they run on every
 * boot of a kernel with CONFIG_XEN_PV and CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "p2m_tree.h"

/* Pages from KUnit, with a budget that can run out. */
struct p2m_pages {
	struct kunit *test;
	int budget;		/* allocations left; negative: no limit */
	int live;		/* given and not taken back */
};

static void *p2m_test_alloc(void *ctx)
{
	struct p2m_pages *p = ctx;
	void *page;

	if (!p->budget)
		return NULL;
	if (p->budget > 0)
		p->budget--;
	page = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (page)
		p->live++;
	return page;
}

static void p2m_test_free(void *ctx, void *page)
{
	struct p2m_pages *p = ctx;

	p->live--;
	kfree(page);
}

/* A tree (4 KiB of root: not on the stack) with unlimited pages. */
static struct xen_p2m *p2m_new(struct kunit *test, struct p2m_pages *pages,
			       unsigned long limit)
{
	struct xen_p2m *p2m = kunit_kzalloc(test, sizeof(*p2m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p2m);
	*pages = (struct p2m_pages){ .test = test, .budget = -1 };
	KUNIT_ASSERT_EQ(test, xen_p2m_init(p2m, limit, p2m_test_alloc,
					   p2m_test_free, pages), 0);
	return p2m;
}

static void p2m_done(struct kunit *test, struct xen_p2m *p2m,
		     struct p2m_pages *pages)
{
	xen_p2m_destroy(p2m);
	KUNIT_EXPECT_EQ(test, pages->live, 0);
}

/* An empty tree: three shared pages, every lookup misses. */
static void p2m_empty_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 1000);
	KUNIT_EXPECT_EQ(test, pages.live, 3);
	KUNIT_EXPECT_EQ(test, p2m->pages, 0UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 0), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 999), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 1000), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, ~0UL), XEN_P2M_MISSING);
	p2m_done(test, p2m, &pages);
}

/* Entries set and found; a leaf and a mid page only when needed. */
static void p2m_set_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 4 * XEN_P2M_MID_PFNS);
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 5, 0x1234), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 5), 0x1234UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 4), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 6), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, p2m->pages, 2UL);
	/* The same leaf: nothing more. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 511, 0x99), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 2UL);
	/* The next leaf, same mid page. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 512, 0x77), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 3UL);
	/* Another mid page. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 3 * XEN_P2M_MID_PFNS + 1, 0x55), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 5UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 3 * XEN_P2M_MID_PFNS + 1), 0x55UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 3 * XEN_P2M_MID_PFNS), XEN_P2M_MISSING);
	/* Missing where it already is: no page. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 2 * XEN_P2M_MID_PFNS, XEN_P2M_MISSING), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 5UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 4 * XEN_P2M_MID_PFNS, 1), -ERANGE);
	p2m_done(test, p2m, &pages);
}

/* Identity: whole leaves share a page; a write there gets its own. */
static void p2m_identity_test(struct kunit *test)
{
	const unsigned long start = 1024, end = 1024 + 3 * 512 + 100;
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 8192);
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, start, end,
						XEN_P2M_IDENTITY), 0);
	/* The mid page, and one leaf for the 100 at the end. */
	KUNIT_EXPECT_EQ(test, p2m->pages, 2UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, start - 1), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, start), start | XEN_P2M_IDENTITY);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 2000), 2000 | XEN_P2M_IDENTITY);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, end - 1),
			(end - 1) | XEN_P2M_IDENTITY);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, end), XEN_P2M_MISSING);
	/* A real frame inside a shared identity leaf. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 2000, 0x42), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 3UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 2000), 0x42UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 1999), 1999 | XEN_P2M_IDENTITY);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 2001), 2001 | XEN_P2M_IDENTITY);
	/* Identity where it already is: no page. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 1500, 1500 | XEN_P2M_IDENTITY), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 3UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, 0, 10, 0x1234), -EINVAL);
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, 10, 9000, XEN_P2M_MISSING),
			-ERANGE);
	p2m_done(test, p2m, &pages);
}

/* A range made missing again gives back the leaves it covers. */
static void p2m_missing_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;
	unsigned long pfn;

	p2m = p2m_new(test, &pages, 4096);
	for (pfn = 0; pfn < 1024; pfn++)
		KUNIT_ASSERT_EQ(test, xen_p2m_set(p2m, pfn, 0x10000 + pfn), 0);
	KUNIT_EXPECT_EQ(test, p2m->pages, 3UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, 0, 700, XEN_P2M_MISSING), 0);
	/* The first leaf went back; the second kept its last 324. */
	KUNIT_EXPECT_EQ(test, p2m->pages, 2UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 0), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 699), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 700), 0x10000UL + 700);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 1023), 0x10000UL + 1023);
	p2m_done(test, p2m, &pages);
}

/* Growing the limit: new pfns exist, missing; never shrinks. */
static void p2m_grow_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 512);
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 600, 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, xen_p2m_grow(p2m, 2000), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 600), XEN_P2M_MISSING);
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 600, 1), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 600), 1UL);
	KUNIT_EXPECT_EQ(test, xen_p2m_grow(p2m, 100), -EINVAL);
	KUNIT_EXPECT_EQ(test, xen_p2m_grow(p2m, XEN_P2M_MAX_PFNS + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, xen_p2m_grow(p2m, XEN_P2M_MAX_PFNS), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, XEN_P2M_MAX_PFNS - 1, 7), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, XEN_P2M_MAX_PFNS - 1), 7UL);
	p2m_done(test, p2m, &pages);
}

/*
 * xen_p2m_has_leaf(): only where a set allocates nothing, which is what
 * lets a grant's foreign frame be set from any context.
 */
static void p2m_has_leaf_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 4096);
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 3));
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 3, 0x33), 0);
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 3));
	/* A frame given back keeps its leaf: so its page can hold a grant. */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 3, XEN_P2M_MISSING), 0);
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 3));
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 511));
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 512));
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, 1024, 2048,
						XEN_P2M_IDENTITY), 0);
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 1500));
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 4096));
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, ~0UL));
	p2m_done(test, p2m, &pages);
}

/*
 * xen_p2m_own_range(): hot-added pfns get leaves before their entries
 * are set, so that setting them allocates nothing; entries keep what
 * they said, missing or identity.
 */
static void p2m_own_range_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 4096);
	KUNIT_EXPECT_EQ(test, xen_p2m_own_range(p2m, 0, 4097), -ERANGE);
	KUNIT_EXPECT_EQ(test, xen_p2m_own_range(p2m, 9, 8), -ERANGE);
	KUNIT_EXPECT_EQ(test, xen_p2m_set_range(p2m, 1024, 1536,
						XEN_P2M_IDENTITY), 0);
	KUNIT_ASSERT_EQ(test, xen_p2m_grow(p2m, 8192), 0);
	/* Across leaves: part of one, two whole, part of the last. */
	KUNIT_EXPECT_EQ(test, xen_p2m_own_range(p2m, 700, 2000), 0);
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 511));
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 512));
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 1200));
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 2047));
	KUNIT_EXPECT_FALSE(test, xen_p2m_has_leaf(p2m, 2048));
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 1200),
			1200UL | XEN_P2M_IDENTITY);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 700), XEN_P2M_MISSING);
	/* Past the old limit, as hot-added memory is. */
	KUNIT_EXPECT_EQ(test, xen_p2m_own_range(p2m, 4096, 8192), 0);
	KUNIT_EXPECT_TRUE(test, xen_p2m_has_leaf(p2m, 8191));
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 5000), XEN_P2M_MISSING);
	p2m_done(test, p2m, &pages);
}

/* No page to be had: -ENOMEM, and the tree is as it was. */
static void p2m_nomem_test(struct kunit *test)
{
	struct p2m_pages pages;
	struct xen_p2m *p2m;

	p2m = p2m_new(test, &pages, 4096);
	pages.budget = 1;	/* the mid page, not the leaf */
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 3, 0x33), -ENOMEM);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 3), XEN_P2M_MISSING);
	pages.budget = -1;
	KUNIT_EXPECT_EQ(test, xen_p2m_set(p2m, 3, 0x33), 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_lookup(p2m, 3), 0x33UL);
	p2m_done(test, p2m, &pages);

	pages = (struct p2m_pages){ .test = test, .budget = 2 };
	KUNIT_EXPECT_EQ(test, xen_p2m_init(p2m, 10, p2m_test_alloc,
					   p2m_test_free, &pages), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pages.live, 0);
	KUNIT_EXPECT_EQ(test, xen_p2m_init(p2m, XEN_P2M_MAX_PFNS + 1,
					   p2m_test_alloc, p2m_test_free,
					   &pages), -EINVAL);
}

static struct kunit_case p2m_cases[] = {
	KUNIT_CASE(p2m_empty_test),
	KUNIT_CASE(p2m_set_test),
	KUNIT_CASE(p2m_identity_test),
	KUNIT_CASE(p2m_missing_test),
	KUNIT_CASE(p2m_grow_test),
	KUNIT_CASE(p2m_has_leaf_test),
	KUNIT_CASE(p2m_own_range_test),
	KUNIT_CASE(p2m_nomem_test),
	{}
};

static struct kunit_suite p2m_suite = {
	.name = "xen-p2m-tree",
	.test_cases = p2m_cases,
};

kunit_test_suite(p2m_suite);
