/* SPDX-License-Identifier: MIT */
/*
 * The virtual SCSI protocol: a ring of SCSI commands (struct
 * vscsiif_request) and their results (struct vscsiif_response) between
 * scsifront and scsiback.  A command's data travels in granted pages,
 * named in the request's segments, or in pages of segments when
 * VSCSIIF_SG_GRANT is set in its segment count.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_VSCSIIF_H
#define _XEN_INTERFACE_IO_VSCSIIF_H

#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

/* vscsiif_request.act */
#define VSCSIIF_ACT_SCSI_CDB		1	/* a command */
#define VSCSIIF_ACT_SCSI_ABORT		2	/* abort request ref_rqid */
#define VSCSIIF_ACT_SCSI_RESET		3	/* reset the device */
#define VSCSIIF_ACT_SCSI_SG_PRESET	4	/* unused */

/* Segments a request carries itself. */
#define VSCSIIF_SG_TABLESIZE		26
#define VSCSIIF_MAX_COMMAND_SIZE	16
#define VSCSIIF_SENSE_BUFFERSIZE	96
#define VSCSIIF_PAGE_SIZE		4096

/**
 * struct scsiif_request_segment - a piece of a command's data
 * @gref: the granted page
 * @offset: where the piece starts in it
 * @length: its bytes
 */
struct scsiif_request_segment {
	grant_ref_t gref;
	u16 offset;
	u16 length;
};

typedef struct scsiif_request_segment vscsiif_segment_t;

/* Segments a granted page of segments holds. */
#define VSCSIIF_SG_PER_PAGE						\
	(VSCSIIF_PAGE_SIZE / sizeof(struct scsiif_request_segment))

/* In nr_segments: the segments name pages of segments. */
#define VSCSIIF_SG_GRANT		0x80

/**
 * struct vscsiif_request - a command
 * @rqid: the frontend's id, returned in the response
 * @act: VSCSIIF_ACT_*
 * @cmd_len: bytes of @cmnd
 * @cmnd: the CDB
 * @timeout_per_command: unused
 * @channel: the target's channel
 * @id: the target
 * @lun: the logical unit
 * @ref_rqid: for an abort, the request to abort
 * @sc_data_direction: 1 to the device, 2 from it, 3 none
 * @nr_segments: segments in @seg, with VSCSIIF_SG_GRANT if they name
 *	pages of segments
 * @seg: the segments
 * @reserved: zero
 */
struct vscsiif_request {
	u16 rqid;
	u8 act;
	u8 cmd_len;
	u8 cmnd[VSCSIIF_MAX_COMMAND_SIZE];
	u16 timeout_per_command;
	u16 channel, id, lun;
	u16 ref_rqid;
	u8 sc_data_direction;
	u8 nr_segments;
	vscsiif_segment_t seg[VSCSIIF_SG_TABLESIZE];
	u32 reserved[3];
};

/**
 * struct vscsiif_response - a command's result
 * @rqid: the request's id
 * @act: the request's act
 * @sense_len: bytes of @sense_buffer
 * @sense_buffer: sense data
 * @rslt: the SCSI status in bits 0-7, the host byte (XEN_VSCSIIF_RSLT_HOST_*)
 *	in bits 16-23; for a reset, XEN_VSCSIIF_RSLT_RESET_*
 * @residual_len: bytes not transferred
 * @reserved: zero
 */
struct vscsiif_response {
	u16 rqid;
	u8 act;
	u8 sense_len;
	u8 sense_buffer[VSCSIIF_SENSE_BUFFERSIZE];
	s32 rslt;
	u32 residual_len;
	u32 reserved[36];
};

#define XEN_VSCSIIF_RSLT_STATUS(x)	((x) & 0x00ff)
#define XEN_VSCSIIF_RSLT_HOST(x)	(((x) & 0x00ff0000) >> 16)

#define XEN_VSCSIIF_RSLT_HOST_OK			0
#define XEN_VSCSIIF_RSLT_HOST_NO_CONNECT		1
#define XEN_VSCSIIF_RSLT_HOST_BUS_BUSY			2
#define XEN_VSCSIIF_RSLT_HOST_TIME_OUT			3
#define XEN_VSCSIIF_RSLT_HOST_BAD_TARGET		4
#define XEN_VSCSIIF_RSLT_HOST_ABORT			5
#define XEN_VSCSIIF_RSLT_HOST_PARITY			6
#define XEN_VSCSIIF_RSLT_HOST_ERROR			7
#define XEN_VSCSIIF_RSLT_HOST_RESET			8
#define XEN_VSCSIIF_RSLT_HOST_BAD_INTR			9
#define XEN_VSCSIIF_RSLT_HOST_PASSTHROUGH		10
#define XEN_VSCSIIF_RSLT_HOST_SOFT_ERROR		11
#define XEN_VSCSIIF_RSLT_HOST_IMM_RETRY			12
#define XEN_VSCSIIF_RSLT_HOST_REQUEUE			13
#define XEN_VSCSIIF_RSLT_HOST_TRANSPORT_DISRUPTED	14
#define XEN_VSCSIIF_RSLT_HOST_TRANSPORT_FAILFAST	15
#define XEN_VSCSIIF_RSLT_HOST_TARGET_FAILURE		16
#define XEN_VSCSIIF_RSLT_HOST_NEXUS_FAILURE		17
#define XEN_VSCSIIF_RSLT_HOST_ALLOC_FAILURE		18
#define XEN_VSCSIIF_RSLT_HOST_MEDIUM_ERROR		19
#define XEN_VSCSIIF_RSLT_HOST_TRANSPORT_MARGINAL	20

#define XEN_VSCSIIF_RSLT_RESET_SUCCESS	0x2002
#define XEN_VSCSIIF_RSLT_RESET_FAILED	0x2003

DEFINE_RING_TYPES(vscsiif, struct vscsiif_request, struct vscsiif_response);

#endif /* _XEN_INTERFACE_IO_VSCSIIF_H */
