/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of netback, the Xen network
 * backend.
 *
 * netback_xenbus.c owns a vif's life: its net_device (vif<domid>.<id>,
 * made at probe so that the toolstack's hotplug script can put it on a
 * bridge), the negotiation with the frontend, connecting the rings and
 * taking them down.  netback_data.c moves packets: a vif has one or
 * more queues (multi-queue-num-queues), each a transmit ring, a receive
 * ring, an event channel and a thread; the thread takes what the guest
 * sends on its transmit ring and hands it to the stack, and copies what
 * the stack sends the guest through the net_device's transmit queue of
 * the same number into the buffers the guest posted on its receive
 * ring.  netback_txcheck.c checks a sent packet's slots (pure logic).
 *
 * Data moves by grant copy both ways; nothing of the guest is mapped
 * but its rings.
 *
 * Lock order: netback_vif.lock (mutex: connect, disconnect, the
 * sharing's settings) -> the net_device's tx queue lock (start_xmit) ->
 * nothing; netback_share_lock (a spinlock over every vif's part in the
 * sharing) -> nothing.  A queue's rings belong to its thread.
 */
#ifndef _XEN_NETBACK_H
#define _XEN_NETBACK_H

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/wait.h>
#include <xen/grant_table.h>
#include <xen/interface/io/netif.h>
#include <xen/ring.h>
#include <xen/xenbus.h>

#include "netback_share.h"
#include "netback_txcheck.h"

/* Packets a pass of the thread takes from each direction at most. */
#define NETBACK_BUDGET		64

/*
 * Packets, and bytes, waiting for the guest's buffers before the stack
 * is told to wait, shared out between a vif's queues but no less than
 * the _MIN ones each: a guest that posts none pins no more than this, or
 * NETBACK_MAX_QUEUES times the _MIN ones (2 MiB).
 */
#define NETBACK_RX_QUEUE_MAX		256
#define NETBACK_RX_QUEUE_BYTES		(1024 * 1024)
#define NETBACK_RX_QUEUE_MIN		64
#define NETBACK_RX_QUEUE_MIN_BYTES	(256 * 1024)

/*
 * The guest's buffers one packet may take: 16 pages of data (a GSO packet
 * is at most 64 KiB with its headers, one of the largest MTU a byte
 * less) and the GSO slot, with one to spare.
 */
#define NETBACK_RX_MAX_SLOTS	18

/*
 * Slots of a vif's flow table: the low bits of a flow's symmetric hash
 * pick one, which holds the rest of the hash and 1 + the queue the guest
 * last sent that flow on (in the slot's low bits, as NETBACK_MAX_QUEUES
 * is below NETBACK_FLOW_SLOTS), so that two flows of one slot are told
 * apart.
 */
#define NETBACK_FLOW_SLOTS	1024

/* Grant copies in one hypercall. */
#define NETBACK_COPY_BATCH	256

/* Queues a vif may have: rings, event channel and thread each. */
#define NETBACK_MAX_QUEUES	8

/* netback_queue.flags */
#define NETBACK_KICKED	0	/* an event came; the irq waits for its EOI */
#define NETBACK_XMIT	1	/* start_xmit queued a packet */

/* netback_vif.flags */
#define NETBACK_BROKEN	0	/* the frontend sent nonsense */

struct netback_vif;

/**
 * struct netback_queue - one pair of a vif's rings and the thread serving them
 * @vif: the vif it belongs to
 * @id: its number, also that of the net_device's transmit queue
 * @name: the vif's name and the queue's, for the irq and the thread
 * @tx_sring: the guest's transmit ring, mapped
 * @rx_sring: its receive ring, mapped
 * @tx: our indices of the transmit ring
 * @tx_prod_seen: the transmit ring's req_prod as last read
 * @rx: our indices of the receive ring
 * @irq: the event channel's irq (0 when unbound)
 * @thread: the thread serving both rings
 * @wq: it waits here
 * @flags: NETBACK_KICKED, NETBACK_XMIT
 * @rx_queue: packets for the guest
 * @rx_queued: the bytes in it
 * @rx_max: the packets @rx_queue may hold before the stack waits
 * @rx_max_bytes: the bytes it may hold
 * @copy: a batch of grant copies
 * @nr_copy: how many in it
 * @busy: it has work, as the sharing sees it (its own thread sets it,
 *	under netback_share_lock)
 * @turn: it has its vif's turn in the sharing (its own thread alone)
 * @pass_bytes: bytes the thread's pass moved, both ways
 * @pass_allow: bytes the sharing lets the pass move
 * @rx_wait_since: when the packet at the head of @rx_queue began to wait
 *	for the guest's buffers, in jiffies (0: none waits); the thread's
 * @rx_stalled: the guest posted no buffers for rx_stall_ms: what the
 *	stack sends it is dropped, not queued, until it posts one
 */
struct netback_queue {
	struct netback_vif *vif;
	unsigned int id;
	char name[IFNAMSIZ + 8];
	struct netif_tx_sring *tx_sring;
	struct netif_rx_sring *rx_sring;
	struct xen_back_ring tx;
	RING_IDX tx_prod_seen;
	struct xen_back_ring rx;
	int irq;
	struct task_struct *thread;
	wait_queue_head_t wq;
	unsigned long flags;
	struct sk_buff_head rx_queue;
	atomic_t rx_queued;
	unsigned int rx_max;
	unsigned int rx_max_bytes;
	struct gnttab_copy *copy;
	unsigned int nr_copy;
	bool busy;
	bool turn;
	u64 pass_bytes;
	u64 pass_allow;
	unsigned long rx_wait_since;
	bool rx_stalled;
};

/**
 * struct netback_ring_refs - where one queue's rings are, as the frontend said
 * @tx: the grant of its transmit ring
 * @rx: the grant of its receive ring
 * @port: its end of the queue's event channel
 */
struct netback_ring_refs {
	grant_ref_t tx;
	grant_ref_t rx;
	evtchn_port_t port;
};

/**
 * struct netback_vif - one virtual interface served to a frontend
 * @xdev: its xenbus device
 * @dev: its net_device
 * @lock: see the top of this file
 * @hotplug_watch: the watch on our hotplug-status node
 * @share_watch: the watch on our node, for the sharing's settings
 * @hotplug_ok: the toolstack's script said connected
 * @connected: the rings are served
 * @sg: the frontend takes received packets of several slots
 * @rx_csum4: it takes them with the TCP/UDP checksum over IPv4 left blank
 * @rx_csum6: the same over IPv6
 * @rx_gso4: it takes TCP over IPv4 packets larger than the MTU (GSO)
 * @rx_gso6: the same over IPv6
 * @flags: NETBACK_BROKEN
 * @max_queues: the queues offered to the frontend
 * @nr_queues: the queues served while connected
 * @queues: the queues
 * @share: its part in the sharing of dom0 between vifs (netback_share.h;
 *	under netback_share_lock); the bytes of all its queues count
 * @share_next: the next turn a queue of the vif takes (under
 *	netback_share_lock)
 * @share_serving: the turn now
 * @share_wq: the vif's queues wait here for their turns
 * @share_on: it has a weight, a minimum rate or a cap
 * @weight: its weight, from xenstore or sysfs (0: none)
 * @min_kbps: its minimum rate in kbit/s (0: none)
 * @cap_bytes: the toolstack's rate=: bytes every @cap_usec (0: no cap)
 * @cap_usec: that period
 * @flow_queue: by a flow's hash, the queue the guest last sent it on
 *	(see NETBACK_FLOW_SLOTS; 0: none yet); the stack's packets of that
 *	flow go back on it, so that one thread serves both ways of a
 *	connection
 */
struct netback_vif {
	struct xenbus_device *xdev;
	struct net_device *dev;
	struct mutex lock;	/* see above */
	struct xenbus_watch hotplug_watch;
	struct xenbus_watch share_watch;
	bool hotplug_ok;
	bool connected;
	bool sg;
	bool rx_csum4;
	bool rx_csum6;
	bool rx_gso4;
	bool rx_gso6;
	unsigned long flags;
	unsigned int max_queues;
	unsigned int nr_queues;
	struct netback_queue queues[NETBACK_MAX_QUEUES];
	struct netback_share_vif share;
	unsigned int share_next;
	unsigned int share_serving;
	wait_queue_head_t share_wq;
	bool share_on;
	u32 weight;
	u32 min_kbps;
	u64 cap_bytes;
	u64 cap_usec;
	u32 flow_queue[NETBACK_FLOW_SLOTS];
};

/* netback_data.c */
void netback_init_queues(struct netback_vif *vif);
int netback_connect_rings(struct netback_vif *vif,
			  const struct netback_ring_refs *refs,
			  unsigned int nr);
void netback_disconnect_rings(struct netback_vif *vif);
netdev_tx_t netback_start_xmit(struct sk_buff *skb, struct net_device *dev);
u16 netback_select_queue(struct net_device *dev, struct sk_buff *skb,
			 struct net_device *sb_dev);
void netback_broken(struct netback_vif *vif, const char *why);
void netback_share_configure(struct netback_vif *vif);
void netback_share_stats(struct netback_vif *vif, u64 *bytes, u64 *held);

#endif /* _XEN_NETBACK_H */
