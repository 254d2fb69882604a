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

/*
 * The next run of non-RAM pfns below @limit at or after @pfn, as
 * [*start, *end); false when there is none.
 */
static bool memmap_next_hole(const struct e820_entry *map, unsigned int nr,
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
	while (memmap_next_hole(map, nr, hole, nr_pages, &hs, &he)) {
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
