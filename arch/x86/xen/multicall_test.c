// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit live tests of sending a multicall batch (multicall.c): they
 * talk to Xen, so they run only in a Xen guest (PVH will do: Xen takes
 * multicalls from HVM containers too) and are skipped elsewhere.
 */
#include <kunit/test.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/version.h>
#include <xen/xen.h>

#include "multicall.h"

/* A hypercall number Xen has never had (11 was always a gap). */
#define MC_TEST_NO_SUCH_OP	11

static int mc_test_init(struct kunit *test)
{
	if (!xen_domain())
		kunit_skip(test, "not a Xen guest");
	return 0;
}

/* Calls run in order, each with its own result; the first error comes back. */
static void mc_send_test(struct kunit *test)
{
	struct xen_mcb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	int version = HYPERVISOR_xen_version(XENVER_version, NULL);
	unsigned int i;
	int rc;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_GT(test, version, 0);
	xen_mcb_reset(b);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, xen_mcb_call(b, __HYPERVISOR_xen_version,
							 XENVER_version, 0, 0));
	KUNIT_ASSERT_NOT_NULL(test, xen_mcb_call(b, MC_TEST_NO_SUCH_OP, 0, 0, 0));
	KUNIT_ASSERT_NOT_NULL(test, xen_mcb_call(b, __HYPERVISOR_xen_version,
						 XENVER_version, 0, 0));
	preempt_disable();
	rc = xen_mcb_send(b, XEN_MC_SYNC);
	preempt_enable();
	/* The bad call failed (Xen's "no such hypercall"), and only it. */
	KUNIT_EXPECT_LT(test, (long)b->call[3].result, 0L);
	KUNIT_EXPECT_EQ(test, (long)rc, (long)b->call[3].result);
	for (i = 0; i < 5; i++)
		if (i != 3)
			KUNIT_EXPECT_EQ(test, (long)b->call[i].result, (long)version);
	/* Sent means empty; an empty batch sends nothing. */
	KUNIT_EXPECT_TRUE(test, xen_mcb_empty(b));
	KUNIT_EXPECT_EQ(test, xen_mcb_send(b, XEN_MC_SYNC), 0);
}

/* A full batch: all XEN_MCB_CALLS calls are run. */
static void mc_full_test(struct kunit *test)
{
	struct xen_mcb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	int version = HYPERVISOR_xen_version(XENVER_version, NULL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	xen_mcb_reset(b);
	for (i = 0; i < XEN_MCB_CALLS; i++)
		KUNIT_ASSERT_NOT_NULL(test, xen_mcb_call(b, __HYPERVISOR_xen_version,
							 XENVER_version, 0, 0));
	KUNIT_EXPECT_NULL(test, xen_mcb_call(b, __HYPERVISOR_xen_version,
					     XENVER_version, 0, 0));
	preempt_disable();
	KUNIT_EXPECT_EQ(test, xen_mcb_send(b, XEN_MC_FULL), 0);
	preempt_enable();
	for (i = 0; i < XEN_MCB_CALLS; i++)
		KUNIT_EXPECT_EQ(test, (long)b->call[i].result, (long)version);
}

/*
 * A batch of one page-table call is made as that hypercall: its result
 * comes back in the entry and as the return value, a failure too.  (A
 * PVH guest has no mmuext_op: both say so.)
 */
static void mc_one_test(struct kunit *test)
{
	struct xen_mcb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const unsigned int cmds[] = { MMUEXT_TLB_FLUSH_LOCAL, 0xffff };
	struct mmuext_op *op;
	unsigned int i;
	int rc;

	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		xen_mcb_reset(b);
		op = xen_mcb_mmuext(b, 1);
		KUNIT_ASSERT_NOT_NULL(test, op);
		op->cmd = cmds[i];
		preempt_disable();
		rc = xen_mcb_send(b, XEN_MC_SYNC);
		preempt_enable();
		KUNIT_EXPECT_EQ(test, (long)rc, (long)b->call[0].result);
		KUNIT_EXPECT_TRUE(test, xen_mcb_empty(b));
		if (cmds[i] == MMUEXT_TLB_FLUSH_LOCAL && xen_pv_domain())
			KUNIT_EXPECT_EQ(test, rc, 0);
		else
			KUNIT_EXPECT_LT(test, rc, 0);
	}
}

static struct kunit_case mc_cases[] = {
	KUNIT_CASE(mc_send_test),
	KUNIT_CASE(mc_one_test),
	KUNIT_CASE(mc_full_test),
	{}
};

static struct kunit_suite mc_suite = {
	.name = "xen-multicall-live",
	.init = mc_test_init,
	.test_cases = mc_cases,
};

kunit_test_suite(mc_suite);
