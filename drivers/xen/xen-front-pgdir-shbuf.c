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
	if (buf->be_alloc)
		buf->map_handles = kcalloc(buf->num_pages,
					   sizeof(*buf->map_handles),
					   GFP_KERNEL);
	buf->directory = alloc_pages_exact(buf->num_dir_pages * XEN_PAGE_SIZE,
					   GFP_KERNEL | __GFP_ZERO);
	if (!buf->grefs || (buf->be_alloc && !buf->map_handles) ||
	    !buf->directory) {
		rc = -ENOMEM;
		goto fail;
	}

	for (i = 0; i < buf->num_dir_pages; i++) {
		rc = pgdir_grant(buf, virt_to_gfn(pgdir_page(buf, i)),
				 !buf->be_alloc);
		if (rc)
			goto fail;
	}
	for (i = 0; !buf->be_alloc && i < buf->num_pages; i++) {
		rc = pgdir_grant(buf, xen_page_to_gfn(buf->pages[i]), false);
		if (rc)
			goto fail;
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

	rc = gnttab_map_refs(ops, NULL, buf->pages, buf->num_pages);
	for (k = 0; k < buf->num_pages; k++) {
		buf->map_handles[k] = ops[k].handle;
		if (!rc && ops[k].status != GNTST_okay)
			rc = gnttab_status_to_errno(ops[k].status);
	}
	if (!rc) {
		buf->mapped = true;
	} else {
		dev_warn(&buf->xb_dev->dev,
			 "cannot map the backend's buffer of %d pages: %d\n",
			 buf->num_pages, rc);
		/* Undo what did map. */
		for (k = 0; k < buf->num_pages; k++)
			if (ops[k].status != GNTST_okay)
				buf->map_handles[k] = ~0;
		buf->mapped = true;
		xen_front_pgdir_shbuf_unmap(buf);
	}
	kfree(ops);
	return rc;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_map);

/**
 * xen_front_pgdir_shbuf_unmap() - unmap the buffer the backend allocated
 * @buf: the buffer
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOMEM, or Xen's error (the pages stay mapped then).
 */
int xen_front_pgdir_shbuf_unmap(struct xen_front_pgdir_shbuf *buf)
{
	struct gnttab_unmap_grant_ref *ops;
	struct page **pages;
	int k, n = 0, rc;

	if (!buf->be_alloc || !buf->mapped)
		return 0;
	ops = kcalloc(buf->num_pages, sizeof(*ops), GFP_KERNEL);
	pages = kcalloc(buf->num_pages, sizeof(*pages), GFP_KERNEL);
	if (!ops || !pages) {
		rc = -ENOMEM;
		goto out;
	}
	for (k = 0; k < buf->num_pages; k++) {
		if (buf->map_handles[k] == (grant_handle_t)~0)
			continue;
		gnttab_set_unmap_op(&ops[n],
				    (unsigned long)page_address(buf->pages[k]),
				    GNTMAP_host_map, buf->map_handles[k]);
		pages[n++] = buf->pages[k];
	}
	rc = n ? gnttab_unmap_refs(ops, NULL, pages, n) : 0;
	if (rc)
		dev_warn(&buf->xb_dev->dev,
			 "cannot unmap the backend's buffer: %d\n", rc);
	else
		buf->mapped = false;
out:
	kfree(pages);
	kfree(ops);
	return rc;
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_unmap);

/**
 * xen_front_pgdir_shbuf_free() - take back the grants, free the directory
 * @buf: the buffer; zeroed, or set up by xen_front_pgdir_shbuf_alloc()
 *
 * A directory page the backend still maps is freed when it lets go (see
 * gnttab_end_foreign_access()).  The buffer's pages stay the caller's.
 *
 * Context: process context.
 */
void xen_front_pgdir_shbuf_free(struct xen_front_pgdir_shbuf *buf)
{
	int i;

	for (i = 0; i < buf->num_grefs; i++)
		gnttab_end_foreign_access(buf->grefs[i],
					  i < buf->num_dir_pages ?
					  virt_to_page(pgdir_page(buf, i)) : NULL);
	/* Pages whose grant was ended went with it; free the others. */
	for (i = buf->num_grefs; buf->directory && i < buf->num_dir_pages; i++)
		put_page(virt_to_page(pgdir_page(buf, i)));
	kfree(buf->grefs);
	kfree(buf->map_handles);
	*buf = (struct xen_front_pgdir_shbuf) { };
}
EXPORT_SYMBOL_GPL(xen_front_pgdir_shbuf_free);

MODULE_DESCRIPTION("Xen frontends' buffers shared through a page directory");
MODULE_LICENSE("GPL");
