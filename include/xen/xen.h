/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kind of Xen guest, if any, this kernel is running as.
 *
 * Code outside the Xen subtree tests these predicates before it takes a Xen
 * specific path.  When the matching Kconfig option is off, each predicate is
 * a constant false, so the compiler drops that path from a native build and
 * nothing it calls needs to exist.
 */
#ifndef _XEN_XEN_H
#define _XEN_XEN_H

#include <linux/types.h>

/**
 * enum xen_domain_type - how this kernel is run
 * @XEN_NATIVE: not under Xen (bare metal, or another hypervisor)
 * @XEN_PV_DOMAIN: as a paravirtualized guest, without hardware assistance
 * @XEN_HVM_DOMAIN: in a hardware-assisted container (HVM, or PVH)
 */
enum xen_domain_type {
	XEN_NATIVE,
	XEN_PV_DOMAIN,
	XEN_HVM_DOMAIN,
};

#if IS_ENABLED(CONFIG_XEN)
extern enum xen_domain_type xen_domain_type;
#else
#define xen_domain_type		XEN_NATIVE
#endif

#if IS_ENABLED(CONFIG_XEN_PVH)
extern bool xen_pvh;
#else
#define xen_pvh			false
#endif

#if IS_ENABLED(CONFIG_XEN_PV)
extern bool xen_pv_pci_possible;
#else
#define xen_pv_pci_possible	false
#endif

#define xen_domain()		(xen_domain_type != XEN_NATIVE)
#define xen_pv_domain()		(IS_ENABLED(CONFIG_XEN_PV) && \
				 xen_domain_type == XEN_PV_DOMAIN)
#define xen_hvm_domain()	(xen_domain_type == XEN_HVM_DOMAIN)
#define xen_pvh_domain()	(xen_pvh)

/* SIF_* flags from the start info page (PV) or the PVH start info. */
extern u32 xen_start_flags;

#if IS_ENABLED(CONFIG_XEN_DOM0)
#include <xen/interface/xen.h>
#define xen_initial_domain()	(xen_domain() && \
				 (xen_start_flags & SIF_INITDOMAIN))
#else
#define xen_initial_domain()	false
#endif

#if IS_ENABLED(CONFIG_PVH)
#include <xen/interface/hvm/start_info.h>

/* Filled by the PVH entry code before anything else runs. */
extern struct hvm_start_info pvh_start_info;
void xen_prepare_pvh(void);
#endif

struct bio_vec;
struct page;

/**
 * xen_biovec_phys_mergeable() - may the block layer merge two bio segments
 * @vec1: the earlier segment
 * @page: the page that would follow it
 *
 * Pages contiguous in the guest's physical space need not be contiguous in
 * machine memory under Xen; only the block layer calls this, and only when
 * xen_domain() is true.
 *
 * Return: true when @page follows @vec1 in machine memory too.
 */
bool xen_biovec_phys_mergeable(const struct bio_vec *vec1,
			       const struct page *page);

#if IS_ENABLED(CONFIG_XEN)
int xen_alloc_unpopulated_pages(unsigned int nr_pages, struct page **pages);
void xen_free_unpopulated_pages(unsigned int nr_pages, struct page **pages);
#endif

#if IS_ENABLED(CONFIG_XEN_DOM0) && IS_ENABLED(CONFIG_ACPI)
bool xen_processor_present(u32 acpi_id);
#else
/* Only asked from dom0, which this kernel cannot be. */
static inline bool xen_processor_present(u32 acpi_id)
{
	return false;
}
#endif

#endif /* _XEN_XEN_H */
