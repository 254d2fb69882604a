// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the balloon's logic (balloon_core.c) against a fake
 * Xen: a count of the domain's pages, a page allocator and a Xen that
 * can be told to run short, and a number of empty pages that memory can
 * go back into.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "balloon.h"

struct fake_dom {
	long pages;		/* what Xen counts */
	long empty;		/* pages with no memory, to take into */
	int spare;		/* pages the allocator can give; -1: any */
	int xen_free;		/* pages Xen can give; -1: any */
	long pod;		/* pages mapped that Xen does not count */
	int looks_failing;	/* current_pages fails this many times */
	unsigned int gives, takes;
};

static long fake_current(void *ctx)
{
	struct fake_dom *d = ctx;

	if (d->looks_failing) {
		d->looks_failing--;
		return -EIO;
	}
	return d->pages;
}

static int fake_give(void *ctx, unsigned int nr)
{
	struct fake_dom *d = ctx;
	int n = nr;

	d->gives++;
	if (d->spare >= 0) {
		n = min(n, d->spare);
		d->spare -= n;
	}
	/* Xen keeps what is freed while it owes populate-on-demand pages. */
	if (d->pod >= n) {
		d->pod -= n;
	} else {
		d->pages -= n - d->pod;
		d->pod = 0;
	}
	d->empty += n;
	return n ?: -ENOMEM;
}

static int fake_take(void *ctx, unsigned int nr)
{
	struct fake_dom *d = ctx;
	long n = nr;

	d->takes++;
	if (!d->empty)
		return -ENOSPC;
	n = min(n, d->empty);
	if (d->xen_free >= 0) {
		n = min_t(long, n, d->xen_free);
		d->xen_free -= n;
	}
	d->pages += n;
	d->empty -= n;
	return n;
}

static const struct xen_balloon_ops fake_ops = {
	.current_pages = fake_current,
	.give = fake_give,
	.take = fake_take,
};

static struct fake_dom *fake_new(struct kunit *test, long pages)
{
	struct fake_dom *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->pages = pages;
	d->spare = -1;
	d->xen_free = -1;
	return d;
}

/* No target yet (a dom0 whose toolstack never set one): nothing moves. */
static void balloon_no_target_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 1000);
	struct xen_balloon b;

	xen_balloon_init_core(&b, &fake_ops, d);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->gives + d->takes, 0U);
}

/* Down and up again, in batches, to the page. */
static void balloon_down_up_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 5000);
	struct xen_balloon b;

	xen_balloon_init_core(&b, &fake_ops, d);
	xen_balloon_set_target(&b, 3000);
	/* 2000 pages are four batches: three runs of one batch leave work. */
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 3), XEN_BALLOON_MORE);
	KUNIT_EXPECT_EQ(test, d->pages, 5000L - 3 * XEN_BALLOON_BATCH);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 3000L);
	KUNIT_EXPECT_EQ(test, d->gives, 4U);
	KUNIT_EXPECT_EQ(test, b.given, 2000UL);
	KUNIT_EXPECT_EQ(test, b.current_pages, 3000UL);

	xen_balloon_set_target(&b, 4999);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 4999L);
	KUNIT_EXPECT_EQ(test, b.taken, 1999UL);
}

/*
 * A guest whose map holds 2000 pages of which Xen backs 500 (on demand):
 * the 1500 go first, with no target and no look at Xen's count, which
 * they leave as it was; then the balloon grows into them as asked.
 */
static void balloon_debt_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 500);
	struct xen_balloon b;

	d->pod = 1500;
	d->looks_failing = 100;
	xen_balloon_init_core(&b, &fake_ops, d);
	xen_balloon_set_debt(&b, 1500);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 2), XEN_BALLOON_MORE);
	KUNIT_EXPECT_EQ(test, b.debt, 1500UL - 2 * XEN_BALLOON_BATCH);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, b.debt, 0UL);
	KUNIT_EXPECT_EQ(test, d->looks_failing, 100);
	KUNIT_EXPECT_EQ(test, d->pages, 500L);
	KUNIT_EXPECT_EQ(test, d->empty, 1500L);

	/* The allocator runs dry halfway through a second debt: wait. */
	d->looks_failing = 0;
	d->pod = 600;
	d->spare = 100;
	xen_balloon_set_debt(&b, 600);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
	KUNIT_EXPECT_EQ(test, b.debt, 500UL);
	d->spare = -1;
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 500L);

	xen_balloon_set_target(&b, 2000);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 2000L);
	KUNIT_EXPECT_EQ(test, d->empty, 600L);
}

/*
 * The allocator runs dry going down: wait 1 s, then 2, 4, ... up to the
 * maximum; progress starts again from 1 s.
 */
static void balloon_backoff_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 5000);
	struct xen_balloon b;
	unsigned long want = 1, i;

	xen_balloon_init_core(&b, &fake_ops, d);
	b.max_schedule_delay = 8;
	d->spare = 100;
	xen_balloon_set_target(&b, 4000);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
		KUNIT_EXPECT_EQ(test, b.schedule_delay, want);
		KUNIT_EXPECT_EQ(test, b.retry_count, i + 2);
		want = min(want * 2, 8UL);
	}
	KUNIT_EXPECT_EQ(test, d->pages, 4900L);

	/* Memory again: one run to the target, and the delay is reset. */
	d->spare = -1;
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 4000L);
	KUNIT_EXPECT_EQ(test, b.schedule_delay, 1UL);
	KUNIT_EXPECT_EQ(test, b.retry_count, 1UL);
}

/* Xen runs short going up; after max_retry_count failures it stops. */
static void balloon_retry_limit_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 2000);
	struct xen_balloon b;

	xen_balloon_init_core(&b, &fake_ops, d);
	d->empty = 1000;
	d->xen_free = 10;
	b.max_retry_count = 3;
	xen_balloon_set_target(&b, 3000);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
	KUNIT_EXPECT_EQ(test, d->pages, 2010L);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_STUCK);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_STUCK);

	/* A new target is tried at once. */
	xen_balloon_set_target(&b, 2005);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 2005L);
}

/*
 * Above what the domain has room for: up as far as the empty pages go,
 * then stuck, with no retries (nothing would change).
 */
static void balloon_no_room_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 2000);
	struct xen_balloon b;

	xen_balloon_init_core(&b, &fake_ops, d);
	d->empty = 300;
	xen_balloon_set_target(&b, 4000);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
	KUNIT_EXPECT_EQ(test, d->pages, 2300L);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_STUCK);
	KUNIT_EXPECT_EQ(test, b.retry_count, 2UL);
}

/* Xen's count cannot be read: a failure like any other. */
static void balloon_cannot_look_test(struct kunit *test)
{
	struct fake_dom *d = fake_new(test, 2000);
	struct xen_balloon b;

	xen_balloon_init_core(&b, &fake_ops, d);
	d->looks_failing = 1;
	xen_balloon_set_target(&b, 1000);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_WAIT);
	KUNIT_EXPECT_EQ(test, d->gives, 0U);
	KUNIT_EXPECT_EQ(test, xen_balloon_run(&b, 10), XEN_BALLOON_REACHED);
	KUNIT_EXPECT_EQ(test, d->pages, 1000L);
}

static struct kunit_case balloon_cases[] = {
	KUNIT_CASE(balloon_no_target_test),
	KUNIT_CASE(balloon_debt_test),
	KUNIT_CASE(balloon_down_up_test),
	KUNIT_CASE(balloon_backoff_test),
	KUNIT_CASE(balloon_retry_limit_test),
	KUNIT_CASE(balloon_no_room_test),
	KUNIT_CASE(balloon_cannot_look_test),
	{}
};

static struct kunit_suite balloon_suite = {
	.name = "xen-balloon",
	.test_cases = balloon_cases,
};

kunit_test_suite(balloon_suite);

MODULE_DESCRIPTION("KUnit tests of the balloon's logic");
MODULE_LICENSE("GPL");
