// SPDX-License-Identifier: GPL-2.0
/*
 * The IO-APICs of a PV dom0: Xen's, but known to dom0's ACPI.
 *
 * Xen owns the IO-APICs.  It programs every pin (for dom0 on request:
 * PHYSDEVOP_setup_gsi, arch/x86/pci/xen.c) and keeps their pages out of
 * dom0's reach.  A PV kernel never runs the generic IO-APIC setup, and
 * it hides the local APIC, so the generic ACPI code registers no IO-APIC
 * and routes interrupts in PIC mode: the firmware's _PRT then names ISA
 * IRQs through its link devices.  A machine whose PCI lines reach only
 * IO-APIC pins above 15 (QEMU's q35, most real ones) has no such route.
 *
 * So dom0 registers the IO-APICs the MADT lists with the generic code
 * as the firmware describes them, reading their id, version and size
 * through Xen (PHYSDEVOP_apic_read) while their fixmap slots hold a
 * page of its own (mmu_pv.c), records the MADT's ISA IRQs as the
 * generic code's interrupt sources, and puts ACPI in APIC mode: ACPI
 * evaluates \_PIC(1), its _PRT gives GSIs, and each GSI it hands out
 * goes through Xen as before.  The generic code reads these tables
 * (the SCI's trigger and polarity, a GSI's IO-APIC) but never programs
 * a pin.  noapic or acpi=noirq keep PIC mode.
 *
 * The MADT's ISA IRQs are read here in either mode, for the pirqs
 * arch/x86/pci/xen.c gives them (xen_dom0_isa_irq()).
 */
#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <asm/io_apic.h>
#include <asm/irqdomain.h>
#include <asm/mpspec.h>
#include <asm/x86_init.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/interface/physdev.h>

#include "ioapic_dom0.h"
#include "xen-ops.h"

/* The bus number the ISA IRQs' sources are recorded on. */
#define XEN_ISA_BUS	0
/* The SCI's number on a platform that has none. */
#define XEN_NO_SCI	U32_MAX

/* The MADT's word on the ISA IRQs and the SCI. */
static struct xen_isa_table xen_isa_table __initdata;

/*
 * x86_apic_ops.io_apic_read: Xen reads the register for dom0.  A
 * refusal reads as all ones, as an IO-APIC that is not there does, so
 * that the generic code does not register it.
 */
static unsigned int xen_io_apic_read(unsigned int apic, unsigned int reg)
{
	struct physdev_apic op = {
		.apic_physbase = mpc_ioapic_addr(apic),
		.reg = reg,
	};

	if (HYPERVISOR_physdev_op(PHYSDEVOP_apic_read, &op))
		return ~0U;
	return op.value;
}

static int __init xen_madt_ioapic(union acpi_subtable_headers *header,
				  const unsigned long end)
{
	struct acpi_madt_io_apic *entry = (struct acpi_madt_io_apic *)header;
	struct ioapic_domain_cfg cfg = { .type = IOAPIC_DOMAIN_DYNAMIC };
	DECLARE_BITMAP(used, 256) = { 0 };
	unsigned int id = entry->id;
	int i;

	if (BAD_MADT_ENTRY(entry, end))
		return -EINVAL;
	/*
	 * Two IO-APICs of one id (bad firmware) would have the generic code
	 * write a new id into one and check it took; Xen keeps the IO-APICs
	 * from dom0, so the id is chosen here, to name it to the kernel.
	 */
	for (i = 0; i < nr_ioapics; i++)
		__set_bit(mpc_ioapic_id(i), used);
	if (test_bit(id, used))
		id = find_first_zero_bit(used, 256);
	/* The domain config is for irq domains, which only setup makes. */
	if (id > U8_MAX || mp_register_ioapic(id, entry->address,
					      entry->global_irq_base, &cfg))
		pr_warn("xen: IO-APIC %u at %#x not registered\n", entry->id,
			entry->address);
	return 0;
}

/**
 * xen_isa_table_reset() - the ISA IRQs before the MADT has its say
 * @t: the table
 * @sci: the SCI's interrupt, as the FADT gives it
 *
 * Each ISA IRQ is the GSI of its number, edge-triggered and active high
 * (the ISA bus's way), but the SCI, level-triggered and active low (the
 * ACPI way).
 */
void xen_isa_table_reset(struct xen_isa_table *t, u32 sci)
{
	unsigned int isa;

	for (isa = 0; isa < NR_IRQS_LEGACY; isa++)
		t->isa[isa] = (struct xen_isa_irq){
			.gsi = isa,
			.level = isa == sci,
			.active_low = isa == sci,
		};
	t->sci_nr = sci;
	t->sci_high = (struct xen_isa_irq){ .gsi = sci, .level = true,
					    .active_low = true };
	t->overridden = 0;
	t->shadowed = 0;
}

/**
 * xen_isa_table_sci() - the SCI's GSI, trigger and polarity
 * @t: the table
 *
 * Return: the SCI's entry: its ISA IRQ's, or past those its own.
 */
struct xen_isa_irq *xen_isa_table_sci(struct xen_isa_table *t)
{
	return t->sci_nr < NR_IRQS_LEGACY ? &t->isa[t->sci_nr] : &t->sci_high;
}

/**
 * xen_isa_table_override() - take in an Interrupt Source Override
 * @t: the table
 * @bus: the override's bus (0, ISA: any other is ignored)
 * @source: the IRQ it moves
 * @gsi: where to
 * @flags: its INTI flags; flags that conform to the bus keep the
 *	defaults
 */
void xen_isa_table_override(struct xen_isa_table *t, u8 bus, u8 source,
			    u32 gsi, u16 flags)
{
	u16 polarity = flags & ACPI_MADT_POLARITY_MASK;
	u16 trigger = flags & ACPI_MADT_TRIGGER_MASK;
	struct xen_isa_irq *irq;

	if (bus)
		return;
	if (source < NR_IRQS_LEGACY)
		irq = &t->isa[source];
	else if (source == t->sci_nr)
		irq = &t->sci_high;
	else
		return;
	irq->gsi = gsi;
	/* The reserved values count as level and low, as the kernel's do. */
	if (trigger != ACPI_MADT_TRIGGER_CONFORMS)
		irq->level = trigger != ACPI_MADT_TRIGGER_EDGE;
	if (polarity != ACPI_MADT_POLARITY_CONFORMS)
		irq->active_low = polarity != ACPI_MADT_POLARITY_ACTIVE_HIGH;
	if (source < NR_IRQS_LEGACY)
		t->overridden |= BIT(source);
}

/**
 * xen_isa_table_settle() - find the IRQs an override took the pin of
 * @t: the table, with every override in
 *
 * An ISA IRQ the MADT does not override, whose pin an override gave
 * another IRQ (IRQ 0 to pin 2), has no line.
 */
void xen_isa_table_settle(struct xen_isa_table *t)
{
	unsigned int isa;
	u32 gsi;

	for (isa = 0; isa < NR_IRQS_LEGACY; isa++) {
		gsi = t->isa[isa].gsi;
		if ((t->overridden & BIT(isa)) && gsi != isa &&
		    gsi < NR_IRQS_LEGACY && !(t->overridden & BIT(gsi)))
			t->shadowed |= BIT(gsi);
	}
}

static int __init xen_madt_isa_override(union acpi_subtable_headers *header,
					const unsigned long end)
{
	struct acpi_madt_interrupt_override *iso =
		(struct acpi_madt_interrupt_override *)header;

	if (BAD_MADT_ENTRY(iso, end))
		return -EINVAL;
	xen_isa_table_override(&xen_isa_table, iso->bus, iso->source_irq,
			       iso->global_irq, iso->inti_flags);
	return 0;
}

static void __init xen_read_isa_irqs(void)
{
	/* A hardware-reduced platform has no SCI. */
	xen_isa_table_reset(&xen_isa_table, acpi_gbl_reduced_hardware ?
			    XEN_NO_SCI : acpi_gbl_FADT.sci_interrupt);
	acpi_table_parse_madt(ACPI_MADT_TYPE_INTERRUPT_OVERRIDE,
			      xen_madt_isa_override, 0);
	xen_isa_table_settle(&xen_isa_table);
}

/**
 * xen_dom0_isa_irq() - what the firmware says of an ISA IRQ
 * @isa: the ISA IRQ, below 16
 * @irq: out: its GSI, trigger and polarity
 *
 * Return: false when the IRQ has no line: an override moved another
 * IRQ to its pin.
 */
bool __init xen_dom0_isa_irq(unsigned int isa, struct xen_isa_irq *irq)
{
	if (isa >= NR_IRQS_LEGACY)
		return false;
	*irq = xen_isa_table.isa[isa];
	return !(xen_isa_table.shadowed & BIT(isa));
}

/* One interrupt source of the generic code: @nr's pin, if an IO-APIC's. */
static void __init xen_save_source(unsigned int nr,
				   const struct xen_isa_irq *irq)
{
	struct mpc_intsrc src = {
		.type = MP_INTSRC,
		.irqtype = mp_INT,
		.irqflag = (irq->active_low ? MP_IRQPOL_ACTIVE_LOW :
					      MP_IRQPOL_ACTIVE_HIGH) |
			   (irq->level ? MP_IRQTRIG_LEVEL : MP_IRQTRIG_EDGE),
		.srcbus = XEN_ISA_BUS,
		.srcbusirq = nr,
	};
	int ioapic = mp_find_ioapic(irq->gsi);
	int pin = ioapic < 0 ? -1 : mp_find_ioapic_pin(ioapic, irq->gsi);

	if (pin < 0)
		return;
	src.dstapic = mpc_ioapic_id(ioapic);
	src.dstirq = pin;
	mp_save_irq(&src);
}

/*
 * Record each ISA IRQ's pin, and the SCI's, as the generic code's
 * interrupt sources: it finds the SCI's trigger and polarity there.
 */
static void __init xen_save_isa_sources(void)
{
	struct xen_isa_irq irq;
	unsigned int isa;

	set_bit(XEN_ISA_BUS, mp_bus_not_pci);
	for (isa = 0; isa < NR_IRQS_LEGACY; isa++)
		if (xen_dom0_isa_irq(isa, &irq))
			xen_save_source(isa, &irq);
	/* An SCI past the ISA IRQs, as the MP table can name it. */
	if (xen_isa_table.sci_nr >= NR_IRQS_LEGACY &&
	    xen_isa_table.sci_nr <= U8_MAX)
		xen_save_source(xen_isa_table.sci_nr, &xen_isa_table.sci_high);
}

/**
 * xen_dom0_ioapic_init() - make Xen's IO-APICs known and ACPI's mode APIC
 *
 * Called by a PV dom0 while the generic code takes in the firmware's
 * SMP and interrupt configuration, once ACPI's tables are read.
 */
void __init xen_dom0_ioapic_init(void)
{
	if (acpi_disabled)
		return;
	xen_read_isa_irqs();
	if (acpi_noirq || ioapic_is_disabled)
		return;
	x86_apic_ops.io_apic_read = xen_io_apic_read;
	/* Xen, not dom0, puts the IO-APICs back for a kexec or reboot. */
	x86_apic_ops.restore = x86_init_noop;
	acpi_table_parse_madt(ACPI_MADT_TYPE_IO_APIC, xen_madt_ioapic,
			      MAX_IO_APICS);
	if (!nr_ioapics) {
		pr_info("xen: no IO-APIC registered: ACPI routes in PIC mode\n");
		return;
	}
	xen_save_isa_sources();
	acpi_irq_model = ACPI_IRQ_MODEL_IOAPIC;
	/*
	 * As the kernel's own MADT parse does: ACPI takes the SCI by the
	 * GSI an override gives it, and keeps PCI links off the SCI's IRQ
	 * unless they would share it as it is (level, low), since Xen sets
	 * a pin up once, for whoever comes first.
	 */
	acpi_ioapic = 1;
	if (xen_isa_table.sci_nr != XEN_NO_SCI) {
		const struct xen_isa_irq *sci = xen_isa_table_sci(&xen_isa_table);

		acpi_sci_override_gsi = sci->gsi;
		acpi_penalize_sci_irq(xen_isa_table.sci_nr,
				      sci->level ? ACPI_MADT_TRIGGER_LEVEL :
						   ACPI_MADT_TRIGGER_EDGE,
				      sci->active_low ?
				      ACPI_MADT_POLARITY_ACTIVE_LOW :
				      ACPI_MADT_POLARITY_ACTIVE_HIGH);
	}
	pr_info("xen: %d IO-APIC(s), Xen's: ACPI routes in APIC mode\n",
		nr_ioapics);
}
