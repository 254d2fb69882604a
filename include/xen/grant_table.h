/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grant tables: the in-kernel API for granting this domain's pages to
 * other domains (frontends) and for copying through grants.
 *
 * A grant is taken back with gnttab_end_foreign_access(); when the other
 * domain still maps the page, the page is not freed until it lets go,
 * which is retried in the background.  Errors are negative errnos.
 */
#ifndef _XEN_GRANT_TABLE_H
#define _XEN_GRANT_TABLE_H

#include <linux/types.h>
#include <xen/interface/grant_table.h>

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
unsigned int gnttab_max_grant_frames(void);
int gnttab_status_to_errno(s16 status);

#endif /* _XEN_GRANT_TABLE_H */
