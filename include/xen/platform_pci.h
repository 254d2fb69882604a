/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a frontend driver should serve the devices xenbus offers.
 *
 * An HVM guest with emulated disks and network cards would ask the
 * platform device to unplug them first and check that it did; our image
 * runs as a PV or PVH guest, or as dom0, where the devices xenbus offers
 * are the only ones the toolstack gave, so a frontend always serves them
 * under Xen.
 */
#ifndef _XEN_PLATFORM_PCI_H
#define _XEN_PLATFORM_PCI_H

#include <linux/types.h>
#include <xen/xen.h>

/**
 * xen_has_pv_devices() - may frontends serve the devices xenbus offers?
 *
 * Return: true in a Xen domain, false on bare metal.
 */
static inline bool xen_has_pv_devices(void)
{
	return xen_domain();
}

#endif /* _XEN_PLATFORM_PCI_H */
