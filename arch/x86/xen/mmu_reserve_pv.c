// SPDX-License-Identifier: GPL-2.0
/*
 * A PV guest's pages handed back to Xen and taken again, one by one.
 *
 * The pool of empty pages (drivers/xen/unpopulated.c) and, later, the
 * balloon give the machine frame behind a page back to Xen and keep the
 * page itself, with no memory behind it, for something else to stand in
 * its place (a grant another domain maps there) or for the day memory
 * comes back.  In a PV guest the frame is in three places: the P2M, the
 * direct map's entry for the page, and Xen's own accounting.  Xen frees a
 * frame only once nothing maps it, so the direct-map entry goes first,
 * then the P2M entry, then the frame (XENMEM_decrease_reservation); taking
 * a frame is the same backwards (XENMEM_populate_physmap, which for a PV
 * guest returns the frames it chose and fills in the M2P itself).
 *
 * Callers hold the pages (allocated, not free) and serialise calls on the
 * same pages.  Calls are serialised here too (xen_reserve_lock), for the
 * work area.
 */
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/interface/memory.h>
#include <xen/xen.h>
#include <xen/xen-ops.h>

#include "multicall.h"
#include "p2m.h"
#include "xen-ops.h"

/*
 * Frames per batch.  The work area is static, under xen_reserve_lock:
 * a balloon's batches are this size, and under memory pressure there is
 * no allocating one.  A batch costs one mmu_update, one memory_op and,
 * to release, one flush of every CPU's TLB.
 */
#define XEN_RESERVE_BATCH	512

static DEFINE_MUTEX(xen_reserve_lock);
static xen_pfn_t xen_reserve_frames[XEN_RESERVE_BATCH];
static struct mmu_update xen_reserve_req[XEN_RESERVE_BATCH];

/*
 * Find the direct map's entries of @pages, for xen_reserve_remap(): each
 * must be a 4K PTE (a PV guest's direct map has no large pages).  The
 * walk gives the entry's address in the direct map, whose machine
 * address is a P2M lookup away.  A page that follows the one before it
 * within the same 2M has the entry after that one's, in the same page
 * table: no walk for it.
 */
static int xen_reserve_entries(struct page **pages, unsigned int nr)
{
	unsigned long addr, prev = 0;
	unsigned int i, level;
	pte_t *pte = NULL;

	for (i = 0; i < nr; i++) {
		addr = (unsigned long)page_address(pages[i]);
		if (pte && addr == prev + PAGE_SIZE && (addr & ~PMD_MASK)) {
			pte++;
		} else {
			pte = lookup_address(addr, &level);
			if (WARN_ON_ONCE(!pte || level != PG_LEVEL_4K))
				return -EINVAL;
		}
		prev = addr;
		xen_reserve_req[i].ptr = phys_to_machine(__pa(pte)) |
					 MMU_NORMAL_PT_UPDATE;
	}
	return 0;
}

/*
 * Point the direct map's entries xen_reserve_entries() found at @frames
 * (or at nothing when @frames is NULL), in one mmu_update.  No TLB
 * flush: see the callers.
 */
static int xen_reserve_remap(unsigned int nr, const xen_pfn_t *frames)
{
	u64 prot = pgprot_val(PAGE_KERNEL) & __supported_pte_mask;
	unsigned int i;

	for (i = 0; i < nr; i++)
		xen_reserve_req[i].val = frames ?
			prot | ((u64)frames[i] << PAGE_SHIFT) : 0;
	return xen_mc_mmu_update(xen_reserve_req, nr);
}

/* Every CPU may hold a translation of a page just unmapped. */
static int xen_reserve_flush(void)
{
	struct mmuext_op flush = { .cmd = MMUEXT_TLB_FLUSH_ALL };

	return xen_mc_mmuext_op(&flush, 1);
}

static void xen_reserve_p2m(struct page **pages, unsigned int nr,
			    const xen_pfn_t *frames)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		WARN_ON(xen_p2m_set(&xen_p2m, page_to_pfn(pages[i]),
				    frames ? frames[i] : XEN_P2M_MISSING));
}

static int xen_reserve_op(unsigned int cmd, xen_pfn_t *frames, unsigned int nr)
{
	struct xen_memory_reservation r = {
		.extent_start = frames,
		.nr_extents = nr,
		.extent_order = 0,
		.domid = DOMID_SELF,
	};

	return HYPERVISOR_memory_op(cmd, &r);
}

/*
 * Release up to XEN_RESERVE_BATCH frames; how many went, or an error.
 * Unmapped first, and flushed, so that no CPU can reach a frame once Xen
 * has it back.
 */
static int xen_release_batch(struct page **pages, unsigned int nr)
{
	xen_pfn_t *frames = xen_reserve_frames;
	unsigned int i;
	int rc, done;

	for (i = 0; i < nr; i++) {
		frames[i] = __xen_p2m_entry(page_to_pfn(pages[i]));
		if (frames[i] == INVALID_P2M_ENTRY ||
		    (frames[i] & IDENTITY_FRAME_BIT))
			return -EINVAL;
	}
	rc = xen_reserve_entries(pages, nr);
	if (rc)
		return rc;
	rc = xen_reserve_remap(nr, NULL);
	if (!rc)
		rc = xen_reserve_flush();
	if (rc) {
		WARN_ON(xen_reserve_remap(nr, frames));
		return rc;
	}
	xen_reserve_p2m(pages, nr, NULL);
	done = xen_reserve_op(XENMEM_decrease_reservation, frames, nr);
	if (done < 0)
		done = 0;
	if (done < nr) {
		/* Xen kept the rest: they are this guest's as before. */
		xen_reserve_p2m(pages + done, nr - done, frames + done);
		memmove(xen_reserve_req, xen_reserve_req + done,
			(nr - done) * sizeof(*xen_reserve_req));
		WARN_ON(xen_reserve_remap(nr - done, frames + done));
	}
	return done;
}

/*
 * Populate up to XEN_RESERVE_BATCH pages; how many got a frame.  The
 * direct map's entries were not present: no TLB holds them, nothing to
 * flush.
 */
static int xen_claim_batch(struct page **pages, unsigned int nr)
{
	xen_pfn_t *frames = xen_reserve_frames;
	unsigned int i;
	int done;

	for (i = 0; i < nr; i++) {
		if (WARN_ON(__xen_p2m_entry(page_to_pfn(pages[i])) !=
			    INVALID_P2M_ENTRY))
			return -EINVAL;
		frames[i] = page_to_pfn(pages[i]);
	}
	/* Before Xen gives frames: a page that cannot be mapped takes none. */
	if (xen_reserve_entries(pages, nr))
		return -EINVAL;
	done = xen_reserve_op(XENMEM_populate_physmap, frames, nr);
	if (done <= 0)
		return done;
	xen_reserve_p2m(pages, done, frames);
	if (xen_reserve_remap(done, frames)) {
		/* The frames are ours but unmapped: that much is lost. */
		pr_err("xen: %d populated pages cannot be mapped\n", done);
		return -EIO;
	}
	return done;
}

/*
 * Run @batch over @nr pages, XEN_RESERVE_BATCH at a time, until Xen does
 * less than asked.  Return: pages done, or the first error if none.
 */
static int xen_reserve_batches(struct page **pages, unsigned int nr,
			       int (*batch)(struct page **pages,
					    unsigned int nr))
{
	unsigned int done = 0, n;
	int rc = 0;

	if (!xen_pv_domain())
		return -EINVAL;
	mutex_lock(&xen_reserve_lock);
	while (done < nr) {
		n = min(nr - done, XEN_RESERVE_BATCH);
		rc = batch(pages + done, n);
		if (rc <= 0)
			break;
		done += rc;
		if (rc < n)	/* Xen did less: it has no more to do */
			break;
	}
	mutex_unlock(&xen_reserve_lock);
	return done ?: rc;
}

/**
 * xen_pv_release_frames() - give the frames behind pages back to Xen
 * @pages: pages the caller owns, mapped in the direct map, in no order
 * @nr: how many
 *
 * Context: process context; sleeps.
 *
 * The pages stay the caller's, with no memory behind them: not mapped in
 * the direct map, missing in the P2M.  Their content is lost.
 *
 * Return: how many of the first pages went (the rest are as they were),
 * or a negative errno when none did.
 */
int xen_pv_release_frames(struct page **pages, unsigned int nr)
{
	return xen_reserve_batches(pages, nr, xen_release_batch);
}
EXPORT_SYMBOL_GPL(xen_pv_release_frames);

/**
 * xen_pv_claim_frames() - give pages memory again
 * @pages: pages xen_pv_release_frames() emptied
 * @nr: how many
 *
 * Context: process context; sleeps.
 *
 * Return: how many of the first pages got a frame and are mapped again
 * (Xen may have fewer to give), or a negative errno when none did.
 */
int xen_pv_claim_frames(struct page **pages, unsigned int nr)
{
	return xen_reserve_batches(pages, nr, xen_claim_batch);
}
EXPORT_SYMBOL_GPL(xen_pv_claim_frames);
