// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit live test of the frontend bus and the driver helpers, against a
 * scripted backend in dom0.
 *
 * The harness (tools/testing/xen, the kunit-pvh scenarios) creates the
 * domain paused, writes three devices of type "pvopstest" into xenstore
 * and runs a shell backend for them in dom0:
 *   0: a well-behaved backend.  It goes InitWait, waits for the frontend
 *      to publish Initialised, copies the frontend's ring-ref and
 *      event-channel into its own "seen" node, goes Connected, waits for
 *      the frontend to connect, then closes (Closing, waits for the
 *      frontend's Closed, Closed) and removes both directories, as the
 *      toolstack does on detach;
 *   1: "backend-id" is 70000, no domain: the bus must not probe it and
 *      must close it;
 *   2: the backend publishes state "42": the bus must close the device
 *      without handing that to the driver.
 * Without those devices (other scenarios, native boots) the cases skip.
 *
 * Locking: fe_lock (spinlock) guards the records the callbacks keep.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/xen.h>
#include <xen/xenbus.h>

#define FE_TYPE		"pvopstest"
#define FE_DEVICES	3
#define FE_TIMEOUT	(120 * HZ)
#define FE_MAX_SEEN	16

/**
 * struct fe_dev - what the test driver did with one device
 * @xdev: the device while bound
 * @ring: its shared page
 * @gref: the page's grant
 * @port: its event channel
 * @irq: the channel's irq
 * @probes: times probed
 * @seen: backend states delivered, in order
 * @nseen: how many
 * @published: what probe wrote, as the backend copies it
 * @backend_saw: the backend's "seen" node, read when it connected
 * @removed: remove() ran
 */
struct fe_dev {
	struct xenbus_device *xdev;
	void *ring;
	grant_ref_t gref;
	evtchn_port_t port;
	int irq;
	unsigned int probes;
	enum xenbus_state seen[FE_MAX_SEEN];
	unsigned int nseen;
	char published[64];
	char *backend_saw;
	bool removed;
};

static struct fe_dev fe_devs[FE_DEVICES];
static DEFINE_SPINLOCK(fe_lock);
static DECLARE_WAIT_QUEUE_HEAD(fe_wait);
static bool fe_registered;

static struct fe_dev *fe_dev_of(struct xenbus_device *xdev)
{
	const char *id = strrchr(xdev->nodename, '/');
	unsigned int i;

	if (!id || kstrtouint(id + 1, 10, &i) || i >= FE_DEVICES)
		return NULL;
	return &fe_devs[i];
}

static irqreturn_t fe_irq(int irq, void *data)
{
	return IRQ_HANDLED;
}

static void fe_teardown(struct fe_dev *d)
{
	if (d->irq > 0)
		unbind_from_irqhandler(d->irq, d);
	d->irq = 0;
	xenbus_teardown_ring(&d->ring, 1, &d->gref);
}

static int fe_probe(struct xenbus_device *xdev,
		    const struct xenbus_device_id *id)
{
	struct fe_dev *d = fe_dev_of(xdev);
	struct xenbus_transaction t;
	int rc;

	if (!d)
		return -ENODEV;
	spin_lock(&fe_lock);
	d->probes++;
	d->xdev = xdev;
	spin_unlock(&fe_lock);

	rc = xenbus_setup_ring(xdev, GFP_KERNEL, &d->ring, 1, &d->gref);
	if (rc)
		return rc;
	rc = xenbus_alloc_evtchn(xdev, &d->port);
	if (rc)
		goto fail;
	rc = bind_evtchn_to_irqhandler(d->port, fe_irq, 0, FE_TYPE, d);
	if (rc < 0) {
		xenbus_free_evtchn(xdev, d->port);
		goto fail;
	}
	d->irq = rc;
	do {
		rc = xenbus_transaction_start(&t);
		if (rc)
			goto fail;
		rc = xenbus_printf(t, xdev->nodename, "ring-ref", "%u",
				   d->gref);
		if (!rc)
			rc = xenbus_printf(t, xdev->nodename, "event-channel",
					   "%u", d->port);
		if (rc) {
			xenbus_transaction_end(t, 1);
			goto fail;
		}
		rc = xenbus_transaction_end(t, 0);
	} while (rc == -EAGAIN);
	snprintf(d->published, sizeof(d->published),
		 "ring-ref=%u event-channel=%u", d->gref, d->port);
	if (!rc)
		rc = xenbus_switch_state(xdev, XenbusStateInitialised);
	if (!rc)
		return 0;
fail:
	fe_teardown(d);
	return rc;
}

static void fe_otherend_changed(struct xenbus_device *xdev,
				enum xenbus_state state)
{
	struct fe_dev *d = fe_dev_of(xdev);
	char *saw = NULL;

	if (state == XenbusStateConnected) {
		saw = xenbus_read(XBT_NIL, xdev->otherend, "seen", NULL);
		if (IS_ERR(saw))
			saw = NULL;
		xenbus_switch_state(xdev, XenbusStateConnected);
	} else if (state == XenbusStateClosing) {
		xenbus_frontend_closed(xdev);
	}

	spin_lock(&fe_lock);
	if (d->nseen < FE_MAX_SEEN)
		d->seen[d->nseen++] = state;
	if (saw && !d->backend_saw) {
		d->backend_saw = saw;
		saw = NULL;
	}
	spin_unlock(&fe_lock);
	kfree(saw);
	wake_up(&fe_wait);
}

static void fe_remove(struct xenbus_device *xdev)
{
	struct fe_dev *d = fe_dev_of(xdev);

	fe_teardown(d);
	spin_lock(&fe_lock);
	d->removed = true;
	d->xdev = NULL;
	spin_unlock(&fe_lock);
	wake_up(&fe_wait);
}

static const struct xenbus_device_id fe_ids[] = {
	{ FE_TYPE },
	{ "" }
};

static struct xenbus_driver fe_driver = {
	.ids = fe_ids,
	.probe = fe_probe,
	.otherend_changed = fe_otherend_changed,
	.remove = fe_remove,
};

static int fe_suite_init(struct kunit_suite *suite)
{
	if (!xen_domain() || !xenbus_ready() ||
	    !xenbus_exists(XBT_NIL, "device/" FE_TYPE, ""))
		return 0;
	if (xenbus_register_frontend(&fe_driver))
		return 0;
	fe_registered = true;
	return 0;
}

static void fe_suite_exit(struct kunit_suite *suite)
{
	if (fe_registered)
		xenbus_unregister_driver(&fe_driver);
	fe_registered = false;
}

static int fe_test_init(struct kunit *test)
{
	if (!fe_registered)
		kunit_skip(test, "no " FE_TYPE " devices (made by kunit-pvh-*)");
	return 0;
}

static bool fe_removed(struct fe_dev *d)
{
	bool r;

	spin_lock(&fe_lock);
	r = d->removed;
	spin_unlock(&fe_lock);
	return r;
}

/* Probe, connect, close and removal with a backend that behaves. */
static void fe_lifecycle_test(struct kunit *test)
{
	static const enum xenbus_state want[] = {
		XenbusStateInitWait, XenbusStateConnected, XenbusStateClosing,
	};
	struct fe_dev *d = &fe_devs[0];
	unsigned int i;

	KUNIT_ASSERT_GT_MSG(test, wait_event_timeout(fe_wait, fe_removed(d),
						     FE_TIMEOUT), 0,
			    "device 0 not removed; states seen: %u", d->nseen);
	KUNIT_EXPECT_EQ(test, d->probes, 1U);
	KUNIT_ASSERT_GE(test, d->nseen, (unsigned int)ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, d->seen[i], want[i], "state %u", i);
	/* Afterwards at most Closed and the directory going away. */
	for (; i < d->nseen; i++)
		KUNIT_EXPECT_TRUE(test, d->seen[i] == XenbusStateClosed ||
				  d->seen[i] == XenbusStateUnknown);

	/* The backend read what we published. */
	KUNIT_ASSERT_NOT_NULL(test, d->backend_saw);
	KUNIT_EXPECT_STREQ(test, d->backend_saw, d->published);
	KUNIT_EXPECT_NE(test, d->port, 0U);
	/* remove() gave the ring back. */
	KUNIT_EXPECT_NULL(test, d->ring);
	KUNIT_EXPECT_EQ(test, d->gref, INVALID_GRANT_REF);
	KUNIT_EXPECT_FALSE(test, xenbus_exists(XBT_NIL, "device/" FE_TYPE "/0",
					       ""));
	kfree(d->backend_saw);
	d->backend_saw = NULL;
}

/* Poll a device's published state (xenstore reads sleep). */
static bool fe_wait_state(const char *node, enum xenbus_state state)
{
	unsigned long end = jiffies + FE_TIMEOUT / 4;

	while (xenbus_read_driver_state(node) != state) {
		if (time_after(jiffies, end))
			return false;
		msleep(100);
	}
	return true;
}

/* A backend-id that is no domain: never probed, closed by the bus. */
static void fe_bad_backend_id_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, fe_wait_state("device/" FE_TYPE "/1",
					      XenbusStateClosing));
	KUNIT_EXPECT_EQ(test, fe_devs[1].probes, 0U);
}

/* A backend state that is no state: closed, the driver never told. */
static void fe_bad_backend_state_test(struct kunit *test)
{
	struct fe_dev *d = &fe_devs[2];

	KUNIT_EXPECT_TRUE(test, fe_wait_state("device/" FE_TYPE "/2",
					      XenbusStateClosing));
	KUNIT_EXPECT_EQ(test, d->probes, 1U);
	KUNIT_EXPECT_EQ(test, d->nseen, 0U);
}

static struct kunit_case fe_cases[] = {
	KUNIT_CASE(fe_lifecycle_test),
	KUNIT_CASE(fe_bad_backend_id_test),
	KUNIT_CASE(fe_bad_backend_state_test),
	{}
};

static struct kunit_suite fe_suite = {
	.name = "xen-xenbus-frontend",
	.suite_init = fe_suite_init,
	.suite_exit = fe_suite_exit,
	.init = fe_test_init,
	.test_cases = fe_cases,
};

kunit_test_suite(fe_suite);
