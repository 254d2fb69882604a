/* SPDX-License-Identifier: MIT */
/*
 * The virtual keyboard and pointer: one shared page (struct
 * xenkbd_page) whose head holds the free-running indices of two event
 * rings, each an array of 40-byte unions at a fixed offset in the page.
 * The backend sends input on the in ring; the out ring is unused.
 *
 * The xenstore nodes a frontend and its backend read of each other are
 * named by the XENKBD_FIELD_* strings.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_KBDIF_H
#define _XEN_INTERFACE_IO_KBDIF_H

#include <linux/types.h>

/* Event types, backend to guest. */
#define XENKBD_TYPE_MOTION		1	/* struct xenkbd_motion */
#define XENKBD_TYPE_RESERVED		2
#define XENKBD_TYPE_KEY			3	/* struct xenkbd_key */
#define XENKBD_TYPE_POS			4	/* struct xenkbd_position */
#define XENKBD_TYPE_MTOUCH		5	/* struct xenkbd_mtouch */

/* What a multi-touch event says of its contact. */
#define XENKBD_MT_EV_DOWN		0
#define XENKBD_MT_EV_UP			1
#define XENKBD_MT_EV_MOTION		2
#define XENKBD_MT_EV_SYN		3
#define XENKBD_MT_EV_SHAPE		4
#define XENKBD_MT_EV_ORIENT		5

#define XENKBD_DRIVER_NAME		"vkbd"

/* xenstore: what the backend offers ... */
#define XENKBD_FIELD_FEAT_DSBL_KEYBRD	"feature-disable-keyboard"
#define XENKBD_FIELD_FEAT_DSBL_POINTER	"feature-disable-pointer"
#define XENKBD_FIELD_FEAT_ABS_POINTER	"feature-abs-pointer"
#define XENKBD_FIELD_FEAT_RAW_POINTER	"feature-raw-pointer"
#define XENKBD_FIELD_FEAT_MTOUCH	"feature-multi-touch"
/* ... what the frontend asks for ... */
#define XENKBD_FIELD_REQ_ABS_POINTER	"request-abs-pointer"
#define XENKBD_FIELD_REQ_RAW_POINTER	"request-raw-pointer"
#define XENKBD_FIELD_REQ_MTOUCH		"request-multi-touch"
/* ... the shared page and its event channel ... */
#define XENKBD_FIELD_RING_GREF		"page-gref"
#define XENKBD_FIELD_EVT_CHANNEL	"event-channel"
#define XENKBD_FIELD_RING_REF		"page-ref"
/* ... and the sizes of the pointer's and the touch surface's ranges. */
#define XENKBD_FIELD_WIDTH		"width"
#define XENKBD_FIELD_HEIGHT		"height"
#define XENKBD_FIELD_MT_WIDTH		"multi-touch-width"
#define XENKBD_FIELD_MT_HEIGHT		"multi-touch-height"
#define XENKBD_FIELD_MT_NUM_CONTACTS	"multi-touch-num-contacts"
#define XENKBD_FIELD_UNIQUE_ID		"unique-id"

/**
 * struct xenkbd_motion - the pointer moved by so much
 * @type: XENKBD_TYPE_MOTION
 * @rel_x: horizontally
 * @rel_y: vertically
 * @rel_z: the wheel
 */
struct xenkbd_motion {
	u8 type;
	s32 rel_x;
	s32 rel_y;
	s32 rel_z;
};

/**
 * struct xenkbd_key - a key or button went down or up
 * @type: XENKBD_TYPE_KEY
 * @pressed: 1 down, 0 up
 * @keycode: a Linux input keycode
 */
struct xenkbd_key {
	u8 type;
	u8 pressed;
	u32 keycode;
};

/**
 * struct xenkbd_position - the pointer is here
 * @type: XENKBD_TYPE_POS
 * @abs_x: within the width the backend gave
 * @abs_y: within the height the backend gave
 * @rel_z: the wheel, relative
 */
struct xenkbd_position {
	u8 type;
	s32 abs_x;
	s32 abs_y;
	s32 rel_z;
};

/**
 * struct xenkbd_mtouch - one contact of a touch surface
 * @type: XENKBD_TYPE_MTOUCH
 * @event_type: an XENKBD_MT_EV_* value
 * @contact_id: which contact
 * @reserved: zero
 * @u: what the event carries: @u.pos for DOWN and MOTION, @u.shape for
 *	SHAPE, @u.orientation for ORIENT
 */
struct xenkbd_mtouch {
	u8 type;
	u8 event_type;
	u8 contact_id;
	u8 reserved[5];
	union {
		struct {
			s32 abs_x;
			s32 abs_y;
		} pos;
		struct {
			u32 major;
			u32 minor;
		} shape;
		s16 orientation;
	} u;
};

#define XENKBD_IN_EVENT_SIZE		40

/**
 * union xenkbd_in_event - one slot of the backend's ring
 * @type: which of the members this is
 * @motion: relative motion
 * @key: a key
 * @pos: absolute position
 * @mtouch: multi-touch
 * @pad: the slot's size
 */
union xenkbd_in_event {
	u8 type;
	struct xenkbd_motion motion;
	struct xenkbd_key key;
	struct xenkbd_position pos;
	struct xenkbd_mtouch mtouch;
	char pad[XENKBD_IN_EVENT_SIZE];
};

#define XENKBD_OUT_EVENT_SIZE		40

/**
 * union xenkbd_out_event - one slot of the guest's ring (none defined)
 * @type: the event's type
 * @pad: the slot's size
 */
union xenkbd_out_event {
	u8 type;
	char pad[XENKBD_OUT_EVENT_SIZE];
};

#define XENKBD_IN_RING_SIZE		2048
#define XENKBD_IN_RING_LEN		(XENKBD_IN_RING_SIZE / XENKBD_IN_EVENT_SIZE)
#define XENKBD_IN_RING_OFFS		1024
#define XENKBD_OUT_RING_SIZE		1024
#define XENKBD_OUT_RING_LEN		(XENKBD_OUT_RING_SIZE / XENKBD_OUT_EVENT_SIZE)
#define XENKBD_OUT_RING_OFFS		(XENKBD_IN_RING_OFFS + XENKBD_IN_RING_SIZE)

#define XENKBD_IN_RING(page)						\
	((union xenkbd_in_event *)((char *)(page) + XENKBD_IN_RING_OFFS))
/* The slot of free-running index @idx. */
#define XENKBD_IN_RING_REF(page, idx)					\
	(XENKBD_IN_RING(page)[(idx) % XENKBD_IN_RING_LEN])
#define XENKBD_OUT_RING(page)						\
	((union xenkbd_out_event *)((char *)(page) + XENKBD_OUT_RING_OFFS))
#define XENKBD_OUT_RING_REF(page, idx)					\
	(XENKBD_OUT_RING(page)[(idx) % XENKBD_OUT_RING_LEN])

/**
 * struct xenkbd_page - the shared page's head
 * @in_cons: consumed by the guest
 * @in_prod: produced by the backend
 * @out_cons: consumed by the backend
 * @out_prod: produced by the guest
 */
struct xenkbd_page {
	u32 in_cons, in_prod;
	u32 out_cons, out_prod;
};

#endif /* _XEN_INTERFACE_IO_KBDIF_H */
