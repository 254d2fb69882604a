/* SPDX-License-Identifier: MIT */
/*
 * The PCI frontend protocol: one shared page (struct xen_pci_sharedinfo)
 * through which a guest's pcifront asks pciback, one operation at a
 * time, to read or write a passed-through device's config space or to
 * turn its MSI or MSI-X on and off; and through which pciback asks the
 * guest's driver to handle a PCIe error (AER).
 *
 * The guest fills @op, sets XEN_PCIF_active in @flags and notifies; the
 * backend answers in @op and clears the bit.  The AER direction works
 * the same with @aer_op and XEN_PCIB_active.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_PCIIF_H
#define _XEN_INTERFACE_IO_PCIIF_H

#include <linux/bits.h>
#include <linux/types.h>

/* The version the frontend and backend agree on in xenstore ("magic"). */
#define XEN_PCI_MAGIC			"7"

/* Bits of xen_pci_sharedinfo.flags. */
#define _XEN_PCIF_active		(0)	/* an op waits for the backend */
#define XEN_PCIF_active			BIT(_XEN_PCIF_active)
#define _XEN_PCIB_AERHANDLER		(1)	/* the guest handles AER */
#define XEN_PCIB_AERHANDLER		BIT(_XEN_PCIB_AERHANDLER)
#define _XEN_PCIB_active		(2)	/* an AER op waits for the guest */
#define XEN_PCIB_active			BIT(_XEN_PCIB_active)

/* xen_pci_op.cmd */
#define XEN_PCI_OP_conf_read		(0)
#define XEN_PCI_OP_conf_write		(1)
#define XEN_PCI_OP_enable_msi		(2)
#define XEN_PCI_OP_disable_msi		(3)
#define XEN_PCI_OP_enable_msix		(4)
#define XEN_PCI_OP_disable_msix		(5)
/* xen_pcie_aer_op.cmd, backend to guest */
#define XEN_PCI_OP_aer_detected		(6)
#define XEN_PCI_OP_aer_resume		(7)
#define XEN_PCI_OP_aer_mmio		(8)
#define XEN_PCI_OP_aer_slotreset	(9)
#define XEN_PCI_OP_enable_multi_msi	(10)

/* xen_pci_op.err */
#define XEN_PCI_ERR_success		(0)
#define XEN_PCI_ERR_dev_not_found	(-1)
#define XEN_PCI_ERR_invalid_offset	(-2)
#define XEN_PCI_ERR_access_denied	(-3)
#define XEN_PCI_ERR_not_implemented	(-4)
#define XEN_PCI_ERR_op_failed		(-5)

/* MSI-X entries one op carries. */
#define SH_INFO_MAX_VEC			128

/**
 * struct xen_msix_entry - one MSI-X vector
 * @vector: the vector (or pirq) the backend gave it
 * @entry: the index in the device's MSI-X table
 */
struct xen_msix_entry {
	u16 vector;
	u16 entry;
};

/**
 * struct xen_pci_op - one operation of the guest's
 * @cmd: XEN_PCI_OP_*
 * @err: XEN_PCI_ERR_*, set by the backend
 * @domain: the device's PCI segment
 * @bus: its bus
 * @devfn: its device and function
 * @offset: in config space
 * @size: bytes to read or write (1, 2 or 4)
 * @value: what was read, or what to write; for MSI, the vector given
 * @info: for multi-vector MSI, how many vectors
 * @msix_entries: for MSI-X, the entries asked for and the vectors given
 */
struct xen_pci_op {
	u32 cmd;
	s32 err;
	u32 domain;
	u32 bus;
	u32 devfn;
	s32 offset;
	s32 size;
	u32 value;
	u32 info;
	struct xen_msix_entry msix_entries[SH_INFO_MAX_VEC];
};

/**
 * struct xen_pcie_aer_op - one AER operation of the backend's
 * @cmd: XEN_PCI_OP_aer_*
 * @err: the pci_ers_result the guest's driver gave, set by the guest
 * @domain: the device's PCI segment
 * @bus: its bus
 * @devfn: its device and function
 */
struct xen_pcie_aer_op {
	u32 cmd;
	s32 err;
	u32 domain;
	u32 bus;
	u32 devfn;
};

/**
 * struct xen_pci_sharedinfo - the shared page
 * @flags: XEN_PCIF_* and XEN_PCIB_* bits
 * @op: the guest's operation
 * @aer_op: the backend's operation
 */
struct xen_pci_sharedinfo {
	u32 flags;
	struct xen_pci_op op;
	struct xen_pcie_aer_op aer_op;
};

#endif /* _XEN_INTERFACE_IO_PCIIF_H */
