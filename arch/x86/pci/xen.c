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
 * ACPI routes interrupts in PIC mode here: the IO-APIC stays Xen's, so
 * the kernel registers none, and ACPI's GSIs and the ISA IRQs keep
 * their numbers.  Every GSI ACPI hands out (the SCI, the PCI links) goes
 * through xen_acpi_register_gsi().  MSI comes with a later change.
 */
#include <linux/acpi.h>
#include <linux/init.h>
#include <linux/irq.h>
#include <linux/printk.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/interface/physdev.h>
#include <xen/xen.h>

/* What the firmware says of one ISA IRQ: its GSI and how it triggers. */
struct xen_isa_irq {
	u32 gsi;
	bool level;
	bool active_low;
};

static struct xen_isa_irq xen_isa_irqs[NR_IRQS_LEGACY] __initdata;

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
			active_low ? "low" : "high", rc);
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

/* An Interrupt Source Override of the MADT: an ISA IRQ that is not its pin. */
static int __init xen_parse_isa_override(union acpi_subtable_headers *header,
					 const unsigned long end)
{
	struct acpi_madt_interrupt_override *iso =
		(struct acpi_madt_interrupt_override *)header;
	u16 polarity = iso->inti_flags & ACPI_MADT_POLARITY_MASK;
	u16 trigger = iso->inti_flags & ACPI_MADT_TRIGGER_MASK;
	struct xen_isa_irq *isa;

	if (iso->source_irq >= NR_IRQS_LEGACY)
		return 0;
	isa = &xen_isa_irqs[iso->source_irq];
	isa->gsi = iso->global_irq;
	/* "Conforms to the bus": ISA is edge, active high. */
	isa->level = trigger == ACPI_MADT_TRIGGER_LEVEL;
	isa->active_low = polarity == ACPI_MADT_POLARITY_ACTIVE_LOW;
	return 0;
}

/*
 * The ISA IRQs: drivers request them by number (the SCI, serial ports,
 * IDE), so each gets its irq up front.  IRQ 0 is Xen's timer and 2 the
 * cascade; neither is dom0's.
 */
static void __init xen_register_isa_irqs(void)
{
	unsigned int i, done = 0;
	int irq;

	for (i = 0; i < NR_IRQS_LEGACY; i++)
		xen_isa_irqs[i] = (struct xen_isa_irq){ .gsi = i };
	acpi_table_parse_madt(ACPI_MADT_TYPE_INTERRUPT_OVERRIDE,
			      xen_parse_isa_override, 0);

	for (i = 1; i < NR_IRQS_LEGACY; i++) {
		const struct xen_isa_irq *isa = &xen_isa_irqs[i];

		if (i == 2 || isa->gsi == 0 || isa->gsi == 2)
			continue;
		irq = xen_register_gsi(isa->gsi, isa->level, isa->active_low,
				       i);
		if (irq >= 0)
			done++;
	}
	pr_info("xen: %u ISA IRQs routed through Xen\n", done);
}

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
