// SPDX-License-Identifier: GPL-2.0
/*
 * netfront's transmit path: packets onto a queue's transmit ring, the
 * backend's responses back.
 *
 * A packet is cut into pieces that each lie within one page; each piece
 * takes one slot of the ring with an id of its own (which holds a
 * reference to the packet and the piece's grant, read-only), and the
 * first slot may be followed by one slot of GSO information.  A packet
 * that would take more than NETFRONT_TX_MAX_DATA pieces, or any packet
 * when the backend is not trusted, is first copied into fresh pages of
 * its own, zeroed past the data, so that the backend sees nothing but it.
 *
 * The queue is stopped while a packet of the most slots might not fit,
 * and woken by the collection of responses, which run after each
 * packet sent and in the transmit ring's interrupt (its own, or the
 * queue's NAPI poll when the rings share one).  That interrupt is asked
 * for only once half of what is in flight has been answered.  A
 * response is copied out of the ring before use; an id that is out of
 * range or not in flight, or a grant the backend still maps, marks the
 * device broken.
 *
 * Locking: netfront_queue.tx_lock (see netfront.h) covers the ring, the
 * ids and the transmit counters.
 */
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <xen/events.h>
#include <xen/page.h>

#include "netfront.h"

/**
 * struct netfront_piece - a piece of a packet within one page
 * @page: the page
 * @off: where the piece starts in it
 * @len: its length
 */
struct netfront_piece {
	struct page *page;
	unsigned int off;
	unsigned int len;
};

/**
 * netfront_tx_init() - a queue's transmit side, all ids free
 * @q: the queue
 *
 * Return: 0, or -ENOSPC when no grant references can be reserved.
 */
int netfront_tx_init(struct netfront_queue *q)
{
	unsigned int i;

	for (i = 0; i < NETFRONT_RING_SIZE; i++)
		q->tx_slot[i] = (struct netfront_tx_slot) {
			.gref = INVALID_GRANT_REF,
			.next = i + 1,
		};
	q->tx_free = 0;
	q->tx_nr_free = NETFRONT_RING_SIZE;
	q->tx_grefs = INVALID_GRANT_REF;
	return gnttab_alloc_grant_references(NETFRONT_RING_SIZE, &q->tx_grefs);
}

/* Add the pieces of [off, off + len) from @page; -E2BIG past @max. */
static int netfront_split(struct netfront_piece *p, int n, struct page *page,
			  unsigned int off, unsigned int len)
{
	page = nth_page(page, off >> PAGE_SHIFT);
	off &= ~PAGE_MASK;
	while (len) {
		unsigned int chunk = min_t(unsigned int, len, PAGE_SIZE - off);

		if (n == NETFRONT_TX_MAX_DATA)
			return -E2BIG;
		p[n++] = (struct netfront_piece) { page, off, chunk };
		page = nth_page(page, 1);
		off = 0;
		len -= chunk;
	}
	return n;
}

/* The packet's own pieces: its head, then its fragments. */
static int netfront_pieces(struct sk_buff *skb, struct netfront_piece *p)
{
	unsigned int i;
	int n = 0;

	if (skb_has_frag_list(skb))
		return -E2BIG;
	if (skb_headlen(skb))
		n = netfront_split(p, n, virt_to_page(skb->data),
				   offset_in_page(skb->data), skb_headlen(skb));
	for (i = 0; n >= 0 && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];

		if (skb_frag_size(f))
			n = netfront_split(p, n, skb_frag_page(f),
					   skb_frag_off(f), skb_frag_size(f));
	}
	return n;
}

static void netfront_free_pieces(struct netfront_piece *p, int n)
{
	while (n--)
		__free_page(p[n].page);
}

/* A copy of the packet in fresh pages, nothing else of ours in them. */
static int netfront_bounce(struct sk_buff *skb, struct netfront_piece *p)
{
	unsigned int off = 0;
	int n = 0;

	while (off < skb->len) {
		unsigned int len = min_t(unsigned int, skb->len - off, PAGE_SIZE);
		struct page *page;
		void *va;

		if (n == NETFRONT_TX_MAX_DATA)
			goto fail;
		page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
		if (!page)
			goto fail;
		va = page_address(page);
		p[n++] = (struct netfront_piece) { page, 0, len };
		if (skb_copy_bits(skb, off, va, len))
			goto fail;
		memset(va + len, 0, PAGE_SIZE - len);
		off += len;
	}
	return n;
fail:
	netfront_free_pieces(p, n);
	return -ENOMEM;
}

/* The GSO slot a packet needs; false if the backend cannot do it. */
static bool netfront_gso(struct sk_buff *skb, struct netif_extra_info *gso)
{
	unsigned int type = skb_shinfo(skb)->gso_type;

	if (!skb_is_gso(skb))
		return true;
	*gso = (struct netif_extra_info) {
		.type = XEN_NETIF_EXTRA_TYPE_GSO,
		.u.gso.size = skb_shinfo(skb)->gso_size,
	};
	if (type & SKB_GSO_TCPV4)
		gso->u.gso.type = XEN_NETIF_GSO_TYPE_TCPV4;
	else if (type & SKB_GSO_TCPV6)
		gso->u.gso.type = XEN_NETIF_GSO_TYPE_TCPV6;
	else
		return false;
	return true;
}

static bool netfront_tx_room(const struct netfront_queue *q)
{
	return q->tx_nr_free >= NETFRONT_TX_MAX_SLOTS &&
	       xen_ring_free_requests(&q->tx) >= NETFRONT_TX_MAX_SLOTS;
}

/* Write the packet's slots; ids, room and grants are already there. */
static void netfront_tx_post(struct netfront_queue *q, struct sk_buff *skb,
			     const struct netfront_piece *p, int n,
			     const grant_ref_t *refs, bool bounced,
			     const struct netif_extra_info *gso)
{
	domid_t domid = q->nf->xdev->otherend_id;
	u16 csum = 0;
	int i;

	if (skb->ip_summed == CHECKSUM_PARTIAL)
		csum = NETTXF_csum_blank | NETTXF_data_validated;
	else if (skb->ip_summed == CHECKSUM_UNNECESSARY)
		csum = NETTXF_data_validated;

	for (i = 0; i < n; i++) {
		struct netfront_tx_slot *s = &q->tx_slot[q->tx_free];
		struct netif_tx_request req = {
			.gref = refs[i],
			.offset = p[i].off,
			.id = q->tx_free,
			.size = i ? p[i].len : skb->len,
			.flags = i + 1 < n ? NETTXF_more_data : 0,
		};
		unsigned int slot;

		q->tx_free = s->next;
		q->tx_nr_free--;
		gnttab_grant_foreign_access_ref(refs[i], domid,
						xen_page_to_gfn(p[i].page), 1);
		s->gref = refs[i];
		if (bounced)
			s->page = p[i].page;
		else
			s->skb = i ? skb_get(skb) : skb;

		if (!i) {
			req.flags |= csum;
			if (gso->type)
				req.flags |= NETTXF_extra_info;
		}
		slot = xen_ring_slot(&q->tx, q->tx.req_prod_pvt++);
		q->tx_sring->ring[slot].req = req;
		if (!i && gso->type) {
			slot = xen_ring_slot(&q->tx, q->tx.req_prod_pvt++);
			memcpy(&q->tx_sring->ring[slot].req, gso, sizeof(*gso));
		}
	}
}

/* One slot answered; false when the answer broke the protocol. */
static bool netfront_tx_done(struct netfront_queue *q, u16 id, s16 status)
{
	struct netfront_tx_slot *s;

	if (id >= NETFRONT_RING_SIZE ||
	    q->tx_slot[id].gref == INVALID_GRANT_REF) {
		netfront_broken(q->nf, "transmit response for id", id);
		return false;
	}
	s = &q->tx_slot[id];
	if (!gnttab_end_foreign_access_ref(s->gref)) {
		netfront_broken(q->nf, "still maps the page of transmit id", id);
		return false;
	}
	gnttab_release_grant_reference(&q->tx_grefs, s->gref);
	s->gref = INVALID_GRANT_REF;
	if (status != NETIF_RSP_OKAY) {
		u64_stats_update_begin(&q->tx_stats.syncp);
		u64_stats_inc(&q->tx_stats.errors);
		u64_stats_update_end(&q->tx_stats.syncp);
	}
	if (s->skb)
		dev_consume_skb_any(s->skb);
	if (s->page)
		__free_page(s->page);
	s->skb = NULL;
	s->page = NULL;
	s->next = q->tx_free;
	q->tx_free = id;
	q->tx_nr_free++;
	return true;
}

/*
 * Responses to wait for before the next event: half of the slots still
 * in flight.  A packet is freed only when all its slots are, and the
 * backend answers slot by slot, so an event at the very next response
 * would mostly find a packet half done; every transmit collects anyway.
 * The event still comes while the queue is stopped: then more than
 * half of the ring is in flight.
 */
static RING_IDX netfront_tx_event_wait(const struct netfront_queue *q)
{
	return (q->tx.req_prod_pvt - q->tx.rsp_cons) / 2;
}

/* netfront_tx_collect() with the queue's tx_lock held. */
static bool __netfront_tx_collect(struct netfront_queue *q)
{
	struct netfront_info *nf = q->nf;
	struct netif_tx_sring *sring = q->tx_sring;
	bool work = false;
	int n;

	lockdep_assert_held(&q->tx_lock);
	/* Broken: nothing more is taken; its events are spurious. */
	if (READ_ONCE(nf->broken))
		return false;
	do {
		RING_IDX prod = READ_ONCE(sring->rsp_prod);

		virt_rmb();	/* the index, then the responses */
		n = xen_ring_new_responses(&q->tx, prod);
		if (n < 0) {
			netfront_broken(nf, "transmit response producer", prod);
			return work;
		}
		for (; n > 0; n--) {
			const struct netif_tx_response *r;
			s16 status;
			u16 id;

			r = &sring->ring[xen_ring_slot(&q->tx, q->tx.rsp_cons++)].rsp;
			id = READ_ONCE(r->id);
			status = READ_ONCE(r->status);
			if (!work)
				set_bit(q->tx_port ? NETFRONT_EOI_TX_WORK :
					NETFRONT_EOI_WORK, &q->eoi);
			work = true;
			/* Slots of extra information: no id to check. */
			if (status == NETIF_RSP_NULL)
				continue;
			if (!netfront_tx_done(q, id, status))
				return work;
		}
	} while (xen_ring_final_check_responses(&q->tx, &sring->rsp_event,
						&sring->rsp_prod,
						netfront_tx_event_wait(q)));

	if (netfront_tx_room(q) && !READ_ONCE(nf->broken))
		netif_tx_wake_queue(netdev_get_tx_queue(nf->netdev, q->id));
	return work;
}

/**
 * netfront_start_xmit() - ndo_start_xmit
 * @skb: the packet
 * @dev: the interface
 *
 * Return: NETDEV_TX_OK, or NETDEV_TX_BUSY in the unlikely case that the
 * ring filled up without the queue being stopped.
 */
netdev_tx_t netfront_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netfront_info *nf = netdev_priv(dev);
	unsigned int qid = skb_get_queue_mapping(skb);
	struct netfront_piece p[NETFRONT_TX_MAX_DATA];
	grant_ref_t refs[NETFRONT_TX_MAX_DATA];
	struct netif_extra_info gso = {};
	unsigned int len = skb->len;
	struct netfront_queue *q;
	bool bounced = false;
	unsigned long flags;
	int n, i, ref;

	if (unlikely(READ_ONCE(nf->broken) || qid >= READ_ONCE(nf->nr_queues)))
		goto drop;
	q = &nf->queues[qid];
	if (unlikely(len > XEN_NETIF_MAX_TX_SIZE || len < ETH_HLEN ||
		     !netfront_gso(skb, &gso)))
		goto drop;

	n = nf->bounce ? -E2BIG : netfront_pieces(skb, p);
	if (n < 0) {
		n = netfront_bounce(skb, p);
		if (n < 0)
			goto drop;
		bounced = true;
	}
	skb_tx_timestamp(skb);

	spin_lock_irqsave(&q->tx_lock, flags);
	if (unlikely(!netfront_tx_room(q))) {
		netif_tx_stop_queue(netdev_get_tx_queue(dev, qid));
		spin_unlock_irqrestore(&q->tx_lock, flags);
		if (bounced)
			netfront_free_pieces(p, n);
		return NETDEV_TX_BUSY;
	}
	for (i = 0; i < n; i++) {
		ref = gnttab_claim_grant_reference(&q->tx_grefs);
		if (ref < 0)
			break;
		refs[i] = ref;
	}
	if (unlikely(i < n)) {
		/* Only references a broken backend kept are missing. */
		while (i--)
			gnttab_release_grant_reference(&q->tx_grefs, refs[i]);
		spin_unlock_irqrestore(&q->tx_lock, flags);
		if (bounced)
			netfront_free_pieces(p, n);
		goto drop;
	}
	netfront_tx_post(q, skb, p, n, refs, bounced, &gso);
	if (xen_ring_push_requests(&q->tx, &q->tx_sring->req_prod,
				   &q->tx_sring->req_event))
		notify_remote_via_irq(q->tx_irq ?: q->irq);
	u64_stats_update_begin(&q->tx_stats.syncp);
	u64_stats_inc(&q->tx_stats.packets);
	u64_stats_add(&q->tx_stats.bytes, len);
	u64_stats_update_end(&q->tx_stats.syncp);
	/*
	 * Free what the backend is done with now rather than at its next
	 * event: the stack holds back a socket's data until its earlier
	 * packets are freed.
	 */
	__netfront_tx_collect(q);
	if (!netfront_tx_room(q))
		netif_tx_stop_queue(netdev_get_tx_queue(dev, qid));
	spin_unlock_irqrestore(&q->tx_lock, flags);

	if (bounced)
		dev_consume_skb_any(skb);
	return NETDEV_TX_OK;

drop:
	dev_core_stats_tx_dropped_inc(dev);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/**
 * netfront_tx_collect() - take the backend's transmit responses
 * @q: the queue
 *
 * Frees what they answer, asks for an event once half of what is still
 * in flight is answered, and wakes the queue when a packet fits again.
 *
 * Return: true when there was any.
 */
bool netfront_tx_collect(struct netfront_queue *q)
{
	unsigned long flags;
	bool work;

	spin_lock_irqsave(&q->tx_lock, flags);
	work = __netfront_tx_collect(q);
	spin_unlock_irqrestore(&q->tx_lock, flags);
	return work;
}

/**
 * netfront_tx_interrupt() - the transmit ring's own event channel fired
 * @irq: its irq
 * @dev_id: the queue
 *
 * Collects the responses there and sends the late EOI: spurious only
 * when no transmit response at all came since the last one.
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t netfront_tx_interrupt(int irq, void *dev_id)
{
	struct netfront_queue *q = dev_id;

	netfront_tx_collect(q);
	xen_irq_lateeoi(irq, test_and_clear_bit(NETFRONT_EOI_TX_WORK, &q->eoi) ?
			0 : XEN_EOI_FLAG_SPURIOUS);
	return IRQ_HANDLED;
}

/**
 * netfront_tx_release() - take back everything still on the ring
 * @q: the queue, its interrupt unbound and its transmit queue stopped
 *
 * A page the backend still maps is not reused until it lets go; a
 * packet whose page it maps is kept (and leaked) for the same reason.
 */
void netfront_tx_release(struct netfront_queue *q)
{
	unsigned int i;

	for (i = 0; i < NETFRONT_RING_SIZE; i++) {
		struct netfront_tx_slot *s = &q->tx_slot[i];

		if (s->gref == INVALID_GRANT_REF)
			continue;
		if (s->page) {
			gnttab_end_foreign_access(s->gref, s->page);
		} else if (gnttab_try_end_foreign_access(s->gref)) {
			dev_kfree_skb_any(s->skb);
		} else {
			gnttab_end_foreign_access(s->gref, NULL);
			netdev_warn(q->nf->netdev, "backend keeps a packet mapped; leaking it\n");
		}
		*s = (struct netfront_tx_slot) { .gref = INVALID_GRANT_REF };
	}
	gnttab_free_grant_references(q->tx_grefs);
	q->tx_grefs = INVALID_GRANT_REF;
}
