/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of shared request/response rings (the layout is in
 * xen/interface/io/ring.h), for frontends and backends.
 *
 * The indices run freely and wrap at 2^32; an entry's slot is the index
 * masked by the number of entries.  The frontend keeps its own producer
 * index (published with xen_ring_push_requests()) and its consumer
 * index.  Everything the backend writes is checked before use: it cannot
 * claim more responses than there are requests outstanding, and its
 * response producer index never moves back: each value read is kept
 * (@rsp_seen), and a later one behind it is refused like one too far
 * ahead, so that a backend flipping the index cannot keep a consumer
 * looping between "there is more" and "there is nothing".
 *
 * A backend is checked the same way from the other side: the frontend
 * cannot publish more requests than there are slots free of them, counting
 * the ones the backend took and has not answered yet.
 *
 * The index logic is in inline functions that KUnit tests
 * (drivers/xen/ring_test.c); the two that touch the shared ring add the
 * barriers.
 */
#ifndef _XEN_RING_H
#define _XEN_RING_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <asm/barrier.h>
#include <xen/interface/io/ring.h>

/**
 * xen_ring_entries() - how many entries a shared ring has
 * @bytes: the size of its pages together
 * @header: bytes before the first entry
 * @entry: the size of one entry
 *
 * Return: the largest power of two that fits (0 if none does).
 */
static inline unsigned int xen_ring_entries(size_t bytes, size_t header,
					    size_t entry)
{
	unsigned int n;

	if (bytes < header + entry)
		return 0;
	n = (bytes - header) / entry;
	return 1U << ilog2(n);
}

/* The entries of a NAME_sring (DEFINE_XEN_SRING) of @bytes bytes. */
#define XEN_SRING_ENTRIES(name, bytes)					\
	xen_ring_entries(bytes, offsetof(struct name##_sring, ring),	\
			 sizeof(union name##_sring_entry))

/**
 * struct xen_front_ring - a frontend's own view of a ring
 * @req_prod_pvt: requests written, published or not
 * @rsp_cons: responses consumed
 * @rsp_seen: the backend's response producer index as last read
 * @nr_ents: entries in the ring, a power of two
 */
struct xen_front_ring {
	RING_IDX req_prod_pvt;
	RING_IDX rsp_cons;
	RING_IDX rsp_seen;
	unsigned int nr_ents;
};

/**
 * xen_ring_slot() - the slot an index falls in
 * @r: the ring
 * @idx: a request or response index
 *
 * Return: @idx masked by the ring's size.
 */
static inline unsigned int xen_ring_slot(const struct xen_front_ring *r,
					 RING_IDX idx)
{
	return idx & (r->nr_ents - 1);
}

/**
 * xen_ring_free_requests() - requests that can be written now
 * @r: the ring
 *
 * Return: entries not held by a request that has not been answered.
 */
static inline unsigned int xen_ring_free_requests(const struct xen_front_ring *r)
{
	return r->nr_ents - (r->req_prod_pvt - r->rsp_cons);
}

/**
 * xen_ring_notify_needed() - must the other end be told of new entries
 * @old: the producer index before this batch was published
 * @new: the producer index after it
 * @event: the index at which the other end asked to be told
 *
 * Return: true when @event lies in (@old, @new].
 */
static inline bool xen_ring_notify_needed(RING_IDX old, RING_IDX new,
					  RING_IDX event)
{
	return (RING_IDX)(new - event) < (RING_IDX)(new - old);
}

/**
 * xen_ring_new_responses() - responses waiting, checked
 * @r: the ring
 * @rsp_prod: the backend's response producer index, as read
 *
 * Keeps @rsp_prod as the index last read.
 *
 * Return: how many can be consumed, or -EIO when the backend claims more
 * responses than requests are outstanding, or fewer than it showed
 * before (its index moved back).
 */
static inline int xen_ring_new_responses(struct xen_front_ring *r,
					 RING_IDX rsp_prod)
{
	RING_IDX n = rsp_prod - r->rsp_cons;
	RING_IDX shown = r->rsp_seen - r->rsp_cons;

	r->rsp_seen = rsp_prod;
	if (n > (RING_IDX)(r->req_prod_pvt - r->rsp_cons) || n < shown)
		return -EIO;
	return n;
}

/**
 * xen_ring_note_responses() - keep a response producer index read
 * @r: the ring
 * @rsp_prod: the index, as read outside xen_ring_new_responses()
 *
 * The next xen_ring_new_responses() then refuses an index behind it.
 *
 * Return: @rsp_prod.
 */
static inline RING_IDX xen_ring_note_responses(struct xen_front_ring *r,
					       RING_IDX rsp_prod)
{
	r->rsp_seen = rsp_prod;
	return rsp_prod;
}

/**
 * xen_ring_publish() - move a producer index, for either end
 * @prod: the shared ring's producer index (req_prod or rsp_prod)
 * @val: its new value; the entries before it are written
 * @event: the other end's event index (req_event or rsp_event)
 *
 * Return: true when the other end asked to be notified of one of the
 * entries published.
 */
static inline bool xen_ring_publish(RING_IDX *prod, RING_IDX val,
				    const RING_IDX *event)
{
	RING_IDX old = READ_ONCE(*prod);

	virt_wmb();	/* the entries, then the index */
	WRITE_ONCE(*prod, val);
	virt_mb();	/* the index, then the other end's event */
	return xen_ring_notify_needed(old, val, READ_ONCE(*event));
}

/**
 * xen_ring_push_requests() - publish the requests written so far
 * @r: the ring
 * @req_prod: the shared ring's req_prod
 * @req_event: the shared ring's req_event
 *
 * Return: true when the backend must be notified.
 */
static inline bool xen_ring_push_requests(const struct xen_front_ring *r,
					  RING_IDX *req_prod,
					  const RING_IDX *req_event)
{
	return xen_ring_publish(req_prod, r->req_prod_pvt, req_event);
}

/**
 * xen_ring_final_check_responses() - before going idle
 * @r: the ring, all responses so far consumed
 * @rsp_event: the shared ring's rsp_event
 * @rsp_prod: the shared ring's rsp_prod
 * @wait: responses to wait for before the event (0 or 1: the next one);
 *	the caller keeps it within the requests in flight, or the event
 *	never comes
 *
 * Asks for an event once @wait more responses have come.  The index read
 * is kept: should the backend then move it back, the next
 * xen_ring_new_responses() says so, rather than finding nothing.
 *
 * Return: true when more responses arrived meanwhile: consume them too.
 */
static inline bool xen_ring_final_check_responses(struct xen_front_ring *r,
						  RING_IDX *rsp_event,
						  const RING_IDX *rsp_prod,
						  RING_IDX wait)
{
	WRITE_ONCE(*rsp_event, r->rsp_cons + max_t(RING_IDX, wait, 1));
	virt_mb();	/* the event index, then the producer index */
	return xen_ring_note_responses(r, READ_ONCE(*rsp_prod)) != r->rsp_cons;
}

/**
 * struct xen_back_ring - a backend's own indices of a shared ring
 * @req_cons: the next request to take
 * @rsp_prod_pvt: the next response to write; published with
 *	xen_ring_push_responses()
 * @req_seen: the frontend's req_prod as last accepted (set it to
 *	@req_cons when attaching: xen_back_ring_attach())
 * @nr_ents: the ring's entries, a power of two
 */
struct xen_back_ring {
	RING_IDX req_cons;
	RING_IDX rsp_prod_pvt;
	RING_IDX req_seen;
	unsigned int nr_ents;
};

/**
 * xen_back_ring_attach() - a backend's indices of a ring it just mapped
 * @r: its indices
 * @nr_ents: the ring's entries, a power of two
 * @rsp_prod: the shared ring's rsp_prod, read once by the caller
 *
 * Whatever the frontend left in the ring counts from its last response:
 * the backend takes requests from there.
 */
static inline void xen_back_ring_attach(struct xen_back_ring *r,
					unsigned int nr_ents, RING_IDX rsp_prod)
{
	r->nr_ents = nr_ents;
	r->req_cons = rsp_prod;
	r->rsp_prod_pvt = rsp_prod;
	r->req_seen = rsp_prod;
}

/**
 * xen_back_ring_slot() - the slot of an index
 * @r: the ring
 * @idx: a request or response index
 *
 * Return: the slot, below @r->nr_ents.
 */
static inline unsigned int xen_back_ring_slot(const struct xen_back_ring *r,
					      RING_IDX idx)
{
	return idx & (r->nr_ents - 1);
}

/**
 * xen_ring_new_requests() - the requests a frontend published, checked
 * @r: the ring
 * @req_prod: the shared ring's req_prod, read once by the caller
 *
 * The requests from @r->req_cons up to @req_prod, plus those taken and not
 * yet answered, must fit in the ring; more is a lie that would make the
 * backend read slots it has yet to answer.  Nor may @req_prod move back
 * from the value last accepted (@r->req_seen): a frontend flipping it
 * could keep the backend looking between "there is more" and "there is
 * nothing".
 *
 * Return: how many there are to take, or -EIO.
 */
static inline int xen_ring_new_requests(struct xen_back_ring *r,
					RING_IDX req_prod)
{
	RING_IDX n = req_prod - r->req_cons;
	RING_IDX taken = r->req_cons - r->rsp_prod_pvt;

	if (taken > r->nr_ents || n > r->nr_ents - taken ||
	    (RING_IDX)(req_prod - r->req_seen) > r->nr_ents)
		return -EIO;
	r->req_seen = req_prod;
	return n;
}

/**
 * xen_ring_push_responses() - publish the responses written
 * @r: the ring
 * @rsp_prod: the shared ring's rsp_prod
 * @rsp_event: the shared ring's rsp_event
 *
 * Return: true when the frontend asked for an event for one of them.
 */
static inline bool xen_ring_push_responses(const struct xen_back_ring *r,
					   RING_IDX *rsp_prod,
					   const RING_IDX *rsp_event)
{
	return xen_ring_publish(rsp_prod, r->rsp_prod_pvt, rsp_event);
}

/**
 * xen_ring_final_check_requests() - before a backend goes idle
 * @r: the ring, every request published so far taken
 * @req_event: the shared ring's req_event
 * @req_prod: the shared ring's req_prod
 *
 * Asks for an event at the next request, then looks once more.
 *
 * Return: true when a request came meanwhile: take it instead of waiting.
 */
static inline bool xen_ring_final_check_requests(const struct xen_back_ring *r,
						 RING_IDX *req_event,
						 const RING_IDX *req_prod)
{
	WRITE_ONCE(*req_event, r->req_cons + 1);
	virt_mb();	/* the event index, then the producer index */
	return READ_ONCE(*req_prod) != r->req_cons;
}

#endif /* _XEN_RING_H */
