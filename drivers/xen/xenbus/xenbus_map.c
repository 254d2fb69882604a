// SPDX-License-Identifier: GPL-2.0
/*
 * A backend's view of a frontend's ring: the grants the frontend names
 * in xenstore ("ring-ref", "ring-ref0".."ring-refN") mapped in order at
 * one kernel address.
 *
 * In a PV domain Xen writes each grant's frame straight into the kernel's
 * page-table entry for it (GNTMAP_contains_pte): the address range is a
 * vmalloc area whose page tables are made first, and no page of this
 * domain stands behind it.  In an HVM container (a PVH driver domain) the
 * grants go in place of empty pages (xen_alloc_unpopulated_pages()),
 * which are then mapped together with vmap().
 *
 * Trust: the frontend chooses the grant references; Xen checks that they
 * are the frontend's and grant this domain access.  A map Xen refuses
 * fails the whole ring, undoes what was mapped and closes the device with
 * xenbus_dev_fatal().  A grant Xen will not unmap leaves its range
 * mapped for good, rather than handing it to someone else still mapped.
 *
 * Locking: xb_maps_lock (a spinlock) protects the list of mappings, which
 * xenbus_unmap_ring_vfree() searches by address.
 */
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <xen/grant_table.h>
#include <xen/interface/grant_table.h>
#include <xen/page.h>
#include <xen/xen.h>
#include <xen/xenbus.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>

/* A grant Xen says to try again (it is paged out): this often, 20 ms apart. */
#define XB_MAP_TRIES	50

/**
 * struct xb_ring_map - one ring mapped with xenbus_map_ring_valloc()
 * @list: on xb_maps
 * @addr: where it is mapped
 * @nr: how many grants
 * @area: the vmalloc area (PV)
 * @pages: the empty pages the grants stand in (HVM)
 * @host: per grant, the machine address of its page-table entry (PV) or
 *	the physical address of its page (HVM)
 * @handles: per grant, Xen's handle of the mapping
 */
struct xb_ring_map {
	struct list_head list;
	void *addr;
	unsigned int nr;
	struct vm_struct *area;
	struct page *pages[XENBUS_MAX_RING_GRANTS];
	u64 host[XENBUS_MAX_RING_GRANTS];
	grant_handle_t handles[XENBUS_MAX_RING_GRANTS];
};

static LIST_HEAD(xb_maps);
static DEFINE_SPINLOCK(xb_maps_lock);

/* apply_to_page_range(): note where each page's entry is. */
static int xb_note_pte(pte_t *pte, unsigned long addr, void *data)
{
	struct xb_ring_map *m = data;
	unsigned int i = (addr - (unsigned long)m->area->addr) >> PAGE_SHIFT;

	m->host[i] = arbitrary_virt_to_machine(pte);
	return 0;
}

/* Reserve the place the grants go; fills m->host. */
static int xb_place_get(struct xb_ring_map *m)
{
	unsigned long size = (unsigned long)m->nr << PAGE_SHIFT;
	unsigned int i;
	int rc;

	if (xen_pv_domain()) {
		m->area = get_vm_area(size, VM_IOREMAP);
		if (!m->area)
			return -ENOMEM;
		/* Makes the page tables, so that the entries exist. */
		rc = apply_to_page_range(&init_mm, (unsigned long)m->area->addr,
					 size, xb_note_pte, m);
		if (rc) {
			free_vm_area(m->area);
			return rc;
		}
		m->addr = m->area->addr;
		return 0;
	}
	rc = xen_alloc_unpopulated_pages(m->nr, m->pages);
	if (rc)
		return rc;
	for (i = 0; i < m->nr; i++)
		m->host[i] = PFN_PHYS(page_to_pfn(m->pages[i]));
	return 0;
}

static void xb_place_put(struct xb_ring_map *m)
{
	if (xen_pv_domain())
		free_vm_area(m->area);
	else
		xen_free_unpopulated_pages(m->nr, m->pages);
}

/* Unmap @nr grants at @host with @handles; 0, or the first error. */
static int xb_unmap_grants(const u64 *host, const grant_handle_t *handles,
			   unsigned int nr)
{
	struct gnttab_unmap_grant_ref op[XENBUS_MAX_RING_GRANTS];
	unsigned int i;
	int rc, err = 0;

	for (i = 0; i < nr; i++)
		op[i] = (struct gnttab_unmap_grant_ref) {
			.host_addr = host[i],
			.handle = handles[i],
			.status = GNTST_general_error,
		};
	rc = HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, op, nr);
	for (i = 0; i < nr; i++) {
		int e = gnttab_status_to_errno(op[i].status) ?: rc;

		if (e && !err) {
			pr_err("xenbus: ring grant at %#llx not unmapped: %d\n",
			       host[i], e);
			err = e;
		}
	}
	return err;
}

/*
 * Map @refs of the other end, all or none: 0, or a negative errno after
 * one log line (and Closing); -EBUSY when a grant mapped could not be
 * unmapped again.
 */
static int xb_map_grants(struct xenbus_device *dev, struct xb_ring_map *m,
			 const grant_ref_t *refs)
{
	struct gnttab_map_grant_ref op[XENBUS_MAX_RING_GRANTS];
	u32 flags = GNTMAP_host_map;
	unsigned int i, tries, bad = 0;
	bool busy = false;
	int rc, err = 0;

	if (xen_pv_domain())
		flags |= GNTMAP_contains_pte;
	/* An entry Xen never reached must not read as done. */
	for (i = 0; i < m->nr; i++)
		op[i] = (struct gnttab_map_grant_ref) {
			.host_addr = m->host[i],
			.flags = flags,
			.ref = refs[i],
			.dom = dev->otherend_id,
			.status = GNTST_general_error,
		};
	rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, op, m->nr);
	for (i = 0; i < m->nr; i++) {
		for (tries = 0; !rc && op[i].status == GNTST_eagain &&
		     tries < XB_MAP_TRIES; tries++) {
			msleep(20);
			rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref,
						       &op[i], 1);
		}
		m->handles[i] = op[i].handle;
		if (op[i].status != GNTST_okay && !err) {
			err = rc ?: gnttab_status_to_errno(op[i].status);
			bad = i;
		}
	}
	if (!err)
		return 0;
	xenbus_dev_fatal(dev, err, "mapping ring grant %u (%u of %u) of domain %d",
			 refs[bad], bad + 1, m->nr, dev->otherend_id);
	for (i = 0; i < m->nr; i++)
		if (op[i].status == GNTST_okay &&
		    xb_unmap_grants(&m->host[i], &m->handles[i], 1))
			busy = true;
	return busy ? -EBUSY : err;
}

/**
 * xenbus_map_ring_valloc() - map the other end's ring
 * @dev: the backend's device; the grants are its frontend's
 * @gnt_refs: the grant references, in ring order
 * @nr_grefs: how many, 1 to XENBUS_MAX_RING_GRANTS
 * @vaddr: where the kernel address of the ring goes (NULL on failure)
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno; a grant Xen refused also closed the
 * device with xenbus_dev_fatal().
 */
int xenbus_map_ring_valloc(struct xenbus_device *dev, grant_ref_t *gnt_refs,
			   unsigned int nr_grefs, void **vaddr)
{
	struct xb_ring_map *m;
	int rc;

	*vaddr = NULL;
	if (!nr_grefs || nr_grefs > XENBUS_MAX_RING_GRANTS)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->nr = nr_grefs;
	rc = xb_place_get(m);
	if (rc)
		goto free;
	rc = xb_map_grants(dev, m, gnt_refs);
	if (rc == -EBUSY)
		goto leak;
	if (rc)
		goto place;
	if (!xen_pv_domain()) {
		m->addr = vmap(m->pages, m->nr, VM_MAP, PAGE_KERNEL);
		if (!m->addr) {
			rc = -ENOMEM;
			if (xb_unmap_grants(m->host, m->handles, m->nr))
				goto leak;
			goto place;
		}
	}
	spin_lock(&xb_maps_lock);
	list_add(&m->list, &xb_maps);
	spin_unlock(&xb_maps_lock);
	*vaddr = m->addr;
	return 0;

place:
	xb_place_put(m);
free:
	kfree(m);
	return rc;
leak:
	/* Something of another domain may still be mapped there: keep it. */
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_map_ring_valloc);

/**
 * xenbus_unmap_ring_vfree() - unmap a ring xenbus_map_ring_valloc() mapped
 * @dev: the device it was mapped for
 * @vaddr: the address it gave
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOENT when nothing is mapped at @vaddr; Xen's error when it
 * would not unmap a grant (the range then stays reserved).
 */
int xenbus_unmap_ring_vfree(struct xenbus_device *dev, void *vaddr)
{
	struct xb_ring_map *m = NULL, *pos;
	int rc;

	spin_lock(&xb_maps_lock);
	list_for_each_entry(pos, &xb_maps, list) {
		if (pos->addr == vaddr) {
			list_del(&pos->list);
			m = pos;
			break;
		}
	}
	spin_unlock(&xb_maps_lock);
	if (!m) {
		dev_err(&dev->dev, "no ring mapped at %p\n", vaddr);
		return -ENOENT;
	}
	if (!xen_pv_domain())
		vunmap(m->addr);
	rc = xb_unmap_grants(m->host, m->handles, m->nr);
	if (rc) {
		xenbus_dev_error(dev, rc, "unmapping the ring of domain %d",
				 dev->otherend_id);
		return rc;
	}
	xb_place_put(m);
	kfree(m);
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_unmap_ring_vfree);
