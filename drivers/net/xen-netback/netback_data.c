// SPDX-License-Identifier: GPL-2.0
/*
 * netback: moving packets between a guest's rings and the stack.
 *
 * Each of a vif's queues has a thread that serves its two rings,
 * NETBACK_BUDGET packets of each at most a pass, so that one busy queue
 * cannot hold a CPU.  A packet for the guest goes on the queue the
 * guest last sent its flow on, else on the stack's choice (the
 * net_device has as many transmit queues as the vif has).
 *
 *   transmit ring: a packet's slots are copied out once and checked
 *     (netback_txcheck.c); its bytes are grant-copied into fresh pages
 *     that become the frags of an skb, whose headers are pulled into its
 *     head; a checksum left blank is set up for the stack to finish
 *     (skb_checksum_setup()), and a packet with a GSO slot becomes an
 *     skb the stack segments; every slot is answered (extra slots with
 *     NETIF_RSP_NULL), with an error when the packet's headers did not
 *     bear its flags out, and the skb goes to the stack.
 *   receive ring: start_xmit queues the skb; the thread copies it into
 *     as many of the guest's posted buffers as it needs (one unless the
 *     frontend takes several, feature-sg) and answers them; a packet
 *     larger than the MTU (GSO, where the frontend takes it) takes one
 *     more, for the GSO slot after the first answer.  A checksum stays
 *     blank where the frontend takes that.  A guest that posts no
 *     buffers for rx_stall_ms (module parameter) loses what waits for
 *     it, and what is sent to it is dropped until it posts one.
 *
 * A queue's event channel takes a late EOI: after an event, the next is
 * held back until its thread has looked at both rings.
 *
 * Before each pass a thread asks the sharing between vifs
 * (netback_share.c) whether its vif may go: a vif with a weight, a
 * minimum rate or a cap may wait there for the others; one with none of
 * them never does.  The bytes of all a vif's queues are charged to the
 * vif.  A vif with a weight all of whose queues ran dry keeps its place
 * for share_idle_grace_us (module parameter) before the others may run
 * ahead of it.
 */

#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/dst.h>
#include <xen/events.h>
#include <xen/page.h>

#include "netback.h"

/**
 * netback_broken() - the frontend sent nonsense
 * @vif: the vif
 * @why: what
 *
 * One log line; the rings are no longer served, and the device goes to
 * Closing.
 */
void netback_broken(struct netback_vif *vif, const char *why)
{
	if (test_and_set_bit(NETBACK_BROKEN, &vif->flags))
		return;
	netif_carrier_off(vif->dev);
	xenbus_dev_fatal(vif->xdev, -EPROTO, "%s", why);
}

/* ---- grant copies ---- */

static struct gnttab_copy *netback_copy_op(struct netback_queue *q)
{
	struct gnttab_copy *op;

	/* Each packet's copies are flushed before the next: far fewer. */
	if (WARN_ON_ONCE(q->nr_copy == NETBACK_COPY_BATCH))
		q->nr_copy--;
	op = &q->copy[q->nr_copy++];
	memset(op, 0, sizeof(*op));
	return op;
}

/* Issue the batch; false when any copy was refused. */
static bool netback_copy_flush(struct netback_queue *q)
{
	unsigned int i, n = q->nr_copy;
	bool ok = true;

	q->nr_copy = 0;
	if (!n)
		return true;
	gnttab_batch_copy(q->copy, n);
	for (i = 0; i < n; i++)
		if (q->copy[i].status != GNTST_okay)
			ok = false;
	return ok;
}

/* ---- the guest's transmit ring ---- */

static void netback_tx_respond(struct netback_queue *q, u16 id, s16 status)
{
	struct netif_tx_response *rsp;

	rsp = &q->tx_sring->ring[xen_back_ring_slot(&q->tx,
						   q->tx.rsp_prod_pvt++)].rsp;
	rsp->id = id;
	rsp->status = status;
}

/* Answer a packet's slots in ring order: first, extras, the rest. */
static void netback_tx_answer(struct netback_queue *q,
			      const struct netif_tx_request *slots,
			      unsigned int nslots, unsigned int nextra,
			      s16 status)
{
	unsigned int i;

	netback_tx_respond(q, slots[0].id, status);
	for (i = 0; i < nextra; i++)
		netback_tx_respond(q, 0, NETIF_RSP_NULL);
	for (i = 1; i < nslots; i++)
		netback_tx_respond(q, slots[i].id, status);
}

/*
 * Our side of a grant copy: Xen counts in its own pages, which a page of
 * ours may hold several of (a kernel with pages larger than 4 KiB).
 * @off is the offset in @page; one copy must stay within the Xen page
 * that holds it.
 */
static void netback_copy_local(struct gnttab_copy_ptr *p, struct page *page,
			       unsigned int off)
{
	p->u.gmfn = xen_page_to_gfn(page) + (off >> XEN_PAGE_SHIFT);
	p->domid = DOMID_SELF;
	p->offset = off % XEN_PAGE_SIZE;
}

/* The bytes from @off to the end of the Xen page that holds it. */
static unsigned int netback_xen_page_left(unsigned int off)
{
	return XEN_PAGE_SIZE - off % XEN_PAGE_SIZE;
}

/* Copy the packet's bytes into @pages, one after the other. */
static bool netback_tx_copy(struct netback_queue *q,
			    const struct netif_tx_request *slots,
			    unsigned int nslots, unsigned int first_len,
			    struct page **pages)
{
	unsigned int i, p = 0, off = 0, src, left, chunk;
	struct gnttab_copy *op;

	for (i = 0; i < nslots; i++) {
		src = slots[i].offset;
		left = i ? slots[i].size : first_len;
		while (left) {
			chunk = min(left, netback_xen_page_left(off));
			op = netback_copy_op(q);
			op->source.u.ref = slots[i].gref;
			op->source.domid = q->vif->xdev->otherend_id;
			op->source.offset = src;
			netback_copy_local(&op->dest, pages[p], off);
			op->len = chunk;
			op->flags = GNTCOPY_source_gref;
			src += chunk;
			left -= chunk;
			off += chunk;
			if (off == PAGE_SIZE) {
				p++;
				off = 0;
			}
		}
	}
	return netback_copy_flush(q);
}

/* An skb of the packet's bytes, or NULL (dropped). */
static struct sk_buff *netback_tx_skb(struct netback_queue *q,
				      const struct netif_tx_request *slots,
				      unsigned int nslots,
				      unsigned int first_len)
{
	unsigned int total = slots[0].size, npages, i, len;
	struct page *pages[DIV_ROUND_UP(XEN_NETIF_MAX_TX_SIZE, PAGE_SIZE)];
	struct sk_buff *skb;

	npages = DIV_ROUND_UP(total, PAGE_SIZE);
	skb = __netdev_alloc_skb(q->vif->dev, 128 + NET_IP_ALIGN, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_IP_ALIGN);
	for (i = 0; i < npages; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i])
			goto fail;
	}
	if (!netback_tx_copy(q, slots, nslots, first_len, pages)) {
		net_info_ratelimited("%s: a grant of a sent packet was refused\n",
				     q->vif->dev->name);
		goto fail;
	}
	for (i = 0; i < npages; i++) {
		len = min_t(unsigned int, total - i * PAGE_SIZE, PAGE_SIZE);
		skb_add_rx_frag(skb, i, pages[i], 0, len, PAGE_SIZE);
		pages[i] = NULL;
	}
	if (!__pskb_pull_tail(skb, min_t(unsigned int, total, 128))) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;

fail:
	while (i--)
		if (pages[i])
			__free_page(pages[i]);
	kfree_skb(skb);
	return NULL;
}

/*
 * Set a sent packet's checksum state and, with a GSO slot, its segments
 * for the stack: false when its headers do not bear that out.  A packet
 * to segment is TCP of the IP version its slot says, its checksum left
 * for us to finish (the stack segments only such), and marked DODGY: the
 * stack checks its headers again before it trusts them.
 */
static bool netback_tx_prepare(struct netback_vif *vif, struct sk_buff *skb,
			       u16 flags, const struct netif_extra_info *gso)
{
	bool v6;

	skb->protocol = eth_type_trans(skb, vif->dev);
	/* Where skb_checksum_setup() looks for the IP header. */
	skb_reset_network_header(skb);
	if (gso) {
		v6 = gso->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV6;
		if (skb->protocol != htons(v6 ? ETH_P_IPV6 : ETH_P_IP) ||
		    skb_checksum_setup(skb, true) ||
		    skb->csum_offset != offsetof(struct tcphdr, check)) {
			net_info_ratelimited("%s: GSO packet that is not TCP over IPv%d\n",
					     vif->dev->name, v6 ? 6 : 4);
			return false;
		}
		/* One segment's worth is a plain packet: nothing to cut. */
		if (skb->len - skb_tcp_all_headers(skb) <= gso->u.gso.size)
			return true;
		skb_shinfo(skb)->gso_size = gso->u.gso.size;
		skb_shinfo(skb)->gso_type = (v6 ? SKB_GSO_TCPV6 : SKB_GSO_TCPV4) |
					    SKB_GSO_DODGY;
		skb_shinfo(skb)->gso_segs = 0;
		return true;
	}
	if (flags & NETTXF_csum_blank) {
		if (skb_checksum_setup(skb, true)) {
			net_info_ratelimited("%s: checksum left blank in a packet that has none\n",
					     vif->dev->name);
			return false;
		}
	} else if (flags & NETTXF_data_validated) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	}
	return true;
}

/* A flow table slot's low bits: 1 + a queue; the rest: the hash's. */
#define NETBACK_FLOW_LOW	(NETBACK_FLOW_SLOTS - 1)

/* Hand a prepared packet to the stack, and note its flow's queue. */
static void netback_tx_deliver(struct netback_queue *q, struct sk_buff *skb)
{
	struct netback_vif *vif = q->vif;
	u32 hash, entry;

	BUILD_BUG_ON(!is_power_of_2(NETBACK_FLOW_SLOTS) ||
		     NETBACK_MAX_QUEUES >= NETBACK_FLOW_SLOTS);
	if (vif->nr_queues > 1) {
		hash = __skb_get_hash_symmetric(skb);
		entry = (hash & ~NETBACK_FLOW_LOW) | (q->id + 1);
		if (READ_ONCE(vif->flow_queue[hash & NETBACK_FLOW_LOW]) != entry)
			WRITE_ONCE(vif->flow_queue[hash & NETBACK_FLOW_LOW],
				   entry);
	}
	/* The per-CPU counters want no migration under them. */
	local_bh_disable();
	dev_sw_netstats_rx_add(vif->dev, skb->len);
	local_bh_enable();
	netif_rx(skb);
}

/*
 * Take one packet the guest sent: 1 when one was taken, 0 when none is
 * there whole yet, -1 when the frontend broke the protocol.
 */
static int netback_tx_one(struct netback_queue *q)
{
	struct netback_vif *vif = q->vif;
	struct netif_tx_request slots[NETBACK_FATAL_SLOTS];
	struct netif_extra_info extras[XEN_NETIF_EXTRA_TYPE_MAX];
	const struct netif_extra_info *gso = NULL;
	struct netif_tx_sring *s = q->tx_sring;
	enum netback_tx_verdict v = NETBACK_TX_OK, w;
	unsigned int nslots = 0, nextra = 0, first_len = 0, i;
	const char *why = NULL;
	RING_IDX idx = q->tx.req_cons;
	struct sk_buff *skb;
	int avail;

	q->tx_prod_seen = READ_ONCE(s->req_prod);
	avail = xen_ring_new_requests(&q->tx, q->tx_prod_seen);
	if (avail < 0) {
		netback_broken(vif, "transmit request index beyond the ring");
		return -1;
	}
	if (!avail)
		return 0;
	virt_rmb();	/* the index, then the requests */

	memcpy(&slots[nslots++], &s->ring[xen_back_ring_slot(&q->tx, idx++)],
	       sizeof(slots[0]));
	avail--;
	if (slots[0].flags & NETTXF_extra_info) {
		do {
			if (!avail)
				goto incomplete;
			if (nextra == ARRAY_SIZE(extras)) {
				netback_broken(vif, "more extra slots than there are types");
				return -1;
			}
			memcpy(&extras[nextra],
			       &s->ring[xen_back_ring_slot(&q->tx, idx++)],
			       sizeof(extras[0]));
			avail--;
			w = netback_tx_check_extra(&extras[nextra], &why);
			v = max(v, w);
		} while (extras[nextra++].flags & XEN_NETIF_EXTRA_FLAG_MORE);
	}
	while (slots[nslots - 1].flags & NETTXF_more_data) {
		if (nslots == NETBACK_FATAL_SLOTS - 1) {
			netback_broken(vif, "packet of more slots than any frontend uses");
			return -1;
		}
		if (!avail)
			goto incomplete;
		memcpy(&slots[nslots++],
		       &s->ring[xen_back_ring_slot(&q->tx, idx++)],
		       sizeof(slots[0]));
		avail--;
	}
	if (v != NETBACK_TX_NONSENSE) {
		w = netback_tx_check(slots, nslots, &first_len, &why);
		v = max(v, w);
	}
	if (v == NETBACK_TX_NONSENSE) {
		netback_broken(vif, why);
		return -1;
	}
	q->tx.req_cons = idx;
	for (i = 0; i < nextra; i++)
		if (extras[i].type == XEN_NETIF_EXTRA_TYPE_GSO)
			gso = &extras[i];
	skb = v == NETBACK_TX_OK ?
	      netback_tx_skb(q, slots, nslots, first_len) : NULL;
	if (v == NETBACK_TX_DROP)
		net_info_ratelimited("%s: sent packet dropped: %s\n",
				     vif->dev->name, why);
	if (skb && !netback_tx_prepare(vif, skb, slots[0].flags, gso)) {
		kfree_skb(skb);
		skb = NULL;
	}
	netback_tx_answer(q, slots, nslots, nextra,
			  skb ? NETIF_RSP_OKAY : NETIF_RSP_ERROR);
	q->pass_bytes += slots[0].size;
	if (skb)
		netback_tx_deliver(q, skb);
	else
		dev_core_stats_rx_dropped_inc(vif->dev);
	return 1;

incomplete:
	/*
	 * Wait for the rest: a chain is cut at NETBACK_FATAL_SLOTS, far
	 * below the ring's size, so it can always be published whole.
	 */
	return 0;
}

/* Up to NETBACK_BUDGET packets; true when more may be waiting. */
static bool netback_tx_pass(struct netback_queue *q)
{
	unsigned int n;
	int rc = 0;

	for (n = 0; n < NETBACK_BUDGET; n++) {
		/* The sharing between vifs may end the pass early. */
		if (q->pass_bytes >= q->pass_allow)
			return true;
		rc = netback_tx_one(q);
		if (rc <= 0)
			break;
	}
	if (rc < 0)
		return false;
	if (n == NETBACK_BUDGET)
		return true;
	/*
	 * Nothing whole left: an event at the next request beyond those
	 * seen, so that a packet published in part does not keep us busy.
	 */
	WRITE_ONCE(q->tx_sring->req_event, q->tx_prod_seen + 1);
	virt_mb();	/* the event index, then the producer index */
	return READ_ONCE(q->tx_sring->req_prod) != q->tx_prod_seen;
}

/* ---- the guest's receive ring ---- */

/*
 * Copy @len bytes at @page + @off of ours into the guest's buffers, each
 * one Xen page.
 */
static void netback_rx_chunk(struct netback_queue *q,
			     const struct netif_rx_request *bufs,
			     unsigned int *slot, unsigned int *doff,
			     struct page *page, unsigned int off,
			     unsigned int len)
{
	struct gnttab_copy *op;
	unsigned int chunk;

	while (len) {
		/* Neither side of one copy may cross a page. */
		page += off >> PAGE_SHIFT;
		off &= ~PAGE_MASK;
		chunk = min3(len, netback_xen_page_left(off),
			     (unsigned int)XEN_PAGE_SIZE - *doff);
		op = netback_copy_op(q);
		netback_copy_local(&op->source, page, off);
		op->dest.u.ref = bufs[*slot].gref;
		op->dest.domid = q->vif->xdev->otherend_id;
		op->dest.offset = *doff;
		op->len = chunk;
		op->flags = GNTCOPY_dest_gref;
		off += chunk;
		len -= chunk;
		*doff += chunk;
		if (*doff == XEN_PAGE_SIZE) {
			(*slot)++;
			*doff = 0;
		}
	}
}

/* netback_rx_gso_type(): a GSO packet the frontend cannot take. */
#define NETBACK_RX_GSO_REFUSED	0xff

/*
 * The GSO type a packet goes to the guest with: XEN_NETIF_GSO_TYPE_NONE
 * for none, NETBACK_RX_GSO_REFUSED for one it cannot take.
 */
static u8 netback_rx_gso_type(struct netback_vif *vif,
			      const struct sk_buff *skb)
{
	unsigned int type = skb_shinfo(skb)->gso_type & ~SKB_GSO_DODGY;

	if (!skb_is_gso(skb))
		return XEN_NETIF_GSO_TYPE_NONE;
	/* Plain TCP only: the frontend knows of no ECN, fixed ids, tunnels. */
	if (type == SKB_GSO_TCPV4 && vif->rx_gso4)
		return XEN_NETIF_GSO_TYPE_TCPV4;
	if (type == SKB_GSO_TCPV6 && vif->rx_gso6)
		return XEN_NETIF_GSO_TYPE_TCPV6;
	return NETBACK_RX_GSO_REFUSED;
}

/*
 * The guest's buffers a packet takes, its data and a GSO slot; 0 when it
 * cannot take it.
 */
static unsigned int netback_rx_slots(struct netback_vif *vif,
				     const struct sk_buff *skb)
{
	unsigned int need = DIV_ROUND_UP(skb->len, XEN_PAGE_SIZE);
	u8 gso = netback_rx_gso_type(vif, skb);

	if (!skb->len || gso == NETBACK_RX_GSO_REFUSED ||
	    (need > 1 && !vif->sg))
		return 0;
	need += gso != XEN_NETIF_GSO_TYPE_NONE;
	return need > NETBACK_RX_MAX_SLOTS ? 0 : need;
}

/* Ask for an event once @need buffers are posted; true if they already are. */
static bool netback_rx_wait_for(struct netback_queue *q, unsigned int need)
{
	struct netif_rx_sring *s = q->rx_sring;

	WRITE_ONCE(s->req_event, q->rx.req_cons + need);
	virt_mb();	/* the event index, then the producer index */
	return xen_ring_new_requests(&q->rx, READ_ONCE(s->req_prod)) >=
	       (int)need;
}

/*
 * Copy one packet into the guest's buffers: 1 when done, 0
 * when the guest has not posted enough buffers, -1 when it broke the
 * protocol.
 */
static int netback_rx_one(struct netback_queue *q, struct sk_buff *skb)
{
	struct netif_rx_request bufs[NETBACK_RX_MAX_SLOTS];
	struct netif_rx_sring *s = q->rx_sring;
	struct netback_vif *vif = q->vif;
	unsigned int need, i, slot = 0, doff = 0, len, data;
	u8 gso = netback_rx_gso_type(vif, skb);
	struct netif_extra_info *extra;
	struct netif_rx_response *rsp;
	int avail, status;
	u16 flags = 0;

	need = netback_rx_slots(vif, skb);
	avail = xen_ring_new_requests(&q->rx, READ_ONCE(s->req_prod));
	if (avail < 0) {
		netback_broken(vif, "receive request index beyond the ring");
		return -1;
	}
	if (avail < need)
		return 0;
	virt_rmb();	/* the index, then the requests */
	for (i = 0; i < need; i++)
		memcpy(&bufs[i], &s->ring[xen_back_ring_slot(&q->rx,
							     q->rx.req_cons++)],
		       sizeof(bufs[i]));
	/*
	 * With GSO the second slot is the GSO one: its buffer stays unused
	 * (the frontend takes it back by its place in the ring), and the
	 * data go to the first and those after the second.
	 */
	data = need;
	if (gso) {
		memmove(&bufs[1], &bufs[2], (need - 2) * sizeof(bufs[0]));
		data = need - 1;
	}

	len = skb_headlen(skb);
	netback_rx_chunk(q, bufs, &slot, &doff, virt_to_page(skb->data),
			 offset_in_page(skb->data), len);
	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];

		netback_rx_chunk(q, bufs, &slot, &doff, skb_frag_page(f),
				 skb_frag_off(f), skb_frag_size(f));
	}
	status = netback_copy_flush(q) ? 0 : NETIF_RSP_ERROR;
	if (status)
		net_info_ratelimited("%s: a receive buffer's grant was refused\n",
				     vif->dev->name);
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		flags |= NETRXF_csum_blank | NETRXF_data_validated;
	else if (skb->ip_summed == CHECKSUM_UNNECESSARY)
		flags |= NETRXF_data_validated;
	for (i = 0; i < data; i++) {
		len = min_t(unsigned int, skb->len - i * XEN_PAGE_SIZE,
			    XEN_PAGE_SIZE);
		rsp = &s->ring[xen_back_ring_slot(&q->rx,
						  q->rx.rsp_prod_pvt++)].rsp;
		rsp->id = bufs[i].id;
		rsp->offset = 0;
		rsp->flags = (i ? 0 : flags) |
			     (i + 1 < data ? NETRXF_more_data : 0) |
			     (!i && gso ? NETRXF_extra_info : 0);
		rsp->status = status ?: len;
		if (i || !gso)
			continue;
		extra = (void *)&s->ring[xen_back_ring_slot(&q->rx,
							   q->rx.rsp_prod_pvt++)];
		memset(extra, 0, sizeof(*extra));
		extra->type = XEN_NETIF_EXTRA_TYPE_GSO;
		extra->u.gso.size = skb_shinfo(skb)->gso_size;
		extra->u.gso.type = gso;
	}
	return 1;
}

/* Whether the guest takes @skb with its TCP/UDP checksum left blank. */
static bool netback_rx_csum_ok(struct netback_vif *vif,
			       const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return vif->rx_csum4;
	if (skb->protocol == htons(ETH_P_IPV6))
		return vif->rx_csum6;
	return false;
}

/* Up to NETBACK_BUDGET packets; true when more may be taken now. */
static bool netback_rx_pass(struct netback_queue *q)
{
	struct netback_vif *vif = q->vif;
	struct netdev_queue *txq = netdev_get_tx_queue(vif->dev, q->id);
	struct sk_buff *skb;
	unsigned int n;
	int rc;

	for (n = 0; n < NETBACK_BUDGET; n++) {
		if (q->pass_bytes >= q->pass_allow)
			return true;
		skb = skb_dequeue(&q->rx_queue);
		if (!skb)
			break;
		if ((skb->ip_summed == CHECKSUM_PARTIAL &&
		     !netback_rx_csum_ok(vif, skb) && skb_checksum_help(skb)) ||
		    !netback_rx_slots(vif, skb)) {
			atomic_sub(skb->len, &q->rx_queued);
			dev_core_stats_tx_dropped_inc(vif->dev);
			kfree_skb(skb);
			continue;
		}
		rc = netback_rx_one(q, skb);
		if (rc == 0) {
			/* Wait for buffers: an event comes when they are posted. */
			skb_queue_head(&q->rx_queue, skb);
			if (!q->rx_wait_since)
				q->rx_wait_since = jiffies | 1;
			return netback_rx_wait_for(q, netback_rx_slots(vif, skb));
		}
		q->rx_wait_since = 0;
		atomic_sub(skb->len, &q->rx_queued);
		if (rc < 0) {
			kfree_skb(skb);
			return false;
		}
		q->pass_bytes += skb->len;
		local_bh_disable();
		dev_sw_netstats_tx_add(vif->dev, 1, skb->len);
		local_bh_enable();
		consume_skb(skb);
	}
	if (netif_running(vif->dev) && netif_tx_queue_stopped(txq) &&
	    skb_queue_len(&q->rx_queue) < q->rx_max / 2 &&
	    atomic_read(&q->rx_queued) < q->rx_max_bytes / 2)
		netif_tx_wake_queue(txq);
	return n == NETBACK_BUDGET;
}

/**
 * netback_select_queue - the transmit queue for a packet to the guest
 * @dev: the vif's net_device
 * @skb: the packet
 * @sb_dev: the subordinate device, passed on to the stack's choice
 *
 * A packet of a flow the guest has sent on goes back on the queue the
 * guest sent it on: the thread that takes the guest's data then also
 * brings it the acknowledgements, and the other way round, rather than
 * two threads each waking for half of one connection.  Other packets
 * get the stack's choice.
 *
 * Return: the queue's number.
 */
u16 netback_select_queue(struct net_device *dev, struct sk_buff *skb,
			 struct net_device *sb_dev)
{
	struct netback_vif *vif = netdev_priv(dev);
	unsigned int id;
	u32 hash, entry;

	if (dev->real_num_tx_queues > 1) {
		hash = __skb_get_hash_symmetric(skb);
		entry = READ_ONCE(vif->flow_queue[hash & NETBACK_FLOW_LOW]);
		id = entry & NETBACK_FLOW_LOW;
		if (id && id <= dev->real_num_tx_queues &&
		    !((entry ^ hash) & ~NETBACK_FLOW_LOW))
			return id - 1;
	}
	return netdev_pick_tx(dev, skb, sb_dev);
}

/**
 * netback_start_xmit() - the stack sends the guest a packet
 * @skb: the packet
 * @dev: the vif's net_device
 *
 * Return: NETDEV_TX_OK; the packet is queued for the thread of the queue
 * the stack picked, or dropped when the guest is not connected.
 */
netdev_tx_t netback_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netback_vif *vif = netdev_priv(dev);
	u16 id = skb_get_queue_mapping(skb);
	struct netback_queue *q;
	int queued;

	/* Connected: the queues it has, and their rings, are set up. */
	if (!smp_load_acquire(&vif->connected) ||
	    test_bit(NETBACK_BROKEN, &vif->flags)) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	/*
	 * It may wait long for the guest's buffers: let go of what it
	 * holds of the sender and of the host's routes and connections.
	 */
	if (skb_orphan_frags_rx(skb, GFP_ATOMIC)) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	skb_orphan(skb);
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	/* Sent as the queues changed at a reconnect: any queue will do. */
	if (id >= vif->nr_queues)
		id = 0;
	q = &vif->queues[id];
	if (READ_ONCE(q->rx_stalled)) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	/* Counted first: the thread may take it off the queue at once. */
	queued = atomic_add_return(skb->len, &q->rx_queued);
	skb_queue_tail(&q->rx_queue, skb);
	if (skb_queue_len(&q->rx_queue) >= q->rx_max ||
	    queued >= q->rx_max_bytes)
		netif_tx_stop_queue(netdev_get_tx_queue(dev, id));
	set_bit(NETBACK_XMIT, &q->flags);
	wake_up(&q->wq);
	return NETDEV_TX_OK;
}

/* Drop what waits for the guest, and its bytes from the count. */
static void netback_rx_purge(struct netback_queue *q)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&q->rx_queue))) {
		atomic_sub(skb->len, &q->rx_queued);
		dev_core_stats_tx_dropped_inc(q->vif->dev);
		kfree_skb(skb);
	}
}

/* ---- a guest that posts no receive buffers ---- */

static unsigned int rx_stall_ms = 10000;
module_param(rx_stall_ms, uint, 0644);
MODULE_PARM_DESC(rx_stall_ms,
		 "Milliseconds a queue waits for a guest's receive buffers before it drops what waits for the guest and what the stack sends it, until the guest posts buffers again (default 10000; 0: wait for ever)");

/*
 * How long the thread may sleep before the queue stalls: 0 when it does
 * now, MAX_SCHEDULE_TIMEOUT when it is not on its way to.
 */
static long netback_rx_stall_left(struct netback_queue *q)
{
	unsigned int ms = READ_ONCE(rx_stall_ms);
	unsigned long end;

	if (!ms || !q->rx_wait_since || q->rx_stalled ||
	    test_bit(NETBACK_BROKEN, &q->vif->flags))
		return MAX_SCHEDULE_TIMEOUT;
	end = q->rx_wait_since + msecs_to_jiffies(ms);
	return time_after(end, jiffies) ? end - jiffies : 0;
}

/*
 * Called by the thread after each pass.  A queue that delivered nothing
 * to the guest for rx_stall_ms drops what waits for it; and if the guest
 * has posted no buffer at all, the queue stalls: one log line, and what
 * the stack sends is dropped at once (the stack may send again) until
 * the guest posts a buffer, which an event tells us.
 */
static void netback_rx_stall_check(struct netback_queue *q)
{
	struct netback_vif *vif = q->vif;
	struct netif_rx_sring *s = q->rx_sring;
	int posted;

	if (test_bit(NETBACK_BROKEN, &vif->flags))
		return;
	if (q->rx_stalled) {
		posted = xen_ring_new_requests(&q->rx, READ_ONCE(s->req_prod));
		if (posted < 0) {
			netback_broken(vif, "receive request index beyond the ring");
			return;
		}
		if (!posted) {
			/* One start_xmit may have queued as it stalled. */
			netback_rx_purge(q);
			return;
		}
		q->rx_wait_since = 0;
		WRITE_ONCE(q->rx_stalled, false);
		netdev_info(vif->dev, "queue %u: the guest posts receive buffers again\n",
			    q->id);
		return;
	}
	if (netback_rx_stall_left(q))
		return;
	q->rx_wait_since = 0;
	netback_rx_purge(q);
	/* From here, any buffer it posts wakes us. */
	if (netback_rx_wait_for(q, 1)) {
		net_info_ratelimited("%s: queue %u: the guest's receive buffers were too few for %u ms: dropped what waited for it\n",
				     vif->dev->name, q->id,
				     READ_ONCE(rx_stall_ms));
	} else {
		WRITE_ONCE(q->rx_stalled, true);
		netdev_warn(vif->dev, "queue %u: the guest posted no receive buffers for %u ms: dropping what is sent to it\n",
			    q->id, READ_ONCE(rx_stall_ms));
	}
	if (netif_running(vif->dev))
		netif_tx_wake_queue(netdev_get_tx_queue(vif->dev, q->id));
}

/* ---- sharing dom0 between vifs (netback_share.c) ---- */

static DEFINE_SPINLOCK(netback_share_lock);
static struct netback_share netback_share = {
	.active = LIST_HEAD_INIT(netback_share.active),
};

/* Bumped whenever a vif that others may wait for moved on or left. */
static unsigned long netback_share_gen;
static DECLARE_WAIT_QUEUE_HEAD(netback_share_wq);

/* Longest a held thread sleeps before it asks again anyway. */
#define NETBACK_SHARE_RECHECK_NS	(100 * NSEC_PER_MSEC)

static unsigned int share_idle_grace_us = 5000;
module_param(share_idle_grace_us, uint, 0644);
MODULE_PARM_DESC(share_idle_grace_us,
		 "How long a vif with a share-weight keeps its place once its rings ran dry, in microseconds, so that one paced by its round trip gets its weight (0: none; at most 100000)");

static void netback_share_wake(void)
{
	WRITE_ONCE(netback_share_gen, netback_share_gen + 1);
	wake_up_all(&netback_share_wq);
}

/**
 * netback_share_configure() - apply a vif's weight, minimum rate and cap
 * @vif: the vif, its settings in @vif->weight, @vif->min_kbps,
 *	@vif->cap_bytes and @vif->cap_usec
 *
 * Live: its thread, and those waiting for it, see them at their next
 * pass.  Called with @vif->lock held.
 */
void netback_share_configure(struct netback_vif *vif)
{
	spin_lock(&netback_share_lock);
	netback_share_set(&netback_share, &vif->share, vif->weight,
			  div_u64((u64)vif->min_kbps * 1000, 8), vif->cap_bytes,
			  vif->cap_usec * NSEC_PER_USEC, ktime_get_ns());
	WRITE_ONCE(vif->share_on,
		   vif->share.weight || vif->share.min_rate || vif->share.cap_bytes);
	netback_share_wake();
	spin_unlock(&netback_share_lock);
}

/**
 * netback_share_stats() - what the sharing did with a vif
 * @vif: the vif
 * @bytes: set to the bytes its passes moved while it took part
 * @held: set to the passes it had to wait for
 */
void netback_share_stats(struct netback_vif *vif, u64 *bytes, u64 *held)
{
	spin_lock(&netback_share_lock);
	*bytes = vif->share.bytes;
	*held = vif->share.held;
	spin_unlock(&netback_share_lock);
}

/*
 * A queue's rings ran dry: once all the vif's have, the vif keeps its
 * place for the idle grace.
 */
static void netback_share_idle(struct netback_queue *q)
{
	u64 grace = min(READ_ONCE(share_idle_grace_us), 100000U);
	struct netback_vif *vif = q->vif;
	unsigned int i;

	/* Its own thread alone sets it, and netback_share_leave(). */
	if (!q->busy)
		return;
	spin_lock(&netback_share_lock);
	q->busy = false;
	for (i = 0; i < vif->nr_queues && !vif->queues[i].busy; i++)
		;
	if (i == vif->nr_queues) {
		netback_share.idle_grace_ns = grace * NSEC_PER_USEC;
		if (netback_share_pause(&netback_share, &vif->share,
					ktime_get_ns()))
			netback_share_wake();
	}
	spin_unlock(&netback_share_lock);
}

/*
 * The vif is no longer served (its threads have stopped): it holds no
 * one back from now on.
 */
static void netback_share_leave(struct netback_vif *vif)
{
	unsigned int i;

	spin_lock(&netback_share_lock);
	for (i = 0; i < NETBACK_MAX_QUEUES; i++) {
		vif->queues[i].busy = false;
		vif->queues[i].turn = false;
	}
	vif->share_next = 0;
	WRITE_ONCE(vif->share_serving, 0);
	if (netback_share_deactivate(&netback_share, &vif->share))
		netback_share_wake();
	spin_unlock(&netback_share_lock);
}

/*
 * Wait until the sharing lets the queue's thread make a pass, or it must
 * stop.  A vif in the sharing makes one pass at a time, whichever its
 * queue, its queues taking turns in the order they asked: its allowance
 * is for one pass, and a vif of many flows spread over many queues
 * would otherwise move it many times over.
 */
static void netback_share_wait(struct netback_queue *q)
{
	struct netback_vif *vif = q->vif;
	unsigned int ticket;
	unsigned long gen;
	bool counted = false, capped;
	u64 delay;

	q->pass_allow = U64_MAX;
	if (!READ_ONCE(vif->share_on))
		return;
	spin_lock(&netback_share_lock);
	q->busy = true;
	ticket = vif->share_next++;
	spin_unlock(&netback_share_lock);
	wait_event_interruptible(vif->share_wq,
				 READ_ONCE(vif->share_serving) == ticket ||
				 kthread_should_stop());
	if (kthread_should_stop())
		return;
	/* Its turn: netback_share_charged() passes it on. */
	q->turn = true;
	for (;;) {
		spin_lock(&netback_share_lock);
		netback_share_activate(&netback_share, &vif->share);
		capped = vif->share.capped;
		delay = netback_share_delay(&netback_share, &vif->share,
					    ktime_get_ns());
		if (delay && !counted) {
			vif->share.held++;
			counted = true;
		}
		/*
		 * Gone over its cap, it no longer holds back those behind
		 * it: wake them once, not at each look (two capped vifs
		 * would wake each other without end).
		 */
		if (delay && vif->share.capped && !capped)
			netback_share_wake();
		gen = netback_share_gen;
		if (!delay)
			q->pass_allow = vif->share.allow;
		spin_unlock(&netback_share_lock);
		if (!delay || kthread_should_stop())
			return;
		delay = min_t(u64, delay, NETBACK_SHARE_RECHECK_NS);
		wait_event_interruptible_hrtimeout(netback_share_wq,
						   READ_ONCE(netback_share_gen) != gen ||
						   kthread_should_stop(),
						   ns_to_ktime(delay));
	}
}

/* The pass after the vif's turn moved q->pass_bytes: the next queue's turn. */
static void netback_share_charged(struct netback_queue *q)
{
	struct netback_vif *vif = q->vif;

	if (!q->turn)
		return;
	q->turn = false;
	spin_lock(&netback_share_lock);
	if (q->pass_bytes &&
	    netback_share_charge(&netback_share, &vif->share, q->pass_bytes,
				 ktime_get_ns()))
		netback_share_wake();
	WRITE_ONCE(vif->share_serving, vif->share_serving + 1);
	spin_unlock(&netback_share_lock);
	wake_up_all(&vif->share_wq);
}

/* ---- the threads ---- */

static irqreturn_t netback_interrupt(int irq, void *data)
{
	struct netback_queue *q = data;

	set_bit(NETBACK_KICKED, &q->flags);
	wake_up(&q->wq);
	return IRQ_HANDLED;
}

static bool netback_has_work(struct netback_queue *q)
{
	return test_bit(NETBACK_KICKED, &q->flags) ||
	       test_bit(NETBACK_XMIT, &q->flags) || kthread_should_stop();
}

static int netback_thread(void *data)
{
	struct netback_queue *q = data;
	struct netback_vif *vif = q->vif;
	bool kicked, more = false, notify;

	while (!kthread_should_stop()) {
		if (!more) {
			netback_share_idle(q);
			wait_event_interruptible_timeout(q->wq,
							 netback_has_work(q),
							 netback_rx_stall_left(q));
		}
		netback_share_wait(q);
		kicked = test_and_clear_bit(NETBACK_KICKED, &q->flags);
		clear_bit(NETBACK_XMIT, &q->flags);
		more = false;
		q->pass_bytes = 0;
		if (!test_bit(NETBACK_BROKEN, &vif->flags)) {
			more |= netback_tx_pass(q);
			more |= netback_rx_pass(q);
		}
		netback_share_charged(q);
		if (test_bit(NETBACK_BROKEN, &vif->flags)) {
			netback_rx_purge(q);
			more = false;
		} else {
			netback_rx_stall_check(q);
			notify = xen_ring_push_responses(&q->tx,
							 &q->tx_sring->rsp_prod,
							 &q->tx_sring->rsp_event);
			notify |= xen_ring_push_responses(&q->rx,
							  &q->rx_sring->rsp_prod,
							  &q->rx_sring->rsp_event);
			if (notify)
				notify_remote_via_irq(q->irq);
		}
		if (kicked)
			xen_irq_lateeoi(q->irq, 0);
		cond_resched();
	}
	return 0;
}

/**
 * netback_init_queues() - set up a new vif's queues
 * @vif: the vif, its net_device named
 */
void netback_init_queues(struct netback_vif *vif)
{
	struct netback_queue *q;
	unsigned int i;

	init_waitqueue_head(&vif->share_wq);
	for (i = 0; i < NETBACK_MAX_QUEUES; i++) {
		q = &vif->queues[i];
		q->vif = vif;
		q->id = i;
		init_waitqueue_head(&q->wq);
		skb_queue_head_init(&q->rx_queue);
	}
}

/* Map one queue's rings, bind its channel and start its thread. */
static int netback_connect_queue(struct netback_queue *q,
				 const struct netback_ring_refs *refs)
{
	struct xenbus_device *xdev = q->vif->xdev;
	grant_ref_t ref;
	void *addr;
	int rc;

	q->flags = 0;
	q->rx_wait_since = 0;
	q->rx_stalled = false;
	snprintf(q->name, sizeof(q->name), "%s-q%u", q->vif->dev->name, q->id);
	/* What the vif may hold for the guest, shared out between them. */
	q->rx_max = max(NETBACK_RX_QUEUE_MAX / q->vif->nr_queues,
			NETBACK_RX_QUEUE_MIN);
	q->rx_max_bytes = max(NETBACK_RX_QUEUE_BYTES / q->vif->nr_queues,
			      NETBACK_RX_QUEUE_MIN_BYTES);
	ref = refs->tx;
	rc = xenbus_map_ring_valloc(xdev, &ref, 1, &addr);
	if (rc)
		return rc;
	q->tx_sring = addr;
	xen_back_ring_attach(&q->tx, XEN_SRING_ENTRIES(netif_tx, XEN_PAGE_SIZE),
			     READ_ONCE(q->tx_sring->rsp_prod));
	ref = refs->rx;
	rc = xenbus_map_ring_valloc(xdev, &ref, 1, &addr);
	if (rc)
		return rc;
	q->rx_sring = addr;
	xen_back_ring_attach(&q->rx, XEN_SRING_ENTRIES(netif_rx, XEN_PAGE_SIZE),
			     READ_ONCE(q->rx_sring->rsp_prod));

	q->copy = kvcalloc(NETBACK_COPY_BATCH, sizeof(*q->copy), GFP_KERNEL);
	if (!q->copy) {
		xenbus_dev_fatal(xdev, -ENOMEM, "allocating the copy batch");
		return -ENOMEM;
	}
	rc = bind_interdomain_evtchn_to_irqhandler_lateeoi(xdev, refs->port,
							   netback_interrupt,
							   0, q->name, q);
	if (rc < 0) {
		xenbus_dev_fatal(xdev, rc, "binding event channel %u",
				 refs->port);
		return rc;
	}
	q->irq = rc;
	q->thread = kthread_run(netback_thread, q, "%s", q->name);
	if (IS_ERR(q->thread)) {
		rc = PTR_ERR(q->thread);
		q->thread = NULL;
		xenbus_dev_fatal(xdev, rc, "starting the thread of %s", q->name);
		return rc;
	}
	return 0;
}

/* Stop a queue's thread, then undo its rings and channel. */
static void netback_disconnect_queue(struct netback_queue *q)
{
	if (q->thread) {
		kthread_stop(q->thread);
		q->thread = NULL;
	}
	netback_rx_purge(q);
	if (q->irq) {
		unbind_from_irqhandler(q->irq, q);
		q->irq = 0;
	}
	if (q->tx_sring) {
		xenbus_unmap_ring_vfree(q->vif->xdev, q->tx_sring);
		q->tx_sring = NULL;
	}
	if (q->rx_sring) {
		xenbus_unmap_ring_vfree(q->vif->xdev, q->rx_sring);
		q->rx_sring = NULL;
	}
	kvfree(q->copy);
	q->copy = NULL;
	q->nr_copy = 0;
}

/**
 * netback_connect_rings() - map a vif's rings, bind its channels, serve them
 * @vif: the vif, its net_device given @nr transmit queues
 * @refs: where each queue's rings and channel are
 * @nr: how many queues, 1 to NETBACK_MAX_QUEUES
 *
 * Return: 0, or a negative errno once reported and all undone.
 */
int netback_connect_rings(struct netback_vif *vif,
			  const struct netback_ring_refs *refs,
			  unsigned int nr)
{
	unsigned int i;
	int rc;

	if (WARN_ON(!nr || nr > NETBACK_MAX_QUEUES))
		return -EINVAL;
	vif->flags = 0;
	vif->nr_queues = nr;
	for (i = 0; i < nr; i++) {
		rc = netback_connect_queue(&vif->queues[i], &refs[i]);
		if (rc) {
			netback_disconnect_rings(vif);
			return rc;
		}
	}
	/* Pairs with start_xmit's acquire: the queues before the flag. */
	smp_store_release(&vif->connected, true);
	netif_carrier_on(vif->dev);
	return 0;
}

/**
 * netback_disconnect_rings() - stop serving a vif's rings and undo them
 * @vif: the vif, connected or partly
 */
void netback_disconnect_rings(struct netback_vif *vif)
{
	unsigned int i;

	WRITE_ONCE(vif->connected, false);
	netif_carrier_off(vif->dev);
	/* A start_xmit that saw us connected has queued its packet by now. */
	synchronize_net();
	for (i = 0; i < NETBACK_MAX_QUEUES; i++)
		netback_disconnect_queue(&vif->queues[i]);
	netback_share_leave(vif);
}
