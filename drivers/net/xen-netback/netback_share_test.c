// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of netback's sharing between vifs (netback_share.c): the
 * shares of busy vifs by weight, a vif alone, one that comes back from
 * idle, minimum rates, caps, weights changed live.  Pure, so they run on
 * every boot of a kernel with CONFIG_XEN_KUNIT_TEST, native too.
 *
 * A small model of dom0 drives them: a link of LINK bytes a millisecond
 * that the vifs' threads take turns at, each pass moving its vif's pass
 * size in packets of 1514 bytes (or of its own size: GSO), as far as the
 * sharing lets it.
 */
#include <kunit/test.h>
#include <linux/time64.h>

#include "netback_share.h"

#define LINK		(40 * 1000)	/* bytes a millisecond: 320 Mbit/s */
#define NVIF		3

struct model {
	struct netback_share share;
	struct netback_share_vif v[NVIF];
	unsigned int pass[NVIF];	/* bytes a pass, 0: idle */
	unsigned int pkt[NVIF];		/* bytes a packet, 0: 1514 */
	unsigned int burst[NVIF];	/* passes before a pause, 0: none */
	u64 pause_ns[NVIF];		/* how long it pauses */
	unsigned int done[NVIF];	/* passes since its last pause */
	u64 until[NVIF];		/* idle until then */
	u64 moved[NVIF];
	u64 now;
};

static void model_init(struct model *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->now = 1000 * NSEC_PER_SEC;
	netback_share_init(&m->share);
	for (i = 0; i < NVIF; i++)
		netback_share_vif_init(&m->v[i], m->now);
}

static void model_set(struct model *m, unsigned int i, u32 weight,
		      u64 min_rate, u64 cap_bytes, u64 cap_ns)
{
	netback_share_set(&m->share, &m->v[i], weight, min_rate, cap_bytes,
			  cap_ns, m->now);
}

/*
 * Run the model for @ms milliseconds; the bytes each vif moved in that
 * time go to @m->moved.  False when every busy vif waited for another
 * at once (the sharing would hang).
 */
static bool model_run(struct model *m, unsigned int ms)
{
	u64 end = m->now + (u64)ms * NSEC_PER_MSEC, d, next, bytes;
	unsigned int i, pkt;
	bool went;

	memset(m->moved, 0, sizeof(m->moved));
	while (m->now < end) {
		went = false;
		next = NETBACK_SHARE_WAKE;
		for (i = 0; i < NVIF; i++) {
			if (!m->pass[i] || m->now < m->until[i]) {
				netback_share_pause(&m->share, &m->v[i], m->now);
				if (m->pass[i])
					next = min(next, m->until[i] - m->now);
				continue;
			}
			netback_share_activate(&m->share, &m->v[i]);
			d = netback_share_delay(&m->share, &m->v[i], m->now);
			if (d) {
				next = min(next, d);
				continue;
			}
			/* Whole packets, up to what it is allowed. */
			pkt = m->pkt[i] ?: 1514;
			bytes = m->pass[i];
			if (m->v[i].allow < bytes)
				bytes = min_t(u64, bytes,
					      roundup(m->v[i].allow, pkt));
			went = true;
			m->moved[i] += bytes;
			m->now += div_u64(bytes * NSEC_PER_MSEC, LINK);
			netback_share_charge(&m->share, &m->v[i], bytes, m->now);
			if (m->burst[i] && ++m->done[i] == m->burst[i]) {
				/* Its ring ran dry: a pause, then more. */
				m->done[i] = 0;
				m->until[i] = m->now + m->pause_ns[i];
			}
		}
		if (!went) {
			if (next == NETBACK_SHARE_WAKE)
				return false;
			m->now += next;
		}
	}
	return true;
}

/* @i's per mille of what all moved. */
static unsigned int permille(struct model *m, unsigned int i)
{
	u64 all = 0;
	unsigned int k;

	for (k = 0; k < NVIF; k++)
		all += m->moved[k];
	return all ? div64_u64(m->moved[i] * 1000, all) : 0;
}

static void share_weights_test(struct kunit *test)
{
	struct model m;

	/* One flow against many: small passes against large ones. */
	model_init(&m);
	m.pass[0] = 1514;
	m.pass[1] = 64 * 1514;
	model_set(&m, 0, 1, 0, 0, 0);
	model_set(&m, 1, 1, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 480);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 520);

	model_set(&m, 0, 3, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 730);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 770);

	/* The other way round, weights changed live again. */
	model_set(&m, 0, 1, 0, 0, 0);
	model_set(&m, 1, 3, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, permille(&m, 1), 730);
	KUNIT_EXPECT_LE(test, permille(&m, 1), 770);

	/* Three, at the largest weight and beyond it. */
	m.pass[2] = 9000;
	model_set(&m, 0, 1, 0, 0, 0);
	model_set(&m, 1, NETBACK_SHARE_MAX_WEIGHT, 0, 0, 0);
	model_set(&m, 2, NETBACK_SHARE_MAX_WEIGHT + 5, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, m.v[2].weight, NETBACK_SHARE_MAX_WEIGHT);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 4000));
	KUNIT_EXPECT_GE(test, permille(&m, 1), 450);
	KUNIT_EXPECT_GE(test, permille(&m, 2), 450);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 40);
}

static void share_idle_test(struct kunit *test)
{
	struct model m;

	/* Alone, a vif is never held back: it gets the whole link. */
	model_init(&m);
	m.pass[0] = 64 * 1514;
	model_set(&m, 0, 1, 0, 0, 0);
	model_set(&m, 1, 3, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, m.moved[0], (u64)LINK * 1000 * 99 / 100);

	/*
	 * The other was idle all that time: it gets its weight's share
	 * from its first second on, no more for what it did not use.
	 */
	m.pass[1] = 64 * 1514;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, permille(&m, 1), 730);
	KUNIT_EXPECT_LE(test, permille(&m, 1), 770);
	KUNIT_EXPECT_GE(test, m.moved[0], (u64)LINK * 1000 * 20 / 100);

	/* And when the first goes idle, the other has it all. */
	m.pass[0] = 0;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, m.moved[1], (u64)LINK * 1000 * 99 / 100);
	KUNIT_EXPECT_FALSE(test, m.v[0].active);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&m.share.active));
}

/*
 * Vif 0 one flow whose ring runs dry after every 20 packets, for 0.1 ms,
 * vif 1 always busy, weighed 3:1.
 */
static void model_bursty(struct model *m)
{
	model_init(m);
	m->pass[0] = 1514;
	m->burst[0] = 20;
	m->pause_ns[0] = 100 * NSEC_PER_USEC;
	m->pass[1] = 64 * 1514;
	model_set(m, 0, 3, 0, 0, 0);
	model_set(m, 1, 1, 0, 0, 0);
}

static void share_bursty_test(struct kunit *test)
{
	struct model m;

	/*
	 * One flow whose ring runs dry after every 20 packets, for 0.1
	 * ms, against a vif that always has work, weighed 3:1, with no
	 * idle grace (share_grace_test has one).  While it
	 * pauses the other goes on, by one lag of 32 KiB (the model has
	 * one server and no preemption: that pass runs whole); when it
	 * comes back it keeps its place and the other waits.  So each of
	 * its 30,280 bytes is met by 32,768 of the other's: 48%, where
	 * without the credit for its pause it would get under 30%.
	 */
	model_bursty(&m);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 450);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 510);

	/* Idle for longer than its credit covers, it is owed nothing. */
	m.burst[0] = 1;
	m.done[0] = 0;
	m.pause_ns[0] = 20 * NSEC_PER_MSEC;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_LE(test, permille(&m, 0), 10);
}

static void share_grace_test(struct kunit *test)
{
	struct model m;
	u64 min;

	/*
	 * The bursty flow of share_bursty_test with an idle grace of 1 ms,
	 * ten times its pauses: the other waits each pause out, and the
	 * flow gets its weight's 3/4.  The link idles meanwhile: a pause
	 * in each 1 ms or so.
	 */
	model_bursty(&m);
	m.share.idle_grace_ns = NSEC_PER_MSEC;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 730);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 770);
	KUNIT_EXPECT_GE(test, m.moved[0] + m.moved[1], (u64)LINK * 2000 * 85 / 100);

	/*
	 * Pauses longer than the grace: the other loses one grace to each,
	 * and the flow is owed nothing for the rest.
	 */
	m.burst[0] = 1;
	m.done[0] = 0;
	m.pause_ns[0] = 20 * NSEC_PER_MSEC;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_LE(test, permille(&m, 0), 10);
	KUNIT_EXPECT_GE(test, m.moved[1], (u64)LINK * 2000 * 93 / 100);

	/* A vif without a weight has no grace, and holds no one. */
	model_set(&m, 0, 0, 0, 0, 0);
	m.burst[0] = 20;
	m.pause_ns[0] = 100 * NSEC_PER_USEC;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_LE(test, permille(&m, 0), 500);
	KUNIT_EXPECT_FALSE(test, m.v[0].lingering);

	/*
	 * One that loses its weight in its grace leaves at once, whether
	 * it keeps a minimum rate or not.
	 */
	m.pass[0] = 0;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 10));
	for (min = 0; min <= 1000; min += 1000) {
		model_set(&m, 0, 3, min, 0, 0);
		netback_share_activate(&m.share, &m.v[0]);
		netback_share_pause(&m.share, &m.v[0], m.now);
		KUNIT_EXPECT_TRUE(test, m.v[0].lingering);
		model_set(&m, 0, 0, min, 0, 0);
		KUNIT_EXPECT_FALSE(test, m.v[0].active);
		KUNIT_EXPECT_FALSE(test, m.v[0].lingering);
		KUNIT_EXPECT_TRUE(test, list_is_singular(&m.share.active));
	}
}

static void share_gso_test(struct kunit *test)
{
	struct model m;

	/*
	 * GSO packets of 64 KiB, each larger than a lag: a pass moves one
	 * past its allowance, and the weights still hold.
	 */
	model_init(&m);
	m.pass[0] = 64 * 65536;
	m.pkt[0] = 65536;
	m.pass[1] = 64 * 65536;
	m.pkt[1] = 65536;
	model_set(&m, 0, 3, 0, 0, 0);
	model_set(&m, 1, 1, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 4000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 730);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 770);

	model_set(&m, 0, 1, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 4000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 480);
	KUNIT_EXPECT_LE(test, permille(&m, 0), 520);
}

static void share_min_rate_test(struct kunit *test)
{
	struct model m;
	u64 min = (u64)LINK * 1000 * 6 / 10;	/* 60% of the link, a second */

	/* Weighed down 1:3, a vif still gets its minimum rate. */
	model_init(&m);
	m.pass[0] = 1514;
	m.pass[1] = 64 * 1514;
	model_set(&m, 0, 1, min, 0, 0);
	model_set(&m, 1, 3, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, m.moved[0], 2 * min * 95 / 100);
	/* The rest is shared by weight. */
	KUNIT_EXPECT_LE(test, m.moved[0], 2 * min + (u64)LINK * 2000 / 4);

	/* A minimum without a weight: served first all the same. */
	model_set(&m, 0, 0, min, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, m.moved[0], 2 * min * 95 / 100);
	KUNIT_EXPECT_TRUE(test, m.v[0].active);

	/* And one owed nothing is not held back by the weights. */
	model_set(&m, 0, 1, 0, 0, 0);
	model_set(&m, 1, 0, min, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 2000));
	KUNIT_EXPECT_GE(test, m.moved[1], 2 * min * 95 / 100);
}

static void share_cap_test(struct kunit *test)
{
	struct model m;

	/*
	 * 100,000 bytes every 10 ms: 10 MB/s, alone on a 40 MB/s link;
	 * a full bucket at the start, and one pass beyond the last byte.
	 */
	model_init(&m);
	m.pass[0] = 1514;
	model_set(&m, 0, 0, 0, 100000, 10 * NSEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, m.moved[0], 9900000ULL);
	KUNIT_EXPECT_LE(test, m.moved[0], 10000000ULL + 100000 + 1514);

	/* The cap holds a weighted vif too, and the other takes the rest. */
	m.pass[1] = 64 * 1514;
	model_set(&m, 0, 3, 0, 100000, 10 * NSEC_PER_MSEC);
	model_set(&m, 1, 1, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_LE(test, m.moved[0], 10000000ULL + 100000 + 1514);
	KUNIT_EXPECT_GE(test, m.moved[1], 29000000ULL);

	/* Lifted live. */
	model_set(&m, 0, 3, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 730);
}

static void share_unweighted_test(struct kunit *test)
{
	struct model m;

	/*
	 * Without weights nothing is held back (upstream's behaviour):
	 * each vif moves its passes in turn, whatever their sizes.
	 */
	model_init(&m);
	m.pass[0] = 1514;
	m.pass[1] = 64 * 1514;
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_LE(test, permille(&m, 0), 20);
	KUNIT_EXPECT_TRUE(test, list_empty(&m.share.active));

	/* A weight taken away while busy leaves the active ones. */
	model_set(&m, 0, 2, 0, 0, 0);
	model_set(&m, 1, 1, 0, 0, 0);
	KUNIT_ASSERT_TRUE(test, model_run(&m, 1000));
	KUNIT_EXPECT_GE(test, permille(&m, 0), 630);
	model_set(&m, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_FALSE(test, m.v[0].active);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&m.share.active));
	KUNIT_EXPECT_EQ(test, netback_share_delay(&m.share, &m.v[1], m.now), 0);
}

static struct kunit_case netback_share_cases[] = {
	KUNIT_CASE(share_weights_test),
	KUNIT_CASE(share_idle_test),
	KUNIT_CASE(share_bursty_test),
	KUNIT_CASE(share_grace_test),
	KUNIT_CASE(share_gso_test),
	KUNIT_CASE(share_min_rate_test),
	KUNIT_CASE(share_cap_test),
	KUNIT_CASE(share_unweighted_test),
	{}
};

static struct kunit_suite netback_share_suite = {
	.name = "xen-netback-share",
	.test_cases = netback_share_cases,
};

kunit_test_suite(netback_share_suite);
