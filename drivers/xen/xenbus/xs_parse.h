/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the xenstore wire protocol: ring index arithmetic and
 * the parsing of what xenstored sends.  No hypercalls, no shared memory,
 * no allocation, so that KUnit tests it on any kernel (xs_parse_test.c).
 *
 * Everything xenstored sends is untrusted: these helpers validate before
 * the caller acts, and say "malformed" with -EIO or -EINVAL.
 */
#ifndef _XEN_XENBUS_XS_PARSE_H
#define _XEN_XENBUS_XS_PARSE_H

#include <linux/minmax.h>
#include <linux/types.h>
#include <xen/interface/io/xs_wire.h>

/**
 * xs_ring_used() - bytes in flight on one ring
 * @cons: the consumer index
 * @prod: the producer index
 *
 * Return: prod - cons, or XENSTORE_RING_SIZE + 1 when that is more than
 * the ring holds (the peer wrote a bad index).
 */
static inline u32 xs_ring_used(XENSTORE_RING_IDX cons, XENSTORE_RING_IDX prod)
{
	u32 used = prod - cons;

	return used <= XENSTORE_RING_SIZE ? used : XENSTORE_RING_SIZE + 1;
}

/**
 * xs_ring_chunk() - contiguous bytes from an index up to a limit
 * @idx: where to start
 * @avail: bytes available in total
 *
 * Return: how many can be copied without wrapping.
 */
static inline u32 xs_ring_chunk(XENSTORE_RING_IDX idx, u32 avail)
{
	u32 to_end = XENSTORE_RING_SIZE - MASK_XENSTORE_IDX(idx);

	return min(avail, to_end);
}

/**
 * xs_request_needs_event() - must xenstored be told of a request?
 * @start: the request ring's producer index before the request's first
 *	byte was written
 * @cons: its consumer index, read after the request's last byte was
 *	published
 *
 * xenstored reads what it finds in the ring and sleeps once it has read
 * everything it saw; it looks again by itself only while bytes are left
 * unread.  A request is published in parts (its header, then each piece
 * of its payload), so xenstored may have read the first parts and gone
 * to sleep before the last: having consumed bytes of the request is no
 * sign that it is awake.
 *
 * Return: true unless bytes from before @start are still unread (then
 * xenstored has not finished with them and will read on).
 */
static inline bool xs_request_needs_event(XENSTORE_RING_IDX start,
					  XENSTORE_RING_IDX cons)
{
	return (s32)(cons - start) >= 0;
}

int xs_errno(const char *name, unsigned int len);
int xs_count_strings(const char *buf, unsigned int len);
int xs_parse_watch_event(const char *buf, unsigned int len,
			 const char **path, const char **token);
int xs_check_reply(const struct xsd_sockmsg *req,
		   const struct xsd_sockmsg *reply);

#endif /* _XEN_XENBUS_XS_PARSE_H */
