/* SPDX-License-Identifier: MIT */
/*
 * Physical-device operations (HYPERVISOR_physdev_op): what a PV guest
 * asks of Xen about I/O privilege, and a dom0 about the machine's
 * interrupts (pirqs: IO-APIC pins and MSIs, delivered as event
 * channels) and PCI devices.
 *
 * Types and constants only.  tools/testing/xen/abi checks every
 * definition here against Xen 4.17's public headers.
 */
#ifndef _XEN_INTERFACE_PHYSDEV_H
#define _XEN_INTERFACE_PHYSDEV_H

#include <linux/types.h>
#include <xen/interface/xen.h>

#define PHYSDEVOP_irq_status_query	5
#define PHYSDEVOP_set_iopl		6
#define PHYSDEVOP_set_iobitmap		7
#define PHYSDEVOP_apic_read		8
#define PHYSDEVOP_eoi			12
#define PHYSDEVOP_map_pirq		13
#define PHYSDEVOP_unmap_pirq		14
#define PHYSDEVOP_setup_gsi		21
#define PHYSDEVOP_pci_device_add	25
#define PHYSDEVOP_pci_device_remove	26
#define PHYSDEVOP_restore_msi_ext	27
#define PHYSDEVOP_pirq_eoi_gmfn_v2	28

/* irq_status_query's flags: the pirq wants PHYSDEVOP_eoi; it is shared. */
#define XENIRQSTAT_needs_eoi		1
#define XENIRQSTAT_shared		2

/* What map_pirq maps: an MSI (or MSI-X) vector, or an IO-APIC pin. */
#define MAP_PIRQ_TYPE_MSI		0
#define MAP_PIRQ_TYPE_GSI		1
#define MAP_PIRQ_TYPE_MSI_SEG		3
#define MAP_PIRQ_TYPE_MULTI_MSI		4

/* pci_device_add's flags. */
#define XEN_PCI_DEV_EXTFN		1
#define XEN_PCI_DEV_VIRTFN		2
#define XEN_PCI_DEV_PXM			4

/**
 * struct physdev_set_iopl - argument of PHYSDEVOP_set_iopl
 * @iopl: the virtual I/O privilege level, 0 to 3; a PV kernel counts
 *	as ring 1 against it
 */
struct physdev_set_iopl {
	u32 iopl;
};

/**
 * struct physdev_apic - argument of PHYSDEVOP_apic_read
 * @apic_physbase: in: the IO-APIC, by the physical address the MADT
 *	gives it
 * @reg: in: the register, by its index
 * @value: out: what it reads
 *
 * Only the control domain may ask; Xen finds the IO-APIC by its base
 * and reads the register under its own lock.
 */
struct physdev_apic {
	unsigned long apic_physbase;
	u32 reg;
	u32 value;
};

/**
 * struct physdev_irq_status_query - argument of PHYSDEVOP_irq_status_query
 * @irq: in: the pirq
 * @flags: out: XENIRQSTAT_* (Xen 4.17 always says it needs an EOI)
 */
struct physdev_irq_status_query {
	u32 irq;
	u32 flags;
};

/**
 * struct physdev_eoi - argument of PHYSDEVOP_eoi
 * @irq: the pirq whose interrupt the domain has handled
 */
struct physdev_eoi {
	u32 irq;
};

/**
 * struct physdev_map_pirq - argument of PHYSDEVOP_map_pirq
 * @domid: whose pirq (DOMID_SELF)
 * @type: MAP_PIRQ_TYPE_*
 * @index: the GSI for MAP_PIRQ_TYPE_GSI; -1 for an MSI, Xen picks
 * @pirq: in: the pirq wanted (-1: Xen picks); out: the pirq mapped
 * @bus: the device's bus (its segment in bits 31:16 for _MSI_SEG and
 *	_MULTI_MSI)
 * @devfn: the device's function
 * @entry_nr: the MSI-X table entry; the vector count for _MULTI_MSI
 * @table_base: the MSI-X table's BAR address; 0 for MSI
 */
struct physdev_map_pirq {
	domid_t domid;
	int type;
	int index;
	int pirq;
	int bus;
	int devfn;
	int entry_nr;
	u64 table_base;
};

/**
 * struct physdev_unmap_pirq - argument of PHYSDEVOP_unmap_pirq
 * @domid: whose pirq (DOMID_SELF)
 * @pirq: the pirq to unmap
 */
struct physdev_unmap_pirq {
	domid_t domid;
	int pirq;
};

/**
 * struct physdev_setup_gsi - argument of PHYSDEVOP_setup_gsi
 * @gsi: the IO-APIC pin, as a global system interrupt number
 * @triggering: 1 level, 0 edge
 * @polarity: 1 active low, 0 active high
 */
struct physdev_setup_gsi {
	int gsi;
	u8 triggering;
	u8 polarity;
};

/**
 * struct physdev_pci_device_add - argument of PHYSDEVOP_pci_device_add
 * @seg: the device's PCI segment
 * @bus: its bus
 * @devfn: its device and function
 * @flags: XEN_PCI_DEV_*
 * @physfn: a virtual function's physical function (XEN_PCI_DEV_VIRTFN)
 * @physfn.bus: its bus
 * @physfn.devfn: its device and function
 * @optarr: optional words; [0] the proximity domain (XEN_PCI_DEV_PXM)
 */
struct physdev_pci_device_add {
	u16 seg;
	u8 bus;
	u8 devfn;
	u32 flags;
	struct {
		u8 bus;
		u8 devfn;
	} physfn;
	u32 optarr[];
};

/**
 * struct physdev_pci_device - argument of PHYSDEVOP_pci_device_remove and
 *	PHYSDEVOP_restore_msi_ext
 * @seg: the device's PCI segment
 * @bus: its bus
 * @devfn: its device and function
 */
struct physdev_pci_device {
	u16 seg;
	u8 bus;
	u8 devfn;
};

/**
 * struct physdev_pirq_eoi_gmfn - argument of PHYSDEVOP_pirq_eoi_gmfn_v2
 * @gmfn: a page of the domain's (its mfn, for a PV guest) that Xen keeps
 *	a bitmap in, indexed by pirq: set where a pirq wants PHYSDEVOP_eoi
 *	(written when a pirq is bound)
 */
struct physdev_pirq_eoi_gmfn {
	xen_pfn_t gmfn;
};

#endif /* _XEN_INTERFACE_PHYSDEV_H */
