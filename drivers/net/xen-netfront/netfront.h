/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of netfront.
 *
 * netfront_xenbus.c owns the device's life: the net_device, the backend's
 * offer read once into struct netfront_features, the queues with their
 * rings and event channels, set up and taken down.  netfront_tx.c sends
 * (and collects transmit responses in the transmit ring's own interrupt
 * when it has one), netfront_rx.c receives and runs each queue's NAPI
 * poll (which also collects transmit responses when the rings share a
 * channel).
 *
 * Lock order: rtnl_lock (queues are created, enabled and destroyed only
 * under it) -> netfront_queue.tx_lock (spinlock, irqsave: the transmit
 * ring and its slots).  The receive ring belongs to the queue's NAPI
 * poll and needs no lock.
 */
#ifndef _XEN_NETFRONT_H
#define _XEN_NETFRONT_H

#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <xen/grant_table.h>
#include <xen/interface/io/netif.h>
#include <xen/ring.h>
#include <xen/xenbus.h>

/* Both rings of a queue are one page: 256 entries each. */
#define NETFRONT_RING_SIZE	256

/*
 * Data slots a packet may take on the transmit ring: as many as every
 * backend must take (a backend counts the slot of extra information
 * apart).  Packets needing more are copied into fresh pages first.
 */
#define NETFRONT_TX_MAX_DATA	XEN_NETIF_NR_SLOTS_MIN
#define NETFRONT_TX_MAX_SLOTS	(NETFRONT_TX_MAX_DATA + 1)

/* Queues by default, at most one a CPU. */
#define NETFRONT_MAX_QUEUES	8

/**
 * struct netfront_features - what the backend offered, read once at connect
 * @sg: it takes packets of several slots
 * @csum: it fills in IPv4 TCP/UDP checksums (no feature-no-csum-offload)
 * @ipv6_csum: and IPv6 ones
 * @tso4: it segments TCP over IPv4
 * @tso6: and over IPv6
 * @split: it takes an event channel for each ring of a queue
 * @max_queues: the queues it takes (1 when it does not say)
 * @mtu: the MTU it asks for, 0 when none
 */
struct netfront_features {
	bool sg;
	bool csum;
	bool ipv6_csum;
	bool tso4;
	bool tso6;
	bool split;
	unsigned int max_queues;
	unsigned int mtu;
};

/**
 * struct netfront_tx_slot - one transmit slot's id, in flight or free
 * @skb: the packet whose data it grants (a reference held), or NULL
 * @page: a page of ours holding a copy of the data, or NULL
 * @gref: its grant, INVALID_GRANT_REF when free
 * @next: next free id, while free
 */
struct netfront_tx_slot {
	struct sk_buff *skb;
	struct page *page;
	grant_ref_t gref;
	u16 next;
};

/**
 * struct netfront_rx_slot - one receive buffer
 * @page: the page posted to the backend, or NULL
 * @gref: its grant, kept while the page is ours to reuse
 */
struct netfront_rx_slot {
	struct page *page;
	grant_ref_t gref;
};

/**
 * struct netfront_stats - a queue's counters
 * @packets: packets
 * @bytes: their bytes
 * @errors: slots the backend failed (transmit), packets it failed or
 *	that were malformed (receive)
 * @syncp: for 64-bit reads on 32-bit machines
 */
struct netfront_stats {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t errors;
	struct u64_stats_sync syncp;
};

struct netfront_info;

/* Bits of netfront_queue.eoi */
#define NETFRONT_EOI_PENDING	0
#define NETFRONT_EOI_WORK	1
#define NETFRONT_EOI_TX_WORK	2

/**
 * struct netfront_queue - one pair of rings with their event channels
 * @nf: the device
 * @id: its number
 * @name: its irq's name
 * @tx_name: its transmit irq's name, with split channels
 * @napi: receives, and collects transmit responses
 * @port: the event channel of both rings, or of the receive ring alone
 *	when the backend takes one a ring (feature-split-event-channels)
 * @irq: its irq (0 when unbound)
 * @tx_port: the transmit ring's own event channel, 0 when shared
 * @tx_irq: @tx_port's irq (0 when unbound or shared: transmits then
 *	notify through @irq)
 * @eoi: NETFRONT_EOI_PENDING: an event of @port awaits its late EOI,
 *	sent when the poll is done; NETFRONT_EOI_WORK: responses of its
 *	rings were taken since its last EOI (else the EOI says the event was
 *	spurious); NETFRONT_EOI_TX_WORK: the same for @tx_port.  Transmits
 *	collect the responses of their predecessors, so the event that
 *	announced them may find none left.
 * @tx_lock: see the top of this file
 * @tx: our view of the transmit ring
 * @tx_sring: the shared transmit ring
 * @tx_ring_ref: its grant
 * @tx_free: first free transmit id
 * @tx_nr_free: free transmit ids
 * @tx_grefs: reserved grant references for transmit data
 * @tx_slot: transmit ids
 * @tx_stats: transmit counters, under @tx_lock
 * @rx: our view of the receive ring
 * @rx_sring: the shared receive ring
 * @rx_ring_ref: its grant
 * @rx_grefs: reserved grant references for receive buffers
 * @rx_slot: receive buffers by ring slot (a request's id is its slot)
 * @rx_partial: slots of a packet at the ring's head whose rest the
 *	backend has not answered yet (0 when none)
 * @rx_refill: retries posting buffers after running out of memory
 * @rx_stats: receive counters, in the NAPI poll
 */
struct netfront_queue {
	struct netfront_info *nf;
	unsigned int id;
	char name[IFNAMSIZ + 8];
	char tx_name[IFNAMSIZ + 8];
	struct napi_struct napi;
	evtchn_port_t port;
	int irq;
	evtchn_port_t tx_port;
	int tx_irq;
	unsigned long eoi;

	spinlock_t tx_lock;	/* see the top of this file */
	struct xen_front_ring tx;
	struct netif_tx_sring *tx_sring;
	grant_ref_t tx_ring_ref;
	u16 tx_free;
	unsigned int tx_nr_free;
	grant_ref_t tx_grefs;
	struct netfront_tx_slot tx_slot[NETFRONT_RING_SIZE];
	struct netfront_stats tx_stats;

	struct xen_front_ring rx;
	struct netif_rx_sring *rx_sring;
	grant_ref_t rx_ring_ref;
	grant_ref_t rx_grefs;
	struct netfront_rx_slot rx_slot[NETFRONT_RING_SIZE];
	unsigned int rx_partial;
	struct timer_list rx_refill;
	struct netfront_stats rx_stats;
};

/**
 * struct netfront_info - one virtual network interface
 * @netdev: its net_device
 * @xdev: its xenbus device
 * @feat: the backend's offer
 * @queues: the queues, while connected
 * @nr_queues: entries of @queues
 * @bounce: copy transmitted data into pages of its own, so that the
 *	backend sees nothing else of ours
 * @broken: the backend sent something invalid; no more I/O
 * @close_work: closes the device from process context
 */
struct netfront_info {
	struct net_device *netdev;
	struct xenbus_device *xdev;
	struct netfront_features feat;
	struct netfront_queue *queues;
	unsigned int nr_queues;
	bool bounce;
	bool broken;
	struct work_struct close_work;
};

/* netfront_tx.c */
netdev_tx_t netfront_start_xmit(struct sk_buff *skb, struct net_device *dev);
int netfront_tx_init(struct netfront_queue *q);
bool netfront_tx_collect(struct netfront_queue *q);
irqreturn_t netfront_tx_interrupt(int irq, void *dev_id);
void netfront_tx_release(struct netfront_queue *q);

/* netfront_rx.c */
int netfront_rx_init(struct netfront_queue *q);
void netfront_rx_refill(struct netfront_queue *q);
int netfront_poll(struct napi_struct *napi, int budget);
void netfront_rx_release(struct netfront_queue *q);
irqreturn_t netfront_interrupt(int irq, void *dev_id);

/* netfront_xenbus.c */
void netfront_broken(struct netfront_info *nf, const char *why,
		     unsigned long long val);

#endif /* _XEN_NETFRONT_H */
