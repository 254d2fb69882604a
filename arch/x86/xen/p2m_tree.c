// SPDX-License-Identifier: GPL-2.0
/*
 * The P2M tree of a PV guest (p2m_tree.h): pfn to mfn, three levels,
 * with shared pages for what nobody filled.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/math.h>
#include <linux/string.h>
#include <asm/barrier.h>
#include <asm/page.h>

#include "p2m_tree.h"

static_assert(XEN_P2M_FANOUT * sizeof(unsigned long) == PAGE_SIZE);

static bool p2m_shared_leaf(const struct xen_p2m *p2m, const unsigned long *leaf)
{
	return leaf == p2m->missing_leaf || leaf == p2m->identity_leaf;
}

static void *p2m_alloc(struct xen_p2m *p2m)
{
	void *page = p2m->alloc(p2m->ctx);

	if (page)
		p2m->pages++;
	return page;
}

static void p2m_free(struct xen_p2m *p2m, void *page)
{
	p2m->free(p2m->ctx, page);
	p2m->pages--;
}

/* The value of @pfn's entry in a leaf that is all of @kind. */
static unsigned long p2m_entry_of(unsigned long kind, unsigned long pfn)
{
	return kind == XEN_P2M_IDENTITY ? pfn | XEN_P2M_IDENTITY : XEN_P2M_MISSING;
}

/**
 * xen_p2m_init() - an empty tree
 * @p2m: the tree
 * @limit: pfns it holds at first (xen_p2m_grow() raises it)
 * @alloc: gives a zeroed page, or NULL
 * @free: takes one back
 * @ctx: for @alloc and @free
 *
 * Return: 0, -EINVAL for a limit past XEN_P2M_MAX_PFNS, -ENOMEM.
 */
int xen_p2m_init(struct xen_p2m *p2m, unsigned long limit,
		 void *(*alloc)(void *ctx), void (*free)(void *ctx, void *page),
		 void *ctx)
{
	unsigned int i;

	if (limit > XEN_P2M_MAX_PFNS)
		return -EINVAL;
	*p2m = (struct xen_p2m){
		.limit = limit, .alloc = alloc, .free = free, .ctx = ctx,
	};
	p2m->missing_leaf = alloc(ctx);
	p2m->identity_leaf = alloc(ctx);
	p2m->missing_mid = alloc(ctx);
	if (!p2m->missing_leaf || !p2m->identity_leaf || !p2m->missing_mid) {
		if (p2m->missing_leaf)
			free(ctx, p2m->missing_leaf);
		if (p2m->identity_leaf)
			free(ctx, p2m->identity_leaf);
		if (p2m->missing_mid)
			free(ctx, p2m->missing_mid);
		return -ENOMEM;
	}
	/* The identity leaf is known by its address; its entries miss. */
	memset(p2m->missing_leaf, 0xff, PAGE_SIZE);
	memset(p2m->identity_leaf, 0xff, PAGE_SIZE);
	for (i = 0; i < XEN_P2M_FANOUT; i++) {
		p2m->missing_mid[i] = p2m->missing_leaf;
		p2m->root[i] = p2m->missing_mid;
	}
	return 0;
}

/**
 * xen_p2m_destroy() - give back every page of a tree
 * @p2m: the tree; it must not be used afterwards
 */
void xen_p2m_destroy(struct xen_p2m *p2m)
{
	unsigned int i, j;

	for (i = 0; i < XEN_P2M_FANOUT; i++) {
		unsigned long **mid = p2m->root[i];

		if (mid == p2m->missing_mid)
			continue;
		for (j = 0; j < XEN_P2M_FANOUT; j++)
			if (!p2m_shared_leaf(p2m, mid[j]))
				p2m_free(p2m, mid[j]);
		p2m_free(p2m, mid);
	}
	p2m->free(p2m->ctx, p2m->missing_mid);
	p2m->free(p2m->ctx, p2m->identity_leaf);
	p2m->free(p2m->ctx, p2m->missing_leaf);
}

/* The mid page that holds @pfn's leaf, made the tree's own if shared. */
static unsigned long **p2m_own_mid(struct xen_p2m *p2m, unsigned long pfn)
{
	unsigned long **mid = p2m->root[p2m_root_index(pfn)];

	if (mid != p2m->missing_mid)
		return mid;
	mid = p2m_alloc(p2m);
	if (!mid)
		return NULL;
	memcpy(mid, p2m->missing_mid, PAGE_SIZE);
	/* Filled before a reader can find it. */
	smp_store_release(&p2m->root[p2m_root_index(pfn)], mid);
	return mid;
}

/* @pfn's leaf, made the tree's own (with the entries it stood for). */
static unsigned long *p2m_own_leaf(struct xen_p2m *p2m, unsigned long pfn)
{
	unsigned long **mid = p2m_own_mid(p2m, pfn);
	unsigned long *leaf, first;
	unsigned int i;

	if (!mid)
		return NULL;
	leaf = mid[p2m_mid_index(pfn)];
	if (!p2m_shared_leaf(p2m, leaf))
		return leaf;
	first = pfn - p2m_leaf_index(pfn);
	leaf = p2m_alloc(p2m);
	if (!leaf)
		return NULL;
	for (i = 0; i < XEN_P2M_LEAF_PFNS; i++)
		leaf[i] = mid[p2m_mid_index(pfn)] == p2m->identity_leaf ?
			  (first + i) | XEN_P2M_IDENTITY : XEN_P2M_MISSING;
	/* As for the mid page: filled before it is found. */
	smp_store_release(&mid[p2m_mid_index(pfn)], leaf);
	return leaf;
}

/**
 * xen_p2m_set() - record the machine frame behind a pfn
 * @p2m: the tree
 * @pfn: the page frame, below the limit
 * @mfn: its machine frame, XEN_P2M_MISSING, or @pfn | XEN_P2M_IDENTITY
 *
 * Allocates at most a mid page and a leaf, and none when a shared page
 * already says @mfn.
 *
 * Return: 0, -ERANGE for a pfn past the limit, -ENOMEM (the entry is
 * unchanged).
 */
int xen_p2m_set(struct xen_p2m *p2m, unsigned long pfn, unsigned long mfn)
{
	unsigned long *leaf;

	if (pfn >= p2m->limit)
		return -ERANGE;
	if (xen_p2m_lookup(p2m, pfn) == mfn)
		return 0;
	leaf = p2m_own_leaf(p2m, pfn);
	if (!leaf)
		return -ENOMEM;
	WRITE_ONCE(leaf[p2m_leaf_index(pfn)], mfn);
	return 0;
}

/* Point a whole leaf's slot at the shared leaf of @kind. */
static int p2m_share_leaf(struct xen_p2m *p2m, unsigned long pfn,
			  unsigned long kind)
{
	unsigned long *shared = kind == XEN_P2M_IDENTITY ? p2m->identity_leaf :
							   p2m->missing_leaf;
	unsigned long **mid = p2m->root[p2m_root_index(pfn)];
	unsigned long *old;

	if (mid == p2m->missing_mid && shared == p2m->missing_leaf)
		return 0;
	mid = p2m_own_mid(p2m, pfn);
	if (!mid)
		return -ENOMEM;
	old = mid[p2m_mid_index(pfn)];
	if (old == shared)
		return 0;
	WRITE_ONCE(mid[p2m_mid_index(pfn)], shared);
	if (!p2m_shared_leaf(p2m, old))
		p2m_free(p2m, old);
	return 0;
}

/**
 * xen_p2m_set_range() - make a range of pfns missing, or identity
 * @p2m: the tree
 * @start: first pfn
 * @end: pfn after the last, at most the limit
 * @kind: XEN_P2M_MISSING or XEN_P2M_IDENTITY
 *
 * Whole leaves in the range become the shared leaf of @kind (a leaf of
 * the tree's own goes back), the ends are set entry by entry.  The
 * caller must know that no reader still uses a leaf given back.
 *
 * Return: 0, -EINVAL, -ERANGE, or -ENOMEM (part of the range is set).
 */
int xen_p2m_set_range(struct xen_p2m *p2m, unsigned long start,
		      unsigned long end, unsigned long kind)
{
	unsigned long pfn = start;
	int rc;

	if (kind != XEN_P2M_MISSING && kind != XEN_P2M_IDENTITY)
		return -EINVAL;
	if (start > end || end > p2m->limit)
		return -ERANGE;
	while (pfn < end) {
		if (!p2m_leaf_index(pfn) && end - pfn >= XEN_P2M_LEAF_PFNS) {
			rc = p2m_share_leaf(p2m, pfn, kind);
			pfn += XEN_P2M_LEAF_PFNS;
		} else {
			rc = xen_p2m_set(p2m, pfn, p2m_entry_of(kind, pfn));
			pfn++;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/**
 * xen_p2m_own_range() - give a range of pfns leaves of the tree's own
 * @p2m: the tree
 * @start: the first pfn
 * @end: the pfn after the last, not past the limit
 *
 * Entries keep what they said.  Setting one of the range afterwards
 * allocates nothing (xen_p2m_has_leaf()).
 *
 * Return: 0, -ERANGE, or -ENOMEM (the leaves allocated so far stay).
 */
int xen_p2m_own_range(struct xen_p2m *p2m, unsigned long start,
		      unsigned long end)
{
	unsigned long pfn;

	if (start > end || end > p2m->limit)
		return -ERANGE;
	for (pfn = start; pfn < end;
	     pfn = round_down(pfn, XEN_P2M_LEAF_PFNS) + XEN_P2M_LEAF_PFNS)
		if (!p2m_own_leaf(p2m, pfn))
			return -ENOMEM;
	return 0;
}

/**
 * xen_p2m_grow() - let the tree hold more pfns
 * @p2m: the tree
 * @limit: the new limit, not below the old one
 *
 * The new pfns start missing.  Nothing is allocated.
 *
 * Return: 0 or -EINVAL.
 */
int xen_p2m_grow(struct xen_p2m *p2m, unsigned long limit)
{
	if (limit < p2m->limit || limit > XEN_P2M_MAX_PFNS)
		return -EINVAL;
	WRITE_ONCE(p2m->limit, limit);
	return 0;
}
