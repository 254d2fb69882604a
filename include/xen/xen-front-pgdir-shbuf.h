/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A buffer a frontend shares with its backend through a page directory,
 * as the display (displif) and sound (sndif) protocols pass buffers: a
 * chain of granted pages, each holding the grant reference of the next
 * and then as many of the buffer's references as fit.  The frontend
 * names the chain's first page in its request.
 *
 * Either the frontend grants the buffer's pages and fills the directory
 * (holding a reference to each page until the backend lets go of it),
 * or (be_alloc) the backend allocates the buffer, writes its own grant
 * references into the directory the frontend granted, and the frontend
 * maps them over pages with no memory behind them.
 *
 * Use: fill a struct xen_front_pgdir_shbuf_cfg, xen_front_pgdir_shbuf_alloc(),
 * send xen_front_pgdir_shbuf_get_dir_start() to the backend, and once it
 * answered, xen_front_pgdir_shbuf_map(); at the end
 * xen_front_pgdir_shbuf_unmap() and xen_front_pgdir_shbuf_free().
 */
#ifndef _XEN_FRONT_PGDIR_SHBUF_H
#define _XEN_FRONT_PGDIR_SHBUF_H

#include <linux/types.h>
#include <xen/grant_table.h>

struct page;
struct xenbus_device;

/**
 * struct xen_front_pgdir_shbuf - a buffer shared through a page directory
 *
 * Zeroed by its owner before the first xen_front_pgdir_shbuf_alloc();
 * the fields are this module's.
 *
 * @xb_dev: the frontend device; its backend is the grantee
 * @pages: the buffer's pages (the caller's)
 * @num_pages: how many
 * @be_alloc: the backend allocates the buffer
 * @directory: the directory's pages, one after the other
 * @num_dir_pages: how many
 * @grefs: the grant references this end gave: the directory's, then
 *	(not be_alloc) the buffer's
 * @num_grefs: how many of @grefs are granted
 * @map_handles: (be_alloc) Xen's handles of the mapped buffer pages,
 *	~0 for a page not mapped
 * @unmap_ops: (be_alloc) room to unmap them, taken at alloc time so that
 *	unmapping needs no memory
 * @map_pages: (be_alloc) room for a copy of @pages, which the grant
 *	calls may write into
 * @mapped: (be_alloc) some of the buffer's pages are mapped
 */
struct xen_front_pgdir_shbuf {
	struct xenbus_device *xb_dev;
	struct page **pages;
	int num_pages;
	bool be_alloc;
	u8 *directory;
	int num_dir_pages;
	grant_ref_t *grefs;
	int num_grefs;
	grant_handle_t *map_handles;
	struct gnttab_unmap_grant_ref *unmap_ops;
	struct page **map_pages;
	bool mapped;
};

/**
 * struct xen_front_pgdir_shbuf_cfg - what xen_front_pgdir_shbuf_alloc() takes
 * @xb_dev: the frontend device
 * @pgdir: the buffer to set up
 * @pages: the buffer's pages: with memory (the frontend allocates), or
 *	with none to map the backend's into (be_alloc)
 * @num_pages: how many
 * @be_alloc: the backend allocates the buffer
 */
struct xen_front_pgdir_shbuf_cfg {
	struct xenbus_device *xb_dev;
	struct xen_front_pgdir_shbuf *pgdir;
	struct page **pages;
	int num_pages;
	bool be_alloc;
};

int xen_front_pgdir_shbuf_alloc(struct xen_front_pgdir_shbuf_cfg *cfg);
grant_ref_t xen_front_pgdir_shbuf_get_dir_start(struct xen_front_pgdir_shbuf *buf);
int xen_front_pgdir_shbuf_map(struct xen_front_pgdir_shbuf *buf);
int xen_front_pgdir_shbuf_unmap(struct xen_front_pgdir_shbuf *buf);
void xen_front_pgdir_shbuf_free(struct xen_front_pgdir_shbuf *buf);

#endif /* _XEN_FRONT_PGDIR_SHBUF_H */
