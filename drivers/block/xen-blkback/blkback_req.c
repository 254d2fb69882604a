// SPDX-License-Identifier: GPL-2.0
/*
 * blkback: checking a request copied out of the ring (see blkback_req.h).
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "blkback_req.h"

static enum blkback_verdict verdict(enum blkback_verdict v, const char **why,
				    const char *what)
{
	*why = what;
	return v;
}

static bool blkback_op_writes(u8 op)
{
	return op != BLKIF_OP_READ;
}

/* The sectors a request covers must be whole blocks within the disk. */
static enum blkback_verdict blkback_req_range(const struct blkback_limits *lim,
					      const struct blkback_req *req,
					      const char **why)
{
	if (lim->readonly && blkback_op_writes(req->op))
		return verdict(BLKBACK_FAIL, why, "write to a read-only disk");
	if ((req->sector | req->nr_sects) & (lim->lbs_sects - 1))
		return verdict(BLKBACK_FAIL, why,
			       "sectors not in whole blocks of the disk");
	if (req->sector > lim->sectors ||
	    req->nr_sects > lim->sectors - req->sector)
		return verdict(BLKBACK_FAIL, why, "sectors past the end of the disk");
	return BLKBACK_OK;
}

/**
 * blkback_req_parse_segs() - check a request's segments and its range
 * @desc: its @req->nr_segs segment descriptors, in memory the frontend
 *	cannot write (the copied slot, or indirect pages copied over)
 * @lim: the disk's limits
 * @req: the request, from blkback_req_parse(); @req->nr_sects is set
 * @segs: filled with the checked segments
 * @why: set to what is wrong, unless BLKBACK_OK is returned
 *
 * Return: the verdict.
 */
enum blkback_verdict blkback_req_parse_segs(const struct blkif_request_segment *desc,
					    const struct blkback_limits *lim,
					    struct blkback_req *req,
					    struct blkback_seg *segs,
					    const char **why)
{
	unsigned int i, first, last;
	bool misaligned = false;
	u64 sects = 0;

	for (i = 0; i < req->nr_segs; i++) {
		first = desc[i].first_sect;
		last = desc[i].last_sect;
		if (first > last || last >= BLKBACK_SECTS_PER_PAGE)
			return verdict(BLKBACK_NONSENSE, why,
				       "segment's sectors not within its page");
		if ((first | (last + 1)) & (lim->lbs_sects - 1))
			misaligned = true;
		segs[i].gref = desc[i].gref;
		segs[i].offset = first << BLKBACK_SECT_SHIFT;
		segs[i].len = (last - first + 1) << BLKBACK_SECT_SHIFT;
		sects += last - first + 1;
	}
	req->nr_sects = sects;
	if (misaligned)
		return verdict(BLKBACK_FAIL, why,
			       "segment not in whole blocks of the disk");
	return blkback_req_range(lim, req, why);
}

static enum blkback_verdict blkback_req_discard(const struct blkif_request_discard *d,
						const struct blkback_limits *lim,
						struct blkback_req *req,
						const char **why)
{
	req->id = d->id;
	req->sector = d->sector_number;
	req->nr_sects = d->nr_sectors;
	req->secure = d->flag & BLKIF_DISCARD_SECURE;
	if (d->flag & ~BLKIF_DISCARD_SECURE)
		return verdict(BLKBACK_NONSENSE, why, "unknown discard flags");
	if (!lim->discard || (req->secure && !lim->secure_discard))
		return verdict(BLKBACK_UNSUPPORTED, why, "discard not offered");
	if (!req->nr_sects)
		return verdict(BLKBACK_FAIL, why, "discard of no sector");
	return blkback_req_range(lim, req, why);
}

static enum blkback_verdict blkback_req_indirect(const struct blkif_request_indirect *ind,
						 const struct blkback_limits *lim,
						 struct blkback_req *req,
						 const char **why)
{
	unsigned int i;

	req->id = ind->id;
	req->sector = ind->sector_number;
	req->op = ind->indirect_op;
	req->indirect = true;
	req->nr_segs = ind->nr_segments;
	if (req->op != BLKIF_OP_READ && req->op != BLKIF_OP_WRITE)
		return verdict(BLKBACK_NONSENSE, why,
			       "indirect request neither read nor write");
	if (!req->nr_segs || req->nr_segs > lim->max_segs)
		return verdict(BLKBACK_NONSENSE, why,
			       "indirect segments beyond what was offered");
	req->nr_indirect = DIV_ROUND_UP(req->nr_segs, BLKBACK_SEGS_PER_PAGE);
	if (req->nr_indirect > BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST)
		return verdict(BLKBACK_NONSENSE, why,
			       "indirect segments beyond what was offered");
	for (i = 0; i < req->nr_indirect; i++)
		req->indirect_grefs[i] = ind->indirect_grefs[i];
	return BLKBACK_OK;
}

/**
 * blkback_req_parse() - check a request copied out of the ring
 * @slot: the copy
 * @lim: the disk's limits
 * @req: filled with what the request asks
 * @segs: filled with its checked segments, BLKIF_MAX_SEGMENTS_PER_REQUEST
 *	at most; an indirect request's come later, from
 *	blkback_req_parse_segs() once its descriptor pages are copied
 * @why: set to what is wrong, unless BLKBACK_OK is returned
 *
 * @req->id is set whatever the verdict but BLKBACK_NONSENSE, and
 * @req->op to the operation to answer.
 *
 * Return: the verdict.
 */
enum blkback_verdict blkback_req_parse(const union blkif_sring_entry *slot,
				       const struct blkback_limits *lim,
				       struct blkback_req *req,
				       struct blkback_seg *segs,
				       const char **why)
{
	const struct blkif_request *rw = &slot->req;

	memset(req, 0, sizeof(*req));
	req->op = rw->operation;
	switch (req->op) {
	case BLKIF_OP_DISCARD:
		return blkback_req_discard((const void *)rw, lim, req, why);
	case BLKIF_OP_INDIRECT:
		return blkback_req_indirect((const void *)rw, lim, req, why);
	case BLKIF_OP_WRITE_BARRIER:
		/* Not offered: its ordering is more than a flush. */
		req->id = rw->id;
		return verdict(BLKBACK_UNSUPPORTED, why, "barrier not offered");
	case BLKIF_OP_READ:
	case BLKIF_OP_WRITE:
	case BLKIF_OP_FLUSH_DISKCACHE:
		break;
	default:
		return verdict(BLKBACK_NONSENSE, why, "unknown operation");
	}
	req->id = rw->id;
	req->sector = rw->sector_number;
	req->nr_segs = rw->nr_segments;
	if (req->nr_segs > BLKIF_MAX_SEGMENTS_PER_REQUEST)
		return verdict(BLKBACK_NONSENSE, why,
			       "more segments than a request holds");
	if (!req->nr_segs) {
		if (req->op == BLKIF_OP_READ || req->op == BLKIF_OP_WRITE)
			return verdict(BLKBACK_NONSENSE, why,
				       "read or write of no segment");
		/* A flush alone: no sector, nothing to check. */
		req->sector = 0;
		return BLKBACK_OK;
	}
	return blkback_req_parse_segs(rw->seg, lim, req, segs, why);
}
