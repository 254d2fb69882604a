/* SPDX-License-Identifier: MIT */
/*
 * The block device protocol between blkfront and blkback.
 *
 * The frontend puts requests on a shared ring (io/ring.h): read or write
 * up to BLKIF_MAX_SEGMENTS_PER_REQUEST pieces of granted pages, each a
 * range of 512-byte sectors within one page; flush the backend's cache;
 * discard a range; or, when the backend offers it, an indirect request
 * whose segments are listed in separately granted pages.  Each request
 * carries an id the response echoes, with its operation and a status.
 *
 * What each end supports (feature-flush-cache, feature-discard,
 * feature-max-indirect-segments, multi-queue-max-queues, sectors,
 * sector-size, ...) is negotiated in xenstore, not here.
 *
 * Checked against Xen 4.17's public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_BLKIF_H
#define _XEN_INTERFACE_IO_BLKIF_H

#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

#define BLKIF_OP_READ			0
#define BLKIF_OP_WRITE			1
#define BLKIF_OP_WRITE_BARRIER		2
#define BLKIF_OP_FLUSH_DISKCACHE	3
#define BLKIF_OP_RESERVED_1		4
#define BLKIF_OP_DISCARD		5
#define BLKIF_OP_INDIRECT		6

#define BLKIF_MAX_SEGMENTS_PER_REQUEST	11
#define BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST 8

/**
 * struct blkif_request_segment - one piece of a granted page
 * @gref: the grant of the page
 * @first_sect: first 512-byte sector of the page transferred
 * @last_sect: last one (inclusive)
 */
struct blkif_request_segment {
	grant_ref_t gref;
	u8 first_sect, last_sect;
};

/**
 * struct blkif_request - a read, write, flush or barrier
 * @operation: BLKIF_OP_*
 * @nr_segments: entries of @seg used
 * @handle: the virtual device (ignored by most backends)
 * @id: the frontend's own value, echoed in the response
 * @sector_number: first sector on the disk
 * @seg: the data
 */
struct blkif_request {
	u8 operation;
	u8 nr_segments;
	u16 handle;
	u64 id;
	u64 sector_number;
	struct blkif_request_segment seg[BLKIF_MAX_SEGMENTS_PER_REQUEST];
};

/* Discard securely: only when the backend offers discard-secure. */
#define BLKIF_DISCARD_SECURE		BIT(0)

/**
 * struct blkif_request_discard - a discard (BLKIF_OP_DISCARD)
 * @operation: BLKIF_OP_DISCARD
 * @flag: BLKIF_DISCARD_SECURE or 0
 * @handle: the virtual device
 * @id: echoed in the response
 * @sector_number: first sector
 * @nr_sectors: how many
 */
struct blkif_request_discard {
	u8 operation;
	u8 flag;
	u16 handle;
	u64 id;
	u64 sector_number;
	u64 nr_sectors;
};

/**
 * struct blkif_request_indirect - a read or write listed in other pages
 * @operation: BLKIF_OP_INDIRECT
 * @indirect_op: BLKIF_OP_READ or BLKIF_OP_WRITE
 * @nr_segments: segments in all the listing pages together
 * @id: echoed in the response
 * @sector_number: first sector
 * @handle: the virtual device
 * @indirect_grefs: grants of the pages holding the segments, each an
 *	array of struct blkif_request_segment
 */
struct blkif_request_indirect {
	u8 operation;
	u8 indirect_op;
	u16 nr_segments;
	u64 id;
	u64 sector_number;
	u16 handle;
	grant_ref_t indirect_grefs[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
};

/**
 * struct blkif_response - the answer to one request
 * @id: the request's id
 * @operation: the request's operation
 * @status: BLKIF_RSP_*
 */
struct blkif_response {
	u64 id;
	u8 operation;
	s16 status;
};

#define BLKIF_RSP_EOPNOTSUPP	-2
#define BLKIF_RSP_ERROR		-1
#define BLKIF_RSP_OKAY		0

DEFINE_XEN_SRING(blkif, struct blkif_request, struct blkif_response);

/* Bits of the backend's "info" node. */
#define VDISK_CDROM		0x1
#define VDISK_REMOVABLE		0x2
#define VDISK_READONLY		0x4

#endif /* _XEN_INTERFACE_IO_BLKIF_H */
