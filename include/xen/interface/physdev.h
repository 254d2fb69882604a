/* SPDX-License-Identifier: MIT */
/*
 * Physical-device operations (HYPERVISOR_physdev_op): what a PV guest
 * asks of Xen about I/O privilege, and later a dom0 about interrupts
 * and PCI devices.
 *
 * Types and constants only.  tools/testing/xen/abi checks every
 * definition here against Xen 4.17's public headers.
 */
#ifndef _XEN_INTERFACE_PHYSDEV_H
#define _XEN_INTERFACE_PHYSDEV_H

#include <linux/types.h>

#define PHYSDEVOP_set_iopl		6
#define PHYSDEVOP_set_iobitmap		7

/**
 * struct physdev_set_iopl - argument of PHYSDEVOP_set_iopl
 * @iopl: the virtual I/O privilege level, 0 to 3; a PV kernel counts
 *	as ring 1 against it
 */
struct physdev_set_iopl {
	u32 iopl;
};

#endif /* _XEN_INTERFACE_PHYSDEV_H */
