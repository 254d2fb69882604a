/* SPDX-License-Identifier: MIT */
/*
 * The para-virtual display protocol (version 2): for each of a guest's
 * connectors, a request ring (struct xendispl_req, answered by struct
 * xendispl_resp) and an event page the backend writes page-flip events
 * into (struct xendispl_evt, at XENDISPL_IN_RING_OFFS).
 *
 * A display buffer is a set of pages, granted by the frontend, or by the
 * backend when the frontend asks it to allocate (be-alloc); either way
 * its grant references travel in a page directory: granted pages each
 * holding the reference of the next such page and a run of the buffer's
 * references (include/xen/xen-front-pgdir-shbuf.h builds and reads
 * it).  A framebuffer is made on a display buffer, and a connector
 * shows a framebuffer.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_DISPLIF_H
#define _XEN_INTERFACE_IO_DISPLIF_H

#include <linux/bits.h>
#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

#define XENDISPL_PROTOCOL_VERSION	"2"
#define XENDISPL_PROTOCOL_VERSION_INT	2

/* xendispl_req.operation */
#define XENDISPL_OP_DBUF_CREATE		0x10
#define XENDISPL_OP_DBUF_DESTROY	0x11
#define XENDISPL_OP_FB_ATTACH		0x12
#define XENDISPL_OP_FB_DETACH		0x13
#define XENDISPL_OP_SET_CONFIG		0x14
#define XENDISPL_OP_PG_FLIP		0x15
#define XENDISPL_OP_GET_EDID		0x16

/* xendispl_evt.type */
#define XENDISPL_EVT_PG_FLIP		0x00

/* xenstore: the device's name, and the nodes either end reads. */
#define XENDISPL_DRIVER_NAME		"vdispl"
#define XENDISPL_LIST_SEPARATOR		","
#define XENDISPL_RESOLUTION_SEPARATOR	"x"
#define XENDISPL_FIELD_BE_VERSIONS	"versions"
#define XENDISPL_FIELD_FE_VERSION	"version"
#define XENDISPL_FIELD_REQ_RING_REF	"req-ring-ref"
#define XENDISPL_FIELD_REQ_CHANNEL	"req-event-channel"
#define XENDISPL_FIELD_EVT_RING_REF	"evt-ring-ref"
#define XENDISPL_FIELD_EVT_CHANNEL	"evt-event-channel"
#define XENDISPL_FIELD_RESOLUTION	"resolution"
#define XENDISPL_FIELD_BE_ALLOC		"be-alloc"
#define XENDISPL_FIELD_UNIQUE_ID	"unique-id"

#define XENDISPL_EDID_BLOCK_SIZE	128
#define XENDISPL_EDID_BLOCK_COUNT	256
#define XENDISPL_EDID_MAX_SIZE		(XENDISPL_EDID_BLOCK_SIZE * XENDISPL_EDID_BLOCK_COUNT)

/* xendispl_dbuf_create_req.flags: the backend allocates the buffer. */
#define XENDISPL_DBUF_FLG_REQ_ALLOC	BIT(0)

/**
 * struct xendispl_dbuf_create_req - make a display buffer
 * @dbuf_cookie: the frontend's name for it
 * @width: in pixels
 * @height: in pixels
 * @bpp: bits a pixel
 * @buffer_sz: bytes
 * @flags: XENDISPL_DBUF_FLG_*
 * @gref_directory: the first page of its page directory
 * @data_ofs: where the pixels start in the buffer
 */
struct xendispl_dbuf_create_req {
	u64 dbuf_cookie;
	u32 width;
	u32 height;
	u32 bpp;
	u32 buffer_sz;
	u32 flags;
	grant_ref_t gref_directory;
	u32 data_ofs;
};

/**
 * struct xendispl_dbuf_destroy_req - drop a display buffer
 * @dbuf_cookie: which
 */
struct xendispl_dbuf_destroy_req {
	u64 dbuf_cookie;
};

/**
 * struct xendispl_fb_attach_req - make a framebuffer on a display buffer
 * @dbuf_cookie: the display buffer
 * @fb_cookie: the frontend's name for the framebuffer
 * @width: in pixels
 * @height: in pixels
 * @pixel_format: a DRM fourcc
 */
struct xendispl_fb_attach_req {
	u64 dbuf_cookie;
	u64 fb_cookie;
	u32 width;
	u32 height;
	u32 pixel_format;
};

/**
 * struct xendispl_fb_detach_req - drop a framebuffer
 * @fb_cookie: which
 */
struct xendispl_fb_detach_req {
	u64 fb_cookie;
};

/**
 * struct xendispl_set_config_req - show a framebuffer on the connector
 * @fb_cookie: which; 0 turns the connector off
 * @x: left edge in the framebuffer
 * @y: top edge
 * @width: in pixels
 * @height: in pixels
 * @bpp: bits a pixel
 */
struct xendispl_set_config_req {
	u64 fb_cookie;
	u32 x;
	u32 y;
	u32 width;
	u32 height;
	u32 bpp;
};

/**
 * struct xendispl_page_flip_req - show another framebuffer
 * @fb_cookie: which
 */
struct xendispl_page_flip_req {
	u64 fb_cookie;
};

/**
 * struct xendispl_get_edid_req - ask for the connector's EDID
 * @buffer_sz: bytes of the buffer for it
 * @gref_directory: the buffer's page directory
 */
struct xendispl_get_edid_req {
	u32 buffer_sz;
	grant_ref_t gref_directory;
};

/**
 * struct xendispl_get_edid_resp - the EDID's size
 * @edid_sz: bytes written into the buffer
 */
struct xendispl_get_edid_resp {
	u32 edid_sz;
};

/**
 * struct xendispl_pg_flip_evt - a page flip is done
 * @fb_cookie: the framebuffer now shown
 */
struct xendispl_pg_flip_evt {
	u64 fb_cookie;
};

/**
 * struct xendispl_req - a request
 * @id: the frontend's id, returned in the response
 * @operation: XENDISPL_OP_*
 * @reserved: zero
 * @op: the operation's arguments
 * @op.dbuf_create: for XENDISPL_OP_DBUF_CREATE
 * @op.dbuf_destroy: for XENDISPL_OP_DBUF_DESTROY
 * @op.fb_attach: for XENDISPL_OP_FB_ATTACH
 * @op.fb_detach: for XENDISPL_OP_FB_DETACH
 * @op.set_config: for XENDISPL_OP_SET_CONFIG
 * @op.pg_flip: for XENDISPL_OP_PG_FLIP
 * @op.get_edid: for XENDISPL_OP_GET_EDID
 * @op.reserved: the union's size
 */
struct xendispl_req {
	u16 id;
	u8 operation;
	u8 reserved[5];
	union {
		struct xendispl_dbuf_create_req dbuf_create;
		struct xendispl_dbuf_destroy_req dbuf_destroy;
		struct xendispl_fb_attach_req fb_attach;
		struct xendispl_fb_detach_req fb_detach;
		struct xendispl_set_config_req set_config;
		struct xendispl_page_flip_req pg_flip;
		struct xendispl_get_edid_req get_edid;
		u8 reserved[56];
	} op;
};

/**
 * struct xendispl_resp - a request's answer
 * @id: the request's id
 * @operation: the request's operation
 * @reserved: zero
 * @status: 0 or a negative errno
 * @op: what the operation returns
 * @op.get_edid: for XENDISPL_OP_GET_EDID
 * @op.reserved1: the union's size
 */
struct xendispl_resp {
	u16 id;
	u8 operation;
	u8 reserved;
	s32 status;
	union {
		struct xendispl_get_edid_resp get_edid;
		u8 reserved1[56];
	} op;
};

/**
 * struct xendispl_evt - an event of the backend's
 * @id: the event's number
 * @type: XENDISPL_EVT_*
 * @reserved: zero
 * @op: the event's data
 * @op.pg_flip: for XENDISPL_EVT_PG_FLIP
 * @op.reserved: the union's size
 */
struct xendispl_evt {
	u16 id;
	u8 type;
	u8 reserved[5];
	union {
		struct xendispl_pg_flip_evt pg_flip;
		u8 reserved[56];
	} op;
};

DEFINE_RING_TYPES(xen_displif, struct xendispl_req, struct xendispl_resp);

/**
 * struct xendispl_event_page - the head of the event page
 * @in_cons: events consumed by the frontend
 * @in_prod: events produced by the backend
 * @reserved: zero
 */
struct xendispl_event_page {
	u32 in_cons;
	u32 in_prod;
	u8 reserved[56];
};

#define XENDISPL_EVENT_PAGE_SIZE	4096
#define XENDISPL_IN_RING_OFFS		(sizeof(struct xendispl_event_page))
#define XENDISPL_IN_RING_SIZE		(XENDISPL_EVENT_PAGE_SIZE - XENDISPL_IN_RING_OFFS)
#define XENDISPL_IN_RING_LEN		(XENDISPL_IN_RING_SIZE / sizeof(struct xendispl_evt))
#define XENDISPL_IN_RING(page)						\
	((struct xendispl_evt *)((char *)(page) + XENDISPL_IN_RING_OFFS))
/* The event of free-running index @idx. */
#define XENDISPL_IN_RING_REF(page, idx)					\
	(XENDISPL_IN_RING(page)[(idx) % XENDISPL_IN_RING_LEN])

#endif /* _XEN_INTERFACE_IO_DISPLIF_H */
