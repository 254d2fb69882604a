// SPDX-License-Identifier: GPL-2.0
/*
 * The balloon grows past the memory the domain booted with: when its
 * target asks for more than the pages it holds empty, it adds a block of
 * memory (memory hotplug) above all the domain knows of, with nothing
 * behind it, and fills it a batch at a time as the target asks.
 *
 * The block's pages are onlined through an online-page callback that
 * keeps them out of the page allocator: they join the pool of empty
 * pages as the balloon's (xen_pool_balloon_add()), still marked offline
 * as hotplug leaves them, and each one reaches the allocator only once
 * it has memory (unpopulated.c gives it to generic_online_page() then).
 * In a PV guest the P2M makes room for the block first
 * (xen_p2m_add_memory()); the direct map of a pfn with no frame maps
 * nothing, and filling it maps the frame (mmu_reserve_pv.c).
 *
 * The blocks stay: pages the balloon gives back go to the pool, where
 * the next growth finds them.  None of them may go offline (a memory
 * notifier says no): the pool holds their pages.  A block goes where no memory map entry
 * and no resource is, at or above the end of both: in a PVH guest that
 * keeps it out of the hole below 4 GiB.
 *
 * Locking: xen_hotplug_lock serialises the additions.  The list of
 * blocks only grows; a block is listed (smp_store_release() of the
 * count) before it is added, and the callbacks read it lock-free.
 */
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pfn.h>
#include <linux/slab.h>
#include <asm/e820/api.h>
#include <asm/xen/page.h>

#include "balloon.h"

/* The blocks added, at most this many (64 GiB in 128 MiB blocks). */
#define XEN_HOTPLUG_MAX		512

static DEFINE_MUTEX(xen_hotplug_lock);
static struct resource *xen_hotplug_res[XEN_HOTPLUG_MAX];
static unsigned int xen_hotplug_nr;
/* The online callback is ours: without it no block may be added. */
static bool xen_hotplug_ready;

/* Does [@pfn, @pfn + @nr) meet a block of ours? */
static bool xen_hotplug_ours(unsigned long pfn, unsigned long nr)
{
	phys_addr_t start = PFN_PHYS(pfn), end = PFN_PHYS(pfn + nr) - 1;
	/* Pairs with the release in xen_balloon_hotplug(): slots filled. */
	unsigned int i, n = smp_load_acquire(&xen_hotplug_nr);

	for (i = 0; i < n; i++)
		if (start <= xen_hotplug_res[i]->end &&
		    end >= xen_hotplug_res[i]->start)
			return true;
	return false;
}

/*
 * The online-page callback, for every block onlined: ours go to the pool
 * empty, anyone else's to the page allocator as usual.
 */
static void xen_hotplug_online_page(struct page *page, unsigned int order)
{
	if (!xen_hotplug_ours(page_to_pfn(page), 1UL << order)) {
		generic_online_page(page, order);
		return;
	}
	xen_pool_balloon_add(page, 1UL << order);
}

/* Where a block may go: past every memory map entry and max_pfn. */
static u64 xen_hotplug_floor(void)
{
	u64 end = PFN_PHYS(max_pfn);
	u32 i;

	for (i = 0; i < e820_table->nr_entries; i++)
		end = max(end, e820_table->entries[i].addr +
			       e820_table->entries[i].size);
	return end;
}

/* The pool holds the pages of our blocks: they stay online. */
static int xen_hotplug_memory_event(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	struct memory_notify *arg = data;

	if (action == MEM_GOING_OFFLINE &&
	    xen_hotplug_ours(arg->start_pfn, arg->nr_pages))
		return notifier_from_errno(-EBUSY);
	return NOTIFY_OK;
}

static struct notifier_block xen_hotplug_memory_nb = {
	.notifier_call = xen_hotplug_memory_event,
};

static int xen_hotplug_online_block(struct memory_block *mem, void *arg)
{
	int rc = device_online(&mem->dev);

	return rc < 0 ? rc : 0;	/* 1: it was online already */
}

/**
 * xen_balloon_hotplug() - add a block of empty memory for the balloon
 *
 * Context: process context; sleeps (memory hotplug).
 * Return: how many pages joined the pool, or a negative errno: -ENOSPC
 * when no more blocks may be added (none left, no room in the physical
 * space or the P2M), else what failed this time (-ENOMEM, hotplug's).
 */
long xen_balloon_hotplug(void)
{
	unsigned long size = memory_block_size_bytes();
	struct range pluggable = mhp_get_pluggable_range(true);
	unsigned long before = xen_pool_balloon_pages();
	struct resource *res;
	int nid, rc;

	mutex_lock(&xen_hotplug_lock);
	rc = -ENOSPC;
	if (!xen_hotplug_ready || xen_hotplug_nr == XEN_HOTPLUG_MAX)
		goto out;
	rc = -ENOMEM;
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		goto out;
	res->name = "System RAM";
	res->flags = IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY;
	rc = allocate_resource(&iomem_resource, res, size,
			       max_t(u64, pluggable.start,
				     round_up(xen_hotplug_floor(), size)),
			       pluggable.end, size, NULL, NULL);
	if (rc) {
		rc = -ENOSPC;	/* no room left in the physical space */
		goto free_res;
	}
	rc = xen_p2m_add_memory(PFN_DOWN(res->start), PFN_DOWN(size));
	if (rc == -ERANGE)
		rc = -ENOSPC;	/* past what the P2M can hold */
	if (rc)
		goto release;
	/* Listed first: the callback, inside add_memory_resource(), looks. */
	xen_hotplug_res[xen_hotplug_nr] = res;
	/* The slot before the count: see xen_hotplug_ours(). */
	smp_store_release(&xen_hotplug_nr, xen_hotplug_nr + 1);
	nid = memory_add_physaddr_to_nid(res->start);
	lock_device_hotplug();
	rc = add_memory_resource(nid, res, MHP_NONE);
	if (rc) {
		unlock_device_hotplug();
		WRITE_ONCE(xen_hotplug_nr, xen_hotplug_nr - 1);
		pr_err_ratelimited("xen: balloon: memory at %pR not added: %d\n",
				   res, rc);
		goto release;
	}
	rc = walk_memory_blocks(res->start, size, NULL,
				xen_hotplug_online_block);
	unlock_device_hotplug();
	if (rc) {
		/* Added, not all online: what is online is in the pool. */
		pr_err_ratelimited("xen: balloon: memory at %pR not online: %d\n",
				   res, rc);
		goto out;
	}
	pr_info("xen: balloon: %lu MiB of memory added at %pR\n",
		size >> 20, res);
	mutex_unlock(&xen_hotplug_lock);
	return xen_pool_balloon_pages() - before;

release:
	release_resource(res);
free_res:
	kfree(res);
out:
	mutex_unlock(&xen_hotplug_lock);
	return rc;
}

/**
 * xen_balloon_hotplug_init() - let the balloon add memory
 *
 * Return: 0, or an errno when another driver has the online callback
 * (the balloon then never adds memory).
 */
int xen_balloon_hotplug_init(void)
{
	int rc = register_memory_notifier(&xen_hotplug_memory_nb);

	if (rc)
		return rc;
	rc = set_online_page_callback(xen_hotplug_online_page);
	if (rc) {
		unregister_memory_notifier(&xen_hotplug_memory_nb);
		return rc;
	}
	mutex_lock(&xen_hotplug_lock);
	xen_hotplug_ready = true;
	mutex_unlock(&xen_hotplug_lock);
	return 0;
}
