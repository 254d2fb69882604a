// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the grant reference free list (grant-free.h): pure, so
 * they run on every boot of a kernel with CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>

#include "grant-free.h"

#define SIZE	64

static void gref_setup(struct gref_free *f, grant_ref_t *next)
{
	*f = (struct gref_free){ .head = GREF_END };
	/* The first 8 references are the toolstack's. */
	gref_free_add_range(f, next, 8, 32);
}

static void gref_take_put_test(struct kunit *test)
{
	grant_ref_t next[SIZE], chain, r;
	struct gref_free f;

	gref_setup(&f, next);
	KUNIT_EXPECT_EQ(test, f.count, 24U);
	KUNIT_EXPECT_EQ(test, f.head, 8U);

	KUNIT_ASSERT_EQ(test, gref_free_take(&f, 3, &chain), 0);
	KUNIT_EXPECT_EQ(test, chain, 8U);
	KUNIT_EXPECT_EQ(test, next[8], 9U);
	KUNIT_EXPECT_EQ(test, next[9], 10U);
	KUNIT_EXPECT_EQ(test, next[10], GREF_END);
	KUNIT_EXPECT_EQ(test, f.count, 21U);
	KUNIT_EXPECT_EQ(test, f.head, 11U);

	/* Claim and release on the private chain. */
	KUNIT_EXPECT_EQ(test, gref_chain_claim(next, &chain), 8);
	KUNIT_EXPECT_EQ(test, chain, 9U);
	gref_chain_release(next, &chain, 8);
	KUNIT_EXPECT_EQ(test, chain, 8U);

	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, chain), 3);
	KUNIT_EXPECT_EQ(test, f.count, 24U);

	/* Every reference can be taken, and not one more. */
	KUNIT_ASSERT_EQ(test, gref_free_take(&f, 24, &chain), 0);
	KUNIT_EXPECT_EQ(test, f.head, GREF_END);
	KUNIT_EXPECT_EQ(test, gref_free_take(&f, 1, &r), -ENOSPC);
	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, chain), 24);
	KUNIT_EXPECT_EQ(test, gref_free_take(&f, 25, &r), -ENOSPC);
	KUNIT_EXPECT_EQ(test, gref_free_take(&f, 0, &r), -ENOSPC);
}

static void gref_claim_empty_test(struct kunit *test)
{
	grant_ref_t next[SIZE], chain = GREF_END;

	KUNIT_EXPECT_EQ(test, gref_chain_claim(next, &chain), -ENOSPC);
}

static void gref_grow_test(struct kunit *test)
{
	grant_ref_t next[SIZE], chain;
	struct gref_free f;

	gref_setup(&f, next);
	KUNIT_ASSERT_EQ(test, gref_free_take(&f, 20, &chain), 0);
	gref_free_add_range(&f, next, 32, SIZE);
	KUNIT_EXPECT_EQ(test, f.size, (unsigned int)SIZE);
	KUNIT_EXPECT_EQ(test, f.count, 4U + 32U);
	/* The new references come first, then the older free ones. */
	KUNIT_EXPECT_EQ(test, f.head, 32U);
	KUNIT_EXPECT_EQ(test, next[SIZE - 1], 28U);
	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, chain), 20);
	KUNIT_EXPECT_EQ(test, f.count, 56U);
}

static void gref_bad_chain_test(struct kunit *test)
{
	grant_ref_t next[SIZE], chain;
	struct gref_free f;

	gref_setup(&f, next);
	KUNIT_ASSERT_EQ(test, gref_free_take(&f, 2, &chain), 0);
	/* A loop, and a reference beyond the table: refused, nothing freed. */
	next[9] = 8;
	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, chain), -EINVAL);
	next[9] = 1000;
	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, chain), -EINVAL);
	KUNIT_EXPECT_EQ(test, f.count, 22U);
	KUNIT_EXPECT_EQ(test, gref_free_put_chain(&f, GREF_END), 0);
}

static void gref_revoke_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gref_revoke_flags(GTF_permit_access), 0);
	KUNIT_EXPECT_EQ(test, gref_revoke_flags(GTF_permit_access |
						GTF_readonly), 0);
	KUNIT_EXPECT_EQ(test, gref_revoke_flags(GTF_permit_access |
						GTF_reading), -EBUSY);
	KUNIT_EXPECT_EQ(test, gref_revoke_flags(GTF_permit_access |
						GTF_writing), -EBUSY);
}

static struct kunit_case gref_free_cases[] = {
	KUNIT_CASE(gref_take_put_test),
	KUNIT_CASE(gref_claim_empty_test),
	KUNIT_CASE(gref_grow_test),
	KUNIT_CASE(gref_bad_chain_test),
	KUNIT_CASE(gref_revoke_test),
	{}
};

static struct kunit_suite gref_free_suite = {
	.name = "xen-grant-free-list",
	.test_cases = gref_free_cases,
};

kunit_test_suite(gref_free_suite);
