/* SPDX-License-Identifier: MIT */
/*
 * The virtual framebuffer: one shared page (struct xenfb_page) with two
 * small event rings and a directory of the frames that hold the pixels.
 *
 * The guest sends events on the out ring (a rectangle to redraw, a new
 * mode), the backend on the in ring (how often it wants redraws).  Each
 * ring is an array of fixed-size unions at a fixed offset in the page,
 * with free-running indices in the page's head.  @pd names the frames of
 * the directory pages, each of which names frames of the framebuffer.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_FBIF_H
#define _XEN_INTERFACE_IO_FBIF_H

#include <linux/types.h>

/* Guest to backend. */
#define XENFB_TYPE_UPDATE		2	/* struct xenfb_update */
#define XENFB_TYPE_RESIZE		3	/* struct xenfb_resize */

/* Backend to guest. */
#define XENFB_TYPE_REFRESH_PERIOD	1	/* struct xenfb_refresh_period */
#define XENFB_NO_REFRESH		0	/* the period: none wanted */

/* The mode a guest starts in, before any resize. */
#define XENFB_WIDTH			800
#define XENFB_HEIGHT			600
#define XENFB_DEPTH			32

/**
 * struct xenfb_update - redraw a rectangle
 * @type: XENFB_TYPE_UPDATE
 * @x: left edge
 * @y: top edge
 * @width: in pixels
 * @height: in pixels
 */
struct xenfb_update {
	u8 type;
	s32 x;
	s32 y;
	s32 width;
	s32 height;
};

/**
 * struct xenfb_resize - a new mode, in the same frames
 * @type: XENFB_TYPE_RESIZE
 * @width: in pixels
 * @height: in pixels
 * @stride: bytes from one line to the next
 * @depth: bits a pixel
 * @offset: where the picture starts in the framebuffer, in bytes
 */
struct xenfb_resize {
	u8 type;
	s32 width;
	s32 height;
	s32 stride;
	s32 depth;
	s32 offset;
};

#define XENFB_OUT_EVENT_SIZE		40

/**
 * union xenfb_out_event - one slot of the guest's ring
 * @type: which of the members this is
 * @update: a redraw
 * @resize: a new mode
 * @pad: the slot's size
 */
union xenfb_out_event {
	u8 type;
	struct xenfb_update update;
	struct xenfb_resize resize;
	char pad[XENFB_OUT_EVENT_SIZE];
};

/**
 * struct xenfb_refresh_period - how often the backend wants redraws
 * @type: XENFB_TYPE_REFRESH_PERIOD
 * @period: milliseconds, or XENFB_NO_REFRESH when nobody looks
 */
struct xenfb_refresh_period {
	u8 type;
	u32 period;
};

#define XENFB_IN_EVENT_SIZE		40

/**
 * union xenfb_in_event - one slot of the backend's ring
 * @type: which of the members this is
 * @refresh_period: the wanted redraw period
 * @pad: the slot's size
 */
union xenfb_in_event {
	u8 type;
	struct xenfb_refresh_period refresh_period;
	char pad[XENFB_IN_EVENT_SIZE];
};

/* Where the rings lie in the shared page, and how many slots they have. */
#define XENFB_IN_RING_SIZE		1024
#define XENFB_IN_RING_LEN		(XENFB_IN_RING_SIZE / XENFB_IN_EVENT_SIZE)
#define XENFB_IN_RING_OFFS		1024
#define XENFB_OUT_RING_SIZE		2048
#define XENFB_OUT_RING_LEN		(XENFB_OUT_RING_SIZE / XENFB_OUT_EVENT_SIZE)
#define XENFB_OUT_RING_OFFS		(XENFB_IN_RING_OFFS + XENFB_IN_RING_SIZE)

#define XENFB_IN_RING(page)						\
	((union xenfb_in_event *)((char *)(page) + XENFB_IN_RING_OFFS))
/* The slot of free-running index @idx. */
#define XENFB_IN_RING_REF(page, idx)					\
	(XENFB_IN_RING(page)[(idx) % XENFB_IN_RING_LEN])
#define XENFB_OUT_RING(page)						\
	((union xenfb_out_event *)((char *)(page) + XENFB_OUT_RING_OFFS))
#define XENFB_OUT_RING_REF(page, idx)					\
	(XENFB_OUT_RING(page)[(idx) % XENFB_OUT_RING_LEN])

/**
 * struct xenfb_page - the shared page's head
 * @in_cons: the backend's ring, consumed by the guest
 * @in_prod: the backend's ring, produced by the backend
 * @out_cons: the guest's ring, consumed by the backend
 * @out_prod: the guest's ring, produced by the guest
 * @width: of the framebuffer, in pixels
 * @height: of the framebuffer, in pixels
 * @line_length: bytes a line
 * @mem_length: bytes of the framebuffer
 * @depth: bits a pixel
 * @pd: the frames of the directory pages; each directory page names, in
 *	unsigned longs, the frames of the framebuffer
 */
struct xenfb_page {
	u32 in_cons, in_prod;
	u32 out_cons, out_prod;
	s32 width;
	s32 height;
	u32 line_length;
	u32 mem_length;
	u8 depth;
	unsigned long pd[256];
};

#endif /* _XEN_INTERFACE_IO_FBIF_H */
