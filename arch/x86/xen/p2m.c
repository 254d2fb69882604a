// SPDX-License-Identifier: GPL-2.0
/*
 * The P2M of a PV guest, and lookups in Xen's M2P.
 *
 * Xen's domain builder hands the guest a flat P2M: an array of one mfn
 * per populated pfn (start_info.mfn_list), in the boot area.  Until the
 * kernel has an allocator, lookups read that array, through the memory
 * map's plan (memmap_plan.h) once frames have moved out of its holes.
 * xen_p2m_build() then moves the map into a tree (p2m_tree.c), which
 * can hold holes, identity ranges and pfns past the boot-time ones; the
 * boot area's array is not used again.
 */
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <asm/xen/interface.h>
#include <asm/xen/page.h>
#include <xen/xen.h>

#include "memmap_plan.h"
#include "p2m.h"
#include "xen-ops.h"

/* The builder's array, until xen_p2m_build(). */
static unsigned long *xen_p2m_flat __initdata;
static unsigned long xen_p2m_flat_size __initdata;
/* The moves out of the memory map's holes, once made (setup_pv.c). */
static struct xen_memmap_plan *xen_p2m_plan __initdata;
/* Dom0's map, the machine's: its holes below @end are identity. */
static struct {
	const struct e820_entry *map;
	unsigned int nr;
	unsigned long end;
} xen_p2m_io __initdata;

struct xen_p2m xen_p2m;
bool xen_p2m_ready __ro_after_init;

/**
 * xen_p2m_entry() - the P2M entry of a pfn
 * @pfn: a page frame
 *
 * Return: the mfn, with IDENTITY_FRAME_BIT for an identity entry, or
 * INVALID_P2M_ENTRY.
 */
unsigned long xen_p2m_entry(unsigned long pfn)
{
	return __xen_p2m_entry(pfn);
}
EXPORT_SYMBOL_GPL(xen_p2m_entry);

/**
 * xen_m2p_entry() - the pfn a machine frame backs
 * @mfn: a machine frame
 *
 * Xen's M2P says which pfn a frame was last given as; a frame of
 * another domain (a grant mapping, say) may hold anything there, or lie
 * past the table's end, so the answer is checked against the P2M.
 *
 * Return: the pfn, or INVALID_P2M_ENTRY for a frame not ours.
 */
unsigned long xen_m2p_entry(unsigned long mfn)
{
	return __xen_m2p_entry(mfn);
}
EXPORT_SYMBOL_GPL(xen_m2p_entry);

/**
 * xen_p2m_set_foreign() - let an empty page stand for another domain's frame
 * @pfn: a page with no memory behind it (xen_alloc_unpopulated_pages())
 * @mfn: the machine frame of another domain a grant mapping now puts at
 *	the page's direct-map address; INVALID_P2M_ENTRY once it is gone
 *
 * What reaches the page by its pfn (DMA through swiotlb-xen, bio merges)
 * then reaches the foreign frame.  Nothing marks the entry as foreign:
 * the M2P names the other domain's pfn for that frame, which the P2M
 * does not confirm, so mfn_to_pfn() calls it not ours.
 *
 * Only a page that had memory once qualifies: its entry has a leaf of
 * the tree's own, so setting it allocates nothing and needs no lock
 * (the tree's allocator is for boot).  Different pfns may be set at
 * once from any context.
 *
 * Return: 0; -EBUSY when @pfn has a frame already; -EINVAL for a pfn
 * with no leaf of its own, or an identity entry.
 */
int xen_p2m_set_foreign(unsigned long pfn, unsigned long mfn)
{
	unsigned long old = __xen_p2m_entry(pfn);

	if (WARN_ON_ONCE(!xen_p2m_has_leaf(&xen_p2m, pfn)))
		return -EINVAL;
	if (old != INVALID_P2M_ENTRY && (old & IDENTITY_FRAME_BIT))
		return -EINVAL;
	if (mfn != INVALID_P2M_ENTRY && old != INVALID_P2M_ENTRY)
		return -EBUSY;
	return xen_p2m_set(&xen_p2m, pfn, mfn);
}
EXPORT_SYMBOL_GPL(xen_p2m_set_foreign);

/*
 * Once the page allocator runs, the tree's pages come from it: the
 * memblock allocator it was built with is gone with the init sections.
 * Only memory added at run time (xen_p2m_add_memory()) needs new pages;
 * everything else has its leaves since boot.
 */
static void *xen_p2m_page_alloc(void *ctx)
{
	return (void *)get_zeroed_page(GFP_KERNEL);
}

static void xen_p2m_page_free(void *ctx, void *page)
{
	free_page((unsigned long)page);
}

static DEFINE_MUTEX(xen_p2m_add_lock);

/**
 * xen_p2m_add_memory() - make room in the P2M for memory added at run time
 * @pfn: the first pfn of the new memory
 * @nr: how many
 *
 * The tree's limit grows to take them in and they get leaves of their
 * own (their entries missing), so that filling them later (the balloon,
 * xen_pv_claim_frames()) or mapping a grant at them allocates nothing.
 * Nothing to do outside a PV guest.
 *
 * Context: process context; sleeps.
 * Return: 0, -ERANGE past what the tree can hold or over pfns that are
 * not free (dom0's I/O identity window), or -ENOMEM.
 */
int xen_p2m_add_memory(unsigned long pfn, unsigned long nr)
{
	unsigned long i;
	int rc;

	if (!xen_pv_domain())
		return 0;
	for (i = pfn; i < pfn + nr; i++)
		if (__xen_p2m_entry(i) != INVALID_P2M_ENTRY)
			return -ERANGE;
	mutex_lock(&xen_p2m_add_lock);
	xen_p2m.alloc = xen_p2m_page_alloc;
	xen_p2m.free = xen_p2m_page_free;
	rc = xen_p2m_grow(&xen_p2m, max(xen_p2m.limit, pfn + nr));
	if (rc)
		rc = -ERANGE;
	else
		rc = xen_p2m_own_range(&xen_p2m, pfn, pfn + nr);
	mutex_unlock(&xen_p2m_add_lock);
	return rc;
}

/**
 * xen_m2p_other() - the pfn of a frame the M2P gives no confirmed pfn for
 * @mfn: the machine frame
 *
 * Return: @mfn for an I/O frame of dom0 (an identity entry: its own
 * pfn), else INVALID_P2M_ENTRY.
 */
unsigned long xen_m2p_other(unsigned long mfn)
{
	if (__xen_p2m_entry(mfn) == IDENTITY_FRAME(mfn))
		return mfn;
	return INVALID_P2M_ENTRY;
}

/**
 * xen_p2m_early_entry() - a P2M entry before the tree is built
 * @pfn: a page frame
 *
 * Reads the builder's array, at the pfn whose frame @pfn holds after
 * the moves out of memory map holes; a hole pfn whose frame moved or
 * went back has none, unless it is dom0's (xen_p2m_identity_holes()):
 * then it is an identity entry.  Only called until xen_p2m_build() is
 * done, which is long before init memory goes: hence __ref, and the
 * warning.  The plan's moves are searched one by one; there are at most
 * XEN_MEMMAP_MOVES.
 *
 * Return: as xen_p2m_entry().
 */
unsigned long __ref xen_p2m_early_entry(unsigned long pfn)
{
	unsigned long from = pfn;

	if (WARN_ON_ONCE(system_state >= SYSTEM_FREEING_INITMEM))
		return INVALID_P2M_ENTRY;
	if (xen_p2m_plan)
		from = xen_memmap_source(xen_p2m_plan, pfn);
	if (from != XEN_MEMMAP_NONE && from < xen_p2m_flat_size &&
	    xen_p2m_flat[from] != INVALID_P2M_ENTRY)
		return xen_p2m_flat[from];
	if (xen_p2m_io.map && pfn < xen_p2m_io.end &&
	    xen_memmap_next_hole(xen_p2m_io.map, xen_p2m_io.nr, pfn, pfn + 1,
				 &from, &from))
		return IDENTITY_FRAME(pfn);
	return INVALID_P2M_ENTRY;
}

/**
 * xen_p2m_identity_holes() - make dom0's memory map holes identity
 * @map: the machine's memory map, as dom0 keeps it (until the tree is
 *	built)
 * @nr: its entries
 * @floor: the pfn up to which the holes are identity at least
 *
 * Dom0 reaches the machine's devices and firmware tables where they
 * are: a pfn the map does not call RAM maps the machine frame of the
 * same number.  A hole pfn the builder populated has its frame moved
 * or given back first (setup_pv.c).  The holes are identity up to the
 * end of the map's last entry that a tree can hold, or @floor if that
 * is higher; an entry beyond (a reserved window at 1 TiB, say) is left
 * out, and so is what lies between, which costs a tree page a GiB.
 */
void __init xen_p2m_identity_holes(const struct e820_entry *map,
				   unsigned int nr, unsigned long floor)
{
	xen_p2m_io.map = map;
	xen_p2m_io.nr = nr;
	xen_p2m_io.end = xen_memmap_io_end(map, nr, floor, XEN_P2M_MAX_PFNS);
}

/**
 * xen_p2m_init_flat() - look pfns up in the domain builder's array
 * @mfn_list: start_info.mfn_list
 * @nr_pages: its entries
 */
void __init xen_p2m_init_flat(unsigned long *mfn_list, unsigned long nr_pages)
{
	xen_p2m_flat = mfn_list;
	xen_p2m_flat_size = nr_pages;
}

/**
 * xen_p2m_released() - a frame went back to Xen
 * @pfn: the pfn that held it, in the builder's array
 */
void __init xen_p2m_released(unsigned long pfn)
{
	if (!WARN_ON_ONCE(pfn >= xen_p2m_flat_size))
		xen_p2m_flat[pfn] = INVALID_P2M_ENTRY;
}

/**
 * xen_p2m_moved() - frames have moved out of the memory map's holes
 * @plan: the moves, made (M2P included); kept until xen_p2m_build()
 */
void __init xen_p2m_moved(struct xen_memmap_plan *plan)
{
	xen_p2m_plan = plan;
}

static void *__init xen_p2m_boot_alloc(void *ctx)
{
	return memblock_alloc(PAGE_SIZE, PAGE_SIZE);
}

static void __init xen_p2m_boot_free(void *ctx, void *page)
{
	memblock_free(page, PAGE_SIZE);
}

/**
 * xen_p2m_build() - move the P2M into a tree of its own
 * @limit: pfns the tree must be able to hold (the memory map's end)
 *
 * Needs memblock.  Copies the builder's array, as moved.
 *
 * Return: 0 or -ENOMEM.
 */
int __init xen_p2m_build(unsigned long limit)
{
	unsigned long pfn, start, end;
	int rc;

	/*
	 * Frames moved above a limit that mem= lowered stay in the tree:
	 * unused, as RAM mem= cuts off, but the P2M agrees with the M2P.
	 */
	limit = max(limit, xen_p2m_flat_size);
	if (xen_p2m_plan)
		limit = max(limit, xen_memmap_filled(xen_p2m_plan,
						     xen_p2m_flat_size));
	rc = xen_p2m_init(&xen_p2m, max(limit, xen_p2m_io.end),
			  xen_p2m_boot_alloc, xen_p2m_boot_free, NULL);
	if (rc)
		return rc;
	for (pfn = 0; pfn < limit; pfn++) {
		unsigned long mfn = xen_p2m_early_entry(pfn);

		if (mfn == INVALID_P2M_ENTRY || (mfn & IDENTITY_FRAME_BIT))
			continue;
		rc = xen_p2m_set(&xen_p2m, pfn, mfn);
		if (rc)
			return rc;
	}
	/* Dom0's holes, whole leaves at a time where they can. */
	for (pfn = 0; xen_p2m_io.map &&
	     xen_memmap_next_hole(xen_p2m_io.map, xen_p2m_io.nr, pfn,
				  xen_p2m_io.end, &start, &end); pfn = end) {
		rc = xen_p2m_set_range(&xen_p2m, start, end, XEN_P2M_IDENTITY);
		if (rc)
			return rc;
	}
	xen_p2m_plan = NULL;
	xen_p2m_io.map = NULL;
	/* The tree is whole before a lookup may take it. */
	smp_wmb();
	WRITE_ONCE(xen_p2m_ready, true);
	return 0;
}

/**
 * arbitrary_virt_to_mfn() - the machine frame behind any kernel address
 * @v: a mapped kernel address (direct map, image, vmalloc, fixmap)
 *
 * Return: the mfn the page tables map @v to.
 */
unsigned long arbitrary_virt_to_mfn(const void *v)
{
	unsigned int level;
	pte_t *pte = lookup_address((unsigned long)v, &level);

	if (WARN_ON_ONCE(!pte || level != PG_LEVEL_4K))
		return INVALID_P2M_ENTRY;
	return (native_pte_val(*pte) & PTE_PFN_MASK) >> PAGE_SHIFT;
}
EXPORT_SYMBOL_GPL(arbitrary_virt_to_mfn);
