/* SPDX-License-Identifier: MIT */
/*
 * The USB protocol: two rings between the guest's virtual host
 * controller (xen-hcd) and its backend.  The urb ring carries transfers
 * (struct xenusb_urb_request, its buffer in granted pages) and their
 * results; the conn ring carries the backend's news of a device plugged
 * into or pulled from a port, answering requests the frontend leaves on
 * it for the purpose.
 *
 * Linux names everything here xenusb_* (XENUSB_*), Xen usbif_* (USBIF_*,
 * and USB_VER_*, USB_*_RING_SIZE): the layouts and the values are Xen's,
 * and tools/testing/xen/abi compares them under Xen's names.
 */
#ifndef _XEN_INTERFACE_IO_USBIF_H
#define _XEN_INTERFACE_IO_USBIF_H

#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

/**
 * enum xenusb_spec_version - the USB version a port offers (xenstore)
 * @XENUSB_VER_UNKNOWN: none said
 * @XENUSB_VER_USB11: USB 1.1
 * @XENUSB_VER_USB20: USB 2.0
 * @XENUSB_VER_USB30: USB 3.0
 */
enum xenusb_spec_version {
	XENUSB_VER_UNKNOWN = 0,
	XENUSB_VER_USB11,
	XENUSB_VER_USB20,
	XENUSB_VER_USB30,
};

/*
 * A request's pipe: bits 0-4 the root hub port, 5 unlink, 7 direction
 * (set: in), 8-14 the device address, 15-18 the endpoint, 30-31 the
 * transfer type.
 */
#define XENUSB_PIPE_PORT_MASK		0x0000001f
#define XENUSB_PIPE_UNLINK		0x00000020
#define XENUSB_PIPE_DIR			0x00000080
#define XENUSB_PIPE_DEV_MASK		0x0000007f
#define XENUSB_PIPE_DEV_SHIFT		8
#define XENUSB_PIPE_EP_MASK		0x0000000f
#define XENUSB_PIPE_EP_SHIFT		15
#define XENUSB_PIPE_TYPE_MASK		0x00000003
#define XENUSB_PIPE_TYPE_SHIFT		30
#define XENUSB_PIPE_TYPE_ISOC		0
#define XENUSB_PIPE_TYPE_INT		1
#define XENUSB_PIPE_TYPE_CTRL		2
#define XENUSB_PIPE_TYPE_BULK		3

#define xenusb_pipeportnum(pipe)	((pipe) & XENUSB_PIPE_PORT_MASK)
#define xenusb_setportnum_pipe(pipe, portnum)	((pipe) | (portnum))
#define xenusb_pipeunlink(pipe)		((pipe) & XENUSB_PIPE_UNLINK)
#define xenusb_pipesubmit(pipe)		(!xenusb_pipeunlink(pipe))
#define xenusb_setunlink_pipe(pipe)	((pipe) | XENUSB_PIPE_UNLINK)
#define xenusb_pipein(pipe)		((pipe) & XENUSB_PIPE_DIR)
#define xenusb_pipeout(pipe)		(!xenusb_pipein(pipe))
#define xenusb_pipedevice(pipe)						\
	(((pipe) >> XENUSB_PIPE_DEV_SHIFT) & XENUSB_PIPE_DEV_MASK)
#define xenusb_pipeendpoint(pipe)					\
	(((pipe) >> XENUSB_PIPE_EP_SHIFT) & XENUSB_PIPE_EP_MASK)
#define xenusb_pipetype(pipe)						\
	(((pipe) >> XENUSB_PIPE_TYPE_SHIFT) & XENUSB_PIPE_TYPE_MASK)
#define xenusb_pipeisoc(pipe)	(xenusb_pipetype(pipe) == XENUSB_PIPE_TYPE_ISOC)
#define xenusb_pipeint(pipe)	(xenusb_pipetype(pipe) == XENUSB_PIPE_TYPE_INT)
#define xenusb_pipectrl(pipe)	(xenusb_pipetype(pipe) == XENUSB_PIPE_TYPE_CTRL)
#define xenusb_pipebulk(pipe)	(xenusb_pipetype(pipe) == XENUSB_PIPE_TYPE_BULK)

#define XENUSB_MAX_SEGMENTS_PER_REQUEST	(16)
#define XENUSB_MAX_PORTNR		31
/* Bytes of each ring: one page. */
#define XENUSB_RING_SIZE		4096

/**
 * struct xenusb_request_segment - a piece of a transfer's buffer
 * @gref: the granted page
 * @offset: where the piece starts in it
 * @length: its bytes
 */
struct xenusb_request_segment {
	grant_ref_t gref;
	u16 offset;
	u16 length;
};

/* xenusb_urb_request.transfer_flags */
#define XENUSB_SHORT_NOT_OK		0x0001

/**
 * struct xenusb_urb_request - a transfer, or the unlink of one
 * @id: the frontend's id, returned in the response
 * @nr_buffer_segs: segments of the buffer (then of isochronous frame
 *	descriptors, @u.isoc.nr_frame_desc_segs of them)
 * @pipe: as the XENUSB_PIPE_* bits say
 * @transfer_flags: XENUSB_SHORT_NOT_OK
 * @buffer_length: bytes of the buffer
 * @u: per transfer type: @u.ctrl the setup packet; @u.isoc, @u.intr and
 *	@u.unlink (the id of the request to unlink) as named
 * @seg: the buffer's segments
 */
struct xenusb_urb_request {
	u16 id;
	u16 nr_buffer_segs;
	u32 pipe;
	u16 transfer_flags;
	u16 buffer_length;
	union {
		u8 ctrl[8];
		struct {
			u16 interval;
			u16 start_frame;
			u16 number_of_packets;
			u16 nr_frame_desc_segs;
		} isoc;
		struct {
			u16 interval;
			u16 pad[3];
		} intr;
		struct {
			u16 unlink_id;
			u16 pad[3];
		} unlink;
	} u;
	struct xenusb_request_segment seg[XENUSB_MAX_SEGMENTS_PER_REQUEST];
};

/* xenusb_urb_response.status: 0 or a Linux errno, negative. */
#define XENUSB_STATUS_OK		0
#define XENUSB_STATUS_NODEV		(-19)
#define XENUSB_STATUS_INVAL		(-22)
#define XENUSB_STATUS_STALL		(-32)
#define XENUSB_STATUS_IOERROR		(-71)
#define XENUSB_STATUS_BABBLE		(-75)
#define XENUSB_STATUS_SHUTDOWN		(-108)

/**
 * struct xenusb_urb_response - a transfer's result
 * @id: the request's id
 * @start_frame: for isochronous transfers, the frame it started in
 * @status: XENUSB_STATUS_*
 * @actual_length: bytes transferred
 * @error_count: isochronous packets that failed
 */
struct xenusb_urb_response {
	u16 id;
	u16 start_frame;
	s32 status;
	s32 actual_length;
	s32 error_count;
};

DEFINE_RING_TYPES(xenusb_urb, struct xenusb_urb_request,
		  struct xenusb_urb_response);
#define XENUSB_URB_RING_SIZE	__CONST_RING_SIZE(xenusb_urb, XENUSB_RING_SIZE)

/**
 * struct xenusb_conn_request - room for the backend's next port news
 * @id: the frontend's id, returned in the response
 */
struct xenusb_conn_request {
	u16 id;
};

/* xenusb_conn_response.speed */
#define XENUSB_SPEED_NONE		0	/* nothing plugged in */
#define XENUSB_SPEED_LOW		1
#define XENUSB_SPEED_FULL		2
#define XENUSB_SPEED_HIGH		3

/**
 * struct xenusb_conn_response - a device came or went
 * @id: the request's id
 * @portnum: the root hub port
 * @speed: XENUSB_SPEED_*
 */
struct xenusb_conn_response {
	u16 id;
	u8 portnum;
	u8 speed;
};

DEFINE_RING_TYPES(xenusb_conn, struct xenusb_conn_request,
		  struct xenusb_conn_response);
#define XENUSB_CONN_RING_SIZE	__CONST_RING_SIZE(xenusb_conn, XENUSB_RING_SIZE)

#endif /* _XEN_INTERFACE_IO_USBIF_H */
