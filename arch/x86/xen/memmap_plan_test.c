// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the memory map plan (memmap_plan.c): pure, so they run
 * on every boot of a kernel with CONFIG_XEN_PV and CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "memmap_plan.h"

#define RAM(a, s)	{ .addr = (a), .size = (s), .type = E820_TYPE_RAM }
#define RSV(a, s)	{ .addr = (a), .size = (s), .type = E820_TYPE_RESERVED }

static void memmap_expect_move(struct kunit *test,
			       const struct xen_memmap_plan *p, unsigned int i,
			       unsigned long from, unsigned long to,
			       unsigned long count)
{
	KUNIT_ASSERT_LT(test, i, p->nr_moves);
	KUNIT_EXPECT_EQ(test, p->move[i].from, from);
	KUNIT_EXPECT_EQ(test, p->move[i].to, to);
	KUNIT_EXPECT_EQ(test, p->move[i].count, count);
}

/* A domU: one RAM entry, all of it populated. */
static void memmap_domu_test(struct kunit *test)
{
	const struct e820_entry map[] = { RAM(0, SZ_256M) };
	struct xen_memmap_plan p;

	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, 1, 65536, &p), 0);
	KUNIT_EXPECT_EQ(test, p.ram_end, 65536UL);
	KUNIT_EXPECT_EQ(test, p.in_holes, 0UL);
	KUNIT_EXPECT_EQ(test, p.populated, 65536UL);
	KUNIT_EXPECT_EQ(test, p.released, 0UL);
	KUNIT_EXPECT_EQ(test, p.nr_moves, 0U);
}

/* A domU whose maximum is above its memory: the rest is the balloon's. */
static void memmap_balloon_test(struct kunit *test)
{
	const struct e820_entry map[] = { RAM(0, SZ_512M) };
	struct xen_memmap_plan p;

	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, 1, 65536, &p), 0);
	KUNIT_EXPECT_EQ(test, p.ram_end, 131072UL);
	KUNIT_EXPECT_EQ(test, p.populated, 65536UL);
	KUNIT_EXPECT_EQ(test, p.nr_moves, 0U);
}

/*
 * A dom0 of 4 GiB on a host with the legacy hole and the PCI hole: the
 * frames of both holes move above 4 GiB, in order.
 */
static void memmap_dom0_test(struct kunit *test)
{
	const struct e820_entry map[] = {
		RAM(0, 0x9f000),
		RSV(0x9f000, 0x61000),
		RAM(SZ_1M, SZ_2G + SZ_1G - SZ_1M),
		RSV(SZ_2G + SZ_1G, SZ_1G),
		RAM(SZ_4G, SZ_2G),
	};
	const unsigned long nr_pages = SZ_4G >> PAGE_SHIFT;
	struct xen_memmap_plan p;

	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, ARRAY_SIZE(map), nr_pages,
					      &p), 0);
	KUNIT_EXPECT_EQ(test, p.ram_end, (unsigned long)(SZ_4G + SZ_2G) >> PAGE_SHIFT);
	KUNIT_EXPECT_EQ(test, p.in_holes, 0x61UL + 0x40000);
	KUNIT_EXPECT_EQ(test, p.released, 0UL);
	KUNIT_EXPECT_EQ(test, p.populated, nr_pages);
	KUNIT_EXPECT_EQ(test, p.nr_moves, 2U);
	memmap_expect_move(test, &p, 0, 0x9f, 0x100000, 0x61);
	memmap_expect_move(test, &p, 1, 0xc0000, 0x100061, 0x40000);
}

/*
 * Too little RAM above: what does not fit goes back to Xen; RAM split
 * in two above takes two moves for one hole; edges not page-aligned
 * count only whole pages.
 */
static void memmap_short_test(struct kunit *test)
{
	const struct e820_entry map[] = {
		RAM(0, 0x100800),		/* pfns 0 to 0xff, half of 0x100 */
		RSV(0x100800, 0xff800),		/* the rest of 0x100 to 0x1ff */
		RAM(0x200000, 0x100000),	/* pfns 0x200 to 0x2ff */
		RAM(0x400000, 0x10000),		/* pfns 0x400 to 0x40f */
		RAM(0x500000, 0x8000),		/* pfns 0x500 to 0x507 */
	};
	struct xen_memmap_plan p;

	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, ARRAY_SIZE(map), 0x300, &p), 0);
	KUNIT_EXPECT_EQ(test, p.ram_end, 0x508UL);
	/* pfn 0x100, half RAM, is not RAM: the hole is 0x100 to 0x1ff. */
	KUNIT_EXPECT_EQ(test, p.in_holes, 0x100UL);
	KUNIT_EXPECT_EQ(test, p.nr_moves, 2U);
	memmap_expect_move(test, &p, 0, 0x100, 0x400, 0x10);
	memmap_expect_move(test, &p, 1, 0x110, 0x500, 0x8);
	KUNIT_EXPECT_EQ(test, p.released, 0x100UL - 0x18);
	KUNIT_EXPECT_EQ(test, p.populated, 0x300UL - (0x100 - 0x18));
}

/* More holes than moves: the rest is released, the count still adds up. */
static void memmap_many_holes_test(struct kunit *test)
{
	struct e820_entry map[2 * XEN_MEMMAP_MOVES + 3];
	const unsigned long per = 4;	/* pages of RAM, then of hole */
	unsigned long nr_pages = 2 * per * (XEN_MEMMAP_MOVES + 1);
	struct xen_memmap_plan *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);

	for (i = 0; i < 2 * (XEN_MEMMAP_MOVES + 1); i++)
		map[i] = (struct e820_entry){
			.addr = i * per * PAGE_SIZE, .size = per * PAGE_SIZE,
			.type = i % 2 ? E820_TYPE_RESERVED : E820_TYPE_RAM,
		};
	map[i] = (struct e820_entry)RAM(SZ_1G, SZ_1G);
	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, i + 1, nr_pages, p), 0);
	KUNIT_EXPECT_EQ(test, p->in_holes, per * (XEN_MEMMAP_MOVES + 1));
	KUNIT_EXPECT_EQ(test, p->nr_moves, (unsigned int)XEN_MEMMAP_MOVES);
	KUNIT_EXPECT_EQ(test, p->released, per);
	KUNIT_EXPECT_EQ(test, p->populated, nr_pages - per);
	memmap_expect_move(test, p, XEN_MEMMAP_MOVES - 1,
			   (2 * XEN_MEMMAP_MOVES - 1) * per,
			   (SZ_1G >> PAGE_SHIFT) + (XEN_MEMMAP_MOVES - 1) * per, per);
}

/*
 * Carried out, a plan gives every pfn below the end of the filled RAM
 * exactly one frame of the builder's, and no hole pfn any: check the
 * dom0 map and the short one both ways, pfn by pfn.
 */
static void memmap_check_sources(struct kunit *test, const struct e820_entry *map,
				 unsigned int nr, unsigned long nr_pages)
{
	struct xen_memmap_plan *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	unsigned long pfn, src, end, hs, he, holes = 0, moved = 0, own = 0;
	unsigned long *seen;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, nr, nr_pages, p), 0);
	seen = kunit_kcalloc(test, BITS_TO_LONGS(nr_pages), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	end = xen_memmap_filled(p, nr_pages);

	for (pfn = 0; pfn < end; pfn++) {
		src = xen_memmap_source(p, pfn);
		/* Moved away, or never populated (a gap above): no frame. */
		if (src == XEN_MEMMAP_NONE || src >= nr_pages)
			continue;
		/* A source is given once. */
		KUNIT_ASSERT_FALSE(test, __test_and_set_bit(src, seen));
		if (src == pfn) {
			own++;
			continue;
		}
		moved++;
		/* The way back agrees; a move lands in RAM above. */
		KUNIT_ASSERT_EQ(test, xen_memmap_dest(p, src), pfn);
		KUNIT_ASSERT_GE(test, pfn, nr_pages);
		KUNIT_ASSERT_FALSE(test, xen_memmap_next_hole(map, nr, pfn,
							      pfn + 1, &hs, &he));
	}
	/* Hole pfns hold nothing: moved away, or released (own, marked). */
	for (pfn = 0; xen_memmap_next_hole(map, nr, pfn, nr_pages, &hs, &he);
	     pfn = he) {
		holes += he - hs;
		for (pfn = hs; pfn < he; pfn++) {
			src = xen_memmap_source(p, pfn);
			if (xen_memmap_dest(p, pfn) == XEN_MEMMAP_NONE)
				KUNIT_ASSERT_EQ(test, src, pfn);
			else
				KUNIT_ASSERT_EQ(test, src, XEN_MEMMAP_NONE);
		}
	}
	KUNIT_EXPECT_EQ(test, holes, p->in_holes);
	KUNIT_EXPECT_EQ(test, moved, p->in_holes - p->released);
	KUNIT_EXPECT_EQ(test, own, nr_pages - p->in_holes + p->released);
	/* The last pfn before the end holds a frame: the end is not too far. */
	src = xen_memmap_source(p, end - 1);
	KUNIT_EXPECT_TRUE(test, src != XEN_MEMMAP_NONE && src < nr_pages);
	/* RAM pfns at or past the end stay for the balloon. */
	KUNIT_EXPECT_EQ(test, xen_memmap_source(p, end), end);
	KUNIT_EXPECT_EQ(test, xen_memmap_dest(p, end), XEN_MEMMAP_NONE);
}

static void memmap_sources_test(struct kunit *test)
{
	const struct e820_entry dom0[] = {
		RAM(0, 0x9f000),
		RSV(0x9f000, 0x61000),
		RAM(SZ_1M, SZ_64M),
		RSV(SZ_64M + SZ_1M, SZ_16M),
		RAM(SZ_128M, SZ_128M),
	};
	const struct e820_entry shorter[] = {
		RAM(0, 0x100800),
		RSV(0x100800, 0xff800),
		RAM(0x200000, 0x100000),
		RAM(0x400000, 0x10000),
		RAM(0x500000, 0x8000),
	};
	const struct e820_entry whole[] = { RAM(0, SZ_128M) };

	memmap_check_sources(test, dom0, ARRAY_SIZE(dom0), SZ_128M >> PAGE_SHIFT);
	memmap_check_sources(test, shorter, ARRAY_SIZE(shorter), 0x300);
	memmap_check_sources(test, whole, 1, SZ_64M >> PAGE_SHIFT);
}

/* The filled end: past the last move, or the populated pfns. */
static void memmap_filled_test(struct kunit *test)
{
	const struct e820_entry map[] = {
		RAM(0, SZ_1M), RSV(SZ_1M, SZ_1M), RAM(SZ_2M, SZ_16M),
	};
	struct xen_memmap_plan p;

	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, ARRAY_SIZE(map), 0x400, &p), 0);
	KUNIT_EXPECT_EQ(test, xen_memmap_filled(&p, 0x400), 0x500UL);
	KUNIT_ASSERT_EQ(test, xen_memmap_plan(map, ARRAY_SIZE(map), 0x100, &p), 0);
	KUNIT_EXPECT_EQ(test, xen_memmap_filled(&p, 0x100), 0x100UL);
}

/*
 * Dom0's identity window: at least to the floor, to the end of the last
 * entry below the P2M's limit, never past it; QEMU's map has a reserved
 * range at 1 TiB, beyond a limit of 512 GiB.
 */
static void memmap_io_end_test(struct kunit *test)
{
	const struct e820_entry qemu[] = {
		RAM(0, 0x9fc00), RSV(0x9fc00, 0x400), RSV(0xf0000, 0x10000),
		RAM(SZ_1M, 0xbfedf000), RSV(0xbffe0000, 0x20000),
		RSV(0xfffc0000, 0x40000), RSV(0xfd00000000ULL, 0x300000000ULL),
	};
	const struct e820_entry big[] = { RAM(0, SZ_4G), RSV(SZ_8G, SZ_1G) };
	const unsigned long limit = 1UL << 27, floor = SZ_4G >> PAGE_SHIFT;

	KUNIT_EXPECT_EQ(test, xen_memmap_io_end(qemu, ARRAY_SIZE(qemu), floor,
						limit), floor);
	KUNIT_EXPECT_EQ(test, xen_memmap_io_end(big, ARRAY_SIZE(big), floor,
						limit),
			(unsigned long)(SZ_8G + SZ_1G) >> PAGE_SHIFT);
	/* An entry ending exactly at the limit counts; the window stops there. */
	KUNIT_EXPECT_EQ(test, xen_memmap_io_end(big, ARRAY_SIZE(big), floor,
						(SZ_8G + SZ_1G) >> PAGE_SHIFT),
			(unsigned long)(SZ_8G + SZ_1G) >> PAGE_SHIFT);
	/* A floor above the limit is cut to it. */
	KUNIT_EXPECT_EQ(test, xen_memmap_io_end(big, 0, limit + 1, limit),
			limit);
}

/* A map out of order, overlapping or wrapping is refused. */
static void memmap_bad_map_test(struct kunit *test)
{
	const struct e820_entry backwards[] = { RAM(SZ_1G, SZ_1M), RAM(0, SZ_1M) };
	const struct e820_entry overlap[] = { RAM(0, SZ_2M), RAM(SZ_1M, SZ_2M) };
	const struct e820_entry wrap[] = { RAM(~0ULL - SZ_1M, SZ_2M) };
	struct xen_memmap_plan p;

	KUNIT_EXPECT_EQ(test, xen_memmap_plan(backwards, 2, 10, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, xen_memmap_plan(overlap, 2, 10, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, xen_memmap_plan(wrap, 1, 10, &p), -EINVAL);
}

static struct kunit_case memmap_cases[] = {
	KUNIT_CASE(memmap_domu_test),
	KUNIT_CASE(memmap_balloon_test),
	KUNIT_CASE(memmap_dom0_test),
	KUNIT_CASE(memmap_short_test),
	KUNIT_CASE(memmap_many_holes_test),
	KUNIT_CASE(memmap_sources_test),
	KUNIT_CASE(memmap_filled_test),
	KUNIT_CASE(memmap_io_end_test),
	KUNIT_CASE(memmap_bad_map_test),
	{}
};

static struct kunit_suite memmap_suite = {
	.name = "xen-pv-memmap",
	.test_cases = memmap_cases,
};

kunit_test_suite(memmap_suite);
