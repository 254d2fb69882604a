/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DMA bounce buffering for guests whose pseudo-physical memory is not
 * contiguous in machine memory (PV dom0 driving real devices).
 */
#ifndef _XEN_SWIOTLB_XEN_H
#define _XEN_SWIOTLB_XEN_H

#if IS_ENABLED(CONFIG_SWIOTLB_XEN)
#include <linux/dma-map-ops.h>

int xen_swiotlb_fixup(void *buf, unsigned long nslabs);
extern const struct dma_map_ops xen_swiotlb_dma_ops;
#endif

#endif /* _XEN_SWIOTLB_XEN_H */
