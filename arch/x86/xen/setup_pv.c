// SPDX-License-Identifier: GPL-2.0
/*
 * The memory of a PV guest: its map, and what the boot area holds.
 *
 * The generic code asks for the memory map through
 * x86_init.resources.memory_setup, early in setup_arch.  A PV guest's
 * comes from Xen (XENMEM_memory_map).  Only pfns Xen populated hold RAM
 * the kernel can use; the map's RAM above them is left out (the balloon
 * driver's to fill).  xen_memmap_plan() says what a map with holes in
 * the populated range would need moved; such maps (dom0's) are not
 * handled yet and stop the boot with a message.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/pfn.h>
#include <asm/e820/api.h>
#include <asm/setup.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/interface/memory.h>
#include <xen/interface/xen.h>

#include "memmap_plan.h"
#include "xen-ops.h"

static struct e820_entry xen_pv_map[E820_MAX_ENTRIES_ZEROPAGE] __initdata;

/* The pfns of the boot area Xen mapped that the kernel image does not cover. */
static unsigned long xen_pv_reserve_from __initdata;
static unsigned long xen_pv_reserve_to __initdata;

/**
 * xen_pv_set_boot_area() - what of the boot area must stay reserved
 * @first: the first pfn after the image and the initrd (the P2M array)
 * @end: the pfn after the boot area
 */
void __init xen_pv_set_boot_area(unsigned long first, unsigned long end)
{
	xen_pv_reserve_from = first;
	xen_pv_reserve_to = end;
}

/**
 * xen_pv_memory_setup() - x86_init.resources.memory_setup of a PV guest
 *
 * Return: the name the generic code prints beside the map.
 */
char *__init xen_pv_memory_setup(void)
{
	unsigned long populated = xen_start_info->nr_pages;
	struct xen_memory_map map = {
		.nr_entries = ARRAY_SIZE(xen_pv_map),
		.buffer = xen_pv_map,
	};
	struct xen_memmap_plan plan;
	unsigned int i, nr;
	int rc;

	rc = HYPERVISOR_memory_op(XENMEM_memory_map, &map);
	if (rc) {
		/* No map: what Xen populated is all there is. */
		pr_warn("xen: no memory map from Xen (%d)\n", rc);
		xen_pv_map[0].addr = 0;
		xen_pv_map[0].size = PFN_PHYS(populated);
		xen_pv_map[0].type = E820_TYPE_RAM;
		map.nr_entries = 1;
	}
	nr = map.nr_entries;
	rc = xen_memmap_plan(xen_pv_map, nr, populated, &plan);
	if (rc || plan.in_holes)
		xen_pv_fatal("xen: %lu populated pages in memory map holes (%d)\n",
			     plan.in_holes, rc);

	for (i = 0; i < nr; i++) {
		u64 start = xen_pv_map[i].addr;
		u64 end = start + xen_pv_map[i].size;

		if (xen_pv_map[i].type == E820_TYPE_RAM) {
			end = min_t(u64, end, PFN_PHYS(populated));
			if (end <= start)
				continue;
		}
		e820__range_add(start, end - start, xen_pv_map[i].type);
	}
	e820__update_table(e820_table);

	memblock_reserve(PFN_PHYS(xen_pv_reserve_from),
			 PFN_PHYS(xen_pv_reserve_to - xen_pv_reserve_from));
	return "Xen";
}
