/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P2M and M2P lookups of a PV guest, inline, for the files of
 * arch/x86/xen.  The PV MMU (mmu_pv.c) converts every page-table entry
 * it makes or reads, several per page fault: a function call there
 * costs more than the lookup.  p2m.c gives the rest of Linux the same
 * as exported functions, xen_p2m_entry() and xen_m2p_entry().
 */
#ifndef _ARCH_X86_XEN_P2M_H
#define _ARCH_X86_XEN_P2M_H

#include <linux/compiler.h>
#include <linux/uaccess.h>
#include <asm/xen/interface.h>
#include <asm/xen/page.h>

#include "p2m_tree.h"

/* p2m.c: the tree, once built. */
extern struct xen_p2m xen_p2m;
extern bool xen_p2m_ready;

unsigned long xen_m2p_other(unsigned long mfn);
unsigned long xen_p2m_early_entry(unsigned long pfn);

/* See xen_p2m_entry(). */
static __always_inline unsigned long __xen_p2m_entry(unsigned long pfn)
{
	if (likely(xen_p2m_ready))
		return xen_p2m_lookup(&xen_p2m, pfn);
	return xen_p2m_early_entry(pfn);
}

/*
 * See xen_m2p_entry().  The usual case, a frame of this guest whose M2P
 * entry the P2M confirms, stays inline; any other goes to
 * xen_m2p_other().  The M2P is read-only and has holes where no memory
 * is: a read there faults, and counts as no answer.
 */
static __always_inline unsigned long __xen_m2p_entry(unsigned long mfn)
{
	const unsigned long *m2p = (const unsigned long *)MACH2PHYS_VIRT_START;
	unsigned long pfn;

	if (unlikely(mfn >= (MACH2PHYS_VIRT_END - MACH2PHYS_VIRT_START) /
			    sizeof(*m2p)))
		goto other;
	__get_kernel_nofault(&pfn, &m2p[mfn], unsigned long, other);
	if (likely(__xen_p2m_entry(pfn) == mfn))
		return pfn;
other:
	return xen_m2p_other(mfn);
}

#endif /* _ARCH_X86_XEN_P2M_H */
