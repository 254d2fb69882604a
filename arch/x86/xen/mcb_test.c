// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the multicall batch (mcb.h): pure, so they run on
 * every boot of a kernel with CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mcb.h"

static struct xen_mcb *mcb_new(struct kunit *test)
{
	struct xen_mcb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	xen_mcb_reset(b);
	return b;
}

/* Requests of one kind in a row share one call, in one array. */
static void mcb_merge_test(struct kunit *test)
{
	struct xen_mcb *b = mcb_new(test);
	struct mmu_update *u0, *u1, *u2;

	u0 = xen_mcb_mmu_update(b, 1);
	u1 = xen_mcb_mmu_update(b, 1);
	u2 = xen_mcb_mmu_update(b, 2);
	KUNIT_ASSERT_NOT_NULL(test, u0);
	KUNIT_ASSERT_NOT_NULL(test, u1);
	KUNIT_ASSERT_NOT_NULL(test, u2);
	KUNIT_EXPECT_PTR_EQ(test, u1, u0 + 1);
	KUNIT_EXPECT_PTR_EQ(test, u2, u0 + 2);
	KUNIT_EXPECT_EQ(test, b->calls, 1U);
	KUNIT_EXPECT_EQ(test, b->call[0].op, (unsigned long)__HYPERVISOR_mmu_update);
	KUNIT_EXPECT_EQ(test, b->call[0].args[0], (unsigned long)u0);
	KUNIT_EXPECT_EQ(test, b->call[0].args[1], 4UL);
	KUNIT_EXPECT_EQ(test, b->call[0].args[3], (unsigned long)DOMID_SELF);
	KUNIT_EXPECT_EQ(test, xen_mcb_requests_of(&b->call[0]), 4UL);
	KUNIT_EXPECT_EQ(test, b->words, 8U);
}

/* Another kind in between starts a new call: the order stays. */
static void mcb_order_test(struct kunit *test)
{
	struct xen_mcb *b = mcb_new(test);
	struct mmu_update *u0, *u1;
	struct mmuext_op *x;

	u0 = xen_mcb_mmu_update(b, 1);
	x = xen_mcb_mmuext(b, 1);
	KUNIT_ASSERT_NOT_NULL(test, xen_mcb_call(b, __HYPERVISOR_update_va_mapping,
						 0x1000, 0, 0));
	u1 = xen_mcb_mmu_update(b, 1);
	KUNIT_ASSERT_NOT_NULL(test, u0);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_NOT_NULL(test, u1);
	KUNIT_EXPECT_EQ(test, b->calls, 4U);
	KUNIT_EXPECT_EQ(test, b->call[0].op, (unsigned long)__HYPERVISOR_mmu_update);
	KUNIT_EXPECT_EQ(test, b->call[1].op, (unsigned long)__HYPERVISOR_mmuext_op);
	KUNIT_EXPECT_EQ(test, b->call[2].op,
			(unsigned long)__HYPERVISOR_update_va_mapping);
	KUNIT_EXPECT_EQ(test, b->call[3].op, (unsigned long)__HYPERVISOR_mmu_update);
	/* Each array follows the one before it. */
	KUNIT_EXPECT_PTR_EQ(test, (void *)x, (void *)(u0 + 1));
	KUNIT_EXPECT_PTR_EQ(test, (void *)u1, (void *)(x + 1));
	KUNIT_EXPECT_EQ(test, b->call[3].args[1], 1UL);
	KUNIT_EXPECT_EQ(test, xen_mcb_requests_of(&b->call[2]), 1UL);
	/* An mmuext_op after a new mmu_update does not join the old one. */
	KUNIT_ASSERT_NOT_NULL(test, xen_mcb_mmuext(b, 2));
	KUNIT_EXPECT_EQ(test, b->calls, 5U);
	KUNIT_EXPECT_EQ(test, b->call[1].args[1], 1UL);
}

/* The request words run out: NULL, nothing changed; reset frees them. */
static void mcb_full_words_test(struct kunit *test)
{
	const unsigned int most = XEN_MCB_WORDS / XEN_MCB_MMU_WORDS;
	struct xen_mcb *b = mcb_new(test);
	unsigned int i;

	for (i = 0; i < most; i++)
		KUNIT_ASSERT_NOT_NULL(test, xen_mcb_mmu_update(b, 1));
	KUNIT_EXPECT_EQ(test, b->calls, 1U);
	KUNIT_EXPECT_EQ(test, b->call[0].args[1], (unsigned long)most);
	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, 1));
	KUNIT_EXPECT_NULL(test, xen_mcb_mmuext(b, 1));
	KUNIT_EXPECT_EQ(test, b->call[0].args[1], (unsigned long)most);
	KUNIT_EXPECT_EQ(test, b->words, XEN_MCB_WORDS);
	/* A call without requests still fits. */
	KUNIT_EXPECT_NOT_NULL(test, xen_mcb_call(b, __HYPERVISOR_mmuext_op, 0, 0, 0));

	xen_mcb_reset(b);
	KUNIT_EXPECT_TRUE(test, xen_mcb_empty(b));
	KUNIT_EXPECT_NOT_NULL(test, xen_mcb_mmu_update(b, most));
	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, 1));
}

/* The calls run out: NULL for anything that needs a new one. */
static void mcb_full_calls_test(struct kunit *test)
{
	struct xen_mcb *b = mcb_new(test);
	unsigned int i;

	for (i = 0; i < XEN_MCB_CALLS; i++) {
		if (i % 2)
			KUNIT_ASSERT_NOT_NULL(test, xen_mcb_mmuext(b, 1));
		else
			KUNIT_ASSERT_NOT_NULL(test, xen_mcb_mmu_update(b, 1));
	}
	KUNIT_EXPECT_EQ(test, b->calls, (unsigned int)XEN_MCB_CALLS);
	/* The last call is an mmuext_op: another one still joins it. */
	KUNIT_EXPECT_NOT_NULL(test, xen_mcb_mmuext(b, 1));
	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, 1));
	KUNIT_EXPECT_NULL(test, xen_mcb_call(b, __HYPERVISOR_update_va_mapping,
					     0, 0, 0));
	KUNIT_EXPECT_EQ(test, b->calls, (unsigned int)XEN_MCB_CALLS);
}

/* No request, or more than a batch can ever hold: NULL, no change. */
static void mcb_bad_count_test(struct kunit *test)
{
	struct xen_mcb *b = mcb_new(test);

	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, 0));
	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, XEN_MCB_WORDS));
	KUNIT_EXPECT_NULL(test, xen_mcb_mmuext(b, UINT_MAX / 4));
	/* A count whose size in words wraps around 32 bits. */
	KUNIT_EXPECT_NULL(test, xen_mcb_mmu_update(b, 0x80000001U));
	KUNIT_EXPECT_TRUE(test, xen_mcb_empty(b));
	KUNIT_EXPECT_EQ(test, b->words, 0U);
}

static struct kunit_case mcb_cases[] = {
	KUNIT_CASE(mcb_merge_test),
	KUNIT_CASE(mcb_order_test),
	KUNIT_CASE(mcb_full_words_test),
	KUNIT_CASE(mcb_full_calls_test),
	KUNIT_CASE(mcb_bad_count_test),
	{}
};

static struct kunit_suite mcb_suite = {
	.name = "xen-multicall-batch",
	.test_cases = mcb_cases,
};

kunit_test_suite(mcb_suite);
