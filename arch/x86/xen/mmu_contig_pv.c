// SPDX-License-Identifier: GPL-2.0
/*
 * Machine-contiguous memory for a PV guest that does DMA.
 *
 * A PV guest's pages are machine frames Xen handed out in no order, so
 * a buffer that spans pages is scattered in machine memory, and a
 * device (which sees machine addresses) cannot take it in one piece.
 * XENMEM_exchange trades frames for others: the frames behind a range
 * of pfns go back to Xen, and one extent of 2^order frames in a row
 * (below an address limit, for devices that cannot reach all of memory)
 * comes in their place.  Xen takes a frame back only when nothing
 * references it, so the range is unmapped from the direct map first,
 * and mapped again to whichever frames it has at the end.  Xen writes
 * the M2P of the frames it hands out; the P2M is the guest's to update.
 */
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <asm/tlbflush.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/interface/memory.h>
#include <xen/xen-ops.h>

#include "multicall.h"
#include "p2m.h"
#include "xen-ops.h"

/* The largest range exchanged at once: 2 MiB. */
#define XEN_CONTIG_MAX_ORDER	9
#define XEN_CONTIG_BATCH	64

static DEFINE_SPINLOCK(xen_contig_lock);
/* The scattered frames of the range (one exchange at a time). */
static xen_pfn_t xen_contig_frames[1 << XEN_CONTIG_MAX_ORDER];

/*
 * Point the direct map of @nr pages at @pfn at @frames[i] (@step 1), at
 * @frames[0] + i (@step 0), or at nothing (@frames NULL), batched, then
 * flush every CPU's TLB once.  The direct map is PAGE_KERNEL, in 4 KiB
 * pages in a PV guest.
 */
static int xen_contig_remap(unsigned long pfn, unsigned int nr,
			    const xen_pfn_t *frames, bool step)
{
	struct mmu_update req[XEN_CONTIG_BATCH];
	unsigned int i, n = 0, level;
	struct mmuext_op flush = { .cmd = MMUEXT_TLB_FLUSH_ALL };
	u64 prot = pgprot_val(PAGE_KERNEL) & __supported_pte_mask;
	int rc = 0;

	for (i = 0; i < nr; i++) {
		pte_t *pte = lookup_address((unsigned long)__va(PFN_PHYS(pfn + i)),
					    &level);
		u64 val = 0;

		if (WARN_ON_ONCE(!pte || level != PG_LEVEL_4K))
			return -EINVAL;
		if (frames) {
			u64 mfn = step ? frames[i] : frames[0] + i;

			val = prot | (mfn << PAGE_SHIFT);
		}
		req[n].ptr = phys_to_machine(__pa(pte)) | MMU_NORMAL_PT_UPDATE;
		req[n].val = val;
		if (++n == XEN_CONTIG_BATCH || i == nr - 1) {
			rc = xen_mc_mmu_update(req, n);
			if (rc)
				return rc;
			n = 0;
		}
	}
	return HYPERVISOR_mmuext_op(&flush, 1, NULL, DOMID_SELF);
}

static void xen_contig_p2m(unsigned long pfn, unsigned int nr,
			   const xen_pfn_t *frames, bool step)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		WARN_ON(xen_p2m_set(&xen_p2m, pfn + i,
				    frames ? (step ? frames[i] : frames[0] + i) :
					     XEN_P2M_MISSING));
}

/*
 * Trade the frames behind @nr pfns at @pfn (in xen_contig_frames) for
 * @out_nr extents of @out_order pages below 2^@bits.  On success,
 * @out holds the new frames' first mfns; on failure Xen left the old
 * frames where they were, and they are mapped again.
 */
static int xen_contig_exchange(unsigned long pfn, unsigned int order,
			       unsigned int in_order, unsigned int out_order,
			       xen_pfn_t *out, unsigned int bits)
{
	unsigned int nr = 1U << order;
	struct xen_memory_exchange x = {
		.in = {
			.extent_start = xen_contig_frames,
			.nr_extents = nr >> in_order,
			.extent_order = in_order,
			.domid = DOMID_SELF,
		},
		.out = {
			.extent_start = out,
			.nr_extents = nr >> out_order,
			.extent_order = out_order,
			.mem_flags = XENMEMF_address_bits(bits),
			.domid = DOMID_SELF,
		},
	};
	unsigned int i;
	int rc;

	lockdep_assert_held(&xen_contig_lock);
	for (i = 0; i < nr >> out_order; i++)
		out[i] = pfn + (i << out_order);
	rc = xen_contig_remap(pfn, nr, NULL, true);
	if (rc) {
		/* Some entries went: put them all back as they were. */
		WARN_ON(xen_contig_remap(pfn, nr, xen_contig_frames,
					 in_order == 0));
		return rc;
	}
	xen_contig_p2m(pfn, nr, NULL, true);

	rc = HYPERVISOR_memory_op(XENMEM_exchange, &x);
	if (rc || x.nr_exchanged != x.in.nr_extents) {
		/* One extent on one side: nothing was exchanged. */
		xen_contig_p2m(pfn, nr, xen_contig_frames, in_order == 0);
		WARN_ON(xen_contig_remap(pfn, nr, xen_contig_frames,
					 in_order == 0));
		return rc ?: -EIO;
	}
	xen_contig_p2m(pfn, nr, out, out_order == 0);
	return xen_contig_remap(pfn, nr, out, out_order == 0);
}

/**
 * xen_create_contiguous_region() - make a range machine-contiguous
 * @pstart: its physical (pfn) address, page-aligned, in the direct map
 * @order: it is 2^@order pages, at most 2 MiB
 * @address_bits: the new frames lie below 2^@address_bits (0: anywhere)
 * @dma_handle: the machine address of the range, on success
 *
 * The content of the range is lost.  A range already contiguous below
 * the limit is traded all the same.
 *
 * Return: 0, -EINVAL, or Xen's error (the range is as it was).
 */
int xen_create_contiguous_region(phys_addr_t pstart, unsigned int order,
				 unsigned int address_bits,
				 dma_addr_t *dma_handle)
{
	unsigned long pfn = PFN_DOWN(pstart), flags, mfn;
	unsigned int i;
	xen_pfn_t base;
	int rc;

	if (!xen_pv_domain())
		return -EINVAL;
	if (order > XEN_CONTIG_MAX_ORDER || offset_in_page(pstart))
		return -EINVAL;

	spin_lock_irqsave(&xen_contig_lock, flags);
	for (i = 0; i < 1U << order; i++) {
		mfn = __xen_p2m_entry(pfn + i);
		if (mfn == INVALID_P2M_ENTRY || (mfn & IDENTITY_FRAME_BIT)) {
			rc = -EINVAL;
			goto out;
		}
		xen_contig_frames[i] = mfn;
	}
	rc = xen_contig_exchange(pfn, order, 0, order, &base, address_bits);
	if (!rc)
		*dma_handle = PFN_PHYS(base);
out:
	spin_unlock_irqrestore(&xen_contig_lock, flags);
	return rc;
}
EXPORT_SYMBOL_GPL(xen_create_contiguous_region);

/**
 * xen_destroy_contiguous_region() - give a contiguous range's frames back
 * @pstart: what xen_create_contiguous_region() was given
 * @order: the same order
 *
 * Trades the extent for frames from anywhere, so that memory low enough
 * for devices is not held by a buffer freed for other use.  On failure
 * the range keeps its frames, which does no harm.
 */
void xen_destroy_contiguous_region(phys_addr_t pstart, unsigned int order)
{
	static xen_pfn_t scattered[1 << XEN_CONTIG_MAX_ORDER];
	unsigned long pfn = PFN_DOWN(pstart), flags;
	int rc;

	if (!xen_pv_domain() || order > XEN_CONTIG_MAX_ORDER)
		return;
	spin_lock_irqsave(&xen_contig_lock, flags);
	xen_contig_frames[0] = pfn_to_mfn(pfn);
	rc = xen_contig_exchange(pfn, order, order, 0, scattered, 0);
	spin_unlock_irqrestore(&xen_contig_lock, flags);
	if (rc)
		pr_warn_ratelimited("xen: %lu pages at pfn %#lx keep their contiguous frames: %d\n",
				    1UL << order, pfn, rc);
}
EXPORT_SYMBOL_GPL(xen_destroy_contiguous_region);
