// SPDX-License-Identifier: GPL-2.0
/*
 * The memory map plan of a PV guest (memmap_plan.h).
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/pfn.h>
#include <linux/string.h>
#include <asm/page.h>

#include "memmap_plan.h"

/* The pfns entry @e covers whole, as [*start, *end); false if none. */
static bool memmap_ram_pfns(const struct e820_entry *e, unsigned long *start,
			    unsigned long *end)
{
	if (e->type != E820_TYPE_RAM)
		return false;
	*start = PFN_UP(e->addr);
	*end = PFN_DOWN(e->addr + e->size);
	return *start < *end;
}

/**
 * xen_memmap_next_hole() - the next run of pfns a memory map has no RAM at
 * @map: the map, sorted, no overlaps
 * @nr: its entries
 * @pfn: where to start looking
 * @limit: the pfn to look below
 * @start: the run's first pfn
 * @end: the pfn after it
 *
 * A pfn the map's RAM covers only in part is not RAM.
 *
 * Return: true with the run in [*@start, *@end), false when there is none.
 */
bool xen_memmap_next_hole(const struct e820_entry *map, unsigned int nr,
			  unsigned long pfn, unsigned long limit,
			  unsigned long *start, unsigned long *end)
{
	unsigned long s, e;
	unsigned int i;

	while (pfn < limit) {
		for (i = 0; i < nr; i++)
			if (memmap_ram_pfns(&map[i], &s, &e) && s <= pfn && pfn < e)
				break;
		if (i == nr) {
			/* In a hole: it ends at the next RAM or at @limit. */
			*start = pfn;
			*end = limit;
			for (i = 0; i < nr; i++)
				if (memmap_ram_pfns(&map[i], &s, &e) && s > pfn)
					*end = min(*end, s);
			return true;
		}
		pfn = e;
	}
	return false;
}

/*
 * The next run of RAM pfns at or after @pfn,
 * as [*start, *end); false when there is none.
 */
static bool memmap_next_ram(const struct e820_entry *map, unsigned int nr,
			    unsigned long pfn, unsigned long *start,
			    unsigned long *end)
{
	unsigned long s, e, best = ULONG_MAX, best_end = 0;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!memmap_ram_pfns(&map[i], &s, &e) || e <= pfn)
			continue;
		s = max(s, pfn);
		if (s < best) {
			best = s;
			best_end = e;
		}
	}
	if (best == ULONG_MAX)
		return false;
	*start = best;
	*end = best_end;
	return true;
}

/**
 * xen_memmap_plan() - plan what becomes of the pfns Xen populated
 * @map: Xen's memory map (XENMEM_memory_map), sorted, no overlaps
 * @nr: its entries
 * @nr_pages: pfns Xen populated, from 0 (start_info.nr_pages)
 * @plan: filled in
 *
 * Return: 0, or -EINVAL for a map out of order or overlapping.
 */
int xen_memmap_plan(const struct e820_entry *map, unsigned int nr,
		    unsigned long nr_pages, struct xen_memmap_plan *plan)
{
	unsigned long hs, he, rs, re, hole = 0, ram, n, s, e;
	unsigned int i;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < nr; i++) {
		if (map[i].addr + map[i].size < map[i].addr)
			return -EINVAL;
		if (i && map[i].addr < map[i - 1].addr + map[i - 1].size)
			return -EINVAL;
		if (memmap_ram_pfns(&map[i], &s, &e))
			plan->ram_end = max(plan->ram_end, e);
	}

	/* RAM above the populated pfns is where frames move to. */
	ram = nr_pages;
	while (xen_memmap_next_hole(map, nr, hole, nr_pages, &hs, &he)) {
		plan->in_holes += he - hs;
		for (hole = hs; hole < he; hole += n) {
			if (plan->nr_moves == XEN_MEMMAP_MOVES ||
			    !memmap_next_ram(map, nr, ram, &rs, &re)) {
				plan->released += he - hole;
				break;
			}
			n = min(he - hole, re - rs);
			plan->move[plan->nr_moves++] = (struct xen_memmap_move){
				.from = hole, .to = rs, .count = n,
			};
			ram = rs + n;
		}
		hole = he;
	}
	plan->populated = nr_pages - plan->released;
	return 0;
}

/**
 * xen_memmap_dest() - where the frame of a hole pfn moves
 * @plan: the plan
 * @pfn: a pfn
 *
 * Return: the RAM pfn @pfn's frame moves to, or XEN_MEMMAP_NONE when it
 * moves nowhere (a pfn not in a hole, or one whose frame is released).
 */
unsigned long xen_memmap_dest(const struct xen_memmap_plan *plan,
			      unsigned long pfn)
{
	const struct xen_memmap_move *m;
	unsigned int i;

	for (i = 0, m = plan->move; i < plan->nr_moves; i++, m++)
		if (pfn - m->from < m->count)
			return m->to + (pfn - m->from);
	return XEN_MEMMAP_NONE;
}

/**
 * xen_memmap_source() - whose frame a pfn holds once the plan is carried out
 * @plan: the plan
 * @pfn: a pfn
 *
 * Return: the pfn the domain builder gave the frame to: @pfn itself, or
 * the hole pfn a move takes it from; XEN_MEMMAP_NONE for a hole pfn
 * whose frame moved away.  A released pfn is its own source: whoever
 * carries out the plan marks its entry.
 */
unsigned long xen_memmap_source(const struct xen_memmap_plan *plan,
				unsigned long pfn)
{
	const struct xen_memmap_move *m;
	unsigned int i;

	for (i = 0, m = plan->move; i < plan->nr_moves; i++, m++) {
		if (pfn - m->to < m->count)
			return m->from + (pfn - m->to);
		if (pfn - m->from < m->count)
			return XEN_MEMMAP_NONE;
	}
	return pfn;
}

/**
 * xen_memmap_filled() - the end of the pfns that hold frames
 * @plan: the plan
 * @nr_pages: the pfns Xen populated, as given to xen_memmap_plan()
 *
 * Moves fill RAM above @nr_pages from its start, without gaps but the
 * map's own.
 *
 * Return: the pfn after the last one that holds a frame once the plan
 * is carried out.
 */
unsigned long xen_memmap_filled(const struct xen_memmap_plan *plan,
				unsigned long nr_pages)
{
	unsigned long end = nr_pages;
	unsigned int i;

	for (i = 0; i < plan->nr_moves; i++)
		end = max(end, plan->move[i].to + plan->move[i].count);
	return end;
}

/**
 * xen_memmap_io_end() - where dom0's identity window on the machine ends
 * @map: the machine's memory map
 * @nr: its entries
 * @floor: the pfn the window reaches at least (the local APIC and the
 *	IO-APICs sit below 4 GiB, whatever the map lists)
 * @max: the pfns a P2M can hold
 *
 * The window reaches the end of the map's last entry that lies below
 * @max: one beyond it (a reserved range at 1 TiB, say) is left out,
 * with what lies between.
 *
 * Return: the pfn after the window, at most @max.
 */
unsigned long xen_memmap_io_end(const struct e820_entry *map, unsigned int nr,
				unsigned long floor, unsigned long max)
{
	unsigned long end = floor, e;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		e = PFN_UP(map[i].addr + map[i].size);
		if (e <= max)
			end = max(end, e);
	}
	return min(end, max);
}
