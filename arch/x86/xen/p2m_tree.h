/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The P2M tree of a PV guest: for each of its page frames (pfn), the
 * machine frame (mfn) behind it.
 *
 * Three levels of pages of XEN_P2M_FANOUT entries: the root holds mid
 * pages, a mid page holds leaves, a leaf holds mfns.  Ranges nobody has
 * filled share two read-only pages: a leaf of XEN_P2M_MISSING entries,
 * and a mid page whose every entry is that leaf, so a lookup never
 * branches on them and an empty tree costs three pages.  A whole leaf of
 * identity entries (pfn == mfn: the holes of a dom0's memory map, where
 * the devices are) is a third shared page, recognised by its address,
 * since its entries would differ.  A leaf or mid page of its own is
 * allocated on the first write that makes it differ from the shared one.
 *
 * Pure data structure: pages come from and go back to the caller's
 * functions, so it runs on memblock at boot, on the page allocator
 * later, and on KUnit's allocations in p2m_test.c.  No locking: the
 * caller serialises writers; readers see an entry or its predecessor.
 */
#ifndef _XEN_P2M_TREE_H
#define _XEN_P2M_TREE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>

#define XEN_P2M_FANOUT		512
#define XEN_P2M_LEAF_PFNS	XEN_P2M_FANOUT
#define XEN_P2M_MID_PFNS	(XEN_P2M_FANOUT * XEN_P2M_LEAF_PFNS)
/* The pfns one tree can hold: 2^27 (512 GiB of 4 KiB pages). */
#define XEN_P2M_MAX_PFNS	(XEN_P2M_FANOUT * XEN_P2M_MID_PFNS)

/* No machine frame: a hole, or a page given back to Xen. */
#define XEN_P2M_MISSING		(~0UL)
/* Flag of an identity entry: the machine frame is the pfn itself. */
#define XEN_P2M_IDENTITY	BIT(62)

/**
 * struct xen_p2m - one tree
 * @root: the mid pages, XEN_P2M_FANOUT of them
 * @missing_leaf: the shared leaf of missing entries
 * @identity_leaf: the shared leaf that stands for identity entries
 * @missing_mid: the shared mid page of missing leaves
 * @limit: pfns below this are in the tree; above, every lookup misses
 * @alloc: gives a zeroed page, or NULL
 * @free: takes back a page that @alloc gave
 * @ctx: passed to @alloc and @free
 * @pages: pages allocated and not given back (not counting the
 *	shared ones)
 */
struct xen_p2m {
	unsigned long **root[XEN_P2M_FANOUT];
	unsigned long *missing_leaf;
	unsigned long *identity_leaf;
	unsigned long **missing_mid;
	unsigned long limit;
	void *(*alloc)(void *ctx);
	void (*free)(void *ctx, void *page);
	void *ctx;
	unsigned long pages;
};

int xen_p2m_init(struct xen_p2m *p2m, unsigned long limit,
		 void *(*alloc)(void *ctx), void (*free)(void *ctx, void *page),
		 void *ctx);
void xen_p2m_destroy(struct xen_p2m *p2m);
int xen_p2m_set(struct xen_p2m *p2m, unsigned long pfn, unsigned long mfn);
int xen_p2m_set_range(struct xen_p2m *p2m, unsigned long start,
		      unsigned long end, unsigned long mfn);
int xen_p2m_grow(struct xen_p2m *p2m, unsigned long limit);
int xen_p2m_own_range(struct xen_p2m *p2m, unsigned long start,
		      unsigned long end);

static inline unsigned long p2m_root_index(unsigned long pfn)
{
	return pfn / XEN_P2M_MID_PFNS;
}

static inline unsigned long p2m_mid_index(unsigned long pfn)
{
	return (pfn / XEN_P2M_LEAF_PFNS) % XEN_P2M_FANOUT;
}

static inline unsigned long p2m_leaf_index(unsigned long pfn)
{
	return pfn % XEN_P2M_LEAF_PFNS;
}

/**
 * xen_p2m_lookup() - the machine frame behind a pfn
 * @p2m: the tree
 * @pfn: the page frame
 *
 * Inline: the PV MMU looks up every entry it writes, and three loads
 * cost less than a call.  The shared pages make it branch only on the
 * limit and on the identity leaf.
 *
 * Return: the mfn; @pfn | XEN_P2M_IDENTITY for an identity entry;
 * XEN_P2M_MISSING for none (and for any pfn past the limit).
 */
static __always_inline unsigned long
xen_p2m_lookup(const struct xen_p2m *p2m, unsigned long pfn)
{
	const unsigned long *leaf;

	if (pfn >= READ_ONCE(p2m->limit))
		return XEN_P2M_MISSING;
	leaf = READ_ONCE(READ_ONCE(p2m->root[p2m_root_index(pfn)])[p2m_mid_index(pfn)]);
	if (leaf == p2m->identity_leaf)
		return pfn | XEN_P2M_IDENTITY;
	return READ_ONCE(leaf[p2m_leaf_index(pfn)]);
}

/**
 * xen_p2m_has_leaf() - does setting @pfn's entry allocate nothing
 * @p2m: the tree
 * @pfn: the page frame
 *
 * Return: true when @pfn is below the limit and its leaf is the tree's
 * own, not a shared one.
 */
static inline bool xen_p2m_has_leaf(const struct xen_p2m *p2m,
				    unsigned long pfn)
{
	const unsigned long *leaf;

	if (pfn >= READ_ONCE(p2m->limit))
		return false;
	leaf = READ_ONCE(READ_ONCE(p2m->root[p2m_root_index(pfn)])[p2m_mid_index(pfn)]);
	return leaf != p2m->missing_leaf && leaf != p2m->identity_leaf;
}

#endif /* _XEN_P2M_TREE_H */
