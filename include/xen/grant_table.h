/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grant tables: the in-kernel API for granting this domain's pages to
 * other domains (frontends) and for copying through grants.
 *
 * A grant is taken back with gnttab_end_foreign_access(); when the other
 * domain still maps the page, the page is not freed until it lets go,
 * which is retried in the background.  Errors are negative errnos.
 *
 * A backend maps the grants of other domains with gnttab_map_refs(), in
 * place of empty pages (xen_alloc_unpopulated_pages()).
 */
#ifndef _XEN_GRANT_TABLE_H
#define _XEN_GRANT_TABLE_H

#include <linux/types.h>
#include <asm/page.h>
#include <xen/features.h>
#include <xen/interface/grant_table.h>
#include <xen/page.h>

struct page;

/* No grant: what a grant_ref_t holds when nothing is granted. */
#define INVALID_GRANT_REF	((grant_ref_t)-1)

/**
 * struct gnttab_free_callback - wait for free grant references
 * @next: private
 * @fn: called, with @arg, once @count references are free; in any
 *	context, with no lock of the grant table held
 * @arg: for @fn
 * @count: how many references @fn wants
 */
struct gnttab_free_callback {
	struct gnttab_free_callback *next;
	void (*fn)(void *arg);
	void *arg;
	u16 count;
};

int gnttab_grant_foreign_access(domid_t domid, unsigned long frame,
				int readonly);
void gnttab_grant_foreign_access_ref(grant_ref_t ref, domid_t domid,
				     unsigned long frame, int readonly);
int gnttab_end_foreign_access_ref(grant_ref_t ref);
int gnttab_try_end_foreign_access(grant_ref_t ref);
void gnttab_end_foreign_access(grant_ref_t ref, struct page *page);

int gnttab_alloc_grant_references(u16 count, grant_ref_t *pprivate_head);
void gnttab_free_grant_reference(grant_ref_t ref);
void gnttab_free_grant_references(grant_ref_t head);
int gnttab_empty_grant_references(const grant_ref_t *pprivate_head);
int gnttab_claim_grant_reference(grant_ref_t *pprivate_head);
void gnttab_release_grant_reference(grant_ref_t *private_head,
				    grant_ref_t release);
void gnttab_request_free_callback(struct gnttab_free_callback *callback,
				  void (*fn)(void *), void *arg, u16 count);
void gnttab_cancel_free_callback(struct gnttab_free_callback *callback);

void gnttab_batch_copy(struct gnttab_copy *batch, unsigned int count);

/*
 * The host_addr Xen takes for @addr: a page-table entry's machine address
 * as it is; a kernel address as such in a PV domain, and as a physical
 * address in an HVM container, which names its pages that way.
 */
static inline u64 gnttab_host_addr(phys_addr_t addr, u32 flags)
{
	if (!(flags & GNTMAP_contains_pte) &&
	    xen_feature(XENFEAT_auto_translated_physmap))
		return __pa(addr);
	return addr;
}

/**
 * gnttab_set_map_op() - fill in the mapping of another domain's grant
 * @map: the op
 * @addr: for GNTMAP_contains_pte, the machine address of the page-table
 *	entry to write; otherwise the kernel (direct-map) address of the
 *	empty page the grant goes in place of
 * @flags: GNTMAP_*
 * @ref: the grant, in @domid's table
 * @domid: the domain that granted it
 */
static inline void gnttab_set_map_op(struct gnttab_map_grant_ref *map,
				     phys_addr_t addr, u32 flags,
				     grant_ref_t ref, domid_t domid)
{
	*map = (struct gnttab_map_grant_ref){
		.host_addr = gnttab_host_addr(addr, flags),
		.flags = flags,
		.ref = ref,
		.dom = domid,
		.status = GNTST_general_error,
	};
}

/**
 * gnttab_set_unmap_op() - fill in the unmapping of a mapped grant
 * @unmap: the op
 * @addr: as given to gnttab_set_map_op()
 * @flags: the flags the grant was mapped with
 * @handle: the handle Xen gave the mapping
 */
static inline void gnttab_set_unmap_op(struct gnttab_unmap_grant_ref *unmap,
				       phys_addr_t addr, u32 flags,
				       grant_handle_t handle)
{
	*unmap = (struct gnttab_unmap_grant_ref){
		.host_addr = gnttab_host_addr(addr, flags),
		.handle = handle,
		.status = GNTST_general_error,
	};
}

int gnttab_map_refs(struct gnttab_map_grant_ref *map_ops,
		    struct gnttab_map_grant_ref *kmap_ops,
		    struct page **pages, unsigned int count);
int gnttab_unmap_refs(struct gnttab_unmap_grant_ref *unmap_ops,
		      struct gnttab_unmap_grant_ref *kunmap_ops,
		      struct page **pages, unsigned int count);
unsigned int gnttab_max_grant_frames(void);
int gnttab_status_to_errno(s16 status);

#endif /* _XEN_GRANT_TABLE_H */
