// SPDX-License-Identifier: GPL-2.0
/*
 * PCI and interrupt glue for Xen guests.
 *
 * Built whenever Xen and PCI are (PCI_XEN).  A PVH or PV domU owns no PCI
 * device that needs Xen's help: its devices are paravirtual.
 *
 * A PV dom0 drives the machine's devices, but Xen owns the interrupt
 * controllers: dom0 must not touch the IO-APIC, the local APIC or the
 * PIC.  A device's line (a GSI) reaches dom0 as a physical IRQ (pirq)
 * that Xen delivers as an event.  For each GSI, dom0 tells Xen the
 * trigger and polarity the firmware gives (PHYSDEVOP_setup_gsi; Xen
 * programs the IO-APIC pin) and has Xen map it to the pirq of the same
 * number (PHYSDEVOP_map_pirq); the event core gives that pirq an irq,
 * also of the same number, and binds its event channel when a driver
 * requests the irq.
 *
 * ACPI routes interrupts in APIC mode when dom0 registered Xen's
 * IO-APICs (arch/x86/xen/ioapic_dom0.c), in PIC mode otherwise; either
 * way each GSI keeps its number as the irq, and every GSI ACPI hands out
 * (the SCI, the PCI lines) goes through xen_acpi_register_gsi().
 *
 * MSI and MSI-X are Xen's to program too: for each vector dom0 asks Xen
 * for a pirq (PHYSDEVOP_map_pirq of an MSI type, which requires that
 * dom0 named the device to Xen first: drivers/xen/pci.c), and Xen writes
 * the message and keeps the MSI-X table read-only to dom0.  The generic
 * PCI code still sets the enable bits, which Xen lets dom0 write.  The
 * kernel sees this as an MSI irq domain whose allocation maps pirqs and
 * whose vectors it never masks itself (MSI_FLAG_NO_MASK): an event
 * channel masked is the vector masked.
 */
#include <linux/acpi.h>
#include <linux/init.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/msi.h>
#include <linux/pci.h>
#include <linux/printk.h>
#include <linux/string_choices.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/interface/physdev.h>
#include <xen/xen.h>

/**
 * xen_register_gsi() - give a GSI an irq through Xen
 * @gsi: the GSI
 * @level: level-triggered (else edge)
 * @active_low: active low (else high)
 * @want_irq: the irq number drivers will ask for
 *
 * Xen refuses a second setup of a pin it or dom0 set up before
 * (-EEXIST): the first one stands.
 *
 * Return: the irq, or a negative errno.
 */
static int xen_register_gsi(u32 gsi, bool level, bool active_low,
			    unsigned int want_irq)
{
	struct physdev_setup_gsi setup = {
		.gsi = gsi,
		.triggering = level,
		.polarity = active_low,
	};
	struct physdev_map_pirq map = {
		.domid = DOMID_SELF,
		.type = MAP_PIRQ_TYPE_GSI,
		.index = gsi,
		.pirq = gsi,
	};
	int rc;

	rc = HYPERVISOR_physdev_op(PHYSDEVOP_setup_gsi, &setup);
	if (rc && rc != -EEXIST) {
		pr_warn("xen: GSI %u (%s, active %s) refused by Xen: %d\n",
			gsi, level ? "level" : "edge",
			str_low_high(active_low), rc);
		return rc;
	}
	rc = HYPERVISOR_physdev_op(PHYSDEVOP_map_pirq, &map);
	if (rc) {
		pr_warn("xen: GSI %u has no pirq: %d\n", gsi, rc);
		return rc;
	}
	return xen_pirq_to_irq(map.pirq, want_irq, level,
			       level ? "ioapic-level" : "ioapic-edge");
}

static int xen_acpi_register_gsi(struct device *dev, u32 gsi, int trigger,
				 int polarity)
{
	return xen_register_gsi(gsi, trigger == ACPI_LEVEL_SENSITIVE,
				polarity == ACPI_ACTIVE_LOW, gsi);
}

/*
 * The ISA IRQs: drivers request them by number (the SCI, serial ports,
 * IDE), so each gets its irq up front.  IRQ 0 is Xen's timer and 2 the
 * cascade; neither is dom0's.
 */
static void __init xen_register_isa_irqs(void)
{
	struct xen_isa_irq isa;
	unsigned int i, done = 0;
	int irq;

	for (i = 1; i < NR_IRQS_LEGACY; i++) {
		if (i == 2 || !xen_dom0_isa_irq(i, &isa) || isa.gsi == 0 ||
		    isa.gsi == 2)
			continue;
		irq = xen_register_gsi(isa.gsi, isa.level, isa.active_low, i);
		if (irq >= 0)
			done++;
	}
	pr_info("xen: %u ISA IRQs routed through Xen\n", done);
}

#ifdef CONFIG_PCI_MSI
/* The start of the BAR that holds @dev's MSI-X table: Xen's table_base. */
static u64 xen_msix_table_base(struct pci_dev *dev)
{
	u32 table;

	pci_read_config_dword(dev, dev->msix_cap + PCI_MSIX_TABLE, &table);
	return pci_resource_start(dev, table & PCI_MSIX_TABLE_BIR);
}

/* An MSI whose vectors cannot be masked: Xen waits for PHYSDEVOP_eoi. */
static bool xen_msi_needs_eoi(struct pci_dev *dev)
{
	u16 flags;

	pci_read_config_word(dev, dev->msi_cap + PCI_MSI_FLAGS, &flags);
	return !(flags & PCI_MSI_FLAGS_MASKBIT);
}

/**
 * xen_initdom_restore_msi() - restore a device's MSI state after a reset
 * @dev: the device
 *
 * In dom0, Xen wrote the messages and holds the MSI-X table, so Xen
 * writes them again (PHYSDEVOP_restore_msi_ext).
 *
 * Return: true when the caller is to restore the state natively (not
 * dom0), false when Xen did.
 */
bool xen_initdom_restore_msi(struct pci_dev *dev)
{
	struct physdev_pci_device restore = {
		.seg = pci_domain_nr(dev->bus),
		.bus = dev->bus->number,
		.devfn = dev->devfn,
	};
	int rc;

	if (!xen_pv_domain() || !xen_initial_domain())
		return true;
	rc = HYPERVISOR_physdev_op(PHYSDEVOP_restore_msi_ext, &restore);
	if (rc)
		pci_warn(dev, "Xen did not restore its MSI state: %d\n", rc);
	return false;
}

/* Give Xen's pirq for one vector back. */
static void xen_msi_unmap(struct pci_dev *dev, unsigned int pirq)
{
	struct physdev_unmap_pirq unmap = {
		.domid = DOMID_SELF,
		.pirq = pirq,
	};
	int rc = HYPERVISOR_physdev_op(PHYSDEVOP_unmap_pirq, &unmap);

	if (rc)
		pci_warn(dev, "Xen would not unmap pirq %u: %d\n", pirq, rc);
}

static void xen_msi_free_irqs(struct irq_domain *domain, struct device *d)
{
	struct pci_dev *dev = to_pci_dev(d);
	struct msi_desc *desc;
	unsigned int pirq;

	msi_device_destroy_sysfs(d);
	msi_for_each_desc(desc, d, MSI_DESC_ASSOCIATED) {
		pirq = xen_pirq_from_irq(desc->irq);
		xen_pirq_free_irq(desc->irq);
		desc->irq = 0;
		if (pirq)
			xen_msi_unmap(dev, pirq);
	}
}

/* A pirq, and an irq for it, for each vector the PCI code set up. */
static int xen_msi_alloc_irqs(struct irq_domain *domain, struct device *d,
			      int nvec)
{
	struct pci_dev *dev = to_pci_dev(d);
	struct msi_desc *desc;
	bool msix;
	int irq, rc;

	msi_for_each_desc(desc, d, MSI_DESC_NOTASSOCIATED) {
		struct physdev_map_pirq map = {
			.domid = DOMID_SELF,
			.type = MAP_PIRQ_TYPE_MSI_SEG,
			.index = -1,
			.pirq = -1,
			.bus = dev->bus->number |
			       (pci_domain_nr(dev->bus) << 16),
			.devfn = dev->devfn,
		};

		msix = desc->pci.msi_attrib.is_msix;
		if (msix) {
			map.entry_nr = desc->msi_index;
			map.table_base = xen_msix_table_base(dev);
		} else {
			map.entry_nr = 1;
		}
		rc = HYPERVISOR_physdev_op(PHYSDEVOP_map_pirq, &map);
		if (rc) {
			pci_warn(dev, "Xen gave no pirq for MSI%s vector %u: %d\n",
				 msix ? "-X" : "", desc->msi_index, rc);
			goto fail;
		}
		irq = xen_pirq_msi_to_irq(map.pirq,
					  !msix && xen_msi_needs_eoi(dev),
					  msix ? "msi-x" : "msi");
		if (irq < 0) {
			rc = irq;
			xen_msi_unmap(dev, map.pirq);
			goto fail;
		}
		rc = irq_set_msi_desc(irq, desc);
		if (rc) {
			xen_pirq_free_irq(irq);
			xen_msi_unmap(dev, map.pirq);
			goto fail;
		}
	}
	/* /sys/bus/pci/devices/<dev>/msi_irqs, as irqbalance reads it. */
	rc = msi_device_populate_sysfs(d);
	if (!rc)
		return 0;
fail:
	xen_msi_free_irqs(domain, d);
	return rc;
}

static struct msi_domain_ops xen_msi_ops = {
	.domain_alloc_irqs = xen_msi_alloc_irqs,
	.domain_free_irqs = xen_msi_free_irqs,
};

static struct msi_domain_info xen_msi_info = {
	.flags = MSI_FLAG_PCI_MSIX | MSI_FLAG_FREE_MSI_DESCS |
		 MSI_FLAG_DEV_SYSFS | MSI_FLAG_NO_MASK,
	.ops = &xen_msi_ops,
};

/**
 * xen_pv_msi_domain() - the MSI domain of a PV guest's PCI devices
 *
 * x86_init.irqs.create_pci_msi_domain of a PV guest.
 *
 * Return: a domain whose vectors are pirqs (dom0), or NULL: a PV domU
 * drives no PCI device.
 */
struct irq_domain * __init xen_pv_msi_domain(void)
{
	struct fwnode_handle *fn;
	struct irq_domain *d;

	if (!xen_initial_domain())
		return NULL;
	fn = irq_domain_alloc_named_fwnode("XEN-MSI");
	if (!fn)
		return NULL;
	d = msi_create_irq_domain(fn, &xen_msi_info, NULL);
	if (!d) {
		irq_domain_free_fwnode(fn);
		pr_warn("xen: no MSI domain: devices use their lines\n");
	}
	return d;
}
#endif /* CONFIG_PCI_MSI */

static int __init xen_pci_dom0_init(void)
{
	if (!xen_pv_domain() || !xen_initial_domain())
		return 0;
	__acpi_register_gsi = xen_acpi_register_gsi;
	__acpi_unregister_gsi = NULL;
	if (!acpi_disabled)
		xen_register_isa_irqs();
	return 0;
}

/* Before ACPI's interpreter (subsys_initcall) installs the SCI. */
arch_initcall(xen_pci_dom0_init);
