// SPDX-License-Identifier: GPL-2.0
/*
 * State every x86 Xen guest type shares: which kind of guest this is and
 * the flags Xen booted it with.  Set once, early, by the entry code of the
 * guest type (enlighten_pvh.c), read everywhere through <xen/xen.h>.
 */
#include <linux/cache.h>
#include <linux/export.h>
#include <linux/types.h>
#include <xen/xen.h>
#include <asm/xen/hypervisor.h>

enum xen_domain_type xen_domain_type __ro_after_init = XEN_NATIVE;
EXPORT_SYMBOL_GPL(xen_domain_type);

u32 xen_start_flags __ro_after_init;
EXPORT_SYMBOL(xen_start_flags);

/*
 * In an HVM container (PVH) Xen translates guest frames itself, so two
 * pages contiguous in the guest's physical space are contiguous for a
 * device as well, and the block layer has checked the former already.
 */
bool xen_biovec_phys_mergeable(const struct bio_vec *vec1,
			       const struct page *page)
{
	return true;
}
