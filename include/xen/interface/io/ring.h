/* SPDX-License-Identifier: MIT */
/*
 * Shared request/response rings: the page(s) a frontend and its backend
 * share for a split device's requests and responses.
 *
 * A ring is a header of four free-running indices and some padding,
 * then an array of entries, each big enough for a request or a response.
 * The number of entries is the largest power of two that fits.  The
 * frontend produces requests (req_prod) and consumes responses; the
 * backend the reverse.  Each side asks to be notified by writing the index
 * at which it wants the next event (req_event, rsp_event).
 *
 * DEFINE_XEN_SRING(name, request type, response type) declares
 * union name_sring_entry and struct name_sring with Xen's layout; the
 * ring arithmetic is in include/xen/ring.h.  Checked against Xen 4.17's
 * public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_RING_H
#define _XEN_INTERFACE_IO_RING_H

#include <linux/types.h>

typedef unsigned int RING_IDX;

#define DEFINE_XEN_SRING(name, req_t, rsp_t)				\
union name##_sring_entry {						\
	req_t req;							\
	rsp_t rsp;							\
};									\
									\
struct name##_sring {							\
	RING_IDX req_prod, req_event;					\
	RING_IDX rsp_prod, rsp_event;					\
	union {								\
		struct {						\
			u8 smartpoll_active;				\
		} netif;						\
		struct {						\
			u8 msg;						\
		} tapif_user;						\
		u8 pvt_pad[4];						\
	} pvt;								\
	u8 __pad[44];							\
	union name##_sring_entry ring[1];	/* as many as fit */	\
}

#endif /* _XEN_INTERFACE_IO_RING_H */
