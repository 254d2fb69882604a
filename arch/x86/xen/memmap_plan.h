/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a PV guest turns Xen's memory map into its own.
 *
 * Xen's domain builder populates pfns 0 to nr_pages - 1, whatever the
 * memory map says of them.  The map (XENMEM_memory_map) says which pfns
 * are RAM: for a domU all of them, up to its maximum; for dom0 the
 * host's map, with holes where devices sit (below 1 MiB, the PCI hole
 * below 4 GiB).  A populated pfn in a hole holds a machine frame the
 * kernel will never use as RAM, so its frame moves to a RAM pfn above
 * nr_pages (remapped), or, when the map has no such RAM left, goes back
 * to Xen (released).  RAM above the populated pfns stays for the
 * balloon to fill.
 *
 * xen_memmap_plan() is the pure part: from the map and nr_pages, the
 * moves to make and what is left; the functions after it answer, from
 * a plan, which frame a pfn holds once it is carried out.  setup_pv.c
 * carries it out, p2m.c answers lookups by it until the P2M tree is
 * built.
 */
#ifndef _XEN_MEMMAP_PLAN_H
#define _XEN_MEMMAP_PLAN_H

#include <linux/types.h>
#include <asm/e820/types.h>

/* Moves in a plan; a map with more holes than this releases the rest. */
#define XEN_MEMMAP_MOVES	32

/**
 * struct xen_memmap_move - frames that move from a hole into RAM
 * @from: first pfn in the hole
 * @to: first pfn in RAM above the populated ones
 * @count: pages
 */
struct xen_memmap_move {
	unsigned long from;
	unsigned long to;
	unsigned long count;
};

/**
 * struct xen_memmap_plan - what to do with the pfns Xen populated
 * @ram_end: the pfn after the last RAM pfn of the map
 * @in_holes: populated pfns that the map does not call RAM
 * @populated: RAM pfns that hold a frame once the moves are done
 * @released: frames to give back to Xen, for want of RAM to move to
 * @nr_moves: entries of @move
 * @move: the moves, in pfn order of both @from and @to
 */
struct xen_memmap_plan {
	unsigned long ram_end;
	unsigned long in_holes;
	unsigned long populated;
	unsigned long released;
	unsigned int nr_moves;
	struct xen_memmap_move move[XEN_MEMMAP_MOVES];
};

/* What xen_memmap_source() and xen_memmap_dest() say for "no pfn". */
#define XEN_MEMMAP_NONE		ULONG_MAX

int xen_memmap_plan(const struct e820_entry *map, unsigned int nr,
		    unsigned long nr_pages, struct xen_memmap_plan *plan);
bool xen_memmap_next_hole(const struct e820_entry *map, unsigned int nr,
			  unsigned long pfn, unsigned long limit,
			  unsigned long *start, unsigned long *end);
unsigned long xen_memmap_dest(const struct xen_memmap_plan *plan,
			      unsigned long pfn);
unsigned long xen_memmap_source(const struct xen_memmap_plan *plan,
				unsigned long pfn);
unsigned long xen_memmap_filled(const struct xen_memmap_plan *plan,
				unsigned long nr_pages);
unsigned long xen_memmap_io_end(const struct e820_entry *map, unsigned int nr,
				unsigned long floor, unsigned long max);

#endif /* _XEN_MEMMAP_PLAN_H */
