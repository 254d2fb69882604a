// SPDX-License-Identifier: GPL-2.0
/*
 * A PV dom0 tells Xen of each PCI device it finds.
 *
 * Xen scans the bus only when it drives an IOMMU; without one (as in the
 * harness's emulator) it knows no device until dom0 names it.  It must
 * know a device before it maps the device's MSI or MSI-X vectors: it
 * reads the capability itself then, and programs the messages.  So every
 * device added to the PCI bus goes to Xen (PHYSDEVOP_pci_device_add, in
 * every Xen since 4.2), before any driver binds, and leaves it when
 * removed.  Xen takes a device it knows already as it is.
 */
#include <linux/init.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/physdev.h>
#include <xen/xen.h>

static int xen_pci_add(struct pci_dev *dev)
{
	struct physdev_pci_device_add add = {
		.seg = pci_domain_nr(dev->bus),
		.bus = dev->bus->number,
		.devfn = dev->devfn,
	};

#ifdef CONFIG_PCI_IOV
	if (dev->is_virtfn) {
		add.flags |= XEN_PCI_DEV_VIRTFN;
		add.physfn.bus = dev->physfn->bus->number;
		add.physfn.devfn = dev->physfn->devfn;
	}
#endif
	if (pci_ari_enabled(dev->bus) && PCI_SLOT(dev->devfn))
		add.flags |= XEN_PCI_DEV_EXTFN;
	return HYPERVISOR_physdev_op(PHYSDEVOP_pci_device_add, &add);
}

static int xen_pci_remove(struct pci_dev *dev)
{
	struct physdev_pci_device del = {
		.seg = pci_domain_nr(dev->bus),
		.bus = dev->bus->number,
		.devfn = dev->devfn,
	};

	return HYPERVISOR_physdev_op(PHYSDEVOP_pci_device_remove, &del);
}

static int xen_pci_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct pci_dev *dev = to_pci_dev(data);
	int rc;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		rc = xen_pci_add(dev);
		if (rc)
			pci_warn(dev, "Xen does not know this device (%d): no MSI for it\n",
				 rc);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		rc = xen_pci_remove(dev);
		if (rc)
			pci_warn(dev, "Xen would not forget this device: %d\n",
				 rc);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block xen_pci_nb = {
	.notifier_call = xen_pci_notify,
};

static int __init xen_pci_notifier_init(void)
{
	if (!xen_initial_domain() || !xen_pv_domain())
		return 0;
	return bus_register_notifier(&pci_bus_type, &xen_pci_nb);
}

/* Before the bus is scanned (subsys_initcall). */
arch_initcall(xen_pci_notifier_init);
