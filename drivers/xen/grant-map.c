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

/* A grant Xen says is paged out: retried, with a growing pause. */
#define GNTMAP_EAGAIN_MAX_MS	256

static bool gnttab_p2m_follows(u32 flags)
{
	return xen_pv_domain() && !(flags & GNTMAP_contains_pte);
}

/* Retry one op Xen answered GNTST_eagain, for about half a second. */
static void gnttab_map_retry(struct gnttab_map_grant_ref *op)
{
	unsigned int delay;

	for (delay = 1; op->status == GNTST_eagain &&
	     delay < GNTMAP_EAGAIN_MAX_MS; delay <<= 1) {
		msleep(delay);
		if (HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, op, 1))
			op->status = GNTST_general_error;
	}
}

/* Undo one mapping gnttab_map_refs() cannot keep. */
static void gnttab_map_undo(struct gnttab_map_grant_ref *op)
{
	struct gnttab_unmap_grant_ref unmap = {
		.host_addr = op->host_addr,
		.handle = op->handle,
		.status = GNTST_general_error,
	};

	if (HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, &unmap, 1) ||
	    unmap.status != GNTST_okay)
		pr_err("xen: grant %u of domain %u mapped at %#llx cannot be unmapped (%d): the page stays in use\n",
		       op->ref, op->dom, op->host_addr, unmap.status);
	op->status = GNTST_general_error;
}

/**
 * gnttab_map_refs() - map other domains' grants in place of empty pages
 * @map_ops: one op a grant, filled in with gnttab_set_map_op(); each
 *	one's status, handle and dev_bus_addr are set
 * @kmap_ops: must be NULL: a second, kernel mapping of a grant mapped
 *	into a process is not made here
 * @pages: the empty pages, one an op (unused for GNTMAP_contains_pte)
 * @count: how many
 *
 * A grant Xen reports paged out is retried for about half a second.  In
 * a PV domain, each page mapped has its P2M entry set to the foreign
 * frame; one that cannot be set (no memory for the tree) is unmapped
 * again and its op fails.
 *
 * Context: process context; sleeps.
 * Return: 0 once Xen looked at the ops (see each status), or a negative
 * errno when the hypercall itself failed and nothing is mapped.
 */
int gnttab_map_refs(struct gnttab_map_grant_ref *map_ops,
		    struct gnttab_map_grant_ref *kmap_ops,
		    struct page **pages, unsigned int count)
{
	unsigned int i;
	int rc;

	if (WARN_ON_ONCE(kmap_ops))
		return -EOPNOTSUPP;
	rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, map_ops, count);
	if (rc)
		return rc;
	for (i = 0; i < count; i++) {
		struct gnttab_map_grant_ref *op = &map_ops[i];

		gnttab_map_retry(op);
		if (op->status != GNTST_okay || !gnttab_p2m_follows(op->flags))
			continue;
		if (xen_p2m_set_foreign(page_to_pfn(pages[i]),
					PFN_DOWN(op->dev_bus_addr)))
			gnttab_map_undo(op);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(gnttab_map_refs);

/**
 * gnttab_unmap_refs() - unmap grants gnttab_map_refs() mapped
 * @unmap_ops: one op a grant, filled in with gnttab_set_unmap_op(); each
 *	one's status is set
 * @kunmap_ops: must be NULL, as for gnttab_map_refs()
 * @pages: the pages the grants were mapped in place of
 * @count: how many
 *
 * A page whose op succeeded is empty again, to be given back with
 * xen_free_unpopulated_pages(); one whose op failed still holds the
 * foreign frame and must not be reused.
 *
 * Return: 0 once Xen looked at the ops, or a negative errno when the
 * hypercall itself failed and nothing was unmapped.
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
	if (rc || !xen_pv_domain())
		return rc;
	for (i = 0; i < count; i++) {
		/* A user mapping's host_addr is a PTE's, not a page's. */
		if (unmap_ops[i].status != GNTST_okay || !pages || !pages[i])
			continue;
		WARN_ON(xen_p2m_set_foreign(page_to_pfn(pages[i]),
					    INVALID_P2M_ENTRY));
	}
	return 0;
}
EXPORT_SYMBOL_GPL(gnttab_unmap_refs);
