/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of netback, the Xen network
 * backend.
 *
 * netback_xenbus.c owns a vif's life: its net_device (vif<domid>.<id>,
 * made at probe so that the toolstack's hotplug script can put it on a
 * bridge), the negotiation with the frontend, connecting the rings and
 * taking them down.  netback_data.c moves packets: one thread per vif
 * takes what the guest sends (its transmit ring) and hands it to the
 * stack, and copies what the stack sends the guest into the buffers the
 * guest posted (its receive ring).  netback_txcheck.c checks a sent
 * packet's slots (pure logic).
 *
 * Data moves by grant copy both ways; nothing of the guest is mapped
 * but its two rings.
 *
 * Lock order: netback_vif.lock (mutex: connect, disconnect, the
 * sharing's settings) -> the net_device's tx queue lock (start_xmit) ->
 * nothing; netback_share_lock (a spinlock over every vif's part in the
 * sharing) -> nothing.  The rings belong to the thread.
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
 * is told to wait: a guest that posts none pins no more than this.
 */
#define NETBACK_RX_QUEUE_MAX	256
#define NETBACK_RX_QUEUE_BYTES	(1024 * 1024)

/*
 * The guest's buffers one packet may take: 16 pages of data (a GSO packet
 * is at most 64 KiB with its headers, one of the largest MTU a byte
 * less) and the GSO slot, with one to spare.
 */
#define NETBACK_RX_MAX_SLOTS	18

/* Grant copies in one hypercall. */
#define NETBACK_COPY_BATCH	256

/* netback_vif.flags */
#define NETBACK_KICKED	0	/* an event came; the irq waits for its EOI */
#define NETBACK_BROKEN	1	/* the frontend sent nonsense */

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
 * @tx_sring: the guest's transmit ring, mapped
 * @rx_sring: its receive ring, mapped
 * @tx: our indices of the transmit ring
 * @tx_prod_seen: the transmit ring's req_prod as last read
 * @rx: our indices of the receive ring
 * @irq: the event channel's irq (0 when unbound)
 * @thread: the thread serving both rings
 * @wq: it waits here
 * @flags: NETBACK_KICKED, NETBACK_BROKEN
 * @rx_queue: packets for the guest
 * @rx_queued: the bytes in it
 * @copy: a batch of grant copies
 * @nr_copy: how many in it
 * @share: its part in the sharing of dom0 between vifs (netback_share.h;
 *	under netback_share_lock)
 * @share_on: it has a weight, a minimum rate or a cap
 * @pass_bytes: bytes the thread's pass moved, both ways
 * @pass_allow: bytes the sharing lets the pass move
 * @weight: its weight, from xenstore or sysfs (0: none)
 * @min_kbps: its minimum rate in kbit/s (0: none)
 * @cap_bytes: the toolstack's rate=: bytes every @cap_usec (0: no cap)
 * @cap_usec: that period
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
	struct gnttab_copy *copy;
	unsigned int nr_copy;
	struct netback_share_vif share;
	bool share_on;
	u64 pass_bytes;
	u64 pass_allow;
	u32 weight;
	u32 min_kbps;
	u64 cap_bytes;
	u64 cap_usec;
};

/* netback_data.c */
int netback_connect_rings(struct netback_vif *vif, grant_ref_t tx_ref,
			  grant_ref_t rx_ref, evtchn_port_t port);
void netback_disconnect_rings(struct netback_vif *vif);
netdev_tx_t netback_start_xmit(struct sk_buff *skb, struct net_device *dev);
void netback_broken(struct netback_vif *vif, const char *why);
void netback_share_configure(struct netback_vif *vif);
void netback_share_stats(struct netback_vif *vif, u64 *bytes, u64 *held);

#endif /* _XEN_NETBACK_H */
