// SPDX-License-Identifier: GPL-2.0
/*
 * Pages with no memory behind them, for other domains' grants.
 *
 * A backend or gntdev that maps a grant of another domain needs a place
 * in this domain's physical space for it: a struct page whose own frame
 * went back to Xen, so that the foreign frame stands in for it and no
 * memory is wasted under it.  These come from one pool of empty pages
 * (empty_pool.c), which the balloon shares: pages are taken from the
 * page allocator and emptied in batches (XENMEM_decrease_reservation; in
 * a PV guest the direct map and the P2M follow), and idle ones beyond
 * xen.empty_pool_keep are filled again and freed.
 *
 * The counters are in debugfs, xen/empty_pool.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/memory.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "balloon.h"
#include "empty_pool.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "xen."
static unsigned long empty_pool_keep = 256;
module_param(empty_pool_keep, ulong, 0644);
MODULE_PARM_DESC(empty_pool_keep,
		 "Idle empty pages kept for the next grant mappings before their memory is taken back (default 256)");

/*
 * An HVM container's frames are its gfns: the pfns themselves, a whole
 * batch of the pool's per hypercall (under the pool's lock, which every
 * caller holds).
 */
static xen_pfn_t xen_hvm_frames[XEN_EMPTY_POOL_BATCH];

static int xen_hvm_reservation(unsigned int cmd, struct page **pages,
			       unsigned int nr)
{
	struct xen_memory_reservation r = {
		.extent_start = xen_hvm_frames,
		.extent_order = 0,
		.domid = DOMID_SELF,
	};
	unsigned int i, done = 0, n;
	int rc = 0;

	while (done < nr) {
		n = min_t(unsigned int, nr - done, ARRAY_SIZE(xen_hvm_frames));
		for (i = 0; i < n; i++)
			xen_hvm_frames[i] = page_to_pfn(pages[done + i]);
		r.nr_extents = n;
		rc = HYPERVISOR_memory_op(cmd, &r);
		if (rc <= 0)
			break;
		done += rc;
		if (rc < n)
			break;
	}
	return done ?: rc;
}

/*
 * An empty page is marked offline, as memory hotplug leaves a page it
 * added and not onlined: dumps and /proc/kcore skip it.  And the
 * kernel's count of its memory (MemTotal, what `free` shows) follows
 * the pages that have memory behind them.  A page of hot-added memory
 * comes to the pool offline and not counted, as one emptied here leaves
 * it: both reach the page allocator the same way once filled.
 */
static int xen_pool_empty(void *ctx, struct page **pages, unsigned int nr)
{
	int i, done;

	if (xen_pv_domain())
		done = xen_pv_release_frames(pages, nr);
	else
		done = xen_hvm_reservation(XENMEM_decrease_reservation, pages,
					   nr);
	for (i = 0; i < done; i++) {
		adjust_managed_page_count(pages[i], -1);
		__SetPageOffline(pages[i]);
	}
	return done;
}

static int xen_pool_fill(void *ctx, struct page **pages, unsigned int nr)
{
	if (xen_pv_domain())
		return xen_pv_claim_frames(pages, nr);
	return xen_hvm_reservation(XENMEM_populate_physmap, pages, nr);
}

static struct page *xen_pool_alloc(void *ctx, gfp_t gfp)
{
	return alloc_page(gfp | __GFP_NOWARN);
}

/* A page with memory: one just filled again, or one Xen did not take. */
static void xen_pool_free(void *ctx, struct page *page)
{
	if (PageOffline(page)) {
		__ClearPageOffline(page);
		adjust_managed_page_count(page, 1);
	}
	__free_page(page);
}

static const struct xen_empty_pool_ops xen_pool_ops = {
	.empty = xen_pool_empty,
	.fill = xen_pool_fill,
	.alloc = xen_pool_alloc,
	.free = xen_pool_free,
};

static struct xen_empty_pool xen_pool;
static bool xen_pool_ready;

/**
 * xen_alloc_unpopulated_pages() - pages with no memory behind them
 * @nr_pages: how many
 * @pages: where their struct pages go
 *
 * The pages belong to the caller until xen_free_unpopulated_pages(); it
 * must not touch them other than by mapping something in their place
 * (a grant, with the P2M set to it in a PV guest).
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOMEM (no memory, or Xen took none), -ENODEV when this
 * is not a Xen guest.
 */
int xen_alloc_unpopulated_pages(unsigned int nr_pages, struct page **pages)
{
	unsigned int i;
	int rc;

	if (!READ_ONCE(xen_pool_ready))
		return -ENODEV;
	rc = xen_empty_pool_get(&xen_pool, nr_pages, pages);
	/* The caller's now: a grant goes in its place. */
	for (i = 0; !rc && i < nr_pages; i++)
		__ClearPageOffline(pages[i]);
	return rc;
}
EXPORT_SYMBOL(xen_alloc_unpopulated_pages);

/**
 * xen_free_unpopulated_pages() - give back pages of
 *	xen_alloc_unpopulated_pages()
 * @nr_pages: how many
 * @pages: the pages, with nothing mapped in their place any more
 *
 * Context: process context; sleeps.
 */
void xen_free_unpopulated_pages(unsigned int nr_pages, struct page **pages)
{
	unsigned int i;

	for (i = 0; i < nr_pages; i++)
		__SetPageOffline(pages[i]);
	xen_empty_pool_put_keep(&xen_pool, nr_pages, pages,
				READ_ONCE(empty_pool_keep));
	/* A balloon that waited for pages lent out may go on. */
	xen_balloon_kick();
}
EXPORT_SYMBOL(xen_free_unpopulated_pages);

/**
 * xen_unpopulated_trim() - give idle empty pages their memory back
 * @keep: idle pages to keep
 *
 * Context: process context; sleeps.
 */
void xen_unpopulated_trim(unsigned long keep)
{
	if (READ_ONCE(xen_pool_ready))
		xen_empty_pool_trim(&xen_pool, keep);
}
EXPORT_SYMBOL_GPL(xen_unpopulated_trim);

/*
 * The balloon's pages are the pool's: those it gives back wait in the
 * pool, where backends find them first, and those it takes back come
 * from there.  It asks the page allocator not to try hard: a balloon
 * that cannot have a page waits and tries later, where a harder try
 * would push the domain's own programs out (the OOM killer).
 */
#define XEN_BALLOON_GFP	(GFP_HIGHUSER | __GFP_NORETRY | __GFP_NOMEMALLOC)

/**
 * xen_pool_balloon_give() - hand pages back to Xen for the balloon
 * @nr: how many at most
 *
 * Context: process context; sleeps.
 * Return: how many went, or -ENOMEM when none could.
 */
int xen_pool_balloon_give(unsigned int nr)
{
	if (!READ_ONCE(xen_pool_ready))
		return -ENODEV;
	return xen_empty_pool_grow(&xen_pool, nr, XEN_BALLOON_GFP);
}

/**
 * xen_pool_balloon_take() - take pages back from Xen for the balloon
 * @nr: how many at most
 *
 * Context: process context; sleeps.
 * Return: how many came (0 when Xen had none), or -ENOSPC when the pool
 * has no empty page to fill.
 */
int xen_pool_balloon_take(unsigned int nr)
{
	if (!READ_ONCE(xen_pool_ready))
		return -ENODEV;
	return xen_empty_pool_fill(&xen_pool, nr);
}

/**
 * xen_pool_balloon_add() - give the balloon pages that are empty already
 * @page: the first of @nr consecutive pages of hot-added memory
 * @nr: how many
 *
 * Context: process context; sleeps.
 */
void xen_pool_balloon_add(struct page *page, unsigned long nr)
{
	xen_empty_pool_add(&xen_pool, page, nr);
}

/**
 * xen_pool_balloon_pages() - the pages the balloon holds in the pool
 *
 * Return: the pool's floor.
 */
unsigned long xen_pool_balloon_pages(void)
{
	return READ_ONCE(xen_pool.floor);
}

/**
 * xen_pool_lent_pages() - empty pages handed out to backends and gntdev
 *
 * Return: how many are out.
 */
unsigned long xen_pool_lent_pages(void)
{
	return READ_ONCE(xen_pool.nr_used);
}

/**
 * xen_pool_idle_pages() - the pool's idle empty pages, the balloon's too
 *
 * Return: how many the next gets take before the pool empties new ones.
 */
unsigned long xen_pool_idle_pages(void)
{
	unsigned long idle;

	mutex_lock(&xen_pool.lock);
	idle = xen_pool.nr_idle;
	mutex_unlock(&xen_pool.lock);
	return idle;
}

static int xen_pool_show(struct seq_file *m, void *v)
{
	mutex_lock(&xen_pool.lock);
	seq_printf(m, "idle %lu\nused %lu\nkeep %lu\nballoon %lu\nemptied %lu\nfilled %lu\nadded %lu\nfailed %lu\n",
		   xen_pool.nr_idle, xen_pool.nr_used, xen_pool.keep,
		   xen_pool.floor, xen_pool.emptied, xen_pool.filled,
		   xen_pool.added, xen_pool.failed);
	mutex_unlock(&xen_pool.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(xen_pool);

static int __init xen_pool_init(void)
{
	struct dentry *dir;

	if (!xen_domain())
		return 0;
	xen_empty_pool_init(&xen_pool, &xen_pool_ops, NULL, empty_pool_keep);
	WRITE_ONCE(xen_pool_ready, true);
	dir = xen_debugfs_dir();
	if (!IS_ERR_OR_NULL(dir))
		debugfs_create_file("empty_pool", 0444, dir, NULL,
				    &xen_pool_fops);
	return 0;
}
subsys_initcall(xen_pool_init);
