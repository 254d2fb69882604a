// SPDX-License-Identifier: GPL-2.0
/*
 * netfront's receive path and each queue's NAPI poll.
 *
 * Every slot of the receive ring holds a page granted writable to the
 * backend; a request's id is its slot.  The backend copies a packet into
 * the pages of consecutive slots and answers them in ring order: the
 * first data slot, the slots of extra information it announces (GSO),
 * then the rest of the data.  Each answer is copied out of the ring and
 * checked: the id must be the slot's, the data must lie within the page
 * and a packet may not take more than NETFRONT_RX_MAX_SLOTS slots.  A
 * failure marks the device broken; a packet the backend itself reports
 * failed, or that is malformed (short, bad GSO or checksum fields), is
 * dropped and counted.
 *
 * A page that carries data goes to the stack as a fragment of the packet
 * and its slot gets a fresh page; the pages of slots that carried no
 * data, or a small packet of one slot that is copied out, stay granted
 * and are posted again.
 *
 * Locking: the receive ring and its slots belong to the queue's NAPI poll
 * (or to the xenbus side while the poll cannot run); see netfront.h.
 */
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <xen/events.h>
#include <xen/page.h>

#include "netfront.h"

/* The most slots a packet may take: its data, then extra information. */
#define NETFRONT_RX_MAX_SLOTS	(MAX_SKB_FRAGS + XEN_NETIF_EXTRA_TYPE_MAX)

/* Bytes of a packet's headers copied into its head. */
#define NETFRONT_RX_PULL	128

static void netfront_rx_refill_timer(struct timer_list *t)
{
	struct netfront_queue *q = from_timer(q, t, rx_refill);

	napi_schedule(&q->napi);
}

/**
 * netfront_rx_init() - a queue's receive side, no buffers yet
 * @q: the queue
 *
 * Return: 0, or -ENOSPC when no grant references can be reserved.
 */
int netfront_rx_init(struct netfront_queue *q)
{
	unsigned int i;

	for (i = 0; i < NETFRONT_RING_SIZE; i++)
		q->rx_slot[i] = (struct netfront_rx_slot) {
			.gref = INVALID_GRANT_REF,
		};
	q->rx_partial = 0;
	timer_setup(&q->rx_refill, netfront_rx_refill_timer, 0);
	q->rx_grefs = INVALID_GRANT_REF;
	return gnttab_alloc_grant_references(NETFRONT_RING_SIZE, &q->rx_grefs);
}

/**
 * netfront_rx_refill() - post a buffer in every free slot of the ring
 * @q: the queue
 *
 * When memory runs out, a timer tries again a little later.
 */
void netfront_rx_refill(struct netfront_queue *q)
{
	struct xen_front_ring *r = &q->rx;
	domid_t domid = q->nf->xdev->otherend_id;
	unsigned int posted = 0;

	while (xen_ring_free_requests(r)) {
		unsigned int slot = xen_ring_slot(r, r->req_prod_pvt);
		struct netfront_rx_slot *s = &q->rx_slot[slot];

		if (!s->page) {
			s->page = dev_alloc_page();
			if (!s->page) {
				mod_timer(&q->rx_refill, jiffies + HZ / 10);
				break;
			}
		}
		if (s->gref == INVALID_GRANT_REF) {
			int ref = gnttab_claim_grant_reference(&q->rx_grefs);

			/* Only references a broken backend kept are missing. */
			if (ref < 0)
				break;
			s->gref = ref;
			gnttab_grant_foreign_access_ref(ref, domid,
							xen_page_to_gfn(s->page),
							0);
		}
		q->rx_sring->ring[slot].req = (struct netif_rx_request) {
			.id = slot,
			.gref = s->gref,
		};
		r->req_prod_pvt++;
		posted++;
	}
	if (posted && xen_ring_push_requests(r, &q->rx_sring->req_prod,
					     &q->rx_sring->req_event))
		notify_remote_via_irq(q->irq);
}

static void netfront_rx_count(struct netfront_queue *q, u64_stats_t *c,
			      unsigned int bytes)
{
	u64_stats_update_begin(&q->rx_stats.syncp);
	u64_stats_inc(c);
	if (bytes)
		u64_stats_add(&q->rx_stats.bytes, bytes);
	u64_stats_update_end(&q->rx_stats.syncp);
}

/**
 * struct netfront_rx_pkt - a packet's answers, copied out of the ring
 * @slots: ring slots it took
 * @nr_data: entries of @data
 * @data: the answers of its data slots
 * @gso: its GSO information (type 0 when none)
 */
struct netfront_rx_pkt {
	unsigned int slots;
	unsigned int nr_data;
	struct netif_rx_response data[NETFRONT_RX_MAX_SLOTS];
	struct netif_extra_info gso;
};

/*
 * Copy the next packet's answers out of the ring, checked.  Return 1
 * when a whole packet is there, 0 when it is not yet, -EIO when the
 * backend broke the protocol (the device is then broken).
 */
static int netfront_rx_gather(struct netfront_queue *q, unsigned int avail,
			      struct netfront_rx_pkt *pkt)
{
	struct xen_front_ring *r = &q->rx;
	bool extra = false, more = true;

	pkt->slots = 0;
	pkt->nr_data = 0;
	pkt->gso.type = XEN_NETIF_EXTRA_TYPE_NONE;
	while (extra || more) {
		unsigned int slot = xen_ring_slot(r, r->rsp_cons + pkt->slots);
		union netif_rx_sring_entry *e = &q->rx_sring->ring[slot];

		if (pkt->slots == avail)
			return 0;
		if (pkt->slots == NETFRONT_RX_MAX_SLOTS) {
			netfront_broken(q->nf, "packet of more slots than",
					NETFRONT_RX_MAX_SLOTS);
			return -EIO;
		}
		pkt->slots++;
		if (extra) {
			struct netif_extra_info x;

			memcpy(&x, e, sizeof(x));
			if (x.type == XEN_NETIF_EXTRA_TYPE_NONE ||
			    x.type >= XEN_NETIF_EXTRA_TYPE_MAX) {
				netfront_broken(q->nf, "extra information of type",
						x.type);
				return -EIO;
			}
			if (x.type == XEN_NETIF_EXTRA_TYPE_GSO)
				pkt->gso = x;
			extra = x.flags & XEN_NETIF_EXTRA_FLAG_MORE;
		} else {
			struct netif_rx_response *d = &pkt->data[pkt->nr_data];

			d->id = READ_ONCE(e->rsp.id);
			d->offset = READ_ONCE(e->rsp.offset);
			d->flags = READ_ONCE(e->rsp.flags);
			d->status = READ_ONCE(e->rsp.status);
			if (d->id != slot) {
				netfront_broken(q->nf, "receive response id",
						d->id);
				return -EIO;
			}
			if (d->status > 0 &&
			    d->offset + d->status > PAGE_SIZE) {
				netfront_broken(q->nf, "receive data past the page end at offset",
						d->offset);
				return -EIO;
			}
			if (!pkt->nr_data++) {
				extra = d->flags & NETRXF_extra_info;
				if (d->flags & NETRXF_gso_prefix) {
					netfront_broken(q->nf, "receive flags",
							d->flags);
					return -EIO;
				}
			}
			more = d->flags & NETRXF_more_data;
		}
	}
	return 1;
}

/* The packet's checksum and segmentation state; false if malformed. */
static bool netfront_rx_offloads(struct sk_buff *skb,
				 const struct netfront_rx_pkt *pkt)
{
	const struct netif_extra_info *gso = &pkt->gso;
	u16 flags = pkt->data[0].flags;

	if (gso->type == XEN_NETIF_EXTRA_TYPE_GSO) {
		if (!gso->u.gso.size)
			return false;
		if (gso->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4)
			skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
		else if (gso->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV6)
			skb_shinfo(skb)->gso_type = SKB_GSO_TCPV6;
		else
			return false;
		skb_shinfo(skb)->gso_size = gso->u.gso.size;
		skb_shinfo(skb)->gso_type |= SKB_GSO_DODGY;
		skb_shinfo(skb)->gso_segs = 0;
	}
	/* Partial checksums are set up from the headers, checked. */
	if ((flags & NETRXF_csum_blank) || gso->type)
		return !skb_checksum_setup(skb, true);
	if (flags & NETRXF_data_validated)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	return true;
}

/*
 * A packet of one small piece (a TCP acknowledgment, say) is copied:
 * its page stays granted in its slot and is posted again, so there is
 * no grant to end and no page to allocate.  The backend may still write
 * the page; only the copy, taken once, is looked at.
 */
static struct sk_buff *netfront_rx_copy(struct netfront_queue *q,
					const struct netif_rx_response *d)
{
	struct sk_buff *skb = napi_alloc_skb(&q->napi, d->status);

	if (skb)
		skb_put_data(skb, page_address(q->rx_slot[d->id].page) +
			     d->offset, d->status);
	return skb;
}

/*
 * The packet's pages become the fragments of a new skb, their headers
 * pulled into its head.  Returns the skb, NULL when out of memory, or an
 * error pointer when the backend still maps a page (the device is then
 * broken).
 */
static struct sk_buff *netfront_rx_frags(struct netfront_queue *q,
					 const struct netfront_rx_pkt *pkt)
{
	struct sk_buff *skb = napi_alloc_skb(&q->napi, NETFRONT_RX_PULL);
	unsigned int i;

	if (!skb)
		return NULL;
	for (i = 0; i < pkt->nr_data; i++) {
		const struct netif_rx_response *d = &pkt->data[i];
		struct netfront_rx_slot *s = &q->rx_slot[d->id];

		if (!gnttab_end_foreign_access_ref(s->gref)) {
			kfree_skb(skb);
			netfront_broken(q->nf, "still maps the page of receive slot",
					d->id);
			return ERR_PTR(-EIO);
		}
		gnttab_release_grant_reference(&q->rx_grefs, s->gref);
		s->gref = INVALID_GRANT_REF;
		skb_add_rx_frag(skb, i, s->page, d->offset, d->status,
				PAGE_SIZE);
		s->page = NULL;
	}
	if (!__pskb_pull_tail(skb, min_t(unsigned int, skb->len,
					 NETFRONT_RX_PULL))) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/* Make the gathered packet an skb and pass it up; false if broken. */
static bool netfront_rx_deliver(struct netfront_queue *q,
				const struct netfront_rx_pkt *pkt)
{
	struct net_device *dev = q->nf->netdev;
	struct sk_buff *skb;
	unsigned int i, len;

	for (i = 0; i < pkt->nr_data; i++) {
		if (pkt->data[i].status <= 0 || i >= MAX_SKB_FRAGS) {
			netfront_rx_count(q, &q->rx_stats.errors, 0);
			return true;	/* the pages stay in their slots */
		}
	}
	if (pkt->nr_data == 1 && pkt->data[0].status <= NETFRONT_RX_PULL)
		skb = netfront_rx_copy(q, &pkt->data[0]);
	else
		skb = netfront_rx_frags(q, pkt);
	if (IS_ERR(skb))
		return false;
	if (!skb) {
		dev_core_stats_rx_dropped_inc(dev);
		return true;
	}
	len = skb->len;
	if (len < ETH_HLEN)
		goto bad;
	skb->protocol = eth_type_trans(skb, dev);
	/* Where skb_checksum_setup() looks for the IP header. */
	skb_reset_network_header(skb);
	if (!netfront_rx_offloads(skb, pkt))
		goto bad;
	netfront_rx_count(q, &q->rx_stats.packets, len);
	napi_gro_receive(&q->napi, skb);
	return true;
bad:
	netfront_rx_count(q, &q->rx_stats.errors, 0);
	kfree_skb(skb);
	return true;
}

/* Receive up to @budget packets; -EIO when the device broke. */
static int netfront_rx(struct netfront_queue *q, int budget)
{
	struct netfront_rx_pkt pkt;	/* about 200 bytes */
	int done = 0;

	/* Broken: nothing more is taken from this ring, nor posted to it. */
	if (READ_ONCE(q->nf->broken))
		return -EIO;
	while (done < budget) {
		RING_IDX prod = READ_ONCE(q->rx_sring->rsp_prod);
		int avail, rc;

		virt_rmb();	/* the index, then the responses */
		avail = xen_ring_new_responses(&q->rx, prod);
		if (avail < 0) {
			netfront_broken(q->nf, "receive response producer",
					prod);
			return -EIO;
		}
		if (!avail)
			break;
		/* New slots, even of a packet not whole yet: real work. */
		if (avail > q->rx_partial)
			set_bit(NETFRONT_EOI_WORK, &q->eoi);
		rc = netfront_rx_gather(q, avail, &pkt);
		if (rc < 0)
			return rc;
		q->rx_partial = rc ? 0 : pkt.slots;
		if (!rc)
			return done;
		q->rx.rsp_cons += pkt.slots;
		if (!netfront_rx_deliver(q, &pkt))
			return -EIO;
		done++;
	}
	return done;
}

/*
 * Before going idle: ask for an event at the next response past those
 * of a packet still incomplete; true if it is already there.
 */
static bool netfront_rx_more(struct netfront_queue *q)
{
	RING_IDX want = q->rx.rsp_cons + q->rx_partial;

	WRITE_ONCE(q->rx_sring->rsp_event, want + 1);
	virt_mb();	/* the event index, then the producer index */
	return (s32)(xen_ring_note_responses(&q->rx,
					     READ_ONCE(q->rx_sring->rsp_prod)) -
		     want) > 0;
}

/**
 * netfront_poll() - a queue's NAPI poll
 * @napi: the queue's
 * @budget: packets it may receive
 *
 * Collects transmit responses, receives, posts buffers again; when done,
 * asks for an event at the next response and sends the late EOI of the
 * event that scheduled it: spurious only if no response at all came
 * since the last one (transmits collect responses too, and may have
 * taken those the event announced).  Once the device is broken nothing
 * is taken or posted, and every event is spurious: a backend that goes
 * on raising them is slowed down by the late EOI.
 *
 * Return: packets received.
 */
int netfront_poll(struct napi_struct *napi, int budget)
{
	struct netfront_queue *q = container_of(napi, struct netfront_queue,
						napi);
	int done;

	if (!q->tx_port)
		netfront_tx_collect(q);
	done = netfront_rx(q, budget);
	if (done < 0) {
		/* Broken: nothing more from this ring, and no work. */
		clear_bit(NETFRONT_EOI_WORK, &q->eoi);
		done = 0;
	} else {
		netfront_rx_refill(q);
		if (done == budget)
			return budget;
	}
	if (!napi_complete_done(napi, done))
		return done;
	if (!READ_ONCE(q->nf->broken) && netfront_rx_more(q)) {
		napi_schedule(napi);
		return done;
	}
	if (test_and_clear_bit(NETFRONT_EOI_PENDING, &q->eoi))
		xen_irq_lateeoi(q->irq,
				test_and_clear_bit(NETFRONT_EOI_WORK, &q->eoi) ?
				0 : XEN_EOI_FLAG_SPURIOUS);
	return done;
}

/**
 * netfront_interrupt() - the queue's event channel fired
 * @irq: its irq
 * @dev_id: the queue
 *
 * The channel stays masked until the poll sends the late EOI; while the
 * interface is down the poll cannot run, and bringing it up schedules it.
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t netfront_interrupt(int irq, void *dev_id)
{
	struct netfront_queue *q = dev_id;

	set_bit(NETFRONT_EOI_PENDING, &q->eoi);
	napi_schedule(&q->napi);
	return IRQ_HANDLED;
}

/**
 * netfront_rx_release() - take back every receive buffer
 * @q: the queue, its interrupt unbound and its poll disabled
 *
 * A page the backend still maps is not reused until it lets go.
 */
void netfront_rx_release(struct netfront_queue *q)
{
	unsigned int i;

	timer_delete_sync(&q->rx_refill);
	for (i = 0; i < NETFRONT_RING_SIZE; i++) {
		struct netfront_rx_slot *s = &q->rx_slot[i];

		if (s->gref != INVALID_GRANT_REF)
			gnttab_end_foreign_access(s->gref, s->page);
		else if (s->page)
			__free_page(s->page);
		*s = (struct netfront_rx_slot) { .gref = INVALID_GRANT_REF };
	}
	gnttab_free_grant_references(q->rx_grefs);
	q->rx_grefs = INVALID_GRANT_REF;
}
