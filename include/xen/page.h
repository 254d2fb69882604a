/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest frame numbers: the frame numbers Xen wants in grants and memory
 * operations.
 *
 * Xen's pages are 4 KiB, as are x86's.  In an auto-translated guest (PVH,
 * HVM) a frame number is the guest's own pfn; a PV guest's is the
 * machine frame its P2M gives (asm/xen/page.h).
 */
#ifndef _XEN_PAGE_H
#define _XEN_PAGE_H

#include <linux/bits.h>
#include <linux/mm.h>
#include <linux/pfn.h>
#include <asm/xen/page.h>

#define XEN_PAGE_SHIFT	12
#define XEN_PAGE_SIZE	BIT(XEN_PAGE_SHIFT)

static_assert(XEN_PAGE_SHIFT == PAGE_SHIFT);

/**
 * pfn_to_gfn() - the frame number Xen knows a page by
 * @pfn: a page frame number of this guest
 *
 * Return: its guest frame number.
 */
static inline unsigned long pfn_to_gfn(unsigned long pfn)
{
	return pfn_to_mfn(pfn);
}

/**
 * xen_page_to_gfn() - the frame number Xen knows a page by
 * @page: a page of this guest
 *
 * Return: its guest frame number.
 */
static inline unsigned long xen_page_to_gfn(struct page *page)
{
	return pfn_to_gfn(page_to_pfn(page));
}

/**
 * virt_to_gfn() - the frame number of a directly mapped address
 * @v: an address in the kernel's direct map (not vmalloc)
 *
 * Return: the guest frame number of the page holding @v.
 */
static inline unsigned long virt_to_gfn(const void *v)
{
	return pfn_to_gfn(PFN_DOWN(__pa(v)));
}

#endif /* _XEN_PAGE_H */
