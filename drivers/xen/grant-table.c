// SPDX-License-Identifier: GPL-2.0
/*
 * Grant table, version 1: this domain's grants to others.
 *
 * The table's frames belong to Xen; an HVM or PVH guest places each in
 * its physical address space with XENMEM_add_to_physmap, over a page it
 * allocated for the purpose, and reaches entry N through gnttab_frames.
 * The table starts with one frame and grows a frame at a time, up to
 * what Xen allows, when the free list runs dry.
 *
 * Granting writes frame and domid, then (after a write barrier) flags,
 * so Xen never sees a half-written grant.  Taking a grant back swaps the
 * flags to 0 only if Xen does not have GTF_reading or GTF_writing set
 * (a compare-and-exchange, sync_ so that it keeps its LOCK prefix on a
 * kernel booted with one CPU: Xen sets those bits from another physical
 * CPU), so a page the grantee still uses is never reused.
 * gnttab_end_foreign_access() on such a grant parks the reference and its
 * page on a list retried every second, and frees them when the grantee
 * lets go.
 *
 * debugfs file xen/grants shows how many references are in use (granted
 * or reserved by a driver), how many of those wait on a grantee that
 * still maps them, and the table's size: a device that closed and gave
 * everything back leaves the first two where they were before it came.
 *
 * Lock order: gnttab_lock (spinlock, irq-safe; the free list, the
 * callbacks and growth) -> gnttab_deferred_lock.  Free callbacks run
 * after gnttab_lock is dropped.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/grant_table.h>
#include <xen/interface/memory.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "grant-free.h"

#define GNTTAB_PER_FRAME	(PAGE_SIZE / sizeof(struct grant_entry_v1))
/* Deferred revocations are retried this often. */
#define GNTTAB_RETRY		HZ

static DEFINE_SPINLOCK(gnttab_lock);
static struct gref_free gnttab_free;
static struct grant_entry_v1 **gnttab_frames;
static unsigned int gnttab_nr_frames, gnttab_max_frames;
static struct gnttab_free_callback *gnttab_callbacks;

/**
 * gnttab_status_to_errno() - a GNTST_* status as an errno
 * @status: the status Xen wrote
 *
 * Return: 0 or a negative errno.
 */
int gnttab_status_to_errno(s16 status)
{
	switch (status) {
	case GNTST_okay:
		return 0;
	case GNTST_bad_domain:
		return -ESRCH;
	case GNTST_bad_gntref:
	case GNTST_bad_handle:
	case GNTST_bad_virt_addr:
	case GNTST_bad_dev_addr:
	case GNTST_bad_page:
	case GNTST_bad_copy_arg:
		return -EINVAL;
	case GNTST_no_device_space:
	case GNTST_no_space:
		return -ENOSPC;
	case GNTST_permission_denied:
		return -EPERM;
	case GNTST_address_too_big:
		return -E2BIG;
	case GNTST_eagain:
		return -EAGAIN;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_GPL(gnttab_status_to_errno);

static struct grant_entry_v1 *gnttab_entry(grant_ref_t ref)
{
	return &gnttab_frames[ref / GNTTAB_PER_FRAME][ref % GNTTAB_PER_FRAME];
}

/* ---- growth ---- */

/*
 * Add one frame to the table.  Called with gnttab_lock held.  The next
 * slots are allocated for the largest table at start, so that private
 * chains, which drivers walk without the lock, never move.
 */
/*
 * A PV guest gets the table's frames from Xen (GNTTABOP_setup_table, by
 * machine frame) and maps them itself, at addresses reserved when the
 * table is set up: growth happens under gnttab_lock, where nothing may
 * sleep, so the page tables are allocated beforehand too.
 */
static struct vm_struct *gnttab_pv_vm;
static pte_t **gnttab_pv_ptes;

static int gnttab_pv_note_pte(pte_t *pte, unsigned long addr, void *data)
{
	pte_t ***next = data;

	*(*next)++ = pte;
	return 0;
}

static int __init gnttab_pv_reserve(void)
{
	unsigned long size = gnttab_max_frames * PAGE_SIZE;
	struct vm_struct *area = get_vm_area(size, VM_IOREMAP);
	pte_t **next;
	int rc;

	gnttab_pv_ptes = kcalloc(gnttab_max_frames, sizeof(*gnttab_pv_ptes),
				 GFP_KERNEL);
	rc = area && gnttab_pv_ptes ? 0 : -ENOMEM;
	next = gnttab_pv_ptes;
	if (!rc)
		rc = apply_to_page_range(&init_mm, (unsigned long)area->addr,
					 size, gnttab_pv_note_pte, &next);
	if (rc) {
		if (area)
			free_vm_area(area);
		kfree(gnttab_pv_ptes);
		gnttab_pv_ptes = NULL;
		return rc;
	}
	gnttab_pv_vm = area;
	return 0;
}

static void *gnttab_pv_map(unsigned int frame, gfp_t gfp)
{
	struct gnttab_setup_table setup = {
		.dom = DOMID_SELF,
		.nr_frames = frame + 1,
	};
	xen_pfn_t *mfns = kcalloc(frame + 1, sizeof(*mfns), gfp);
	int rc;

	if (!mfns)
		return ERR_PTR(-ENOMEM);
	setup.frame_list = mfns;
	rc = HYPERVISOR_grant_table_op(GNTTABOP_setup_table, &setup, 1);
	if (!rc && setup.status != GNTST_okay)
		rc = gnttab_status_to_errno(setup.status);
	if (!rc)
		set_pte(gnttab_pv_ptes[frame],
			pfn_pte(xen_foreign_pfn(mfns[frame]), PAGE_KERNEL));
	kfree(mfns);
	return rc ? ERR_PTR(rc) : gnttab_pv_vm->addr + frame * PAGE_SIZE;
}

static int gnttab_grow(gfp_t gfp)
{
	unsigned int frame = gnttab_nr_frames;
	struct xen_add_to_physmap xatp = {
		.domid = DOMID_SELF,
		.space = XENMAPSPACE_grant_table,
		.idx = frame,
	};
	struct page *page;
	int rc;

	if (frame >= gnttab_max_frames)
		return -ENOSPC;
	if (xen_pv_domain()) {
		void *va = gnttab_pv_map(frame, gfp);

		if (IS_ERR(va))
			return PTR_ERR(va);
		gnttab_frames[frame] = va;
		goto added;
	}
	page = alloc_page(gfp | __GFP_ZERO);
	if (!page)
		return -ENOMEM;
	xatp.gpfn = page_to_pfn(page);
	rc = HYPERVISOR_memory_op(XENMEM_add_to_physmap, &xatp);
	if (rc) {
		__free_page(page);
		return rc;
	}

	/* The page's frame now shows the grant frame; the page is Xen's. */
	gnttab_frames[frame] = page_address(page);
added:
	gref_free_add_range(&gnttab_free, gnttab_free.next,
			    frame ? frame * GNTTAB_PER_FRAME :
			    GNTTAB_NR_RESERVED_ENTRIES,
			    (frame + 1) * GNTTAB_PER_FRAME);
	gnttab_nr_frames = frame + 1;
	return 0;
}

/* ---- free list ---- */

/* Run the callbacks whose wish the free list now meets. */
static void gnttab_run_callbacks(void)
{
	struct gnttab_free_callback *cb, *ready = NULL, **pp;
	unsigned long flags;

	spin_lock_irqsave(&gnttab_lock, flags);
	pp = &gnttab_callbacks;
	while ((cb = *pp)) {
		if (cb->count <= gnttab_free.count) {
			*pp = cb->next;
			cb->next = ready;
			ready = cb;
		} else {
			pp = &cb->next;
		}
	}
	spin_unlock_irqrestore(&gnttab_lock, flags);

	while ((cb = ready)) {
		ready = cb->next;
		cb->next = NULL;
		cb->fn(cb->arg);
	}
}

static int gnttab_get_refs(unsigned int count, grant_ref_t *chain)
{
	unsigned long flags;
	int rc;

	spin_lock_irqsave(&gnttab_lock, flags);
	while ((rc = gref_free_take(&gnttab_free, count, chain)) == -ENOSPC &&
	       !gnttab_grow(GFP_ATOMIC))
		;
	spin_unlock_irqrestore(&gnttab_lock, flags);
	return rc;
}

static void gnttab_put_chain(grant_ref_t chain)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&gnttab_lock, flags);
	n = gref_free_put_chain(&gnttab_free, chain);
	spin_unlock_irqrestore(&gnttab_lock, flags);
	WARN_ONCE(n < 0, "xen: grant: bad chain of references from %u\n",
		  chain);
	if (n > 0 && gnttab_callbacks)
		gnttab_run_callbacks();
}

/**
 * gnttab_alloc_grant_references() - reserve references for later
 * @count: how many
 * @pprivate_head: out: the caller's private chain of them
 *
 * Return: 0 or -ENOSPC.
 */
int gnttab_alloc_grant_references(u16 count, grant_ref_t *pprivate_head)
{
	return gnttab_get_refs(count, pprivate_head);
}
EXPORT_SYMBOL_GPL(gnttab_alloc_grant_references);

/**
 * gnttab_free_grant_references() - give back a private chain
 * @head: the chain (may be empty)
 */
void gnttab_free_grant_references(grant_ref_t head)
{
	gnttab_put_chain(head);
}
EXPORT_SYMBOL_GPL(gnttab_free_grant_references);

/**
 * gnttab_free_grant_reference() - give back one reference
 * @ref: a reference no longer granted
 */
void gnttab_free_grant_reference(grant_ref_t ref)
{
	unsigned long flags;

	spin_lock_irqsave(&gnttab_lock, flags);
	if (ref < gnttab_free.size)
		gnttab_free.next[ref] = GREF_END;
	spin_unlock_irqrestore(&gnttab_lock, flags);
	gnttab_put_chain(ref);
}
EXPORT_SYMBOL_GPL(gnttab_free_grant_reference);

/**
 * gnttab_empty_grant_references() - is a private chain empty
 * @pprivate_head: the chain
 *
 * Return: 1 if it is.
 */
int gnttab_empty_grant_references(const grant_ref_t *pprivate_head)
{
	return *pprivate_head == GREF_END;
}
EXPORT_SYMBOL_GPL(gnttab_empty_grant_references);

/**
 * gnttab_claim_grant_reference() - take a reference off a private chain
 * @pprivate_head: the chain
 *
 * Return: the reference, or -ENOSPC when the chain is empty.
 */
int gnttab_claim_grant_reference(grant_ref_t *pprivate_head)
{
	return gref_chain_claim(gnttab_free.next, pprivate_head);
}
EXPORT_SYMBOL_GPL(gnttab_claim_grant_reference);

/**
 * gnttab_release_grant_reference() - put a reference on a private chain
 * @private_head: the chain
 * @release: the reference, no longer granted
 */
void gnttab_release_grant_reference(grant_ref_t *private_head,
				    grant_ref_t release)
{
	gref_chain_release(gnttab_free.next, private_head, release);
}
EXPORT_SYMBOL_GPL(gnttab_release_grant_reference);

/**
 * gnttab_request_free_callback() - be called when references are free
 * @callback: the caller's storage, not yet queued
 * @fn: the function
 * @arg: its argument
 * @count: how many references must be free
 */
void gnttab_request_free_callback(struct gnttab_free_callback *callback,
				  void (*fn)(void *), void *arg, u16 count)
{
	struct gnttab_free_callback *cb;
	unsigned long flags;

	spin_lock_irqsave(&gnttab_lock, flags);
	for (cb = gnttab_callbacks; cb; cb = cb->next)
		if (cb == callback)
			goto out;
	callback->fn = fn;
	callback->arg = arg;
	callback->count = count;
	callback->next = gnttab_callbacks;
	gnttab_callbacks = callback;
out:
	spin_unlock_irqrestore(&gnttab_lock, flags);
	gnttab_run_callbacks();
}
EXPORT_SYMBOL_GPL(gnttab_request_free_callback);

/**
 * gnttab_cancel_free_callback() - no longer wait
 * @callback: a queued callback, or one already run
 */
void gnttab_cancel_free_callback(struct gnttab_free_callback *callback)
{
	struct gnttab_free_callback **pp;
	unsigned long flags;

	spin_lock_irqsave(&gnttab_lock, flags);
	for (pp = &gnttab_callbacks; *pp; pp = &(*pp)->next) {
		if (*pp == callback) {
			*pp = callback->next;
			break;
		}
	}
	spin_unlock_irqrestore(&gnttab_lock, flags);
}
EXPORT_SYMBOL_GPL(gnttab_cancel_free_callback);

/* ---- granting ---- */

/**
 * gnttab_grant_foreign_access_ref() - grant a page with a reserved ref
 * @ref: a reference the caller holds
 * @domid: the domain to grant it to
 * @frame: the page's frame
 * @readonly: nonzero to let the domain only read
 */
void gnttab_grant_foreign_access_ref(grant_ref_t ref, domid_t domid,
				     unsigned long frame, int readonly)
{
	struct grant_entry_v1 *e = gnttab_entry(ref);

	WRITE_ONCE(e->frame, frame);
	WRITE_ONCE(e->domid, domid);
	wmb();	/* the grant's target before the flags that make it valid */
	WRITE_ONCE(e->flags, GTF_permit_access | (readonly ? GTF_readonly : 0));
}
EXPORT_SYMBOL_GPL(gnttab_grant_foreign_access_ref);

/**
 * gnttab_grant_foreign_access() - grant a page
 * @domid: the domain to grant it to
 * @frame: the page's frame
 * @readonly: nonzero to let the domain only read
 *
 * Return: the reference, or -ENOSPC.
 */
int gnttab_grant_foreign_access(domid_t domid, unsigned long frame,
				int readonly)
{
	grant_ref_t ref;
	int rc = gnttab_get_refs(1, &ref);

	if (rc)
		return rc;
	gnttab_grant_foreign_access_ref(ref, domid, frame, readonly);
	return ref;
}
EXPORT_SYMBOL_GPL(gnttab_grant_foreign_access);

/**
 * gnttab_end_foreign_access_ref() - take a grant back, if unused
 * @ref: the reference
 *
 * Return: 1 when the grant is taken back, 0 while the grantee still
 * maps the page (nothing changes then).
 */
int gnttab_end_foreign_access_ref(grant_ref_t ref)
{
	u16 *flags = &gnttab_entry(ref)->flags;
	u16 old = READ_ONCE(*flags);

	do {
		if (gref_revoke_flags(old))
			return 0;
	} while (!sync_try_cmpxchg(flags, &old, 0));
	return 1;
}
EXPORT_SYMBOL_GPL(gnttab_end_foreign_access_ref);

/**
 * gnttab_try_end_foreign_access() - take a grant back and free its ref
 * @ref: the reference
 *
 * As gnttab_end_foreign_access_ref(), a true value is success: the
 * callers this tree keeps (xen-scsifront, xen-hcd) test it that way.
 *
 * Return: 1 when the grant is taken back and @ref freed, 0 while the
 * grantee still maps the page (nothing changes then).
 */
int gnttab_try_end_foreign_access(grant_ref_t ref)
{
	if (!gnttab_end_foreign_access_ref(ref))
		return 0;
	gnttab_free_grant_reference(ref);
	return 1;
}
EXPORT_SYMBOL_GPL(gnttab_try_end_foreign_access);

/* ---- deferred revocation ---- */

/**
 * struct gnttab_deferred - a grant still in use when it was ended
 * @list: on gnttab_deferred_list
 * @ref: the reference
 * @page: the page to free once it is unused, or NULL
 * @since: jiffies when it was ended
 * @warned: a log line said it is still in use
 */
struct gnttab_deferred {
	struct list_head list;
	grant_ref_t ref;
	struct page *page;
	unsigned long since;
	bool warned;
};

static LIST_HEAD(gnttab_deferred_list);
static DEFINE_SPINLOCK(gnttab_deferred_lock);
static void gnttab_deferred_retry(struct work_struct *work);
static DECLARE_DELAYED_WORK(gnttab_deferred_work, gnttab_deferred_retry);

static void gnttab_deferred_retry(struct work_struct *work)
{
	struct gnttab_deferred *d, *tmp;
	LIST_HEAD(done);
	bool more;

	spin_lock_bh(&gnttab_deferred_lock);
	list_for_each_entry_safe(d, tmp, &gnttab_deferred_list, list) {
		if (gnttab_end_foreign_access_ref(d->ref)) {
			list_move(&d->list, &done);
		} else if (!d->warned &&
			   time_after(jiffies, d->since + 60 * HZ)) {
			pr_warn("xen: grant %u still mapped by its grantee after 60 s; page held\n",
				d->ref);
			d->warned = true;
		}
	}
	more = !list_empty(&gnttab_deferred_list);
	spin_unlock_bh(&gnttab_deferred_lock);

	list_for_each_entry_safe(d, tmp, &done, list) {
		gnttab_free_grant_reference(d->ref);
		if (d->page)
			put_page(d->page);
		kfree(d);
	}
	if (more)
		schedule_delayed_work(&gnttab_deferred_work, GNTTAB_RETRY);
}

/**
 * gnttab_end_foreign_access() - take a grant back and free its page
 * @ref: the reference
 * @page: the granted page, to be freed with put_page(), or NULL
 *
 * When the grantee still maps the page, the reference and the page are
 * kept until it lets go; neither is reused before.
 */
void gnttab_end_foreign_access(grant_ref_t ref, struct page *page)
{
	struct gnttab_deferred *d;

	if (gnttab_end_foreign_access_ref(ref)) {
		gnttab_free_grant_reference(ref);
		if (page)
			put_page(page);
		return;
	}

	d = kzalloc(sizeof(*d), GFP_ATOMIC);
	if (!d) {
		/* Leak rather than hand out a page the grantee can write. */
		pr_warn_ratelimited("xen: grant %u in use and no memory to track it; leaked\n",
				    ref);
		return;
	}
	d->ref = ref;
	d->page = page;
	d->since = jiffies;
	spin_lock_bh(&gnttab_deferred_lock);
	list_add_tail(&d->list, &gnttab_deferred_list);
	spin_unlock_bh(&gnttab_deferred_lock);
	schedule_delayed_work(&gnttab_deferred_work, GNTTAB_RETRY);
}
EXPORT_SYMBOL_GPL(gnttab_end_foreign_access);

/* ---- copy ---- */

/**
 * gnttab_batch_copy() - copy through grants
 * @batch: the copies; each one's status is set
 * @count: how many
 *
 * Copies Xen reports as GNTST_eagain (a page being paged in) are
 * retried, with a growing pause, for about a second: the caller must be
 * able to sleep then.
 */
void gnttab_batch_copy(struct gnttab_copy *batch, unsigned int count)
{
	unsigned int i, delay;
	int rc;

	rc = HYPERVISOR_grant_table_op(GNTTABOP_copy, batch, count);
	if (rc) {
		for (i = 0; i < count; i++)
			batch[i].status = GNTST_general_error;
		return;
	}
	for (i = 0; i < count; i++) {
		for (delay = 1; batch[i].status == GNTST_eagain && delay < 256;
		     delay <<= 1) {
			msleep(delay);
			if (HYPERVISOR_grant_table_op(GNTTABOP_copy, &batch[i], 1))
				batch[i].status = GNTST_general_error;
		}
	}
}
EXPORT_SYMBOL_GPL(gnttab_batch_copy);

/**
 * gnttab_max_grant_frames() - how big the table may grow
 *
 * Return: frames.
 */
unsigned int gnttab_max_grant_frames(void)
{
	return gnttab_max_frames;
}
EXPORT_SYMBOL_GPL(gnttab_max_grant_frames);

static int __init gnttab_init(void)
{
	struct gnttab_query_size query = { .dom = DOMID_SELF };
	unsigned long flags;
	int rc;

	if (!xen_domain())
		return 0;
	rc = HYPERVISOR_grant_table_op(GNTTABOP_query_size, &query, 1);
	if (rc || query.status != GNTST_okay || !query.max_nr_frames) {
		pr_err("xen: grant table size unknown (%d, %d)\n", rc,
		       query.status);
		return rc ? rc : -EIO;
	}
	gnttab_max_frames = query.max_nr_frames;
	gnttab_frames = kcalloc(gnttab_max_frames, sizeof(*gnttab_frames),
				GFP_KERNEL);
	gnttab_free.next = kvmalloc_array(gnttab_max_frames * GNTTAB_PER_FRAME,
					  sizeof(grant_ref_t), GFP_KERNEL);
	if (!gnttab_frames || !gnttab_free.next) {
		kfree(gnttab_frames);
		kvfree(gnttab_free.next);
		return -ENOMEM;
	}
	gnttab_free.head = GREF_END;

	rc = xen_pv_domain() ? gnttab_pv_reserve() : 0;
	if (!rc) {
		spin_lock_irqsave(&gnttab_lock, flags);
		rc = gnttab_grow(GFP_ATOMIC);
		spin_unlock_irqrestore(&gnttab_lock, flags);
	}
	if (rc) {
		pr_err("xen: cannot map the grant table: %d\n", rc);
		if (gnttab_pv_vm)
			free_vm_area(gnttab_pv_vm);
		kfree(gnttab_pv_ptes);
		gnttab_pv_ptes = NULL;
		gnttab_pv_vm = NULL;
		kvfree(gnttab_free.next);
		kfree(gnttab_frames);
		gnttab_free.next = NULL;
		gnttab_frames = NULL;
		gnttab_max_frames = 0;
		return rc;
	}
	pr_info("xen: grant table v1, %u of at most %u frames\n",
		gnttab_nr_frames, gnttab_max_frames);
	return 0;
}
core_initcall(gnttab_init);

/* ---- debugfs ---- */

static int gnttab_usage_show(struct seq_file *m, void *unused)
{
	unsigned int size, free, frames, held = 0;
	struct gnttab_deferred *d;
	unsigned long flags;

	spin_lock_irqsave(&gnttab_lock, flags);
	size = gnttab_free.size;
	free = gnttab_free.count;
	frames = gnttab_nr_frames;
	spin_unlock_irqrestore(&gnttab_lock, flags);

	spin_lock_bh(&gnttab_deferred_lock);
	list_for_each_entry(d, &gnttab_deferred_list, list)
		held++;
	spin_unlock_bh(&gnttab_deferred_lock);

	/* The first GNTTAB_NR_RESERVED_ENTRIES are never on the free list. */
	seq_printf(m, "in-use %u\n",
		   size > GNTTAB_NR_RESERVED_ENTRIES ?
		   size - GNTTAB_NR_RESERVED_ENTRIES - free : 0);
	seq_printf(m, "held %u\n", held);
	seq_printf(m, "free %u\n", free);
	seq_printf(m, "frames %u\n", frames);
	seq_printf(m, "max-frames %u\n", gnttab_max_frames);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gnttab_usage);

static int __init gnttab_debugfs_init(void)
{
	struct dentry *dir;

	if (!gnttab_frames)
		return 0;
	dir = xen_debugfs_dir();
	debugfs_create_file("grants", 0400, dir, NULL, &gnttab_usage_fops);
	return 0;
}
late_initcall(gnttab_debugfs_init);
