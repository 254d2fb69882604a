/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page frames and machine frames of an x86 Xen guest.
 *
 * An HVM container (PVH, HVM) sees guest frames only: Xen translates
 * them itself, and every function here is the identity.  A PV guest's
 * page tables, grants and memory operations name machine frames (mfns):
 * the frames of the host, which Xen hands out in no particular order.
 * Its own frames (pfns) are the dense numbering the rest of Linux
 * uses, and it keeps the map between the two: the P2M (p2m.c) from pfn
 * to mfn, and Xen's read-only M2P table from mfn back to pfn.
 */
#ifndef _ASM_X86_XEN_PAGE_H
#define _ASM_X86_XEN_PAGE_H

#include <linux/bits.h>
#include <linux/mm.h>
#include <linux/pfn.h>
#include <linux/types.h>
#include <asm/page.h>
#include <asm/pgtable_types.h>
#include <xen/xen.h>

/* No machine frame behind a pfn (a hole, or a page given back). */
#define INVALID_P2M_ENTRY	(~0UL)
/* In a P2M entry: the machine frame is the pfn itself (dom0's I/O holes). */
#define IDENTITY_FRAME_BIT	BIT(62)
#define IDENTITY_FRAME(m)	((m) | IDENTITY_FRAME_BIT)

/*
 * A page-table entry of a PV guest may map a frame that is not the
 * guest's (the shared info page, a grant table frame, another domain's
 * page): it has no pfn.  Such an entry holds, where the pfn goes, the
 * mfn with this bit, which no real pfn has; the PV MMU writes the mfn
 * itself, and reads the entry back the same way.
 */
#define XEN_FOREIGN_PFN_BIT	BIT_ULL(39)

static inline unsigned long xen_foreign_pfn(unsigned long mfn)
{
	return mfn | XEN_FOREIGN_PFN_BIT;
}

#ifdef CONFIG_XEN_PV
unsigned long xen_p2m_entry(unsigned long pfn);
unsigned long xen_m2p_entry(unsigned long mfn);
int xen_p2m_set_foreign(unsigned long pfn, unsigned long mfn);
int xen_p2m_add_memory(unsigned long pfn, unsigned long nr);
#else
static inline unsigned long xen_p2m_entry(unsigned long pfn)
{
	return pfn;
}

static inline unsigned long xen_m2p_entry(unsigned long mfn)
{
	return mfn;
}

static inline int xen_p2m_set_foreign(unsigned long pfn, unsigned long mfn)
{
	return -EINVAL;
}

static inline int xen_p2m_add_memory(unsigned long pfn, unsigned long nr)
{
	return 0;
}
#endif

/**
 * pfn_to_mfn() - the machine frame behind a page frame
 * @pfn: a frame of this guest
 *
 * Return: the mfn (@pfn itself outside PV, and for identity entries),
 * or INVALID_P2M_ENTRY.
 */
static inline unsigned long pfn_to_mfn(unsigned long pfn)
{
	unsigned long mfn;

	if (!xen_pv_domain())
		return pfn;
	mfn = xen_p2m_entry(pfn);
	if (mfn != INVALID_P2M_ENTRY)
		mfn &= ~IDENTITY_FRAME_BIT;
	return mfn;
}

/**
 * mfn_to_pfn() - the page frame a machine frame backs
 * @mfn: a machine frame
 *
 * Return: the pfn; for a frame this guest does not own (another
 * domain's, or I/O memory with no identity entry), INVALID_P2M_ENTRY.
 */
static inline unsigned long mfn_to_pfn(unsigned long mfn)
{
	if (!xen_pv_domain())
		return mfn;
	return xen_m2p_entry(mfn);
}

static inline u64 phys_to_machine(phys_addr_t phys)
{
	return ((u64)pfn_to_mfn(PFN_DOWN(phys)) << PAGE_SHIFT) |
	       offset_in_page(phys);
}

static inline phys_addr_t machine_to_phys(u64 maddr)
{
	return ((phys_addr_t)mfn_to_pfn(maddr >> PAGE_SHIFT) << PAGE_SHIFT) |
	       offset_in_page(maddr);
}

/* For addresses of the direct map and of the kernel image only. */
static inline unsigned long virt_to_mfn(const void *v)
{
	return pfn_to_mfn(PFN_DOWN(__pa(v)));
}

static inline void *mfn_to_virt(unsigned long mfn)
{
	return __va(PFN_PHYS(mfn_to_pfn(mfn)));
}

unsigned long arbitrary_virt_to_mfn(const void *v);

/**
 * arbitrary_virt_to_machine() - the machine address behind a kernel address
 * @v: a mapped kernel address (direct map, image, vmalloc, fixmap)
 *
 * Return: the machine address, as Xen takes it for a page-table entry
 * (mmu_update, a grant map with GNTMAP_contains_pte).
 */
static inline u64 arbitrary_virt_to_machine(const void *v)
{
	return ((u64)arbitrary_virt_to_mfn(v) << PAGE_SHIFT) |
	       offset_in_page(v);
}

#endif /* _ASM_X86_XEN_PAGE_H */
