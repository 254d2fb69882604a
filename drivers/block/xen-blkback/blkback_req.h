/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkback's reading of a frontend's requests: pure logic, no hypercall,
 * tested by KUnit (blkback_req_test.c).
 *
 * A request is copied out of the shared ring once, by the caller, and
 * then only that copy is read.  Checking it sorts what is wrong into two
 * kinds: nonsense no correct frontend sends (an unknown operation, a
 * segment count the protocol cannot carry, a segment ending before it
 * starts), which ends the device, and requests a correct frontend may
 * send and that fail (past the end of a disk that shrank, a write to a
 * read-only disk, an operation we did not offer, such as a barrier),
 * which get an error response.
 */
#ifndef _XEN_BLKBACK_REQ_H
#define _XEN_BLKBACK_REQ_H

#include <linux/math.h>
#include <linux/types.h>
#include <xen/interface/io/blkif.h>
#include <xen/page.h>

/* A page of indirect segment descriptors holds this many. */
#define BLKBACK_SEGS_PER_PAGE	(XEN_PAGE_SIZE / sizeof(struct blkif_request_segment))

/* Sectors of the protocol, whatever the disk's own block size. */
#define BLKBACK_SECT_SHIFT	9
#define BLKBACK_SECTS_PER_PAGE	(XEN_PAGE_SIZE >> BLKBACK_SECT_SHIFT)

/**
 * struct blkback_limits - what the disk and our offer allow
 * @sectors: the disk's size, in 512-byte sectors
 * @lbs_sects: its logical block size, in 512-byte sectors (a power of two)
 * @max_segs: segments an indirect request may carry (what we offered)
 * @readonly: it takes no writes
 * @discard: we offered discard
 * @secure_discard: and secure discard
 */
struct blkback_limits {
	u64 sectors;
	unsigned int lbs_sects;
	unsigned int max_segs;
	bool readonly;
	bool discard;
	bool secure_discard;
};

/**
 * struct blkback_seg - one segment, checked
 * @gref: the frontend's grant of the page
 * @offset: where in the page the data starts, in bytes
 * @len: its length in bytes, a whole number of sectors
 */
struct blkback_seg {
	grant_ref_t gref;
	u16 offset;
	u16 len;
};

/**
 * struct blkback_req - a request as copied out of the ring and checked
 * @id: the frontend's id, echoed in the response
 * @op: BLKIF_OP_READ, _WRITE, _FLUSH_DISKCACHE or
 *	_DISCARD; for an indirect request, the operation it carries (the
 *	one the response names)
 * @indirect: it came as BLKIF_OP_INDIRECT: its segments are in pages
 *	named by @indirect_grefs
 * @secure: a discard that must erase
 * @nr_segs: its segments
 * @nr_indirect: pages of segment descriptors
 * @sector: the first sector
 * @nr_sects: sectors it covers (of data; of the range, for a discard)
 * @indirect_grefs: the descriptor pages' grants
 */
struct blkback_req {
	u64 id;
	u8 op;
	bool indirect;
	bool secure;
	unsigned int nr_segs;
	unsigned int nr_indirect;
	u64 sector;
	u64 nr_sects;
	grant_ref_t indirect_grefs[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
};

/**
 * enum blkback_verdict - what to do with a request
 * @BLKBACK_OK: carry it out
 * @BLKBACK_FAIL: answer BLKIF_RSP_ERROR
 * @BLKBACK_UNSUPPORTED: answer BLKIF_RSP_EOPNOTSUPP
 * @BLKBACK_NONSENSE: no frontend sends that: close the device
 */
enum blkback_verdict {
	BLKBACK_OK,
	BLKBACK_FAIL,
	BLKBACK_UNSUPPORTED,
	BLKBACK_NONSENSE,
};

enum blkback_verdict blkback_req_parse(const union blkif_sring_entry *slot,
				       const struct blkback_limits *lim,
				       struct blkback_req *req,
				       struct blkback_seg *segs,
				       const char **why);
enum blkback_verdict blkback_req_parse_segs(const struct blkif_request_segment *desc,
					    const struct blkback_limits *lim,
					    struct blkback_req *req,
					    struct blkback_seg *segs,
					    const char **why);

#endif /* _XEN_BLKBACK_REQ_H */
