/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the balloon offers the rest of the kernel.
 *
 * Drivers that map other domains' pages take pages with no memory
 * behind them from the one pool the balloon shares
 * (xen_alloc_unpopulated_pages(), declared in xen/xen.h, which this
 * header gives them); the balloon's own controls are its sysfs files
 * (/sys/devices/system/xen_memory/xen_memory0/).
 */
#ifndef _XEN_BALLOON_H
#define _XEN_BALLOON_H

#include <xen/xen.h>

#endif /* _XEN_BALLOON_H */
