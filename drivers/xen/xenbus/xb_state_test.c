// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the xenbus device model's pure logic (xb_state.h):
 * parsing what the toolstack and the other end write, and the bus's
 * reaction to the other end's state.  They run on every boot of a kernel
 * with CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "xb_state.h"

static void xb_parse_state_test(struct kunit *test)
{
	enum xenbus_state st = XenbusStateUnknown;

	KUNIT_EXPECT_EQ(test, xb_parse_state("4", &st), 0);
	KUNIT_EXPECT_EQ(test, st, XenbusStateConnected);
	KUNIT_EXPECT_EQ(test, xb_parse_state("0", &st), 0);
	KUNIT_EXPECT_EQ(test, st, XenbusStateUnknown);
	KUNIT_EXPECT_EQ(test, xb_parse_state("8", &st), 0);
	KUNIT_EXPECT_EQ(test, st, XenbusStateReconfigured);
	KUNIT_EXPECT_EQ(test, xb_parse_state("06", &st), 0);
	KUNIT_EXPECT_EQ(test, st, XenbusStateClosed);

	/* Nothing else is a state, and a failure leaves the output alone. */
	st = XenbusStateInitWait;
	KUNIT_EXPECT_EQ(test, xb_parse_state("9", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("42", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("-1", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state(" 4", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("4\n", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("Connected", &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_state("99999999999999999999", &st),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, st, XenbusStateInitWait);
}

static void xb_parse_domid_test(struct kunit *test)
{
	domid_t id = 1;

	KUNIT_EXPECT_EQ(test, xb_parse_domid("0", &id), 0);
	KUNIT_EXPECT_EQ(test, id, 0);
	KUNIT_EXPECT_EQ(test, xb_parse_domid("32751", &id), 0);
	KUNIT_EXPECT_EQ(test, id, 0x7fef);
	/* DOMID_SELF and the other reserved ids are not another end. */
	KUNIT_EXPECT_EQ(test, xb_parse_domid("32752", &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_domid("65535", &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_domid("70000", &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_domid("0x1", &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_parse_domid("", &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, id, 0x7fef);
}

static void xb_check_otherend_path_test(struct kunit *test)
{
	const char *good = "/local/domain/0/backend/vbd/3/51712";
	char *longpath;

	KUNIT_EXPECT_EQ(test, xb_check_otherend_path(good), 0);
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path("/"), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path("backend/vbd/3/0"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path("/local/domain/0/"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path("/local//domain/0"),
			-EINVAL);

	/* "<path>/state" must still fit xenstore's limit. */
	longpath = kunit_kzalloc(test, XENSTORE_ABS_PATH_MAX + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longpath);
	memset(longpath, 'a', XENSTORE_ABS_PATH_MAX - sizeof("/state"));
	longpath[0] = '/';
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path(longpath), 0);
	longpath[XENSTORE_ABS_PATH_MAX - sizeof("/state")] = 'a';
	KUNIT_EXPECT_EQ(test, xb_check_otherend_path(longpath), -EINVAL);
}

static void xb_device_of_path_test(struct kunit *test)
{
	const char *type31 = "device/0123456789012345678901234567890/1";
	const char *type32 = "device/01234567890123456789012345678901/1";

	/* A frontend device is device/<type>/<id>. */
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vbd/51712/state",
						"device", 2), 16);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vbd/51712",
						"device", 2), 16);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vif/0/a/b/c",
						"device", 2), 12);
	/* Above any device. */
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device", "device", 2), 0);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vbd", "device", 2), 0);
	/* A backend device is backend/<type>/<domid>/<id>. */
	KUNIT_EXPECT_EQ(test, xb_device_of_path("backend/vbd/3/51712/state",
						"backend", 3), 19);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("backend/vbd/3", "backend",
						3), 0);

	/* Not below the root, or malformed. */
	KUNIT_EXPECT_EQ(test, xb_device_of_path("devices/vbd/1", "device", 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("data/x", "device", 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device//1", "device", 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vbd//state",
						"device", 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, xb_device_of_path("device/vbd/", "device", 2),
			-EINVAL);
	/* A type must fit struct xenbus_device_id. */
	KUNIT_EXPECT_EQ(test, xb_device_of_path(type31, "device", 2), 40);
	KUNIT_EXPECT_EQ(test, xb_device_of_path(type32, "device", 2), -EINVAL);
}

static void xb_otherend_action_test(struct kunit *test)
{
	/* A new state is delivered, the same one again is not. */
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateUnknown, 0,
						 XenbusStateInitWait, false),
			XB_DELIVER);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateInitWait, 0,
						 XenbusStateInitWait, false),
			XB_IGNORE);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateInitWait, 0,
						 XenbusStateConnected, false),
			XB_DELIVER);
	/* Connected again: read the other end's nodes again (resize). */
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateConnected, 0,
						 XenbusStateConnected, false),
			XB_DELIVER);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(false, XenbusStateClosing, 0,
						 XenbusStateClosing, false),
			XB_IGNORE);
	/* The other end's directory removed: Unknown, once. */
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateConnected,
						 -ENOENT, XenbusStateConnected,
						 false),
			XB_DELIVER);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateUnknown,
						 -ENOENT, XenbusStateConnected,
						 false),
			XB_IGNORE);
	/* A value that is no state closes the device, whatever came before. */
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateConnected,
						 -EINVAL, XenbusStateUnknown,
						 false),
			XB_BAD);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(false, XenbusStateUnknown,
						 -EINVAL, XenbusStateUnknown,
						 true),
			XB_BAD);
	/* Going down: a frontend closes when its backend does, else waits. */
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateConnected, 0,
						 XenbusStateClosing, true),
			XB_SHUTDOWN_CLOSE);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateConnected,
						 -ENOENT, XenbusStateUnknown,
						 true),
			XB_SHUTDOWN_CLOSE);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(true, XenbusStateInitWait, 0,
						 XenbusStateConnected, true),
			XB_IGNORE);
	KUNIT_EXPECT_EQ(test, xb_otherend_action(false, XenbusStateConnected,
						 0, XenbusStateClosing, true),
			XB_IGNORE);
}

static void xb_state_name_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, xb_state_name(XenbusStateUnknown), "Unknown");
	KUNIT_EXPECT_STREQ(test, xb_state_name(XenbusStateInitWait),
			   "InitWait");
	KUNIT_EXPECT_STREQ(test, xb_state_name(XenbusStateReconfigured),
			   "Reconfigured");
	KUNIT_EXPECT_STREQ(test, xb_state_name(9), "Invalid");
	KUNIT_EXPECT_STREQ(test, xb_state_name(-1U), "Invalid");
}

static struct kunit_case xb_state_cases[] = {
	KUNIT_CASE(xb_parse_state_test),
	KUNIT_CASE(xb_parse_domid_test),
	KUNIT_CASE(xb_check_otherend_path_test),
	KUNIT_CASE(xb_device_of_path_test),
	KUNIT_CASE(xb_otherend_action_test),
	KUNIT_CASE(xb_state_name_test),
	{}
};

static struct kunit_suite xb_state_suite = {
	.name = "xen-xenbus-state",
	.test_cases = xb_state_cases,
};

kunit_test_suite(xb_state_suite);
