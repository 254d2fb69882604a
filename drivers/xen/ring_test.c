// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the shared ring arithmetic (include/xen/ring.h) and of
 * the block ring's layout: pure, so they run on every boot of a kernel
 * with CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <xen/interface/io/blkif.h>
#include <xen/ring.h>

static void ring_entries_test(struct kunit *test)
{
	size_t small = 10;

	/* A page of block ring: 64 bytes of header, 112-byte entries. */
	KUNIT_EXPECT_EQ(test, sizeof(union blkif_sring_entry), 112UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_sring, ring), 64UL);
	KUNIT_EXPECT_EQ(test, XEN_SRING_ENTRIES(blkif, 4096), 32U);
	KUNIT_EXPECT_EQ(test, XEN_SRING_ENTRIES(blkif, 16 * 4096), 512U);
	KUNIT_EXPECT_EQ(test, xen_ring_entries(64 + 3 * 8, 64, 8), 2U);
	KUNIT_EXPECT_EQ(test, xen_ring_entries(64 + 7, 64, 8), 0U);
	/* Smaller than the header (at run time: no constant folding). */
	OPTIMIZER_HIDE_VAR(small);
	KUNIT_EXPECT_EQ(test, xen_ring_entries(small, 64, 8), 0U);
}

static void ring_free_test(struct kunit *test)
{
	struct xen_front_ring r = { .nr_ents = 32 };

	KUNIT_EXPECT_EQ(test, xen_ring_free_requests(&r), 32U);
	r.req_prod_pvt = 20;
	r.rsp_cons = 4;
	KUNIT_EXPECT_EQ(test, xen_ring_free_requests(&r), 16U);
	/* Across the wrap of the indices. */
	r.rsp_cons = 0xfffffff0U;
	r.req_prod_pvt = 0x10U;
	KUNIT_EXPECT_EQ(test, xen_ring_free_requests(&r), 0U);
	KUNIT_EXPECT_EQ(test, xen_ring_slot(&r, 0x21), 1U);
}

static void ring_notify_test(struct kunit *test)
{
	/* The other end waits for index 5: tell it when 5 is published. */
	KUNIT_EXPECT_TRUE(test, xen_ring_notify_needed(4, 5, 5));
	KUNIT_EXPECT_TRUE(test, xen_ring_notify_needed(0, 8, 5));
	KUNIT_EXPECT_FALSE(test, xen_ring_notify_needed(5, 8, 5));
	KUNIT_EXPECT_FALSE(test, xen_ring_notify_needed(0, 4, 5));
	/* Nothing new, nothing to tell. */
	KUNIT_EXPECT_FALSE(test, xen_ring_notify_needed(7, 7, 7));
	/* Wrapped indices. */
	KUNIT_EXPECT_TRUE(test, xen_ring_notify_needed(0xfffffffeU, 2, 0));
	KUNIT_EXPECT_FALSE(test, xen_ring_notify_needed(0xfffffffeU, 2, 3));
}

/* A ring with @out requests outstanding, @cons responses consumed. */
static struct xen_front_ring ring_at(RING_IDX cons, RING_IDX out)
{
	return (struct xen_front_ring) { .nr_ents = 32, .rsp_cons = cons,
					 .rsp_seen = cons,
					 .req_prod_pvt = cons + out };
}

static void ring_responses_test(struct kunit *test)
{
	struct xen_front_ring r = ring_at(4, 6);

	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 4), 0);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 10), 6);
	/* More responses than requests outstanding: a lying backend. */
	r = ring_at(4, 6);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 11), -EIO);
	r = ring_at(4, 6);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 3), -EIO);
	r = ring_at(4, 6);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 0x80000000U), -EIO);
	/* Across the wrap of the indices. */
	r = ring_at(0xfffffffcU, 8);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 2), 6);
	r = ring_at(0xfffffffcU, 8);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 5), -EIO);
}

static void ring_backwards_test(struct kunit *test)
{
	struct xen_front_ring r = ring_at(4, 6);

	/* Seen at 8, then consumed up to 6: 7 is behind what it showed. */
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 8), 4);
	r.rsp_cons = 6;
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 8), 2);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 7), -EIO);
	/* Standing still is fine. */
	r = ring_at(4, 6);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 5), 1);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 5), 1);
}

static void ring_flip_test(struct kunit *test)
{
	struct xen_front_ring r = ring_at(0xfffffffeU, 4);
	RING_IDX rsp_event = 0, rsp_prod = 0xffffffffU;

	/* The final check sees one more response... */
	KUNIT_EXPECT_TRUE(test, xen_ring_final_check_responses(&r, &rsp_event,
							       &rsp_prod, 1));
	/* ...which the next read no longer shows: the index went back. */
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 0xfffffffeU), -EIO);
	/* An index past the requests, seen by the final check, then taken back. */
	r = ring_at(8, 2);
	rsp_prod = 100;
	KUNIT_EXPECT_TRUE(test, xen_ring_final_check_responses(&r, &rsp_event,
							       &rsp_prod, 1));
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 8), -EIO);
	/* An index kept by hand counts the same. */
	r = ring_at(8, 2);
	KUNIT_EXPECT_EQ(test, xen_ring_note_responses(&r, 9), 9U);
	KUNIT_EXPECT_EQ(test, xen_ring_new_responses(&r, 8), -EIO);
}

static void ring_final_check_test(struct kunit *test)
{
	struct xen_front_ring r = ring_at(0xfffffffeU, 12);
	RING_IDX rsp_event = 0, rsp_prod = 0xfffffffeU;

	/* Nothing new: an event at the next response, 0 counting as 1. */
	KUNIT_EXPECT_FALSE(test, xen_ring_final_check_responses(&r, &rsp_event,
								&rsp_prod, 0));
	KUNIT_EXPECT_EQ(test, rsp_event, 0xffffffffU);
	/* Later, across the wrap of the indices. */
	KUNIT_EXPECT_FALSE(test, xen_ring_final_check_responses(&r, &rsp_event,
								&rsp_prod, 6));
	KUNIT_EXPECT_EQ(test, rsp_event, 4U);
	/* A response came meanwhile: consume it. */
	rsp_prod = 0xffffffffU;
	KUNIT_EXPECT_TRUE(test, xen_ring_final_check_responses(&r, &rsp_event,
							       &rsp_prod, 1));
}

static void back_ring_requests_test(struct kunit *test)
{
	struct xen_back_ring r = { .nr_ents = 8 };

	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 0), 0);
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 8), 8);
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 9), -EIO);
	/* Three taken, unanswered: five more fit, not six. */
	r.req_cons = 3;
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 8), 5);
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 9), -EIO);
	/* An index moved back reads as 2^32 - 1 new ones. */
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 2), -EIO);
	/* Back from the value last accepted, though not behind req_cons. */
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 7), -EIO);
	KUNIT_EXPECT_EQ(test, r.req_seen, 8U);
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 8), 5);
	/* Answered: the slots are free again, across the wrap. */
	r.req_cons = 0xfffffffdU;
	r.rsp_prod_pvt = 0xfffffffdU;
	r.req_seen = 0xfffffffdU;
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 5), 8);
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, 6), -EIO);
	KUNIT_EXPECT_EQ(test, xen_back_ring_slot(&r, 5), 5U);
	KUNIT_EXPECT_EQ(test, xen_back_ring_slot(&r, r.req_cons), 5U);
	/* Our own indices out of order are caught too. */
	r.rsp_prod_pvt = r.req_cons + 1;
	KUNIT_EXPECT_EQ(test, xen_ring_new_requests(&r, r.req_cons), -EIO);
}

static void back_ring_push_test(struct kunit *test)
{
	struct xen_back_ring r = { .nr_ents = 8, .rsp_prod_pvt = 3 };
	RING_IDX rsp_prod = 1, rsp_event = 2, req_event = 0, req_prod = 5;

	/* The frontend waits for response 2 (index 1): it gets an event. */
	KUNIT_EXPECT_TRUE(test, xen_ring_push_responses(&r, &rsp_prod,
							&rsp_event));
	KUNIT_EXPECT_EQ(test, rsp_prod, 3U);
	/* It waits for one further on: none. */
	rsp_event = 7;
	r.rsp_prod_pvt = 5;
	KUNIT_EXPECT_FALSE(test, xen_ring_push_responses(&r, &rsp_prod,
							 &rsp_event));
	r.req_cons = 5;
	KUNIT_EXPECT_FALSE(test, xen_ring_final_check_requests(&r, &req_event,
							       &req_prod));
	KUNIT_EXPECT_EQ(test, req_event, 6U);
	req_prod = 6;
	KUNIT_EXPECT_TRUE(test, xen_ring_final_check_requests(&r, &req_event,
							      &req_prod));
}

static struct kunit_case ring_cases[] = {
	KUNIT_CASE(ring_entries_test),
	KUNIT_CASE(ring_free_test),
	KUNIT_CASE(ring_notify_test),
	KUNIT_CASE(ring_responses_test),
	KUNIT_CASE(ring_backwards_test),
	KUNIT_CASE(ring_flip_test),
	KUNIT_CASE(ring_final_check_test),
	KUNIT_CASE(back_ring_requests_test),
	KUNIT_CASE(back_ring_push_test),
	{}
};

static struct kunit_suite ring_suite = {
	.name = "xen-ring",
	.test_cases = ring_cases,
};

kunit_test_suite(ring_suite);
