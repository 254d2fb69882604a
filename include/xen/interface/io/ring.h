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

#include <linux/stddef.h>
#include <linux/string.h>
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

/*
 * The classic ring API, by which drivers outside our subtree (scsifront,
 * the USB, sound and display frontends) were written: DEFINE_RING_TYPES()
 * gives a protocol its shared ring (the layout above) and a private view
 * of it for each end, and the RING_* macros work on that view.  Our own
 * drivers use include/xen/ring.h instead.
 *
 * A front view holds the next request index it will publish
 * (req_prod_pvt) and the next response it will read (rsp_cons); a back
 * view the reverse.  Indices run free; RING_SIZE() is a power of two.
 */
#define DEFINE_RING_TYPES(name, req_t, rsp_t)				\
DEFINE_XEN_SRING(name, req_t, rsp_t);					\
struct name##_front_ring {						\
	RING_IDX req_prod_pvt;						\
	RING_IDX rsp_cons;						\
	unsigned int nr_ents;						\
	struct name##_sring *sring;					\
};									\
struct name##_back_ring {						\
	RING_IDX rsp_prod_pvt;						\
	RING_IDX req_cons;						\
	unsigned int nr_ents;						\
	struct name##_sring *sring;					\
};									\
typedef struct name##_sring name##_sring_t;				\
typedef struct name##_front_ring name##_front_ring_t;			\
typedef struct name##_back_ring name##_back_ring_t

/* Entries in @bytes of shared ring @s (only its type counts). */
#define __RING_SIZE(s, bytes)						\
	(1U << (31 - __builtin_clz(					\
		((bytes) - offsetof(typeof(*(s)), ring)) /		\
		sizeof((s)->ring[0]))))
/* The same, as a constant, for protocol @name's ring. */
#define __CONST_RING_SIZE(name, bytes)					\
	(1U << (31 - __builtin_clz(					\
		((bytes) - offsetof(struct name##_sring, ring)) /	\
		sizeof(((struct name##_sring *)NULL)->ring[0]))))

/* Zero the shared ring's indices; each end wants the first event. */
#define SHARED_RING_INIT(s) do {					\
	typeof(s) __s = (s);						\
									\
	__s->req_prod = 0;						\
	__s->rsp_prod = 0;						\
	__s->req_event = 1;						\
	__s->rsp_event = 1;						\
	memset(__s->pvt.pvt_pad, 0, sizeof(__s->pvt.pvt_pad));		\
	memset(__s->__pad, 0, sizeof(__s->__pad));			\
} while (0)

#define FRONT_RING_ATTACH(r, s, i, bytes) do {				\
	typeof(r) __r = (r);						\
	RING_IDX __i = (i);						\
									\
	__r->req_prod_pvt = __i;					\
	__r->rsp_cons = __i;						\
	__r->sring = (s);						\
	__r->nr_ents = __RING_SIZE(__r->sring, bytes);			\
} while (0)
#define FRONT_RING_INIT(r, s, bytes)	FRONT_RING_ATTACH(r, s, 0, bytes)
/* A new shared ring of @bytes, and the front's view of it. */
#define XEN_FRONT_RING_INIT(r, s, bytes) do {				\
	typeof(s) __sr = (s);						\
									\
	SHARED_RING_INIT(__sr);						\
	FRONT_RING_INIT(r, __sr, bytes);				\
} while (0)

#define BACK_RING_ATTACH(r, s, i, bytes) do {				\
	typeof(r) __r = (r);						\
	RING_IDX __i = (i);						\
									\
	__r->rsp_prod_pvt = __i;					\
	__r->req_cons = __i;						\
	__r->sring = (s);						\
	__r->nr_ents = __RING_SIZE(__r->sring, bytes);			\
} while (0)
#define BACK_RING_INIT(r, s, bytes)	BACK_RING_ATTACH(r, s, 0, bytes)

#define RING_SIZE(r)			((r)->nr_ents)
/* Requests the front may still write before the ring is full. */
#define RING_FREE_REQUESTS(r) ({					\
	typeof(r) __r = (r);						\
	RING_SIZE(__r) - (__r->req_prod_pvt - __r->rsp_cons);		\
})
#define RING_FULL(r)			(RING_FREE_REQUESTS(r) == 0)

#define RING_HAS_UNCONSUMED_RESPONSES(r) ({				\
	typeof(r) __r = (r);						\
	__r->sring->rsp_prod - __r->rsp_cons;				\
})
/* Published requests the back may take: no more than it has room to answer. */
#define RING_HAS_UNCONSUMED_REQUESTS(r) ({				\
	typeof(r) __r = (r);						\
	unsigned int __waiting = __r->sring->req_prod - __r->req_cons;	\
	unsigned int __room = RING_SIZE(__r) -				\
		(__r->req_cons - __r->rsp_prod_pvt);			\
	__waiting < __room ? __waiting : __room;			\
})

/* The entry of free-running index @idx. */
#define RING_GET_REQUEST(r, idx) ({					\
	typeof(r) __r = (r);						\
	&__r->sring->ring[(idx) & (RING_SIZE(__r) - 1)].req;		\
})
#define RING_GET_RESPONSE(r, idx) ({					\
	typeof(r) __r = (r);						\
	&__r->sring->ring[(idx) & (RING_SIZE(__r) - 1)].rsp;		\
})
/*
 * Copy an entry out of the shared page once, so that the other end
 * cannot change it between the checks and the use of its fields: the
 * barrier keeps the compiler from reading the shared entry again.
 */
#define RING_COPY_REQUEST(r, idx, req) do {				\
	typeof(req) __to = (req);					\
									\
	memcpy(__to, RING_GET_REQUEST(r, idx), sizeof(*__to));		\
	barrier();							\
} while (0)
#define RING_COPY_RESPONSE(r, idx, rsp) do {				\
	typeof(rsp) __to = (rsp);					\
									\
	memcpy(__to, RING_GET_RESPONSE(r, idx), sizeof(*__to));		\
	barrier();							\
} while (0)

/* Has the other end published more than the ring holds? */
#define RING_REQUEST_CONS_OVERFLOW(r, cons) ({				\
	typeof(r) __r = (r);						\
	((cons) - __r->rsp_prod_pvt) >= RING_SIZE(__r);			\
})
#define RING_REQUEST_PROD_OVERFLOW(r, prod) ({				\
	typeof(r) __r = (r);						\
	((prod) - __r->rsp_prod_pvt) > RING_SIZE(__r);			\
})
#define RING_RESPONSE_PROD_OVERFLOW(r, prod) ({				\
	typeof(r) __r = (r);						\
	((prod) - __r->rsp_cons) > RING_SIZE(__r);			\
})

/* Publish what was written. */
#define RING_PUSH_REQUESTS(r) do {					\
	typeof(r) __r = (r);						\
									\
	virt_wmb();	/* the entries, then the index */		\
	__r->sring->req_prod = __r->req_prod_pvt;			\
} while (0)
#define RING_PUSH_RESPONSES(r) do {					\
	typeof(r) __r = (r);						\
									\
	virt_wmb();	/* the entries, then the index */		\
	__r->sring->rsp_prod = __r->rsp_prod_pvt;			\
} while (0)

/*
 * Publish, and set @notify when the other end asked for an event at an
 * index this push passed (its req_event or rsp_event).
 */
#define __RING_PUSH_AND_CHECK(prod, event, pvt, notify) do {		\
	RING_IDX *__prod = (prod);					\
	RING_IDX __old = *__prod;					\
	RING_IDX __new = (pvt);						\
									\
	virt_wmb();	/* the entries, then the index */		\
	*__prod = __new;						\
	virt_mb();	/* the index, then the other end's event */	\
	(notify) = (RING_IDX)(__new - *(event)) <			\
		   (RING_IDX)(__new - __old);				\
} while (0)
#define RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(r, notify) do {		\
	typeof(r) __pr = (r);						\
									\
	__RING_PUSH_AND_CHECK(&__pr->sring->req_prod,			\
			      &__pr->sring->req_event,			\
			      __pr->req_prod_pvt, notify);		\
} while (0)
#define RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(r, notify) do {		\
	typeof(r) __pr = (r);						\
									\
	__RING_PUSH_AND_CHECK(&__pr->sring->rsp_prod,			\
			      &__pr->sring->rsp_event,			\
			      __pr->rsp_prod_pvt, notify);		\
} while (0)

/*
 * Before sleeping: is there more work?  If not, ask for an event at the
 * next entry, then look again, for one that came in between.
 */
#define RING_FINAL_CHECK_FOR_REQUESTS(r, more) do {			\
	typeof(r) __fr = (r);						\
	int __more = RING_HAS_UNCONSUMED_REQUESTS(__fr);		\
									\
	if (!__more) {							\
		__fr->sring->req_event = __fr->req_cons + 1;		\
		virt_mb();	/* the event index, then the producer's */ \
		__more = RING_HAS_UNCONSUMED_REQUESTS(__fr);		\
	}								\
	(more) = __more;						\
} while (0)
#define RING_FINAL_CHECK_FOR_RESPONSES(r, more) do {			\
	typeof(r) __fr = (r);						\
	int __more = RING_HAS_UNCONSUMED_RESPONSES(__fr);		\
									\
	if (!__more) {							\
		__fr->sring->rsp_event = __fr->rsp_cons + 1;		\
		virt_mb();	/* the event index, then the producer's */ \
		__more = RING_HAS_UNCONSUMED_RESPONSES(__fr);		\
	}								\
	(more) = __more;						\
} while (0)

/*
 * Byte rings ("flex" rings, 9pfs and pvcalls): two rings of bytes, in
 * and out, each half of 2^order pages, with their indices in a page of
 * their own (name_data_intf).  DEFINE_XEN_FLEX_RING(name) gives:
 *   name_mask(idx, size)		the offset of a free-running index
 *   name_get_ring_ptr(buf, idx, size)	its address in @buf
 *   name_read_packet(...)		copy @size bytes out, wrapping
 *   name_write_packet(...)		copy @size bytes in, wrapping
 *   name_queued(prod, cons, size)	bytes between cons and prod
 *   struct name_data			the two halves' addresses
 * and DEFINE_XEN_FLEX_RING_AND_INTF(name) the indices' page as well.
 */
/* Bytes of each ring of a pair on 2^order pages of Xen's 4 KiB. */
#define XEN_FLEX_RING_SIZE(order)	(1UL << ((order) + 12 - 1))

#define DEFINE_XEN_FLEX_RING(name)					\
static inline RING_IDX name##_mask(RING_IDX idx, RING_IDX size)		\
{									\
	return idx & (size - 1);					\
}									\
									\
static inline unsigned char *name##_get_ring_ptr(unsigned char *buf,	\
						 RING_IDX idx,		\
						 RING_IDX size)		\
{									\
	return &buf[name##_mask(idx, size)];				\
}									\
									\
static inline void name##_read_packet(void *to,				\
				      const unsigned char *buf,		\
				      size_t size, RING_IDX masked_prod, \
				      RING_IDX *masked_cons,		\
				      RING_IDX ring_size)		\
{									\
	size_t first = ring_size - *masked_cons;			\
									\
	if (first > size)						\
		first = size;						\
	memcpy(to, buf + *masked_cons, first);				\
	memcpy((unsigned char *)to + first, buf, size - first);		\
	*masked_cons = name##_mask(*masked_cons + size, ring_size);	\
}									\
									\
static inline void name##_write_packet(unsigned char *buf,		\
				       const void *from, size_t size,	\
				       RING_IDX *masked_prod,		\
				       RING_IDX masked_cons,		\
				       RING_IDX ring_size)		\
{									\
	size_t first = ring_size - *masked_prod;			\
									\
	if (first > size)						\
		first = size;						\
	memcpy(buf + *masked_prod, from, first);			\
	memcpy(buf, (const unsigned char *)from + first, size - first);	\
	*masked_prod = name##_mask(*masked_prod + size, ring_size);	\
}									\
									\
static inline RING_IDX name##_queued(RING_IDX prod, RING_IDX cons,	\
				     RING_IDX ring_size)		\
{									\
	RING_IDX used = name##_mask(prod - cons, ring_size);		\
									\
	/* Equal offsets of unequal indices: the ring is full. */	\
	return (!used && prod != cons) ? ring_size : used;		\
}									\
									\
struct name##_data {							\
	unsigned char *in;						\
	unsigned char *out;						\
}

#define DEFINE_XEN_FLEX_RING_AND_INTF(name)				\
struct name##_data_intf {						\
	RING_IDX in_cons, in_prod;					\
	u8 pad1[56];							\
	RING_IDX out_cons, out_prod;					\
	u8 pad2[56];							\
	RING_IDX ring_order;						\
	grant_ref_t ref[];						\
};									\
DEFINE_XEN_FLEX_RING(name)

#endif /* _XEN_INTERFACE_IO_RING_H */
