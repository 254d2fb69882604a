// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the event channel bit logic (events_internal.h): pure,
 * so they run on every boot of a kernel with CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>

#include "events_internal.h"

#define P	BIT(EVTCHN_FIFO_PENDING)
#define M	BIT(EVTCHN_FIFO_MASKED)
#define L	BIT(EVTCHN_FIFO_LINKED)
#define B	BIT(EVTCHN_FIFO_BUSY)

static void evtchn_2l_deliverable_test(struct kunit *test)
{
	/* Pending, unmasked and this CPU's: only bit 0. */
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(0x0f, 0x02, 0x0d), 0x0dUL);
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(0x0f, 0x0e, 0x0f), 0x01UL);
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(0, 0, ~0UL), 0UL);
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(~0UL, ~0UL, ~0UL), 0UL);
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(~0UL, 0, 0), 0UL);
	KUNIT_EXPECT_EQ(test, evtchn_2l_deliverable(BIT(63), 0, BIT(63)),
			BIT(63));
}

static void evtchn_fifo_link_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, evtchn_fifo_link_of(P | L | 42), 42U);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_link_of(EVTCHN_FIFO_LINK_MASK),
			(u32)EVTCHN_FIFO_LINK_MASK);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_link_of(P | M), 0U);
	/* Unlinking keeps PENDING and MASKED, drops LINKED and the link. */
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unlinked(P | M | L | 1234), P | M);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unlinked(L | EVTCHN_FIFO_LINK_MASK),
			0U);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unlinked(BIT(EVTCHN_FIFO_BUSY)),
			(u32)BIT(EVTCHN_FIFO_BUSY));
}

static void evtchn_fifo_deliverable_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, evtchn_fifo_deliverable(P));
	KUNIT_EXPECT_TRUE(test, evtchn_fifo_deliverable(P | L | 9));
	KUNIT_EXPECT_FALSE(test, evtchn_fifo_deliverable(P | M));
	KUNIT_EXPECT_FALSE(test, evtchn_fifo_deliverable(L | 9));
	KUNIT_EXPECT_FALSE(test, evtchn_fifo_deliverable(0));
}

static void evtchn_fifo_unmask_how_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M),
			EVTCHN_FIFO_UNMASK_HERE);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M | L | 3),
			EVTCHN_FIFO_UNMASK_HERE);
	/* Pending while masked: only Xen may queue it. */
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M | P),
			EVTCHN_FIFO_UNMASK_XEN);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M | P | L | B),
			EVTCHN_FIFO_UNMASK_XEN);
	/* Xen is linking behind it: MASKED must stay until BUSY goes. */
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M | L | B | 7),
			EVTCHN_FIFO_UNMASK_WAIT);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_unmask_how(M | B),
			EVTCHN_FIFO_UNMASK_WAIT);
}

static void evtchn_fifo_next_queue_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(0),
			(unsigned int)EVTCHN_FIFO_MAX_QUEUES);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(BIT(7)), 7U);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(BIT(7) | BIT(3)), 3U);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(BIT(15)), 15U);
	/* Bits above the last queue mean nothing. */
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(BIT(16) | BIT(31)),
			(unsigned int)EVTCHN_FIFO_MAX_QUEUES);
	KUNIT_EXPECT_EQ(test, evtchn_fifo_next_queue(BIT(20) | BIT(9)), 9U);
}

static struct kunit_case evtchn_bits_cases[] = {
	KUNIT_CASE(evtchn_2l_deliverable_test),
	KUNIT_CASE(evtchn_fifo_link_test),
	KUNIT_CASE(evtchn_fifo_deliverable_test),
	KUNIT_CASE(evtchn_fifo_unmask_how_test),
	KUNIT_CASE(evtchn_fifo_next_queue_test),
	{}
};

static struct kunit_suite evtchn_bits_suite = {
	.name = "xen-evtchn-bits",
	.test_cases = evtchn_bits_cases,
};

kunit_test_suite(evtchn_bits_suite);
