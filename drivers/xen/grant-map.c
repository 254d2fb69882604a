// SPDX-License-Identifier: GPL-2.0
/*
 * Grants of other domains mapped in place of this domain's empty pages.
 *
 * A backend that keeps a frontend's page mapped (a persistent grant of
 * blkif) takes an empty page (xen_alloc_unpopulated_pages()) and asks
 * Xen to put the granted frame where that page is.  In an HVM container
 * Xen puts it at the page's physical address, and nothing more is to be
 * done.  A PV domain names the page by its direct-map address: Xen
 * writes the foreign frame into that page-table entry, and the P2M entry
 * of the page must then name the frame too, so that the page's physical
 * address leads to it (for DMA above all).  Unmapping empties the entry,
 * and Xen flushes the TLBs; the P2M entry goes back to missing.
 *
 * A mapping written straight into a process's page table
 * (GNTMAP_contains_pte, as gntdev makes) has no page of ours behind it,
 * and leaves the P2M alone.
 */
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/grant_table.h>
#include <xen/page.h>
#include <xen/xen.h>

/* A grant Xen says is paged out: retried, with pauses up to this long. */
#define GNTMAP_EAGAIN_MAX_MS	128

static bool gnttab_p2m_follows(u32 flags)
{
	return xen_pv_domain() && !(flags & GNTMAP_contains_pte);
}

/* Retry one op Xen answered GNTST_eagain, for a quarter second at most. */
static void gnttab_map_retry(struct gnttab_map_grant_ref *op)
{
	unsigned int delay;

	for (delay = 1; op->status == GNTST_eagain &&
	     delay <= GNTMAP_EAGAIN_MAX_MS; delay <<= 1) {
		msleep(delay);
		if (HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, op, 1))
			op->status = GNTST_general_error;
	}
}

/*
 * Undo one mapping whose P2M entry could not be set.  Return: true when
 * it is undone; false when the grant stays where it is, for good.
 */
static bool gnttab_map_undo(struct gnttab_map_grant_ref *op)
{
	struct gnttab_unmap_grant_ref unmap = {
		.host_addr = op->host_addr,
		.handle = op->handle,
		.status = GNTST_general_error,
	};

	op->status = GNTST_general_error;
	if (!HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, &unmap, 1) &&
	    unmap.status == GNTST_okay)
		return true;
	pr_err("xen: grant %u of domain %u mapped at %#llx cannot be unmapped (%d): the page is lost\n",
	       op->ref, op->dom, op->host_addr, unmap.status);
	return false;
}

/**
 * gnttab_map_refs() - map other domains' grants in place of empty pages
 * @map_ops: one op a grant, filled in with gnttab_set_map_op() (which
 *	makes the status an error until Xen says otherwise); each one's
 *	status, handle and dev_bus_addr are set
 * @kmap_ops: must be NULL: a second, kernel mapping of a grant mapped
 *	into a process is not made here
 * @pages: the empty pages, one an op (unused for GNTMAP_contains_pte)
 * @count: how many
 *
 * A grant Xen reports paged out is retried, one after the other, for a
 * quarter second each at most.  In a PV domain, each page mapped has its
 * P2M entry set to the foreign frame.  Should that fail (a page that was
 * not empty), the grant is unmapped and its op fails; should even that
 * fail, its slot in @pages becomes NULL: the page is lost to the caller.
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno when the hypercall failed; either way
 * each op's status says whether its grant is mapped.
 */
int gnttab_map_refs(struct gnttab_map_grant_ref *map_ops,
		    struct gnttab_map_grant_ref *kmap_ops,
		    struct page **pages, unsigned int count)
{
	unsigned int i;
	int rc;

	if (WARN_ON_ONCE(kmap_ops))
		return -EOPNOTSUPP;
	/* On an error, Xen may have done the ops before the one it failed. */
	rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, map_ops, count);
	for (i = 0; i < count; i++) {
		struct gnttab_map_grant_ref *op = &map_ops[i];

		gnttab_map_retry(op);
		if (op->status != GNTST_okay || !gnttab_p2m_follows(op->flags))
			continue;
		if (xen_p2m_set_foreign(page_to_pfn(pages[i]),
					PFN_DOWN(op->dev_bus_addr)) &&
		    !gnttab_map_undo(op))
			pages[i] = NULL;
	}
	return rc;
}
EXPORT_SYMBOL_GPL(gnttab_map_refs);

/**
 * gnttab_unmap_refs() - unmap grants gnttab_map_refs() mapped
 * @unmap_ops: one op a grant, filled in with gnttab_set_unmap_op(); each
 *	one's status is set
 * @kunmap_ops: must be NULL, as for gnttab_map_refs()
 * @pages: the pages the grants were mapped in place of; NULL, or a NULL
 *	slot, for grants mapped into a process's page tables
 * @count: how many
 *
 * The caller makes sure nothing holds a reference to a page it unmaps
 * (page_count() back to what it was when the page came empty): what
 * reaches the page afterwards reaches nothing.  A page whose op
 * succeeded is empty again, to be given back with
 * xen_free_unpopulated_pages(); one whose op failed still holds the
 * foreign frame and must not be reused.
 *
 * Return: 0, or a negative errno when the hypercall failed; either way
 * each op's status says whether its grant is unmapped.
 */
int gnttab_unmap_refs(struct gnttab_unmap_grant_ref *unmap_ops,
		      struct gnttab_unmap_grant_ref *kunmap_ops,
		      struct page **pages, unsigned int count)
{
	unsigned int i;
	int rc;

	if (WARN_ON_ONCE(kunmap_ops))
		return -EOPNOTSUPP;
	rc = HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, unmap_ops,
				       count);
	if (!xen_pv_domain() || !pages)
		return rc;
	for (i = 0; i < count; i++) {
		if (unmap_ops[i].status != GNTST_okay || !pages[i])
			continue;
		WARN_ON(xen_p2m_set_foreign(page_to_pfn(pages[i]),
					    INVALID_P2M_ENTRY));
	}
	return rc;
}
EXPORT_SYMBOL_GPL(gnttab_unmap_refs);
