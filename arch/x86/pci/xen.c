// SPDX-License-Identifier: GPL-2.0
/*
 * PCI and MSI glue for Xen guests.
 *
 * Built whenever Xen and PCI are (PCI_XEN).  A PVH domU owns no PCI device
 * that needs Xen's help: its devices are paravirtual.  The glue for a PV
 * dom0 (MSI setup through PHYSDEVOP, device registration with Xen) and for
 * HVM guests routing interrupts as event channels comes with those guest
 * types.
 */
#include <linux/init.h>
