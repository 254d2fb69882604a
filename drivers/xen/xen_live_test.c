// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit live tests of the Xen core: they talk to the hypervisor and to
 * xenstored, so they run only in a Xen guest and are skipped elsewhere.
 *
 * Event channels: a port of this domain connected to another of its own
 * ports, so an event sent on one arrives on the other.  Grants: pages
 * granted to this domain itself, copied through with GNTTABOP_copy.
 * Rings: two pages granted to ourselves mapped as a backend maps a
 * frontend's ring.  The pool of empty pages: Xen's count of our pages.
 * Xenstore: round trips under this domain's data/ node, which the guest
 * may write, and 32 threads each reading 1,000 times at once.  Time: the
 * runstate areas Xen keeps and the steal clock built on them.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <asm/paravirt.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/events.h>
#include <xen/grant_table.h>
#include <xen/interface/memory.h>
#include <xen/interface/vcpu.h>
#include <xen/xenbus.h>
#include <xen/xen-front-pgdir-shbuf.h>
#include <xen/xen-ops.h>
#include <xen/page.h>
#include <xen/xen.h>

#include "balloon.h"

#define LIVE_TIMEOUT	(10 * HZ)

static int xen_live_init(struct kunit *test)
{
	if (!xen_domain())
		kunit_skip(test, "not a Xen guest");
	return 0;
}

/* ---- event channels ---- */

/**
 * struct loopback - two connected ports of this domain
 * @a: the sending port
 * @b: the receiving port, bound to @irq
 * @irq: irq of @b
 * @events: events received
 * @got: completed on each event
 */
struct loopback {
	evtchn_port_t a, b;
	int irq;
	atomic_t events;
	struct completion got;
};

static irqreturn_t loopback_irq(int irq, void *data)
{
	struct loopback *lb = data;

	atomic_inc(&lb->events);
	complete(&lb->got);
	return IRQ_HANDLED;
}

static int loopback_open_flags(struct kunit *test, struct loopback *lb,
			       bool lateeoi, unsigned long irqflags)
{
	struct evtchn_alloc_unbound alloc = {
		.dom = DOMID_SELF,
		.remote_dom = DOMID_SELF,
	};
	struct evtchn_bind_interdomain bind = { .remote_dom = DOMID_SELF };
	int rc;

	init_completion(&lb->got);
	atomic_set(&lb->events, 0);
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &alloc);
	KUNIT_ASSERT_EQ(test, rc, 0);
	lb->a = alloc.port;
	bind.remote_port = lb->a;
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_interdomain, &bind);
	KUNIT_ASSERT_EQ(test, rc, 0);
	lb->b = bind.local_port;

	lb->irq = lateeoi ?
		bind_evtchn_to_irqhandler_lateeoi(lb->b, loopback_irq, irqflags,
						  "kunit-loopback", lb) :
		bind_evtchn_to_irqhandler(lb->b, loopback_irq, irqflags,
					  "kunit-loopback", lb);
	KUNIT_ASSERT_GT(test, lb->irq, 0);
	KUNIT_EXPECT_EQ(test, evtchn_from_irq(lb->irq), lb->b);
	KUNIT_EXPECT_EQ(test, irq_from_evtchn(lb->b), (unsigned int)lb->irq);
	return 0;
}

static int loopback_open(struct kunit *test, struct loopback *lb,
			 bool lateeoi)
{
	return loopback_open_flags(test, lb, lateeoi, 0);
}

static void loopback_close(struct loopback *lb)
{
	unbind_from_irqhandler(lb->irq, lb);
	xen_evtchn_close(lb->a);
}

static void evtchn_loopback_test(struct kunit *test)
{
	struct loopback lb;
	int i;

	loopback_open(test, &lb, false);
	for (i = 0; i < 100; i++) {
		reinit_completion(&lb.got);
		notify_remote_via_evtchn(lb.a);
		KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&lb.got,
								  LIVE_TIMEOUT), 0UL);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 100);
	loopback_close(&lb);
	/* The port is closed with its irq. */
	KUNIT_EXPECT_EQ(test, irq_from_evtchn(lb.b), 0U);
}

static void evtchn_masked_test(struct kunit *test)
{
	struct loopback lb;

	loopback_open(test, &lb, false);
	/* An event sent while the irq is disabled arrives when enabled. */
	disable_irq(lb.irq);
	notify_remote_via_evtchn(lb.a);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 0);
	enable_irq(lb.irq);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&lb.got, LIVE_TIMEOUT),
			0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 1);
	loopback_close(&lb);
}

static void evtchn_lateeoi_test(struct kunit *test)
{
	struct loopback lb;

	loopback_open(test, &lb, true);
	notify_remote_via_evtchn(lb.a);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&lb.got,
							  LIVE_TIMEOUT), 0UL);
	/* Until the EOI, further events wait, however many are sent. */
	reinit_completion(&lb.got);
	notify_remote_via_evtchn(lb.a);
	notify_remote_via_evtchn(lb.a);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 1);
	xen_irq_lateeoi(lb.irq, 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&lb.got, LIVE_TIMEOUT),
			0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 2);
	xen_irq_lateeoi(lb.irq, 0);
	loopback_close(&lb);
}

static void evtchn_affinity_test(struct kunit *test)
{
	unsigned int cpu;
	struct loopback lb;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	cpu = cpumask_last(cpu_online_mask);
	loopback_open(test, &lb, false);
	KUNIT_ASSERT_EQ(test, irq_set_affinity(lb.irq, cpumask_of(cpu)), 0);
	notify_remote_via_evtchn(lb.a);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&lb.got, LIVE_TIMEOUT),
			0UL);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(lb.irq, cpu), 1U);
	loopback_close(&lb);
}

static unsigned int loopback_cpu(const struct loopback *lb)
{
	struct irq_data *d = irq_get_irq_data(lb->irq);

	return cpumask_first(irq_data_get_effective_affinity_mask(d));
}

/*
 * A port that may go to any CPU goes where it has the fewest neighbours,
 * and setting the same affinity again does not move it.
 */
static void evtchn_spread_test(struct kunit *test)
{
	unsigned int cpu, other, neighbours, i;
	struct loopback lb;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	loopback_open(test, &lb, false);
	cpu = loopback_cpu(&lb);
	KUNIT_ASSERT_GE(test, xen_evtchn_ports_on_cpu(cpu), 1U);
	neighbours = xen_evtchn_ports_on_cpu(cpu) - 1;
	for_each_online_cpu(other)
		if (other != cpu)
			KUNIT_EXPECT_GE(test, xen_evtchn_ports_on_cpu(other),
					neighbours);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, irq_set_affinity(lb.irq, cpu_online_mask),
				0);
		KUNIT_EXPECT_EQ(test, loopback_cpu(&lb), cpu);
	}
	/* Events still arrive where the port is. */
	notify_remote_via_evtchn(lb.a);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&lb.got, LIVE_TIMEOUT),
			0UL);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(lb.irq, cpu), 1U);
	loopback_close(&lb);
}

/*
 * A port whose irq is never enabled, polled instead (as paravirtual
 * spinlocks' kick ports would be): an event makes it pending without
 * an interrupt, and a poll then returns at once.  Without one, polls end
 * at their timeout or at any other event for this vCPU (its timer's,
 * say), and the port stays idle.
 */
static void evtchn_poll_test(struct kunit *test)
{
	struct loopback lb;
	ktime_t t0, end;

	loopback_open_flags(test, &lb, false, IRQF_NO_AUTOEN);
	xen_clear_irq_pending(lb.irq);
	KUNIT_EXPECT_FALSE(test, xen_test_irq_pending(lb.irq));

	end = ktime_add_ms(ktime_get(), 20);
	do {
		xen_poll_irq_timeout(lb.irq,
				     xen_system_time() + 20 * NSEC_PER_MSEC);
		KUNIT_EXPECT_FALSE(test, xen_test_irq_pending(lb.irq));
	} while (ktime_before(ktime_get(), end));

	notify_remote_via_evtchn(lb.a);
	KUNIT_EXPECT_TRUE(test, xen_test_irq_pending(lb.irq));
	t0 = ktime_get();
	xen_poll_irq_timeout(lb.irq, xen_system_time() + 5 * NSEC_PER_SEC);
	KUNIT_EXPECT_LT(test, ktime_ms_delta(ktime_get(), t0), 1000);
	xen_clear_irq_pending(lb.irq);
	KUNIT_EXPECT_FALSE(test, xen_test_irq_pending(lb.irq));

	/* Consumed by the clear: enabling delivers nothing. */
	enable_irq(lb.irq);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb.events), 0);
	loopback_close(&lb);
}

static struct kunit_case evtchn_live_cases[] = {
	KUNIT_CASE(evtchn_loopback_test),
	KUNIT_CASE(evtchn_masked_test),
	KUNIT_CASE(evtchn_lateeoi_test),
	KUNIT_CASE(evtchn_affinity_test),
	KUNIT_CASE(evtchn_spread_test),
	KUNIT_CASE(evtchn_poll_test),
	{}
};

static struct kunit_suite evtchn_live_suite = {
	.name = "xen-evtchn-live",
	.init = xen_live_init,
	.test_cases = evtchn_live_cases,
};

/* ---- grant tables ---- */

static int grant_live_init(struct kunit *test)
{
	if (!xen_domain() || !xenbus_ready())
		kunit_skip(test, "no Xen, or no xenstore to learn our domid");
	return 0;
}

static domid_t own_domid(void)
{
	return xenbus_read_unsigned("", "domid", DOMID_INVALID);
}

/* Copy one page into another through a grant of the first to ourselves. */
static void grant_copy_self_test(struct kunit *test)
{
	struct page *src = alloc_page(GFP_KERNEL);
	struct page *dst = alloc_page(GFP_KERNEL | __GFP_ZERO);
	struct gnttab_copy op = {};
	domid_t self = own_domid();
	int ref;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_NE(test, self, DOMID_INVALID);
	memset(page_address(src), 0x5a, PAGE_SIZE);

	/* Frames as Xen knows them: pfns in PVH, mfns in PV. */
	ref = gnttab_grant_foreign_access(self, xen_page_to_gfn(src), 1);
	KUNIT_ASSERT_GE(test, ref, 0);
	op.source.u.ref = ref;
	op.source.domid = DOMID_SELF;
	op.dest.u.gmfn = xen_page_to_gfn(dst);
	op.dest.domid = DOMID_SELF;
	op.len = PAGE_SIZE;
	op.flags = GNTCOPY_source_gref;
	gnttab_batch_copy(&op, 1);
	KUNIT_EXPECT_EQ(test, gnttab_status_to_errno(op.status), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(src), page_address(dst),
				     PAGE_SIZE), 0);

	/* Copying into a read-only grant is refused. */
	op.source.u.gmfn = xen_page_to_gfn(dst);
	op.dest.u.ref = ref;
	op.flags = GNTCOPY_dest_gref;
	gnttab_batch_copy(&op, 1);
	KUNIT_EXPECT_NE(test, gnttab_status_to_errno(op.status), 0);

	/* Nobody maps it: it can be taken back at once. */
	KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(ref), 1);
	__free_page(src);
	__free_page(dst);
}

/* Take more references than one frame holds: the table grows. */
static void grant_grow_test(struct kunit *test)
{
	unsigned int n = PAGE_SIZE / sizeof(struct grant_entry_v1) + 8;
	grant_ref_t head;
	unsigned int i;
	int *refs;

	if (gnttab_max_grant_frames() < 2)
		kunit_skip(test, "Xen allows a single grant frame");
	refs = kunit_kcalloc(test, n, sizeof(*refs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, refs);
	KUNIT_ASSERT_EQ(test, gnttab_alloc_grant_references(n, &head), 0);
	for (i = 0; i < n; i++) {
		refs[i] = gnttab_claim_grant_reference(&head);
		KUNIT_EXPECT_GE(test, refs[i], 0);
	}
	KUNIT_EXPECT_EQ(test, gnttab_empty_grant_references(&head), 1);
	KUNIT_EXPECT_LT(test, gnttab_claim_grant_reference(&head), 0);
	for (i = 0; i < n; i++)
		if (refs[i] >= 0)
			gnttab_release_grant_reference(&head, refs[i]);
	gnttab_free_grant_references(head);
}

/* A backend device whose frontend is @otherend, for the ring tests. */
static struct xenbus_device *ring_test_dev(struct kunit *test, domid_t otherend)
{
	struct xenbus_device *xdev = kunit_kzalloc(test, sizeof(*xdev),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, xdev);
	xdev->dev.init_name = "kunit-ring";
	xdev->nodename = "data/kunit-ring";
	xdev->otherend_id = otherend;
	return xdev;
}

/*
 * A backend's view of a ring, with this domain as both ends: two pages
 * granted to ourselves, mapped with xenbus_map_ring_valloc() at one
 * address (a vmalloc area whose entries Xen fills).  While mapped the
 * grants are in use and cannot be taken back; once unmapped they can.
 */
static void grant_map_ring_self_test(struct kunit *test)
{
	struct xenbus_device *xdev;
	struct page *pages[2];
	grant_ref_t refs[2];
	domid_t self = own_domid();
	unsigned char *ring;
	void *addr;
	int i, ref;

	/*
	 * An HVM container's frame sits at one guest frame only: mapping
	 * its own grant elsewhere moves it there and leaves a hole where
	 * the page was.  Only a PV guest can be both ends.
	 */
	if (!xen_pv_domain())
		kunit_skip(test, "an HVM container cannot map its own grants");
	KUNIT_ASSERT_NE(test, self, DOMID_INVALID);
	xdev = ring_test_dev(test, self);
	for (i = 0; i < 2; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		memset(page_address(pages[i]), 0x30 + i, PAGE_SIZE);
		ref = gnttab_grant_foreign_access(self,
						  xen_page_to_gfn(pages[i]), 0);
		KUNIT_ASSERT_GE(test, ref, 0);
		refs[i] = ref;
	}

	KUNIT_ASSERT_EQ(test, xenbus_map_ring_valloc(xdev, refs, 2, &addr), 0);
	KUNIT_ASSERT_NOT_NULL(test, addr);
	ring = addr;
	/* In order, whole, and the same memory both ways. */
	KUNIT_EXPECT_EQ(test, ring[0], 0x30);
	KUNIT_EXPECT_EQ(test, ring[PAGE_SIZE - 1], 0x30);
	KUNIT_EXPECT_EQ(test, ring[PAGE_SIZE], 0x31);
	KUNIT_EXPECT_EQ(test, ring[2 * PAGE_SIZE - 1], 0x31);
	ring[PAGE_SIZE + 7] = 0xa5;
	KUNIT_EXPECT_EQ(test, ((unsigned char *)page_address(pages[1]))[7],
			0xa5);
	KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(refs[0]), 0);

	KUNIT_EXPECT_EQ(test, xenbus_unmap_ring_vfree(xdev, addr), 0);
	KUNIT_EXPECT_EQ(test, xenbus_unmap_ring_vfree(xdev, addr), -ENOENT);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(refs[i]), 1);
		__free_page(pages[i]);
	}
}

/*
 * The same from another domain's grants, as a backend maps its
 * frontend's ring: in an HVM container, the path that maps them over
 * empty pages.  dom0 offers two pages, filled with 0x50 and 0x51, and
 * names them in our data/pvops-ring (the harness's job/gntoffer.c); it
 * watches for the 0xa5 written back through the mapping.
 */
static void grant_map_ring_dom0_test(struct kunit *test)
{
	struct xenbus_device *xdev;
	grant_ref_t refs[2];
	unsigned char *ring;
	void *addr;

	if (xenbus_scanf(XBT_NIL, "data", "pvops-ring", "%u %u", &refs[0],
			 &refs[1]) != 2)
		kunit_skip(test, "dom0 offered no pages (data/pvops-ring)");
	xdev = ring_test_dev(test, 0);

	KUNIT_ASSERT_EQ(test, xenbus_map_ring_valloc(xdev, refs, 2, &addr), 0);
	KUNIT_ASSERT_NOT_NULL(test, addr);
	ring = addr;
	KUNIT_EXPECT_EQ(test, ring[0], 0x50);
	KUNIT_EXPECT_EQ(test, ring[PAGE_SIZE - 1], 0x50);
	KUNIT_EXPECT_EQ(test, ring[PAGE_SIZE], 0x51);
	KUNIT_EXPECT_EQ(test, ring[2 * PAGE_SIZE - 1], 0x51);
	WRITE_ONCE(ring[PAGE_SIZE + 7], 0xa5);
	KUNIT_EXPECT_EQ(test, xenbus_unmap_ring_vfree(xdev, addr), 0);
	KUNIT_EXPECT_EQ(test, xenbus_unmap_ring_vfree(xdev, addr), -ENOENT);
}

/*
 * A ring whose second grant is not there: the map fails whole and
 * the first grant, mapped for a moment, is free again.  In an HVM
 * container (which cannot map its own grants, see above) both are
 * missing: the failure and its unwinding through the empty pages.
 */
static void grant_map_ring_bad_ref_test(struct kunit *test)
{
	struct xenbus_device *xdev;
	struct page *page = alloc_page(GFP_KERNEL);
	domid_t self = own_domid();
	grant_ref_t refs[2], head;
	void *addr = (void *)1;
	int ref, unused;

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NE(test, self, DOMID_INVALID);
	xdev = ring_test_dev(test, self);
	ref = gnttab_grant_foreign_access(self, xen_page_to_gfn(page), 0);
	KUNIT_ASSERT_GE(test, ref, 0);
	/* A reference of ours that grants nothing. */
	KUNIT_ASSERT_EQ(test, gnttab_alloc_grant_references(1, &head), 0);
	unused = gnttab_claim_grant_reference(&head);
	KUNIT_ASSERT_GE(test, unused, 0);
	refs[0] = xen_pv_domain() ? ref : unused;
	refs[1] = unused;

	KUNIT_EXPECT_LT(test, xenbus_map_ring_valloc(xdev, refs, 2, &addr), 0);
	KUNIT_EXPECT_NULL(test, addr);
	KUNIT_EXPECT_EQ(test, xenbus_map_ring_valloc(xdev, refs, 0, &addr),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(ref), 1);
	gnttab_release_grant_reference(&head, unused);
	gnttab_free_grant_references(head);
	__free_page(page);
}

/*
 * Pages with no memory behind them: Xen's count of this domain's pages
 * drops by as many while they are out, and comes back once the pool is
 * told to keep none.  The balloon's idle pages (if it gave any back)
 * are handed out first, at no cost to the count: the test takes those
 * and 8 more.
 */
static void unpopulated_pages_test(struct kunit *test)
{
	domid_t self = DOMID_SELF;
	struct page **pages;
	unsigned long idle;
	long before, during;

	/* Idle pages beyond the balloon's filled again. */
	xen_unpopulated_trim(0);
	idle = xen_pool_idle_pages();
	pages = kunit_kcalloc(test, idle + 8, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	before = HYPERVISOR_memory_op(XENMEM_current_reservation, &self);
	KUNIT_ASSERT_GT(test, before, 0L);
	KUNIT_ASSERT_EQ(test, xen_alloc_unpopulated_pages(idle + 8, pages), 0);
	during = HYPERVISOR_memory_op(XENMEM_current_reservation, &self);
	KUNIT_EXPECT_EQ(test, during, before - 8);
	if (xen_pv_domain())
		KUNIT_EXPECT_EQ(test, pfn_to_mfn(page_to_pfn(pages[idle])),
				INVALID_P2M_ENTRY);
	xen_free_unpopulated_pages(idle + 8, pages);
	xen_unpopulated_trim(0);
	KUNIT_EXPECT_EQ(test, HYPERVISOR_memory_op(XENMEM_current_reservation,
						   &self), before);
}

#if IS_BUILTIN(CONFIG_XEN_FRONT_PGDIR_SHBUF)
/* Copy the page granted as @ref (to ourselves) into @dst: Xen's status. */
static int copy_from_grant(grant_ref_t ref, struct page *dst)
{
	struct gnttab_copy op = {
		.source.u.ref = ref,
		.source.domid = DOMID_SELF,
		.dest.u.gmfn = xen_page_to_gfn(dst),
		.dest.domid = DOMID_SELF,
		.len = PAGE_SIZE,
		.flags = GNTCOPY_source_gref,
	};

	gnttab_batch_copy(&op, 1);
	return op.status;
}

/*
 * A buffer of 1030 pages the frontend gives, shared with ourselves: its
 * directory spans two pages, which a backend reads through their grants
 * (read-only), linked by the first's head, and whose references lead to
 * the buffer's pages.  Each page is held while granted and goes back to
 * its owner's single reference when the buffer is freed.
 */
static void shbuf_frontend_test(struct kunit *test)
{
	const int n = 1030, per = PAGE_SIZE / sizeof(grant_ref_t) - 1;
	struct xen_front_pgdir_shbuf buf = {};
	struct xen_front_pgdir_shbuf_cfg cfg = {};
	struct page **pages, *scratch;
	grant_ref_t *dir, next;
	domid_t self = own_domid();
	int i;

	KUNIT_ASSERT_NE(test, self, DOMID_INVALID);
	pages = kunit_kcalloc(test, n, sizeof(*pages), GFP_KERNEL);
	scratch = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_NOT_NULL(test, scratch);
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		memset(page_address(pages[i]), i & 0xff, PAGE_SIZE);
	}
	cfg.xb_dev = ring_test_dev(test, self);
	cfg.pgdir = &buf;
	cfg.pages = pages;
	cfg.num_pages = n;
	KUNIT_ASSERT_EQ(test, xen_front_pgdir_shbuf_alloc(&cfg), 0);
	KUNIT_EXPECT_EQ(test, xen_front_pgdir_shbuf_map(&buf), 0);
	KUNIT_EXPECT_EQ(test, page_ref_count(pages[0]), 2);

	dir = page_address(scratch);
	next = xen_front_pgdir_shbuf_get_dir_start(&buf);
	KUNIT_ASSERT_NE(test, next, 0U);
	KUNIT_ASSERT_EQ(test, copy_from_grant(next, scratch), GNTST_okay);
	next = dir[0];
	/* The first and the last reference of the first directory page. */
	KUNIT_EXPECT_EQ(test, copy_from_grant(dir[per], scratch), GNTST_okay);
	KUNIT_EXPECT_EQ(test, ((u8 *)dir)[5], (per - 1) & 0xff);
	KUNIT_ASSERT_EQ(test, copy_from_grant(next, scratch), GNTST_okay);
	KUNIT_EXPECT_EQ(test, dir[0], 0U);
	/* The second page holds the last n - per references. */
	KUNIT_EXPECT_EQ(test, copy_from_grant(dir[n - per], scratch),
			GNTST_okay);
	KUNIT_EXPECT_EQ(test, ((u8 *)dir)[9], (n - 1) & 0xff);

	KUNIT_EXPECT_EQ(test, xen_front_pgdir_shbuf_unmap(&buf), 0);
	xen_front_pgdir_shbuf_free(&buf);
	KUNIT_EXPECT_EQ(test, xen_front_pgdir_shbuf_get_dir_start(&buf), 0U);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, page_ref_count(pages[i]), 1);
		__free_page(pages[i]);
	}
	__free_page(scratch);
}

/*
 * A buffer the backend allocates (ourselves, in a PV guest, which can
 * map its own grants): it writes its references into the directory, and
 * the frontend maps them over empty pages and sees the backend's data.
 * A reference that grants nothing fails the map whole.
 */
static void shbuf_backend_alloc_test(struct kunit *test)
{
	struct xen_front_pgdir_shbuf buf = {};
	struct xen_front_pgdir_shbuf_cfg cfg = {};
	struct page *be[3], *fe[3];
	grant_ref_t head, unused, *slots;
	domid_t self = own_domid();
	int i, ref;

	if (!xen_pv_domain())
		kunit_skip(test, "an HVM container cannot map its own grants");
	KUNIT_ASSERT_NE(test, self, DOMID_INVALID);
	KUNIT_ASSERT_EQ(test, xen_alloc_unpopulated_pages(3, fe), 0);
	KUNIT_ASSERT_EQ(test, gnttab_alloc_grant_references(1, &head), 0);
	unused = gnttab_claim_grant_reference(&head);
	cfg.xb_dev = ring_test_dev(test, self);
	cfg.pgdir = &buf;
	cfg.pages = fe;
	cfg.num_pages = 3;
	cfg.be_alloc = true;
	KUNIT_ASSERT_EQ(test, xen_front_pgdir_shbuf_alloc(&cfg), 0);
	slots = (grant_ref_t *)buf.directory + 1;
	for (i = 0; i < 3; i++) {
		be[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, be[i]);
		memset(page_address(be[i]), 0x70 + i, PAGE_SIZE);
		ref = gnttab_grant_foreign_access(self, xen_page_to_gfn(be[i]),
						  0);
		KUNIT_ASSERT_GE(test, ref, 0);
		slots[i] = ref;
	}

	/* The backend names one reference that grants nothing. */
	swap(slots[1], unused);
	KUNIT_EXPECT_LT(test, xen_front_pgdir_shbuf_map(&buf), 0);
	KUNIT_EXPECT_FALSE(test, buf.mapped);
	swap(slots[1], unused);

	KUNIT_ASSERT_EQ(test, xen_front_pgdir_shbuf_map(&buf), 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ((u8 *)page_address(fe[i]))[100],
				0x70 + i);
	KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(slots[0]), 0);
	KUNIT_EXPECT_EQ(test, xen_front_pgdir_shbuf_unmap(&buf), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, gnttab_try_end_foreign_access(slots[i]),
				1);
		__free_page(be[i]);
	}
	xen_front_pgdir_shbuf_free(&buf);
	xen_free_unpopulated_pages(3, fe);
	gnttab_release_grant_reference(&head, unused);
	gnttab_free_grant_references(head);
}
#else
static void shbuf_frontend_test(struct kunit *test)
{
	kunit_skip(test, "CONFIG_XEN_FRONT_PGDIR_SHBUF is not built in");
}

static void shbuf_backend_alloc_test(struct kunit *test)
{
	kunit_skip(test, "CONFIG_XEN_FRONT_PGDIR_SHBUF is not built in");
}
#endif

static struct kunit_case grant_live_cases[] = {
	KUNIT_CASE(grant_copy_self_test),
	KUNIT_CASE(grant_grow_test),
	KUNIT_CASE(grant_map_ring_self_test),
	KUNIT_CASE(grant_map_ring_dom0_test),
	KUNIT_CASE(grant_map_ring_bad_ref_test),
	KUNIT_CASE(unpopulated_pages_test),
	KUNIT_CASE(shbuf_frontend_test),
	KUNIT_CASE(shbuf_backend_alloc_test),
	{}
};

static struct kunit_suite grant_live_suite = {
	.name = "xen-grant-live",
	.init = grant_live_init,
	.test_cases = grant_live_cases,
};

/* ---- xenstore ---- */

#define XS_TEST_DIR	"data/kunit"

static int xs_live_init(struct kunit *test)
{
	if (!xen_domain() || !xenbus_ready())
		kunit_skip(test, "no xenstore");
	return 0;
}

static void xs_read_write_test(struct kunit *test)
{
	unsigned int len, n;
	char *val, **dir;

	KUNIT_ASSERT_EQ(test, xenbus_write(XBT_NIL, XS_TEST_DIR, "a", "hello"),
			0);
	val = xenbus_read(XBT_NIL, XS_TEST_DIR, "a", &len);
	KUNIT_ASSERT_FALSE(test, IS_ERR(val));
	KUNIT_EXPECT_STREQ(test, val, "hello");
	KUNIT_EXPECT_EQ(test, len, 5U);
	kfree(val);

	KUNIT_EXPECT_EQ(test, xenbus_printf(XBT_NIL, XS_TEST_DIR, "n", "%d",
					    42), 0);
	KUNIT_EXPECT_EQ(test, xenbus_read_unsigned(XS_TEST_DIR, "n", 0), 42U);
	KUNIT_EXPECT_EQ(test, xenbus_read_unsigned(XS_TEST_DIR, "nope", 7), 7U);

	dir = xenbus_directory(XBT_NIL, XS_TEST_DIR, "", &n);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dir));
	KUNIT_EXPECT_EQ(test, n, 2U);
	kfree(dir);

	KUNIT_EXPECT_EQ(test, xenbus_exists(XBT_NIL, XS_TEST_DIR, "a"), 1);
	KUNIT_EXPECT_EQ(test, xenbus_rm(XBT_NIL, XS_TEST_DIR, ""), 0);
	KUNIT_EXPECT_EQ(test, xenbus_exists(XBT_NIL, XS_TEST_DIR, "a"), 0);
	val = xenbus_read(XBT_NIL, XS_TEST_DIR, "a", NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(val), -ENOENT);

	/* Reading what the toolstack wrote: our own domain id. */
	KUNIT_EXPECT_NE(test, xenbus_read_unsigned("", "domid", 0), 0U);
}

static void xs_transaction_test(struct kunit *test)
{
	struct xenbus_transaction t, u;
	char *val;

	/* Committed: visible after. */
	KUNIT_ASSERT_EQ(test, xenbus_transaction_start(&t), 0);
	KUNIT_EXPECT_EQ(test, xenbus_write(t, XS_TEST_DIR, "t", "1"), 0);
	KUNIT_EXPECT_EQ(test, xenbus_transaction_end(t, 0), 0);
	KUNIT_EXPECT_EQ(test, xenbus_read_unsigned(XS_TEST_DIR, "t", 0), 1U);

	/* Aborted: not visible. */
	KUNIT_ASSERT_EQ(test, xenbus_transaction_start(&t), 0);
	KUNIT_EXPECT_EQ(test, xenbus_write(t, XS_TEST_DIR, "t", "2"), 0);
	KUNIT_EXPECT_EQ(test, xenbus_transaction_end(t, 1), 0);
	KUNIT_EXPECT_EQ(test, xenbus_read_unsigned(XS_TEST_DIR, "t", 0), 1U);

	/* Conflicting: the later commit gets -EAGAIN. */
	KUNIT_ASSERT_EQ(test, xenbus_transaction_start(&t), 0);
	KUNIT_ASSERT_EQ(test, xenbus_transaction_start(&u), 0);
	val = xenbus_read(t, XS_TEST_DIR, "t", NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(val));
	if (!IS_ERR(val))
		kfree(val);
	KUNIT_EXPECT_EQ(test, xenbus_write(u, XS_TEST_DIR, "t", "3"), 0);
	KUNIT_EXPECT_EQ(test, xenbus_transaction_end(u, 0), 0);
	KUNIT_EXPECT_EQ(test, xenbus_write(t, XS_TEST_DIR, "t", "4"), 0);
	KUNIT_EXPECT_EQ(test, xenbus_transaction_end(t, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, xenbus_read_unsigned(XS_TEST_DIR, "t", 0), 3U);

	xenbus_rm(XBT_NIL, XS_TEST_DIR, "");
}

/**
 * struct watch_probe - a watch that counts what it sees
 * @watch: the watch
 * @events: events delivered
 * @fired: completed on each
 * @last: the last path, for the test to read
 */
struct watch_probe {
	struct xenbus_watch watch;
	atomic_t events;
	struct completion fired;
	char last[64];
};

static void watch_probe_cb(struct xenbus_watch *watch, const char *path,
			   const char *token)
{
	struct watch_probe *p = container_of(watch, struct watch_probe, watch);

	strscpy(p->last, path, sizeof(p->last));
	atomic_inc(&p->events);
	complete(&p->fired);
}

static void xs_watch_test(struct kunit *test)
{
	struct watch_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	init_completion(&p->fired);
	p->watch.node = XS_TEST_DIR "/w";
	p->watch.callback = watch_probe_cb;
	KUNIT_ASSERT_EQ(test, register_xenbus_watch(&p->watch), 0);

	/* xenstored fires a new watch once. */
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&p->fired,
							  LIVE_TIMEOUT), 0UL);
	KUNIT_EXPECT_STREQ(test, p->last, XS_TEST_DIR "/w");

	reinit_completion(&p->fired);
	KUNIT_EXPECT_EQ(test, xenbus_write(XBT_NIL, XS_TEST_DIR, "w/x", "1"), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&p->fired,
							  LIVE_TIMEOUT), 0UL);
	KUNIT_EXPECT_STREQ(test, p->last, XS_TEST_DIR "/w/x");

	unregister_xenbus_watch(&p->watch);
	/* Nothing is delivered after unregistering. */
	atomic_set(&p->events, 0);
	xenbus_write(XBT_NIL, XS_TEST_DIR, "w/x", "2");
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->events), 0);
	xenbus_rm(XBT_NIL, XS_TEST_DIR, "");
}

static void xs_errors_test(struct kunit *test)
{
	char *long_path;
	void *val;

	val = xenbus_read(XBT_NIL, XS_TEST_DIR, "no-such-node", NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(val), -ENOENT);
	/* Outside our home, even reading is refused. */
	val = xenbus_read(XBT_NIL, "/no/such", "node", NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(val), -EACCES);
	/* Another domain's home is not ours to write. */
	KUNIT_EXPECT_EQ(test, xenbus_write(XBT_NIL, "/local/domain/0", "kunit",
					   "x"), -EACCES);
	/* Too long for the protocol: refused before it is sent. */
	long_path = kunit_kzalloc(test, XENSTORE_PAYLOAD_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, long_path);
	memset(long_path, 'a', XENSTORE_PAYLOAD_MAX + 1);
	val = xenbus_read(XBT_NIL, long_path, "", NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(val), -E2BIG);
}

#define XS_READERS	32
#define XS_READS	1000

/**
 * struct xs_reader - one thread of the concurrent read test
 * @done: completed when the thread has finished
 * @errors: reads that failed or read the wrong value
 * @expect: the value every read must return
 */
struct xs_reader {
	struct completion *done;
	atomic_t *errors;
	unsigned int expect;
};

static int xs_reader_fn(void *data)
{
	struct xs_reader *r = data;
	unsigned int i;

	for (i = 0; i < XS_READS; i++)
		if (xenbus_read_unsigned("", "domid", ~0U) != r->expect)
			atomic_inc(r->errors);
	complete(r->done);
	return 0;
}

static void xs_concurrent_reads_test(struct kunit *test)
{
	struct completion *done;
	struct xs_reader *r;
	atomic_t errors = ATOMIC_INIT(0);
	unsigned int i, domid = xenbus_read_unsigned("", "domid", 0);
	ktime_t start;
	s64 us;

	done = kunit_kcalloc(test, XS_READERS, sizeof(*done), GFP_KERNEL);
	r = kunit_kcalloc(test, XS_READERS, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, done);
	KUNIT_ASSERT_NOT_NULL(test, r);

	start = ktime_get();
	for (i = 0; i < XS_READERS; i++) {
		init_completion(&done[i]);
		r[i].done = &done[i];
		r[i].errors = &errors;
		r[i].expect = domid;
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(xs_reader_fn, &r[i],
							    "xs-reader/%u", i)));
	}
	for (i = 0; i < XS_READERS; i++)
		wait_for_completion(&done[i]);
	us = ktime_us_delta(ktime_get(), start);

	KUNIT_EXPECT_EQ(test, atomic_read(&errors), 0);
	kunit_info(test, "xenstore: %u readers x %u reads in %lld ms: %lld reads/s\n",
		   XS_READERS, XS_READS, us / 1000,
		   us ? (s64)XS_READERS * XS_READS * USEC_PER_SEC / us : 0);
}

/**
 * struct watch_dam - a watch whose first callback holds the watch thread
 * @watch: the watch
 * @held: completed once the first callback holds the thread
 * @release: lets it go
 * @events: events delivered
 * @last: the last path delivered
 */
struct watch_dam {
	struct xenbus_watch watch;
	struct completion held;
	struct completion release;
	atomic_t events;
	char last[64];
};

static void watch_dam_cb(struct xenbus_watch *watch, const char *path,
			 const char *token)
{
	struct watch_dam *d = container_of(watch, struct watch_dam, watch);

	strscpy(d->last, path, sizeof(d->last));
	if (atomic_inc_return(&d->events) > 1)
		return;
	complete(&d->held);
	wait_for_completion_timeout(&d->release, LIVE_TIMEOUT);
}

/*
 * With the watch thread held, 200 writes of one node and 200 of as many
 * nodes: the one node's events fold into one, the many into at most
 * XENBUS_WATCH_MAX_PENDING, then one for the watched node.
 */
static void xs_watch_flood_test(struct kunit *test)
{
	struct watch_dam *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned int i, pending;
	char name[16];

	KUNIT_ASSERT_NOT_NULL(test, d);
	init_completion(&d->held);
	init_completion(&d->release);
	d->watch.node = XS_TEST_DIR "/f";
	d->watch.callback = watch_dam_cb;
	KUNIT_ASSERT_EQ(test, register_xenbus_watch(&d->watch), 0);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&d->held,
							  LIVE_TIMEOUT), 0UL);
	for (i = 0; i < 200; i++)
		xenbus_printf(XBT_NIL, XS_TEST_DIR, "f/same", "%u", i);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "f/n%u", i);
		xenbus_write(XBT_NIL, XS_TEST_DIR, name, "1");
	}
	/* Each write's event comes soon after its reply: let them arrive. */
	msleep(500);
	pending = READ_ONCE(d->watch.nr_pending);
	complete(&d->release);

	KUNIT_EXPECT_LE(test, pending, XENBUS_WATCH_MAX_PENDING + 1);
	KUNIT_EXPECT_GE(test, pending, XENBUS_WATCH_MAX_PENDING);
	for (i = 0; i < 100 && READ_ONCE(d->watch.nr_pending); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(d->watch.nr_pending), 0U);
	KUNIT_EXPECT_STREQ(test, d->last, XS_TEST_DIR "/f");
	KUNIT_EXPECT_LE(test, atomic_read(&d->events),
			XENBUS_WATCH_MAX_PENDING + 2);
	unregister_xenbus_watch(&d->watch);
	xenbus_rm(XBT_NIL, XS_TEST_DIR, "");
}

static struct kunit_case xs_live_cases[] = {
	KUNIT_CASE(xs_read_write_test),
	KUNIT_CASE(xs_transaction_test),
	KUNIT_CASE(xs_watch_test),
	KUNIT_CASE(xs_watch_flood_test),
	KUNIT_CASE(xs_errors_test),
	KUNIT_CASE_SLOW(xs_concurrent_reads_test),
	{}
};

static struct kunit_suite xs_live_suite = {
	.name = "xen-xenstore-live",
	.init = xs_live_init,
	.test_cases = xs_live_cases,
};

/* ---- runstate and steal time ---- */

static u64 runstate_sum(const struct vcpu_runstate_info *rs)
{
	return rs->time[RUNSTATE_running] + rs->time[RUNSTATE_runnable] +
	       rs->time[RUNSTATE_blocked] + rs->time[RUNSTATE_offline];
}

/*
 * Xen adds the time spent in the state left to that state's counter
 * whenever it moves the entry time on, so the counters' sum and the entry
 * time grow by exactly the same amount.  A CPU that sleeps goes blocked.
 */
static void runstate_test(struct kunit *test)
{
	struct vcpu_runstate_info a, b;
	unsigned int cpu;

	migrate_disable();
	cpu = smp_processor_id();
	xen_runstate_snapshot_cpu(&a, cpu);
	KUNIT_EXPECT_EQ(test, a.state, RUNSTATE_running);
	msleep(50);
	xen_runstate_snapshot_cpu(&b, cpu);
	migrate_enable();

	KUNIT_EXPECT_EQ(test, b.state, RUNSTATE_running);
	KUNIT_EXPECT_GT(test, b.state_entry_time, a.state_entry_time);
	KUNIT_EXPECT_GT(test, b.time[RUNSTATE_blocked],
			a.time[RUNSTATE_blocked]);
	KUNIT_EXPECT_GE(test, b.time[RUNSTATE_running],
			a.time[RUNSTATE_running]);
	KUNIT_EXPECT_EQ(test, runstate_sum(&b) - runstate_sum(&a),
			b.state_entry_time - a.state_entry_time);
	/* Xen counts from the vCPU's creation, well before this test. */
	KUNIT_EXPECT_GT(test, runstate_sum(&a), 0ULL);
}

/* The scheduler's steal clock is the runstate's, on every CPU. */
static void steal_clock_test(struct kunit *test)
{
	struct vcpu_runstate_info rs;
	unsigned int cpu;
	u64 before, after;

	KUNIT_ASSERT_PTR_EQ(test, (void *)static_call_query(pv_steal_clock),
			    (void *)xen_steal_clock);
	for_each_online_cpu(cpu) {
		before = xen_steal_clock(cpu);
		xen_runstate_snapshot_cpu(&rs, cpu);
		after = paravirt_steal_clock(cpu);
		KUNIT_EXPECT_LE(test, before, after);
		KUNIT_EXPECT_LE(test, before, rs.time[RUNSTATE_runnable] +
				rs.time[RUNSTATE_offline]);
		KUNIT_EXPECT_LE(test, rs.state, RUNSTATE_offline);
	}
	kunit_info(test, "steal: %llu ns on CPU 0\n", xen_steal_clock(0));
}

static struct kunit_case time_live_cases[] = {
	KUNIT_CASE(runstate_test),
	KUNIT_CASE(steal_clock_test),
	{}
};

static struct kunit_suite time_live_suite = {
	.name = "xen-time-live",
	.init = xen_live_init,
	.test_cases = time_live_cases,
};

kunit_test_suites(&evtchn_live_suite, &grant_live_suite, &xs_live_suite,
		  &time_live_suite);
