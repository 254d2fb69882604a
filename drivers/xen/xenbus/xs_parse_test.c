// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the xenstore wire logic (xs_parse.h): pure, so they run
 * on every boot of a kernel with CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "xs_parse.h"

static void xs_request_needs_event_test(struct kunit *test)
{
	/* xenstored had read everything before the request: it may sleep. */
	KUNIT_EXPECT_TRUE(test, xs_request_needs_event(100, 100));
	/* It read the header, published first, and waits for the rest. */
	KUNIT_EXPECT_TRUE(test, xs_request_needs_event(100, 116));
	/* It read the whole request already. */
	KUNIT_EXPECT_TRUE(test, xs_request_needs_event(100, 140));
	/* Bytes from before the request are still unread: it reads on. */
	KUNIT_EXPECT_FALSE(test, xs_request_needs_event(100, 60));
	/* The same across the wrap of the 32-bit indices. */
	KUNIT_EXPECT_TRUE(test, xs_request_needs_event(0xfffffff8U, 0x8U));
	KUNIT_EXPECT_FALSE(test, xs_request_needs_event(0x8U, 0xfffffff8U));
}

static void xs_ring_used_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xs_ring_used(0, 0), 0U);
	KUNIT_EXPECT_EQ(test, xs_ring_used(10, 30), 20U);
	KUNIT_EXPECT_EQ(test, xs_ring_used(0, XENSTORE_RING_SIZE),
			(u32)XENSTORE_RING_SIZE);
	/* Indices run freely and wrap at 2^32. */
	KUNIT_EXPECT_EQ(test, xs_ring_used(0xfffffff0U, 0x10U), 0x20U);
	/* A producer more than a ring ahead, or behind, is bad. */
	KUNIT_EXPECT_EQ(test, xs_ring_used(0, XENSTORE_RING_SIZE + 1),
			(u32)XENSTORE_RING_SIZE + 1);
	KUNIT_EXPECT_EQ(test, xs_ring_used(5, 4), (u32)XENSTORE_RING_SIZE + 1);
}

static void xs_ring_chunk_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xs_ring_chunk(0, 100), 100U);
	KUNIT_EXPECT_EQ(test, xs_ring_chunk(1000, 100), 24U);
	KUNIT_EXPECT_EQ(test, xs_ring_chunk(XENSTORE_RING_SIZE + 1000, 100),
			24U);
	KUNIT_EXPECT_EQ(test, xs_ring_chunk(1023, 1), 1U);
	KUNIT_EXPECT_EQ(test, xs_ring_chunk(5, 0), 0U);
}

static void xs_errno_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xs_errno("ENOENT", 7), -ENOENT);
	KUNIT_EXPECT_EQ(test, xs_errno("ENOENT", 6), -ENOENT);
	KUNIT_EXPECT_EQ(test, xs_errno("EAGAIN", 7), -EAGAIN);
	KUNIT_EXPECT_EQ(test, xs_errno("EPERM", 6), -EPERM);
	KUNIT_EXPECT_EQ(test, xs_errno("E2BIG", 6), -E2BIG);
	/* Unknown, truncated, or a prefix of a known name. */
	KUNIT_EXPECT_EQ(test, xs_errno("EWHAT", 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, xs_errno("ENOEN", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, xs_errno("", 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, xs_errno("ENOENTX", 8), -EINVAL);
}

static void xs_count_strings_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xs_count_strings("", 0), 0);
	KUNIT_EXPECT_EQ(test, xs_count_strings("a\0bc\0", 5), 2);
	KUNIT_EXPECT_EQ(test, xs_count_strings("\0\0", 2), 2);
	/* The last string must be terminated. */
	KUNIT_EXPECT_EQ(test, xs_count_strings("a\0bc", 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, xs_count_strings("abc", 3), -EINVAL);
}

static void xs_parse_watch_event_test(struct kunit *test)
{
	const char *path = NULL, *token = NULL;

	KUNIT_ASSERT_EQ(test, xs_parse_watch_event("a/b\0001f", 7,
						   &path, &token), 0);
	KUNIT_EXPECT_STREQ(test, path, "a/b");
	KUNIT_EXPECT_STREQ(test, token, "1f");
	/* Extra strings after the token are allowed. */
	KUNIT_EXPECT_EQ(test, xs_parse_watch_event("p\0t\0x\0", 6,
						   &path, &token), 0);
	/* One string, an empty path, or no terminator: malformed. */
	KUNIT_EXPECT_EQ(test, xs_parse_watch_event("p\0", 2, &path, &token),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xs_parse_watch_event("\0t\0", 3, &path, &token),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xs_parse_watch_event("p\0t", 3, &path, &token),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xs_parse_watch_event("", 0, &path, &token),
			-EINVAL);
}

static void xs_check_reply_test(struct kunit *test)
{
	struct xsd_sockmsg req = { .type = XS_READ, .req_id = 7 };
	struct xsd_sockmsg reply = { .type = XS_READ, .req_id = 7, .len = 3 };

	KUNIT_EXPECT_EQ(test, xs_check_reply(&req, &reply), 0);
	reply.type = XS_ERROR;
	KUNIT_EXPECT_EQ(test, xs_check_reply(&req, &reply), 1);
	reply.type = XS_WRITE;
	KUNIT_EXPECT_EQ(test, xs_check_reply(&req, &reply), -EIO);
	reply.type = XS_READ;
	reply.len = XENSTORE_PAYLOAD_MAX;
	KUNIT_EXPECT_EQ(test, xs_check_reply(&req, &reply), 0);
	reply.len = XENSTORE_PAYLOAD_MAX + 1;
	KUNIT_EXPECT_EQ(test, xs_check_reply(&req, &reply), -EIO);
}

static struct kunit_case xs_parse_cases[] = {
	KUNIT_CASE(xs_ring_used_test),
	KUNIT_CASE(xs_request_needs_event_test),
	KUNIT_CASE(xs_ring_chunk_test),
	KUNIT_CASE(xs_errno_test),
	KUNIT_CASE(xs_count_strings_test),
	KUNIT_CASE(xs_parse_watch_event_test),
	KUNIT_CASE(xs_check_reply_test),
	{}
};

static struct kunit_suite xs_parse_suite = {
	.name = "xen-xenstore-wire",
	.test_cases = xs_parse_cases,
};

kunit_test_suite(xs_parse_suite);
