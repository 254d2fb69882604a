// SPDX-License-Identifier: GPL-2.0
/*
 * netback: checking a packet's slots copied out of the transmit ring
 * (see netback_txcheck.h).
 */

#include <linux/if_ether.h>
#include <linux/skbuff.h>
#include <net/tcp.h>
#include <xen/page.h>

#include "netback_txcheck.h"

static enum netback_tx_verdict verdict(enum netback_tx_verdict v,
				       const char **why, const char *what)
{
	*why = what;
	return v;
}

/**
 * netback_tx_check() - check a packet's data slots
 * @slots: the first slot, then the data slots that follow it
 * @nslots: how many (at least 1, fewer than NETBACK_FATAL_SLOTS)
 * @first_len: set to the bytes of the first slot (its size is the
 *	packet's; the others' are their own)
 * @why: set to what is wrong, unless NETBACK_TX_OK is returned
 *
 * Return: the verdict.
 */
enum netback_tx_verdict netback_tx_check(const struct netif_tx_request *slots,
					 unsigned int nslots,
					 unsigned int *first_len,
					 const char **why)
{
	unsigned int i, rest = 0;

	if (!nslots || nslots >= NETBACK_FATAL_SLOTS)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "packet of more slots than any frontend uses");
	for (i = 1; i < nslots; i++) {
		if (slots[i].offset + slots[i].size > XEN_PAGE_SIZE)
			return verdict(NETBACK_TX_NONSENSE, why,
				       "slot crosses the end of its page");
		rest += slots[i].size;
	}
	if (rest > slots[0].size)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "slots hold more than the packet's size");
	*first_len = slots[0].size - rest;
	if (slots[0].offset + *first_len > XEN_PAGE_SIZE)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "slot crosses the end of its page");
	if (nslots > NETBACK_MAX_SLOTS)
		return verdict(NETBACK_TX_DROP, why, "packet of too many slots");
	if (slots[0].size < ETH_HLEN)
		return verdict(NETBACK_TX_DROP, why,
			       "packet shorter than an Ethernet header");
	return NETBACK_TX_OK;
}

/**
 * netback_tx_check_extra() - check an extra information slot
 * @extra: its copy
 * @why: set to what is wrong, unless NETBACK_TX_OK is returned
 *
 * We offer GSO of TCP over IPv4 and IPv6, and no multicast control or
 * hash: a frontend may still send an extra slot of those, which is
 * ignored.  A GSO slot of another type or of no segment size, and a slot
 * of no known type, are nonsense.
 *
 * Return: the verdict.
 */
enum netback_tx_verdict netback_tx_check_extra(const struct netif_extra_info *extra,
					       const char **why)
{
	if (extra->type == XEN_NETIF_EXTRA_TYPE_NONE ||
	    extra->type >= XEN_NETIF_EXTRA_TYPE_MAX)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "extra information of no known type");
	if (extra->type != XEN_NETIF_EXTRA_TYPE_GSO)
		return NETBACK_TX_OK;
	if (extra->u.gso.type != XEN_NETIF_GSO_TYPE_TCPV4 &&
	    extra->u.gso.type != XEN_NETIF_GSO_TYPE_TCPV6)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "GSO of a type not offered");
	if (!extra->u.gso.size)
		return verdict(NETBACK_TX_NONSENSE, why,
			       "GSO of segments of no size");
	/*
	 * Segments smaller than any TCP sends would have dom0 cut one
	 * packet into tens of thousands; GSO_BY_FRAGS means another thing
	 * to the stack.
	 */
	if (extra->u.gso.size < TCP_MIN_GSO_SIZE ||
	    extra->u.gso.size == GSO_BY_FRAGS)
		return verdict(NETBACK_TX_DROP, why,
			       "GSO of a segment size no TCP uses");
	return NETBACK_TX_OK;
}
