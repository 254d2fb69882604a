// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers a frontend shares through a page directory (see
 * include/xen/xen-front-pgdir-shbuf.h): the display and sound frontends'.
 *
 * The directory is one physically contiguous run of zeroed pages.  Each
 * page starts with the grant reference of the next page (0 on the last)
 * and holds XEN_PGDIR_REFS of the buffer's references after it.
 *
 * The backend is not trusted: the references it writes into a directory
 * (be_alloc) are read once each and mapped through Xen, which refuses
 * what the backend did not grant; a refusal fails the whole map.
 */
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <xen/grant_table.h>
#include <xen/page.h>
#include <xen/xen-front-pgdir-shbuf.h>
#include <xen/xenbus.h>

/* References a directory page holds after the link to the next one. */
#define XEN_PGDIR_REFS	(XEN_PAGE_SIZE / sizeof(grant_ref_t) - 1)

static grant_ref_t *pgdir_page(struct xen_front_pgdir_shbuf *buf, int i)
{
	return (grant_ref_t *)(buf->directory + i * XEN_PAGE_SIZE);
}

/* The buffer's references in directory page @i, and how many there are. */
static int pgdir_slots(struct xen_front_pgdir_shbuf *buf, int i,
		       grant_ref_t **slots)
{
	*slots = pgdir_page(buf, i) + 1;
	return min_t(int, XEN_PGDIR_REFS, buf->num_pages - i * XEN_PGDIR_REFS);
}

static int pgdir_grant(struct xen_front_pgdir_shbuf *buf, unsigned long gfn,
		       bool readonly)
{
	int ref = gnttab_grant_foreign_access(buf->xb_dev->otherend_id, gfn,
					      readonly);

	if (ref < 0)
		return ref;
	buf->grefs[buf->num_grefs++] = ref;
	return 0;
}

/**
 * xen_front_pgdir_shbuf_alloc() - grant a buffer and its page directory
 * @cfg: the buffer, its pages and its frontend device
 *
 * The directory's pages are granted to the backend, read-only unless
 * the backend is to fill them (be_alloc); the buffer's own pages, when
 * the frontend gives them, read-write, and their references are written
 * into the directory.  On failure everything granted is taken back.
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL for an empty buffer, -ENOMEM, or the grant table's
 * error (-ENOSPC when it is full).
 */
int xen_front_pgdir_shbuf_alloc(struct xen_front_pgdir_shbuf_cfg *cfg)
{
	struct xen_front_pgdir_shbuf *buf = cfg->pgdir;
	grant_ref_t *slots;
	int i, j, n, rc;

	if (cfg->num_pages <= 0 || !cfg->pages)
		return -EINVAL;
	*buf = (struct xen_front_pgdir_shbuf) {
		.xb_dev = cfg->xb_dev,
		.pages = cfg->pages,
		.num_pages = cfg->num_pages,
		.be_alloc = cfg->be_alloc,
		.num_dir_pages = DIV_ROUND_UP(cfg->num_pages, XEN_PGDIR_REFS),
	};
	n = buf->num_dir_pages + (buf->be_alloc ? 0 : buf->num_pages);
	buf->grefs = kcalloc(n, sizeof(*buf->grefs), GFP_KERNEL);
	if (buf->be_alloc) {
		buf->map_handles = kcalloc(buf->num_pages,
					   sizeof(*buf->map_handles),
					   GFP_KERNEL);
		buf->unmap_ops = kcalloc(buf->num_pages,
					 sizeof(*buf->unmap_ops), GFP_KERNEL);
		buf->map_pages = kcalloc(buf->num_pages,
					 sizeof(*buf->map_pages), GFP_KERNEL);
	}
	buf->directory = alloc_pages_exact(buf->num_dir_pages * XEN_PAGE_SIZE,
					   GFP_KERNEL | __GFP_ZERO);
	if (!buf->grefs || !buf->directory ||
	    (buf->be_alloc && (!buf->map_handles || !buf->unmap_ops ||
			       !buf->map_pages))) {
		rc = -ENOMEM;
		goto fail;
	}

	for (i = 0; i < buf->num_dir_pages; i++) {
		rc = pgdir_grant(buf, virt_to_gfn(pgdir_page(buf, i)),
				 !buf->be_alloc);
		if (rc)
			goto fail;
	}
	/*
	 * Each granted page is held until its grant ends, which may be after
	 * the caller freed it: the backend cannot keep a page that went back
	 * to the allocator.
	 */
	for (i = 0; !buf->be_alloc && i < buf->num_pages; i++) {
		rc = pgdir_grant(buf, xen_page_to_gfn(buf->pages[i]), false);
		if (rc)
			goto fail;
		get_page(buf->pages[i]);
	}

	for (i = 0; i < buf->num_dir_pages; i++) {
		pgdir_page(buf, i)[0] = i + 1 < buf->num_dir_pages ?
					buf->grefs[i + 1] : 0;
		if (buf->be_alloc)
			continue;
		n = pgdir_slots(buf, i, &slots);
		for (j = 0; j < n; j++)
			slots[j] = buf->grefs[buf->num_dir_pages +
					      i * XEN_PGDIR_REFS + j];
	}
	return 0;

fail:
	xen_front_pgdir_shbuf_free(buf);
	return rc;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_alloc);

/**
 * xen_front_pgdir_shbuf_get_dir_start() - the directory's first page
 * @buf: the buffer
 *
 * Return: its grant reference, for the request to the backend; 0 if the
 * buffer has none.
 */
grant_ref_t xen_front_pgdir_shbuf_get_dir_start(struct xen_front_pgdir_shbuf *buf)
{
	return buf->grefs && buf->num_grefs ? buf->grefs[0] : 0;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_get_dir_start);

/**
 * xen_front_pgdir_shbuf_map() - map the buffer the backend allocated
 * @buf: the buffer, its directory filled in by the backend
 *
 * Only for a be_alloc buffer (for another, nothing to do): each of the
 * backend's references goes in place of one of the buffer's pages.
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOMEM, or the error of the first grant Xen would not
 * map (nothing stays mapped then).
 */
int xen_front_pgdir_shbuf_map(struct xen_front_pgdir_shbuf *buf)
{
	struct gnttab_map_grant_ref *ops;
	grant_ref_t *slots;
	int i, j, k, n, rc;

	if (!buf->be_alloc || buf->mapped)
		return 0;
	ops = kcalloc(buf->num_pages, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0, k = 0; i < buf->num_dir_pages; i++) {
		n = pgdir_slots(buf, i, &slots);
		for (j = 0; j < n; j++, k++)
			gnttab_set_map_op(&ops[k],
					  (unsigned long)page_address(buf->pages[k]),
					  GNTMAP_host_map, READ_ONCE(slots[j]),
					  buf->xb_dev->otherend_id);
	}

	/* The grant calls may write into the array: not into the caller's. */
	memcpy(buf->map_pages, buf->pages,
	       buf->num_pages * sizeof(*buf->map_pages));
	rc = gnttab_map_refs(ops, NULL, buf->map_pages, buf->num_pages);
	for (k = 0; k < buf->num_pages; k++) {
		if (ops[k].status == GNTST_okay) {
			buf->map_handles[k] = ops[k].handle;
			buf->mapped = true;
		} else {
			buf->map_handles[k] = (grant_handle_t)~0;
			if (!rc)
				rc = gnttab_status_to_errno(ops[k].status);
		}
		if (!buf->map_pages[k] && !rc)
			rc = -EIO;
	}
	kfree(ops);
	if (rc) {
		dev_warn(&buf->xb_dev->dev,
			 "cannot map the backend's buffer of %d pages: %d\n",
			 buf->num_pages, rc);
		xen_front_pgdir_shbuf_unmap(buf);
	}
	return rc;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_map);

/**
 * xen_front_pgdir_shbuf_unmap() - unmap the buffer the backend allocated
 * @buf: the buffer
 *
 * Needs no memory: the room was taken when the buffer was set up.  The
 * pages Xen would not unmap stay mapped, and a later call tries them
 * again; the caller must not reuse them meanwhile.
 *
 * Context: process context; sleeps.
 * Return: 0, or the error of the first page that stayed mapped.
 */
int xen_front_pgdir_shbuf_unmap(struct xen_front_pgdir_shbuf *buf)
{
	int k, n = 0, rc;

	if (!buf->be_alloc || !buf->mapped)
		return 0;
	for (k = 0; k < buf->num_pages; k++) {
		if (buf->map_handles[k] == (grant_handle_t)~0)
			continue;
		gnttab_set_unmap_op(&buf->unmap_ops[n],
				    (unsigned long)page_address(buf->pages[k]),
				    GNTMAP_host_map, buf->map_handles[k]);
		buf->map_pages[n++] = buf->pages[k];
	}
	rc = n ? gnttab_unmap_refs(buf->unmap_ops, NULL, buf->map_pages, n)
	       : 0;
	buf->mapped = false;
	for (k = 0, n = 0; k < buf->num_pages; k++) {
		if (buf->map_handles[k] == (grant_handle_t)~0)
			continue;
		if (buf->unmap_ops[n++].status == GNTST_okay) {
			buf->map_handles[k] = (grant_handle_t)~0;
			continue;
		}
		buf->mapped = true;
		if (!rc)
			rc = -EIO;
	}
	if (rc)
		dev_warn(&buf->xb_dev->dev,
			 "cannot unmap the backend's buffer: %d\n", rc);
	return rc;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_unmap);

/**
 * xen_front_pgdir_shbuf_free() - take back the grants, free the directory
 * @buf: the buffer; zeroed, or set up by xen_front_pgdir_shbuf_alloc()
 *
 * A page the backend still maps (of the directory, or of a buffer the
 * frontend gave) is let go of when the backend does (see
 * gnttab_end_foreign_access()); the caller frees its buffer pages as
 * before, dropping its own reference.  A buffer the backend allocated is
 * unmapped first.
 *
 * Context: process context.
 */
void xen_front_pgdir_shbuf_free(struct xen_front_pgdir_shbuf *buf)
{
	struct page *page;
	int i;

	if (xen_front_pgdir_shbuf_unmap(buf)) {
		/* Keep the handles: the pages still hold the backend's frames. */
		WARN(1, "xen: %d-page shared buffer freed while mapped\n",
		     buf->num_pages);
		buf->map_handles = NULL;
	}
	for (i = 0; i < buf->num_grefs; i++) {
		if (i < buf->num_dir_pages)
			page = virt_to_page(pgdir_page(buf, i));
		else
			page = buf->pages[i - buf->num_dir_pages];
		/* The page goes (put_page) when the backend lets go of it. */
		gnttab_end_foreign_access(buf->grefs[i], page);
	}
	/* Directory pages that were never granted. */
	for (i = buf->num_grefs; buf->directory && i < buf->num_dir_pages; i++)
		put_page(virt_to_page(pgdir_page(buf, i)));
	kfree(buf->grefs);
	kfree(buf->map_handles);
	kfree(buf->unmap_ops);
	kfree(buf->map_pages);
	*buf = (struct xen_front_pgdir_shbuf) { };
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_free);

MODULE_DESCRIPTION("Xen frontends' buffers shared through a page directory");
MODULE_LICENSE("GPL");
