/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A batch of hypercalls for one multicall, as a PV guest builds it.
 *
 * The PV MMU changes page tables through Xen, and a hypercall per change
 * costs a trap into Xen each.  A batch collects the changes instead:
 * calls (struct multicall_entry) and, beside them, the arrays of
 * requests that the mmu_update and mmuext_op calls point to.  A request
 * that follows one of the same kind joins its call (the count grows by
 * one) rather than starting another, so a run of page-table writes
 * becomes one mmu_update with many entries; anything else in between
 * starts a new call and keeps the order.
 *
 * This is the pure part: no hypercall, no per-CPU state.  A reservation
 * that does not fit returns NULL; its caller sends the batch and asks
 * again.  KUnit tests it (mcb_test.c); multicall.c sends it.
 */
#ifndef _XEN_MCB_H
#define _XEN_MCB_H

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <xen/interface/xen.h>

/* Calls in a batch, and u64 words of request arrays beside them. */
#define XEN_MCB_CALLS	32
#define XEN_MCB_WORDS	2048	/* 1,024 mmu_update requests */

/**
 * struct xen_mcb - one batch
 * @calls: calls queued in @call
 * @words: words of @arg that their requests use
 * @call: the multicall entries
 * @arg: the requests the mmu_update and mmuext_op calls point to, in
 *	the order of the calls
 */
struct xen_mcb {
	unsigned int calls;
	unsigned int words;
	struct multicall_entry call[XEN_MCB_CALLS];
	u64 arg[XEN_MCB_WORDS];
};

#define XEN_MCB_MMU_WORDS	(sizeof(struct mmu_update) / sizeof(u64))
#define XEN_MCB_EXT_WORDS	(sizeof(struct mmuext_op) / sizeof(u64))

static inline void xen_mcb_reset(struct xen_mcb *b)
{
	b->calls = 0;
	b->words = 0;
}

static inline bool xen_mcb_empty(const struct xen_mcb *b)
{
	return !b->calls;
}

/*
 * Room for @n more requests of @size words: in the last call when it is
 * of @op and its array ends where the free words begin, else in a new
 * call.  Returns the first request's words, or NULL.
 */
static inline u64 *xen_mcb_requests(struct xen_mcb *b, unsigned long op,
				    unsigned int n, unsigned int size)
{
	struct multicall_entry *last = b->calls ? &b->call[b->calls - 1] : NULL;
	u64 *free = &b->arg[b->words];

	if (!n || n > (XEN_MCB_WORDS - b->words) / size)
		return NULL;
	if (last && last->op == op &&
	    (u64 *)last->args[0] + last->args[1] * size == free) {
		last->args[1] += n;
		b->words += n * size;
		return free;
	}
	if (b->calls == XEN_MCB_CALLS)
		return NULL;
	last = &b->call[b->calls++];
	last->op = op;
	last->result = 0;
	last->args[0] = (unsigned long)free;
	last->args[1] = n;
	last->args[2] = 0;		/* no count of the requests done */
	last->args[3] = DOMID_SELF;
	last->args[4] = 0;
	last->args[5] = 0;
	b->words += n * size;
	return free;
}

/**
 * xen_mcb_mmu_update() - room for @n mmu_update requests
 * @b: the batch
 * @n: how many
 *
 * Return: the requests to fill in, or NULL when the batch must be sent
 * first.  Consecutive reservations share one call.
 */
static inline struct mmu_update *xen_mcb_mmu_update(struct xen_mcb *b,
						    unsigned int n)
{
	BUILD_BUG_ON(sizeof(struct mmu_update) % sizeof(u64));
	return (struct mmu_update *)xen_mcb_requests(b, __HYPERVISOR_mmu_update,
						     n, XEN_MCB_MMU_WORDS);
}

/**
 * xen_mcb_mmuext() - room for @n mmuext_op requests
 * @b: the batch
 * @n: how many
 *
 * Return: as xen_mcb_mmu_update().
 */
static inline struct mmuext_op *xen_mcb_mmuext(struct xen_mcb *b,
					       unsigned int n)
{
	BUILD_BUG_ON(sizeof(struct mmuext_op) % sizeof(u64));
	return (struct mmuext_op *)xen_mcb_requests(b, __HYPERVISOR_mmuext_op,
						    n, XEN_MCB_EXT_WORDS);
}

/**
 * xen_mcb_call() - a call of its own, with up to five arguments
 * @b: the batch
 * @op: the hypercall
 * @a0: first argument
 * @a1: second argument
 * @a2: third argument
 *
 * For the calls that carry no request array (update_va_mapping, say).
 *
 * Return: the entry (for further arguments), or NULL when it is full.
 */
static inline struct multicall_entry *
xen_mcb_call(struct xen_mcb *b, unsigned long op, unsigned long a0,
	     unsigned long a1, unsigned long a2)
{
	struct multicall_entry *e;

	if (b->calls == XEN_MCB_CALLS)
		return NULL;
	e = &b->call[b->calls++];
	*e = (struct multicall_entry){
		.op = op,
		.args = { a0, a1, a2 },
	};
	return e;
}

/**
 * xen_mcb_requests_of() - how many requests a queued call carries
 * @e: a call of the batch
 *
 * Return: the count of an mmu_update or mmuext_op call, else 1.
 */
static inline unsigned long xen_mcb_requests_of(const struct multicall_entry *e)
{
	if (e->op == __HYPERVISOR_mmu_update || e->op == __HYPERVISOR_mmuext_op)
		return e->args[1];
	return 1;
}

#endif /* _XEN_MCB_H */
