// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of netback's check of a sent packet (netback_txcheck.c):
 * sizes, offsets and slot counts at their edges.  Pure, so they run on
 * every boot of a kernel with CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <linux/skbuff.h>
#include <net/tcp.h>

#include "netback_txcheck.h"

static void fill(struct netif_tx_request *s, unsigned int n,
		 unsigned int total, unsigned int each)
{
	unsigned int i;

	memset(s, 0, n * sizeof(*s));
	s[0].size = total;
	for (i = 0; i < n; i++) {
		s[i].gref = 10 + i;
		s[i].id = i;
		if (i)
			s[i].size = each;
		if (i + 1 < n)
			s[i].flags |= NETTXF_more_data;
	}
}

static void txcheck_one_slot_test(struct kunit *test)
{
	struct netif_tx_request s[1];
	unsigned int first = 0;
	const char *why = NULL;

	fill(s, 1, 1514, 0);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_OK);
	KUNIT_EXPECT_EQ(test, first, 1514U);
	/* The whole page, from its start. */
	s[0].size = 4096;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_OK);
	/* One byte past it. */
	s[0].offset = 1;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why),
			NETBACK_TX_NONSENSE);
	KUNIT_EXPECT_NOT_NULL(test, why);
	s[0].offset = 4095;
	s[0].size = 1;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_DROP);
	/* An Ethernet header, no less. */
	s[0].offset = 0;
	s[0].size = 14;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_OK);
	s[0].size = 13;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_DROP);
	s[0].size = 0;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 1, &first, &why), NETBACK_TX_DROP);
}

static void txcheck_slots_test(struct kunit *test)
{
	struct netif_tx_request s[NETBACK_FATAL_SLOTS];
	unsigned int first = 0;
	const char *why;

	/* 60,000 bytes: 16 slots of 3,500 and 4,000 in the first. */
	fill(s, 17, 60000, 3500);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 17, &first, &why), NETBACK_TX_OK);
	KUNIT_EXPECT_EQ(test, first, 4000U);
	/* The rest exactly the packet: an empty first slot. */
	fill(s, 3, 8000, 4000);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 3, &first, &why), NETBACK_TX_OK);
	KUNIT_EXPECT_EQ(test, first, 0U);
	/* The rest more than the packet. */
	fill(s, 3, 7999, 4000);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 3, &first, &why),
			NETBACK_TX_NONSENSE);
	/* A later slot across its page. */
	fill(s, 3, 9000, 3000);
	s[2].offset = 1097;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 3, &first, &why),
			NETBACK_TX_NONSENSE);
	s[2].offset = 1096;
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 3, &first, &why), NETBACK_TX_OK);
	/* Slot counts: 18 taken, 19 dropped, 20 broken. */
	fill(s, 18, 18 * 100, 100);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 18, &first, &why), NETBACK_TX_OK);
	fill(s, 19, 19 * 100, 100);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 19, &first, &why), NETBACK_TX_DROP);
	fill(s, 20, 20 * 100, 100);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 20, &first, &why),
			NETBACK_TX_NONSENSE);
	KUNIT_EXPECT_EQ(test, netback_tx_check(s, 0, &first, &why),
			NETBACK_TX_NONSENSE);
}

static void txcheck_extra_test(struct kunit *test)
{
	struct netif_extra_info e = {};
	const char *why;

	e.type = XEN_NETIF_EXTRA_TYPE_NONE;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.type = XEN_NETIF_EXTRA_TYPE_MAX;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.type = 0xff;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.type = XEN_NETIF_EXTRA_TYPE_GSO;
	e.u.gso.type = XEN_NETIF_GSO_TYPE_TCPV4;
	e.u.gso.size = 1448;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_OK);
	e.u.gso.type = XEN_NETIF_GSO_TYPE_TCPV6;
	e.u.gso.size = TCP_MIN_GSO_SIZE;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_OK);
	e.u.gso.size = TCP_MIN_GSO_SIZE - 1;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_DROP);
	e.u.gso.size = GSO_BY_FRAGS;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_DROP);
	e.u.gso.size = GSO_BY_FRAGS - 1;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_OK);
	e.u.gso.size = 0;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.u.gso.size = 1448;
	e.u.gso.type = XEN_NETIF_GSO_TYPE_NONE;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.u.gso.type = 3;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_NONSENSE);
	e.type = XEN_NETIF_EXTRA_TYPE_MCAST_ADD;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_OK);
	e.type = XEN_NETIF_EXTRA_TYPE_HASH;
	KUNIT_EXPECT_EQ(test, netback_tx_check_extra(&e, &why), NETBACK_TX_OK);
}

static void txcheck_layout_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct netif_tx_request), 12);
	KUNIT_EXPECT_EQ(test, sizeof(struct netif_extra_info), 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct netif_rx_request), 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct netif_rx_response), 8);
}

static struct kunit_case netback_txcheck_cases[] = {
	KUNIT_CASE(txcheck_one_slot_test),
	KUNIT_CASE(txcheck_slots_test),
	KUNIT_CASE(txcheck_extra_test),
	KUNIT_CASE(txcheck_layout_test),
	{}
};

static struct kunit_suite netback_txcheck_suite = {
	.name = "xen-netback-txcheck",
	.test_cases = netback_txcheck_cases,
};

kunit_test_suite(netback_txcheck_suite);
