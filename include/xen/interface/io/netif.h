/* SPDX-License-Identifier: MIT */
/*
 * The network device protocol between netfront and netback.
 *
 * Each queue has two shared rings (io/ring.h).  On the transmit ring the
 * frontend sends packets: a first request gives the whole packet's size
 * and its first piece of granted page, more requests (NETTXF_more_data)
 * give the following pieces, and a request with NETTXF_extra_info is
 * followed by a struct netif_extra_info in the next slot (the GSO segment
 * size, for instance).  The backend answers each slot; slots that held
 * extra information are answered with NETIF_RSP_NULL.
 *
 * On the receive ring the frontend posts empty granted pages; the backend
 * copies a packet into as many as it needs and answers each, in ring
 * order, with the offset and size of the data (or a negative status).
 *
 * What each end supports (feature-sg, feature-gso-tcpv4,
 * multi-queue-max-queues, ...) is negotiated in xenstore, not here.
 *
 * Checked against Xen 4.17's public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_NETIF_H
#define _XEN_INTERFACE_IO_NETIF_H

#include <linux/bits.h>
#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

/* A backend takes packets of at least this many slots. */
#define XEN_NETIF_NR_SLOTS_MIN	18

/* The largest packet a transmit request may describe. */
#define XEN_NETIF_MAX_TX_SIZE	0xFFFF

/* Flags of a transmit request. */
#define NETTXF_csum_blank	BIT(0)	/* checksum to be filled in */
#define NETTXF_data_validated	BIT(1)	/* checksum known good */
#define NETTXF_more_data	BIT(2)	/* the packet goes on in the next slot */
#define NETTXF_extra_info	BIT(3)	/* the next slot is a netif_extra_info */

/**
 * struct netif_tx_request - one piece of a packet to send
 * @gref: the grant of the page holding it
 * @offset: where it starts in the page
 * @flags: NETTXF_*
 * @id: the frontend's own value, echoed in the response
 * @size: the whole packet's size in the first slot, the piece's after
 */
struct netif_tx_request {
	grant_ref_t gref;
	u16 offset;
	u16 flags;
	u16 id;
	u16 size;
};

#define XEN_NETIF_EXTRA_TYPE_NONE	0
#define XEN_NETIF_EXTRA_TYPE_GSO	1
#define XEN_NETIF_EXTRA_TYPE_MCAST_ADD	2
#define XEN_NETIF_EXTRA_TYPE_MCAST_DEL	3
#define XEN_NETIF_EXTRA_TYPE_HASH	4
#define XEN_NETIF_EXTRA_TYPE_MAX	5

/* Another netif_extra_info follows in the next slot. */
#define XEN_NETIF_EXTRA_FLAG_MORE	BIT(0)

#define XEN_NETIF_GSO_TYPE_NONE		0
#define XEN_NETIF_GSO_TYPE_TCPV4	1
#define XEN_NETIF_GSO_TYPE_TCPV6	2

/**
 * struct netif_extra_info - what a slot after NETTXF_extra_info or
 *	NETRXF_extra_info holds
 * @type: XEN_NETIF_EXTRA_TYPE_*
 * @flags: XEN_NETIF_EXTRA_FLAG_*
 * @u: by @type
 * @u.gso: segmentation: @u.gso.size bytes a segment, @u.gso.type a
 *	XEN_NETIF_GSO_TYPE_*, @u.gso.features none defined
 * @u.mcast: a multicast address to add or remove
 * @u.hash: the packet's hash, of a type and algorithm of the control ring
 */
struct netif_extra_info {
	u8 type;
	u8 flags;
	union {
		struct {
			u16 size;
			u8 type;
			u8 pad;
			u16 features;
		} gso;
		struct {
			u8 addr[6];
		} mcast;
		struct {
			u8 type;
			u8 algorithm;
			u8 value[4];
		} hash;
		u16 pad[3];
	} u;
};

/**
 * struct netif_tx_response - the answer to one transmit slot
 * @id: the request's id (not set for NETIF_RSP_NULL)
 * @status: NETIF_RSP_*
 */
struct netif_tx_response {
	u16 id;
	s16 status;
};

/**
 * struct netif_rx_request - an empty page for the backend to fill
 * @id: the frontend's own value, echoed in the response
 * @pad: unused
 * @gref: the page's grant
 */
struct netif_rx_request {
	u16 id;
	u16 pad;
	grant_ref_t gref;
};

/* Flags of a receive response. */
#define NETRXF_data_validated	BIT(0)	/* checksum known good */
#define NETRXF_csum_blank	BIT(1)	/* checksum not filled in */
#define NETRXF_more_data	BIT(2)	/* the packet goes on in the next slot */
#define NETRXF_extra_info	BIT(3)	/* the next slot is a netif_extra_info */
#define NETRXF_gso_prefix	BIT(4)	/* (old) GSO information comes first */

/**
 * struct netif_rx_response - a filled page
 * @id: the request's id
 * @offset: where the data starts in the page
 * @flags: NETRXF_*
 * @status: the data's size when positive, else NETIF_RSP_*
 */
struct netif_rx_response {
	u16 id;
	u16 offset;
	u16 flags;
	s16 status;
};

DEFINE_XEN_SRING(netif_tx, struct netif_tx_request, struct netif_tx_response);
DEFINE_XEN_SRING(netif_rx, struct netif_rx_request, struct netif_rx_response);

#define NETIF_RSP_DROPPED	-2
#define NETIF_RSP_ERROR		-1
#define NETIF_RSP_OKAY		0
#define NETIF_RSP_NULL		1	/* answers a slot of extra information */

#endif /* _XEN_INTERFACE_IO_NETIF_H */
