// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the pure logic of dom0's devices: the queue of ports of
 * /dev/xen/evtchn (evtchn_queue.h) and privcmd's mapping batches
 * (privcmd.h).  They run on every boot of a kernel with
 * CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "evtchn_queue.h"
#include "privcmd.h"

static void evtchn_queue_order_test(struct kunit *test)
{
	struct evtchn_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	evtchn_port_t out[4];

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 4), 0U);
	KUNIT_EXPECT_TRUE(test, evtchn_queue_push(q, 7));
	KUNIT_EXPECT_TRUE(test, evtchn_queue_push(q, 3));
	KUNIT_EXPECT_TRUE(test, evtchn_queue_push(q, 9));
	/* Oldest first, no more than asked for. */
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 2), 2U);
	KUNIT_EXPECT_EQ(test, out[0], 7U);
	KUNIT_EXPECT_EQ(test, out[1], 3U);
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 4), 1U);
	KUNIT_EXPECT_EQ(test, out[0], 9U);
	KUNIT_EXPECT_EQ(test, q->count, 0U);
	KUNIT_EXPECT_FALSE(test, q->overflow);
}

static void evtchn_queue_wrap_test(struct kunit *test)
{
	struct evtchn_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	evtchn_port_t out[8];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	/* Start near the end of the ring: the ports wrap to its start. */
	q->head = EVTCHN_DEV_QUEUE - 2;
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_TRUE(test, evtchn_queue_push(q, 100 + i));
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 8), 5U);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, out[i], 100 + i);
	KUNIT_EXPECT_EQ(test, q->head, 3U);
}

static void evtchn_queue_overflow_test(struct kunit *test)
{
	struct evtchn_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	evtchn_port_t out[2];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, q);
	for (i = 0; i < EVTCHN_DEV_QUEUE; i++)
		KUNIT_EXPECT_TRUE(test, evtchn_queue_push(q, i + 1));
	KUNIT_EXPECT_FALSE(test, q->overflow);
	/* One more is lost, and the queue says so. */
	KUNIT_EXPECT_FALSE(test, evtchn_queue_push(q, 5000));
	KUNIT_EXPECT_TRUE(test, q->overflow);
	KUNIT_EXPECT_EQ(test, q->count, EVTCHN_DEV_QUEUE);
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 2), 2U);
	KUNIT_EXPECT_EQ(test, out[0], 1U);
	/* Until a reset, which forgets everything. */
	KUNIT_EXPECT_TRUE(test, q->overflow);
	evtchn_queue_reset(q);
	KUNIT_EXPECT_FALSE(test, q->overflow);
	KUNIT_EXPECT_EQ(test, evtchn_queue_pop(q, out, 2), 0U);
}

static void privcmd_batch_ok_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, privcmd_batch_ok(1, 0x10000));
	KUNIT_EXPECT_FALSE(test, privcmd_batch_ok(0, 0x10000));
	KUNIT_EXPECT_FALSE(test, privcmd_batch_ok(1, 0x10010));
	KUNIT_EXPECT_TRUE(test, privcmd_batch_ok(ULONG_MAX >> PAGE_SHIFT, 0));
	/* A size in bytes that would wrap an address. */
	KUNIT_EXPECT_FALSE(test,
			   privcmd_batch_ok((ULONG_MAX >> PAGE_SHIFT) + 1, 0));
	KUNIT_EXPECT_FALSE(test, privcmd_batch_ok(U64_MAX, 0));
}

/* A fake Xen that refuses the entries whose bit is set in @refuse. */
struct fake_xen {
	unsigned long refuse;
	unsigned int calls;
	bool lie;		/* claim every entry done, and fail */
};

static int fake_update(void *ctx, unsigned int first, unsigned int count,
		       unsigned int *done)
{
	struct fake_xen *x = ctx;
	unsigned int i;

	x->calls++;
	if (x->lie) {
		*done = count;
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		if (x->refuse & BIT(first + i)) {
			*done = i;
			return -(int)(first + i + 1);
		}
	}
	*done = count;
	return 0;
}

static void privcmd_spread_errors_test(struct kunit *test)
{
	struct fake_xen x = { .refuse = BIT(0) | BIT(3) | BIT(4) | BIT(7) };
	int err[8];
	unsigned int i;

	privcmd_spread_errors(8, fake_update, &x, err);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, err[i],
				x.refuse & BIT(i) ? -(int)(i + 1) : 0);
	/* One call per refusal; none after the last entry. */
	KUNIT_EXPECT_EQ(test, x.calls, 4U);

	x = (struct fake_xen){};
	privcmd_spread_errors(8, fake_update, &x, err);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, err[i], 0);
	KUNIT_EXPECT_EQ(test, x.calls, 1U);

	/* An answer past the batch stops it: nothing is taken as done. */
	x = (struct fake_xen){ .lie = true };
	privcmd_spread_errors(8, fake_update, &x, err);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, err[i], -EIO);
	KUNIT_EXPECT_EQ(test, x.calls, 1U);
}

static struct kunit_case dom0_devs_cases[] = {
	KUNIT_CASE(evtchn_queue_order_test),
	KUNIT_CASE(evtchn_queue_wrap_test),
	KUNIT_CASE(evtchn_queue_overflow_test),
	KUNIT_CASE(privcmd_batch_ok_test),
	KUNIT_CASE(privcmd_spread_errors_test),
	{}
};

static struct kunit_suite dom0_devs_suite = {
	.name = "xen-dom0-devices",
	.test_cases = dom0_devs_cases,
};

kunit_test_suite(dom0_devs_suite);

MODULE_DESCRIPTION("KUnit tests of the pure logic of dom0's Xen devices");
MODULE_LICENSE("GPL");
