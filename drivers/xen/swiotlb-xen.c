// SPDX-License-Identifier: GPL-2.0
/*
 * DMA for a PV guest's own devices (dom0's disks and network cards).
 *
 * A device reaches memory by machine address.  A PV guest's pages are
 * machine frames in no order: a buffer within one page, or one whose
 * pages happen to be machine frames in a row, can be handed to the
 * device as it is (at the machine address of its first byte); any other
 * is bounced through the swiotlb, whose slabs were traded for machine
 * contiguous memory below 4 GiB when it was set up
 * (xen_swiotlb_fixup(), one exchange per segment, as no mapping crosses
 * a segment).  Coherent buffers are made contiguous themselves
 * (xen_create_contiguous_region()) and given back to the scattered
 * state when freed.  x86 keeps caches coherent with DMA: no cache
 * maintenance anywhere.
 */
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/swiotlb.h>
#include <asm/xen/page.h>
#include <xen/swiotlb-xen.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

/* The swiotlb is allocated below 4 GiB of machine memory. */
#define XEN_SWIOTLB_BITS	32

static dma_addr_t xen_phys_to_dma(phys_addr_t phys)
{
	return phys_to_machine(phys);
}

static phys_addr_t xen_dma_to_phys(dma_addr_t dma)
{
	return machine_to_phys(dma);
}

/* Are the pages of [@phys, @phys + @size) machine frames in a row? */
static bool xen_dma_contiguous(phys_addr_t phys, size_t size)
{
	unsigned long pfn = PFN_DOWN(phys), last = PFN_DOWN(phys + size - 1);
	unsigned long mfn = pfn_to_mfn(pfn);

	for (pfn++; pfn <= last; pfn++)
		if (pfn_to_mfn(pfn) != ++mfn)
			return false;
	return true;
}

/**
 * xen_swiotlb_fixup() - make the swiotlb's slabs machine-contiguous
 * @buf: the slabs, in the direct map
 * @nslabs: how many
 *
 * Called by the swiotlb as it sets up (swiotlb_init_remap()).  Each
 * segment (IO_TLB_SEGSIZE slabs) becomes one run of machine frames below
 * 4 GiB.
 *
 * Return: 0, or an error; the swiotlb then tries a smaller size.
 */
int xen_swiotlb_fixup(void *buf, unsigned long nslabs)
{
	unsigned int order = get_order(IO_TLB_SEGSIZE << IO_TLB_SHIFT);
	unsigned long i, chunk = IO_TLB_SEGSIZE;
	dma_addr_t dma;
	int rc;

	for (i = 0; i < nslabs; i += chunk) {
		chunk = min_t(unsigned long, IO_TLB_SEGSIZE, nslabs - i);
		rc = xen_create_contiguous_region(virt_to_phys(buf) +
						  (i << IO_TLB_SHIFT),
						  get_order(chunk << IO_TLB_SHIFT),
						  XEN_SWIOTLB_BITS, &dma);
		if (rc) {
			pr_warn("xen: swiotlb: no machine-contiguous memory below 4 GiB for slab %lu of %lu (order %u): %d\n",
				i, nslabs, order, rc);
			return rc;
		}
	}
	return 0;
}

static dma_addr_t xen_swiotlb_map_page(struct device *dev, struct page *page,
				       unsigned long offset, size_t size,
				       enum dma_data_direction dir,
				       unsigned long attrs)
{
	phys_addr_t phys = page_to_phys(page) + offset, tlb;
	dma_addr_t dma = xen_phys_to_dma(phys);

	if (!is_swiotlb_force_bounce(dev) && xen_dma_contiguous(phys, size) &&
	    dma_capable(dev, dma, size, true))
		return dma;

	tlb = swiotlb_tbl_map_single(dev, phys, size, 0, dir, attrs);
	if (tlb == (phys_addr_t)DMA_MAPPING_ERROR)
		return DMA_MAPPING_ERROR;
	dma = xen_phys_to_dma(tlb);
	if (unlikely(!dma_capable(dev, dma, size, true))) {
		swiotlb_tbl_unmap_single(dev, tlb, size, dir,
					 attrs | DMA_ATTR_SKIP_CPU_SYNC);
		return DMA_MAPPING_ERROR;
	}
	return dma;
}

static void xen_swiotlb_unmap_page(struct device *dev, dma_addr_t dma,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs)
{
	swiotlb_tbl_unmap_single(dev, xen_dma_to_phys(dma), size, dir, attrs);
}

static void xen_swiotlb_sync_single_for_cpu(struct device *dev,
					    dma_addr_t dma, size_t size,
					    enum dma_data_direction dir)
{
	swiotlb_sync_single_for_cpu(dev, xen_dma_to_phys(dma), size, dir);
}

static void xen_swiotlb_sync_single_for_device(struct device *dev,
					       dma_addr_t dma, size_t size,
					       enum dma_data_direction dir)
{
	swiotlb_sync_single_for_device(dev, xen_dma_to_phys(dma), size, dir);
}

static void xen_swiotlb_unmap_sg(struct device *dev, struct scatterlist *sgl,
				 int nents, enum dma_data_direction dir,
				 unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i)
		xen_swiotlb_unmap_page(dev, sg->dma_address, sg_dma_len(sg),
				       dir, attrs);
}

static int xen_swiotlb_map_sg(struct device *dev, struct scatterlist *sgl,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		sg->dma_address = xen_swiotlb_map_page(dev, sg_page(sg),
						       sg->offset, sg->length,
						       dir, attrs);
		if (sg->dma_address == DMA_MAPPING_ERROR) {
			xen_swiotlb_unmap_sg(dev, sgl, i, dir,
					     attrs | DMA_ATTR_SKIP_CPU_SYNC);
			sg_dma_len(sgl) = 0;
			return -EIO;
		}
		sg_dma_len(sg) = sg->length;
	}
	return nents;
}

static void xen_swiotlb_sync_sg(struct device *dev, struct scatterlist *sgl,
				int nents, enum dma_data_direction dir,
				bool for_cpu)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		if (for_cpu)
			xen_swiotlb_sync_single_for_cpu(dev, sg->dma_address,
							sg->length, dir);
		else
			xen_swiotlb_sync_single_for_device(dev, sg->dma_address,
							   sg->length, dir);
	}
}

static void xen_swiotlb_sync_sg_for_cpu(struct device *dev,
					struct scatterlist *sgl, int nents,
					enum dma_data_direction dir)
{
	xen_swiotlb_sync_sg(dev, sgl, nents, dir, true);
}

static void xen_swiotlb_sync_sg_for_device(struct device *dev,
					   struct scatterlist *sgl, int nents,
					   enum dma_data_direction dir)
{
	xen_swiotlb_sync_sg(dev, sgl, nents, dir, false);
}

/* The address bits a device's coherent mask allows. */
static unsigned int xen_mask_bits(u64 mask)
{
	return mask == DMA_BIT_MASK(64) ? 0 : fls64(mask);
}

static void *xen_swiotlb_alloc(struct device *dev, size_t size,
			       dma_addr_t *dma_handle, gfp_t gfp,
			       unsigned long attrs)
{
	u64 mask = dev->coherent_dma_mask;
	unsigned int order = get_order(size);
	phys_addr_t phys;
	void *vaddr;

	/* The zone does not matter: the frames are exchanged if need be. */
	gfp &= ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM);
	vaddr = (void *)__get_free_pages(gfp | __GFP_ZERO, order);
	if (!vaddr)
		return NULL;
	phys = virt_to_phys(vaddr);
	*dma_handle = xen_phys_to_dma(phys);
	if (xen_dma_contiguous(phys, PAGE_SIZE << order) &&
	    *dma_handle + (PAGE_SIZE << order) - 1 <= mask)
		return vaddr;

	if (xen_create_contiguous_region(phys, order, xen_mask_bits(mask),
					 dma_handle)) {
		free_pages((unsigned long)vaddr, order);
		return NULL;
	}
	/* The exchange brings frames whose content is unknown. */
	memset(vaddr, 0, PAGE_SIZE << order);
	SetPageXenRemapped(virt_to_page(vaddr));
	return vaddr;
}

static void xen_swiotlb_free(struct device *dev, size_t size, void *vaddr,
			     dma_addr_t dma, unsigned long attrs)
{
	unsigned int order = get_order(size);
	struct page *page = virt_to_page(vaddr);

	if (TestClearPageXenRemapped(page))
		xen_destroy_contiguous_region(virt_to_phys(vaddr), order);
	free_pages((unsigned long)vaddr, order);
}

static int xen_swiotlb_dma_supported(struct device *dev, u64 mask)
{
	/* The bounce buffer lies below 4 GiB; so must what the device reaches. */
	return mask >= DMA_BIT_MASK(XEN_SWIOTLB_BITS);
}

/* The DMA ops of a PV guest that drives devices (pci_iommu_alloc() sets them). */
const struct dma_map_ops xen_swiotlb_dma_ops = {
	.alloc			= xen_swiotlb_alloc,
	.free			= xen_swiotlb_free,
	.alloc_pages_op		= dma_common_alloc_pages,
	.free_pages		= dma_common_free_pages,
	.mmap			= dma_common_mmap,
	.get_sgtable		= dma_common_get_sgtable,
	.map_page		= xen_swiotlb_map_page,
	.unmap_page		= xen_swiotlb_unmap_page,
	.map_sg			= xen_swiotlb_map_sg,
	.unmap_sg		= xen_swiotlb_unmap_sg,
	.sync_single_for_cpu	= xen_swiotlb_sync_single_for_cpu,
	.sync_single_for_device	= xen_swiotlb_sync_single_for_device,
	.sync_sg_for_cpu	= xen_swiotlb_sync_sg_for_cpu,
	.sync_sg_for_device	= xen_swiotlb_sync_sg_for_device,
	.dma_supported		= xen_swiotlb_dma_supported,
	.max_mapping_size	= swiotlb_max_mapping_size,
};
