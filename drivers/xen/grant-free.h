/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The free list of grant references, as pure logic: no hypercalls, no
 * locks, no allocation, so KUnit tests it (grant-free-test.c).  The
 * caller (grant-table.c) holds its lock around every call.
 *
 * Each reference has a "next" slot.  Free references form one chain from
 * @head; references a driver reserved form private chains the driver
 * owns (gnttab_alloc_grant_references()), linked through the same slots.
 * GREF_END ends a chain.
 */
#ifndef _XEN_GRANT_FREE_H
#define _XEN_GRANT_FREE_H

#include <linux/errno.h>
#include <linux/types.h>
#include <xen/interface/grant_table.h>

#define GREF_END	((grant_ref_t)~0U)

/**
 * struct gref_free - the free references of a grant table
 * @next: per reference, the next in its chain
 * @size: references the table has (valid indices into @next)
 * @count: free references
 * @head: first free reference, or GREF_END
 */
struct gref_free {
	grant_ref_t *next;
	unsigned int size;
	unsigned int count;
	grant_ref_t head;
};

/**
 * gref_free_add_range() - add new references to the free list
 * @f: the free list
 * @next: the next slots for all @to references (may be a new array that
 *	holds a copy of the old slots)
 * @from: the first new reference
 * @to: one past the last; the table's new size
 */
static inline void gref_free_add_range(struct gref_free *f, grant_ref_t *next,
				       grant_ref_t from, grant_ref_t to)
{
	grant_ref_t r;

	f->next = next;
	for (r = from; r < to; r++)
		f->next[r] = r + 1 < to ? r + 1 : f->head;
	if (from < to)
		f->head = from;
	f->count += to - from;
	f->size = to;
}

/**
 * gref_free_take() - detach references from the free list
 * @f: the free list
 * @count: how many, at least 1
 * @chain: out: a chain of @count references
 *
 * Return: 0, or -ENOSPC when fewer than @count are free.
 */
static inline int gref_free_take(struct gref_free *f, unsigned int count,
				 grant_ref_t *chain)
{
	grant_ref_t r = f->head;
	unsigned int i;

	if (!count || count > f->count)
		return -ENOSPC;
	*chain = r;
	for (i = 1; i < count; i++)
		r = f->next[r];
	f->head = f->next[r];
	f->next[r] = GREF_END;
	f->count -= count;
	return 0;
}

/**
 * gref_free_put_chain() - give a chain of references back
 * @f: the free list
 * @chain: the chain's first reference, or GREF_END
 *
 * Return: how many references the chain held, or -EINVAL when it names
 * a reference beyond the table or runs longer than the table (a loop);
 * nothing is freed then.
 */
static inline int gref_free_put_chain(struct gref_free *f, grant_ref_t chain)
{
	grant_ref_t r = chain;
	unsigned int n = 0;

	if (chain == GREF_END)
		return 0;
	for (;;) {
		if (r >= f->size || ++n > f->size)
			return -EINVAL;
		if (f->next[r] == GREF_END)
			break;
		r = f->next[r];
	}
	f->next[r] = f->head;
	f->head = chain;
	f->count += n;
	return n;
}

/**
 * gref_chain_claim() - take the first reference of a private chain
 * @next: the next slots
 * @chain: the chain's head; advanced
 *
 * Return: the reference, or -ENOSPC when the chain is empty.
 */
static inline int gref_chain_claim(grant_ref_t *next, grant_ref_t *chain)
{
	grant_ref_t r = *chain;

	if (r == GREF_END)
		return -ENOSPC;
	*chain = next[r];
	next[r] = GREF_END;
	return r;
}

/**
 * gref_chain_release() - put a reference back on a private chain
 * @next: the next slots
 * @chain: the chain's head; becomes @ref
 * @ref: the reference
 */
static inline void gref_chain_release(grant_ref_t *next, grant_ref_t *chain,
				      grant_ref_t ref)
{
	next[ref] = *chain;
	*chain = ref;
}

/**
 * gref_revoke_flags() - the flags that take a v1 grant back
 * @flags: the entry's flags as read
 *
 * Return: 0 (the entry's new flags) when the grantee is not using the
 * page, or -EBUSY when Xen says it reads or writes it now.
 */
static inline int gref_revoke_flags(u16 flags)
{
	return flags & (GTF_reading | GTF_writing) ? -EBUSY : 0;
}

#endif /* _XEN_GRANT_FREE_H */
