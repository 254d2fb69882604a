// SPDX-License-Identifier: GPL-2.0
/*
 * The memory of a PV guest: its map, and what the boot area holds.
 *
 * The generic code asks for the memory map through
 * x86_init.resources.memory_setup, early in setup_arch.  A PV guest's
 * comes from Xen (XENMEM_memory_map).  Only pfns that hold a frame are
 * RAM the kernel can use; the map's RAM above them is left out (the
 * balloon driver's to fill).  Dom0 gets the machine's map instead
 * (XENMEM_machine_memory_map): its holes are where the devices and the
 * firmware's tables are, and dom0 maps them as they are (identity P2M
 * entries); the machine's RAM dom0 was not given stays reserved, as
 * unusable, so that nothing takes it for a free window below 4 GiB.
 *
 * A map with holes where Xen populated pfns (dom0's, a domU's given the
 * host's layout) is carried out as xen_memmap_plan() says: each frame
 * in a hole gets the pfn of RAM it moves to in Xen's M2P, or goes back
 * to Xen when the map has no RAM left for it, and the boot area's
 * mapping of it goes.  The P2M follows the plan (p2m.c).  All of this
 * happens before the generic code maps memory: from then on the frames
 * are where the plan puts them.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/memblock.h>
#include <linux/pfn.h>
#include <linux/sizes.h>
#include <asm/e820/api.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/setup.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/interface/memory.h>
#include <xen/interface/xen.h>
#include <xen/xen.h>

#include "memmap_plan.h"
#include "multicall.h"
#include "xen-ops.h"

static struct e820_entry xen_pv_map[E820_MAX_ENTRIES_ZEROPAGE] __initdata;
static struct xen_memmap_plan xen_pv_plan __initdata;

/* Work for Xen about the frames in holes, sent a batch at a time. */
#define XEN_PV_HOLE_BATCH	64
static struct mmu_update xen_pv_m2p[XEN_PV_HOLE_BATCH] __initdata;
static unsigned int xen_pv_nr_m2p __initdata;
static xen_pfn_t xen_pv_gone[XEN_PV_HOLE_BATCH] __initdata;
static unsigned int xen_pv_nr_gone __initdata;

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

static void __init xen_pv_send_m2p(void)
{
	int rc;

	if (!xen_pv_nr_m2p)
		return;
	rc = xen_mc_mmu_update(xen_pv_m2p, xen_pv_nr_m2p);
	if (rc)
		xen_pv_fatal("xen: M2P update of frames out of holes refused: %d\n",
			     rc);
	xen_pv_nr_m2p = 0;
}

/* No stale TLB entry may reach a frame once Xen has it back. */
static void __init xen_pv_send_gone(void)
{
	struct xen_memory_reservation r = {
		.extent_start = xen_pv_gone,
		.nr_extents = xen_pv_nr_gone,
		.domid = DOMID_SELF,
	};
	int rc;

	if (!xen_pv_nr_gone)
		return;
	xen_pv_mmuext(MMUEXT_TLB_FLUSH_LOCAL, 0, 0);
	rc = HYPERVISOR_memory_op(XENMEM_decrease_reservation, &r);
	if (rc != xen_pv_nr_gone)
		xen_pv_fatal("xen: %u frames out of holes given back, %d taken\n",
			     xen_pv_nr_gone, rc);
	xen_pv_nr_gone = 0;
}

/*
 * The boot area maps pfns 0 to max_pfn_mapped with Xen's L1 tables, at
 * the direct map and the kernel map alike (one L1 entry serves both):
 * a pfn whose frame leaves must not stay mapped to it.
 */
static void __init xen_pv_unmap_boot(unsigned long pfn)
{
	unsigned long va = (unsigned long)__va(PFN_PHYS(pfn));
	int rc;

	if (pfn >= max_pfn_mapped ||
	    !(native_pmd_val(level2_ident_pgt[pmd_index(va)]) & _PAGE_PRESENT))
		return;
	rc = xen_mc_va_mapping(va, 0, UVMF_INVLPG);
	if (rc)
		xen_pv_fatal("xen: unmapping pfn %#lx of a hole refused: %d\n",
			     pfn, rc);
}

/*
 * Carry out the plan for the holes of @map below @populated: each frame
 * moves (M2P) or goes back to Xen.  Holes over the kernel's boot area
 * (image, initrd, P2M, start info, the tables, up to the end of the
 * last 2 MiB the builder mapped) cannot be: the boot stops.  Nothing
 * else maps a frame of a hole then, so one given back is free at once
 * (Xen takes it back even while mapped, and frees it when the last
 * mapping goes): should the initrd or the P2M ever lie outside the boot
 * area (ELF notes that place them apart), this must check them too.
 */
static void __init xen_pv_empty_holes(const struct e820_entry *map,
				      unsigned int nr, unsigned long populated)
{
	unsigned long pfn = 0, hs, he, to, mfn;
	unsigned long image = PFN_DOWN(__pa_symbol(_text));

	while (xen_memmap_next_hole(map, nr, pfn, populated, &hs, &he)) {
		if (hs < xen_pv_reserve_to && he > image)
			xen_pv_fatal("xen: memory map hole at pfns %#lx-%#lx in the boot area\n",
				     hs, he);
		for (pfn = hs; pfn < he; pfn++) {
			mfn = xen_p2m_entry(pfn);
			if (mfn == INVALID_P2M_ENTRY)
				continue;
			xen_pv_unmap_boot(pfn);
			to = xen_memmap_dest(&xen_pv_plan, pfn);
			if (to != XEN_MEMMAP_NONE) {
				xen_pv_m2p[xen_pv_nr_m2p++] = (struct mmu_update){
					.ptr = PFN_PHYS(mfn) | MMU_MACHPHYS_UPDATE,
					.val = to,
				};
				if (xen_pv_nr_m2p == XEN_PV_HOLE_BATCH)
					xen_pv_send_m2p();
				continue;
			}
			xen_pv_gone[xen_pv_nr_gone++] = mfn;
			xen_p2m_released(pfn);
			if (xen_pv_nr_gone == XEN_PV_HOLE_BATCH)
				xen_pv_send_gone();
		}
	}
	xen_pv_send_m2p();
	xen_pv_send_gone();
	/* The kernel map's aliases of the pfns unmapped, too. */
	xen_pv_mmuext(MMUEXT_TLB_FLUSH_LOCAL, 0, 0);
	xen_p2m_moved(&xen_pv_plan);
	pr_info("xen: %lu pages in memory map holes: %lu moved to RAM, %lu given back\n",
		xen_pv_plan.in_holes, xen_pv_plan.in_holes - xen_pv_plan.released,
		xen_pv_plan.released);
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
	bool dom0 = xen_initial_domain();
	unsigned long filled;
	unsigned int i, nr;
	int rc;

	rc = HYPERVISOR_memory_op(dom0 ? XENMEM_machine_memory_map :
				  XENMEM_memory_map, &map);
	if (rc) {
		/* No map: what Xen populated is all there is. */
		pr_warn("xen: no memory map from Xen (%d)\n", rc);
		xen_pv_map[0].addr = 0;
		xen_pv_map[0].size = PFN_PHYS(populated);
		xen_pv_map[0].type = E820_TYPE_RAM;
		map.nr_entries = 1;
	}
	nr = map.nr_entries;
	rc = xen_memmap_plan(xen_pv_map, nr, populated, &xen_pv_plan);
	if (rc)
		xen_pv_fatal("xen: memory map out of order or overlapping\n");
	if (xen_pv_plan.in_holes)
		xen_pv_empty_holes(xen_pv_map, nr, populated);
	filled = xen_memmap_filled(&xen_pv_plan, populated);

	for (i = 0; i < nr; i++) {
		u64 start = xen_pv_map[i].addr;
		u64 end = start + xen_pv_map[i].size;

		if (xen_pv_map[i].type == E820_TYPE_RAM &&
		    end > PFN_PHYS(filled)) {
			u64 cut = max_t(u64, start, PFN_PHYS(filled));

			if (dom0)
				e820__range_add(cut, end - cut, E820_TYPE_UNUSABLE);
			end = cut;
			if (end <= start)
				continue;
		}
		e820__range_add(start, end - start, xen_pv_map[i].type);
	}
	/* The local APIC and IO-APICs sit below 4 GiB, whatever the map says. */
	if (dom0)
		xen_p2m_identity_holes(xen_pv_map, nr, PFN_DOWN(SZ_4G));
	e820__update_table(e820_table);

	memblock_reserve(PFN_PHYS(xen_pv_reserve_from),
			 PFN_PHYS(xen_pv_reserve_to - xen_pv_reserve_from));
	return "Xen";
}
