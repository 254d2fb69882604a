// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of blkback's request checks (blkback_req.c): every field
 * of every request kind at its edges.  Pure, so they run on every boot of
 * a kernel with CONFIG_XEN_KUNIT_TEST, native too.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "blkback_req.h"

/* A 1 GiB disk of 512-byte blocks that takes everything. */
static const struct blkback_limits disk = {
	.sectors = 1 << 21,
	.lbs_sects = 1,
	.max_segs = 256,
	.discard = true,
	.secure_discard = true,
};

struct req_case {
	union blkif_sring_entry slot;
	struct blkback_req req;
	struct blkback_seg segs[BLKIF_MAX_SEGMENTS_PER_REQUEST];
	const char *why;
};

static struct req_case *rw(struct kunit *test, u8 op, u64 sector,
			   unsigned int nsegs)
{
	struct req_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->slot.req.operation = op;
	c->slot.req.nr_segments = nsegs;
	c->slot.req.id = 0xfeedfacecafe0001ULL;
	c->slot.req.sector_number = sector;
	for (i = 0; i < nsegs && i < BLKIF_MAX_SEGMENTS_PER_REQUEST; i++) {
		c->slot.req.seg[i].gref = 100 + i;
		c->slot.req.seg[i].first_sect = 0;
		c->slot.req.seg[i].last_sect = 7;
	}
	return c;
}

static enum blkback_verdict parse(struct req_case *c,
				  const struct blkback_limits *lim)
{
	c->why = NULL;
	return blkback_req_parse(&c->slot, lim, &c->req, c->segs, &c->why);
}

static void req_rw_test(struct kunit *test)
{
	struct req_case *c = rw(test, BLKIF_OP_READ, 16, 2);

	c->slot.req.seg[1].first_sect = 2;
	c->slot.req.seg[1].last_sect = 5;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->req.id, 0xfeedfacecafe0001ULL);
	KUNIT_EXPECT_EQ(test, c->req.op, BLKIF_OP_READ);
	KUNIT_EXPECT_EQ(test, c->req.sector, 16ULL);
	KUNIT_EXPECT_EQ(test, c->req.nr_segs, 2U);
	KUNIT_EXPECT_EQ(test, c->req.nr_sects, 12ULL);
	KUNIT_EXPECT_FALSE(test, c->req.indirect);
	KUNIT_EXPECT_EQ(test, c->segs[0].gref, 100U);
	KUNIT_EXPECT_EQ(test, c->segs[0].offset, 0);
	KUNIT_EXPECT_EQ(test, c->segs[0].len, 4096);
	KUNIT_EXPECT_EQ(test, c->segs[1].gref, 101U);
	KUNIT_EXPECT_EQ(test, c->segs[1].offset, 1024);
	KUNIT_EXPECT_EQ(test, c->segs[1].len, 2048);
}

static void req_segment_edges_test(struct kunit *test)
{
	struct req_case *c = rw(test, BLKIF_OP_WRITE, 0, 1);

	/* One sector, the page's last. */
	c->slot.req.seg[0].first_sect = 7;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->segs[0].offset, 3584);
	KUNIT_EXPECT_EQ(test, c->segs[0].len, 512);
	/* Past the page. */
	c->slot.req.seg[0].last_sect = 8;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	KUNIT_EXPECT_NOT_NULL(test, c->why);
	c->slot.req.seg[0].first_sect = 255;
	c->slot.req.seg[0].last_sect = 255;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	/* Ending before it starts. */
	c->slot.req.seg[0].first_sect = 4;
	c->slot.req.seg[0].last_sect = 3;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
}

static void req_segment_count_test(struct kunit *test)
{
	struct req_case *c = rw(test, BLKIF_OP_READ, 0, 11);

	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->req.nr_sects, 88ULL);
	c->slot.req.nr_segments = 12;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	c->slot.req.nr_segments = 255;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	c->slot.req.nr_segments = 0;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	c->slot.req.operation = BLKIF_OP_WRITE;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	/* A flush or barrier alone has no segment and no sector. */
	c->slot.req.operation = BLKIF_OP_FLUSH_DISKCACHE;
	c->slot.req.sector_number = U64_MAX;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->req.nr_sects, 0ULL);
	/* A barrier was not offered, whatever it carries. */
	c->slot.req.operation = BLKIF_OP_WRITE_BARRIER;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_UNSUPPORTED);
	c->slot.req.nr_segments = 11;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_UNSUPPORTED);
	/* A flush with data is a write and checked as such. */
	c->slot.req.operation = BLKIF_OP_FLUSH_DISKCACHE;
	c->slot.req.nr_segments = 1;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	c->slot.req.sector_number = 8;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
}

static void req_range_test(struct kunit *test)
{
	struct req_case *c = rw(test, BLKIF_OP_READ, disk.sectors - 16, 2);

	/* Up to the last sector. */
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	/* One past it. */
	c->slot.req.sector_number++;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	c->slot.req.sector_number = disk.sectors;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	/* So far that sector + length wraps. */
	c->slot.req.sector_number = U64_MAX - 3;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	c->slot.req.sector_number = U64_MAX;
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
}

static void req_readonly_test(struct kunit *test)
{
	struct blkback_limits ro = disk;
	struct req_case *c = rw(test, BLKIF_OP_WRITE, 0, 1);

	ro.readonly = true;
	KUNIT_EXPECT_EQ(test, parse(c, &ro), BLKBACK_FAIL);
	c->slot.req.operation = BLKIF_OP_FLUSH_DISKCACHE;
	KUNIT_EXPECT_EQ(test, parse(c, &ro), BLKBACK_FAIL);
	c->slot.req.operation = BLKIF_OP_READ;
	KUNIT_EXPECT_EQ(test, parse(c, &ro), BLKBACK_OK);
	c->slot.req.operation = BLKIF_OP_FLUSH_DISKCACHE;
	c->slot.req.nr_segments = 0;
	KUNIT_EXPECT_EQ(test, parse(c, &ro), BLKBACK_OK);
}

static void req_block_size_test(struct kunit *test)
{
	struct blkback_limits big = disk;
	struct req_case *c = rw(test, BLKIF_OP_READ, 8, 1);

	big.lbs_sects = 8;	/* 4 KiB blocks */
	KUNIT_EXPECT_EQ(test, parse(c, &big), BLKBACK_OK);
	c->slot.req.sector_number = 4;
	KUNIT_EXPECT_EQ(test, parse(c, &big), BLKBACK_FAIL);
	c->slot.req.sector_number = 8;
	c->slot.req.seg[0].last_sect = 3;
	KUNIT_EXPECT_EQ(test, parse(c, &big), BLKBACK_FAIL);
	c->slot.req.seg[0].first_sect = 4;
	c->slot.req.seg[0].last_sect = 7;
	KUNIT_EXPECT_EQ(test, parse(c, &big), BLKBACK_FAIL);
}

static void req_unknown_op_test(struct kunit *test)
{
	static const u8 ops[] = { BLKIF_OP_RESERVED_1, 7, 8, 0x80, 0xff };
	struct req_case *c = rw(test, 0, 0, 1);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		c->slot.req.operation = ops[i];
		KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	}
}

static struct blkif_request_discard *discard(struct req_case *c, u64 sector,
					     u64 nr, u8 flag)
{
	struct blkif_request_discard *d = (void *)&c->slot.req;

	memset(&c->slot, 0, sizeof(c->slot));
	d->operation = BLKIF_OP_DISCARD;
	d->id = 77;
	d->sector_number = sector;
	d->nr_sectors = nr;
	d->flag = flag;
	return d;
}

static void req_discard_test(struct kunit *test)
{
	struct req_case *c = rw(test, 0, 0, 0);
	struct blkback_limits lim = disk;

	discard(c, 2048, disk.sectors - 2048, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->req.op, BLKIF_OP_DISCARD);
	KUNIT_EXPECT_EQ(test, c->req.id, 77ULL);
	KUNIT_EXPECT_EQ(test, c->req.nr_sects, disk.sectors - 2048);
	KUNIT_EXPECT_FALSE(test, c->req.secure);
	discard(c, 2048, disk.sectors - 2047, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	discard(c, 1, U64_MAX, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	discard(c, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_FAIL);
	discard(c, 0, 8, BLKIF_DISCARD_SECURE);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_TRUE(test, c->req.secure);
	discard(c, 0, 8, 2);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	/* Not offered: not supported, whatever else is wrong with it. */
	lim.secure_discard = false;
	discard(c, 0, 8, BLKIF_DISCARD_SECURE);
	KUNIT_EXPECT_EQ(test, parse(c, &lim), BLKBACK_UNSUPPORTED);
	lim.discard = false;
	discard(c, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &lim), BLKBACK_UNSUPPORTED);
	lim = disk;
	lim.readonly = true;
	discard(c, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &lim), BLKBACK_FAIL);
}

static struct blkif_request_indirect *indirect(struct req_case *c, u8 op,
					       unsigned int nsegs)
{
	struct blkif_request_indirect *ind = (void *)&c->slot.req;
	unsigned int i;

	memset(&c->slot, 0, sizeof(c->slot));
	ind->operation = BLKIF_OP_INDIRECT;
	ind->indirect_op = op;
	ind->nr_segments = nsegs;
	ind->id = 5;
	ind->sector_number = 64;
	for (i = 0; i < BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST; i++)
		ind->indirect_grefs[i] = 900 + i;
	return ind;
}

static void req_indirect_test(struct kunit *test)
{
	struct req_case *c = rw(test, 0, 0, 0);
	struct blkif_request_segment *desc;
	struct blkback_seg *segs;
	unsigned int i;

	desc = kunit_kcalloc(test, 256, sizeof(*desc), GFP_KERNEL);
	segs = kunit_kcalloc(test, 256, sizeof(*segs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_NOT_NULL(test, segs);

	indirect(c, BLKIF_OP_WRITE, 256);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	KUNIT_EXPECT_TRUE(test, c->req.indirect);
	KUNIT_EXPECT_EQ(test, c->req.op, BLKIF_OP_WRITE);
	KUNIT_EXPECT_EQ(test, c->req.nr_segs, 256U);
	KUNIT_EXPECT_EQ(test, c->req.nr_indirect, 1U);
	KUNIT_EXPECT_EQ(test, c->req.indirect_grefs[0], 900U);
	KUNIT_EXPECT_EQ(test, c->req.id, 5ULL);

	for (i = 0; i < 256; i++) {
		desc[i].gref = i;
		desc[i].first_sect = 0;
		desc[i].last_sect = 7;
	}
	KUNIT_EXPECT_EQ(test, blkback_req_parse_segs(desc, &disk, &c->req,
						     segs, &c->why),
			BLKBACK_OK);
	KUNIT_EXPECT_EQ(test, c->req.nr_sects, 2048ULL);
	KUNIT_EXPECT_EQ(test, segs[255].gref, 255U);
	/* The last descriptor bad. */
	desc[255].last_sect = 8;
	KUNIT_EXPECT_EQ(test, blkback_req_parse_segs(desc, &disk, &c->req,
						     segs, &c->why),
			BLKBACK_NONSENSE);
	desc[255].last_sect = 7;
	/* Good descriptors past the end of the disk. */
	c->req.sector = disk.sectors - 2047;
	KUNIT_EXPECT_EQ(test, blkback_req_parse_segs(desc, &disk, &c->req,
						     segs, &c->why),
			BLKBACK_FAIL);

	indirect(c, BLKIF_OP_READ, 1);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_OK);
	indirect(c, BLKIF_OP_READ, 257);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	indirect(c, BLKIF_OP_READ, 0);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	indirect(c, BLKIF_OP_READ, 0xffff);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	indirect(c, BLKIF_OP_FLUSH_DISKCACHE, 1);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	indirect(c, BLKIF_OP_INDIRECT, 1);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
	indirect(c, BLKIF_OP_DISCARD, 1);
	KUNIT_EXPECT_EQ(test, parse(c, &disk), BLKBACK_NONSENSE);
}

static void req_layout_test(struct kunit *test)
{
	/* The 64-bit layout, as the frontends lay it out. */
	KUNIT_EXPECT_EQ(test, sizeof(struct blkif_request), 112);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_request, id), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_request, seg), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_request_discard, nr_sectors), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_request_indirect, nr_segments), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct blkif_request_indirect, indirect_grefs), 28);
	KUNIT_EXPECT_EQ(test, sizeof(struct blkif_response), 16);
}

static struct kunit_case blkback_req_cases[] = {
	KUNIT_CASE(req_rw_test),
	KUNIT_CASE(req_segment_edges_test),
	KUNIT_CASE(req_segment_count_test),
	KUNIT_CASE(req_range_test),
	KUNIT_CASE(req_readonly_test),
	KUNIT_CASE(req_block_size_test),
	KUNIT_CASE(req_unknown_op_test),
	KUNIT_CASE(req_discard_test),
	KUNIT_CASE(req_indirect_test),
	KUNIT_CASE(req_layout_test),
	{}
};

static struct kunit_suite blkback_req_suite = {
	.name = "xen-blkback-req",
	.test_cases = blkback_req_cases,
};

kunit_test_suite(blkback_req_suite);
