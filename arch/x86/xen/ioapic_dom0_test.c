// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of a PV dom0's ISA IRQ table (ioapic_dom0.c): pure, so
 * they run in any guest of a kernel with CONFIG_XEN_DOM0, CONFIG_ACPI
 * and CONFIG_XEN_KUNIT_TEST.
 */
#include <kunit/test.h>
#include <linux/acpi.h>

#include "ioapic_dom0.h"

#define LEVEL_HIGH	(ACPI_MADT_TRIGGER_LEVEL | ACPI_MADT_POLARITY_ACTIVE_HIGH)
#define LEVEL_LOW	(ACPI_MADT_TRIGGER_LEVEL | ACPI_MADT_POLARITY_ACTIVE_LOW)

static void isa_expect(struct kunit *test, const struct xen_isa_irq *irq,
		       u32 gsi, bool level, bool active_low)
{
	KUNIT_EXPECT_EQ(test, irq->gsi, gsi);
	KUNIT_EXPECT_EQ(test, irq->level, level);
	KUNIT_EXPECT_EQ(test, irq->active_low, active_low);
}

/* QEMU's MADT (pc and q35): IRQ 0 on pin 2, 5, 9, 10, 11 level high. */
static void isa_table_qemu_test(struct kunit *test)
{
	static const u8 pci[] = { 5, 9, 10, 11 };
	struct xen_isa_table t;
	unsigned int i;

	xen_isa_table_reset(&t, 9);
	xen_isa_table_override(&t, 0, 0, 2, 0);
	for (i = 0; i < ARRAY_SIZE(pci); i++)
		xen_isa_table_override(&t, 0, pci[i], pci[i], LEVEL_HIGH);
	xen_isa_table_settle(&t);

	isa_expect(test, &t.isa[0], 2, false, false);
	KUNIT_EXPECT_EQ(test, t.shadowed, BIT(2));
	isa_expect(test, &t.isa[4], 4, false, false);
	isa_expect(test, &t.isa[9], 9, true, false);
	isa_expect(test, xen_isa_table_sci(&t), 9, true, false);
	isa_expect(test, &t.isa[10], 10, true, false);
	KUNIT_EXPECT_EQ(test, t.overridden, BIT(0) | BIT(5) | BIT(9) |
					    BIT(10) | BIT(11));
}

/* An SCI the MADT does not name, or names with conforming flags. */
static void isa_table_sci_default_test(struct kunit *test)
{
	struct xen_isa_table t;

	xen_isa_table_reset(&t, 9);
	xen_isa_table_settle(&t);
	isa_expect(test, &t.isa[9], 9, true, true);
	isa_expect(test, xen_isa_table_sci(&t), 9, true, true);
	isa_expect(test, &t.isa[8], 8, false, false);
	KUNIT_EXPECT_EQ(test, t.shadowed, 0);

	xen_isa_table_reset(&t, 9);
	xen_isa_table_override(&t, 0, 9, 9, 0);
	xen_isa_table_override(&t, 0, 8, 8, ACPI_MADT_POLARITY_ACTIVE_LOW);
	xen_isa_table_settle(&t);
	isa_expect(test, &t.isa[9], 9, true, true);
	/* Only the polarity given: edge stays. */
	isa_expect(test, &t.isa[8], 8, false, true);

	/* The reserved values are level and low. */
	xen_isa_table_reset(&t, 9);
	xen_isa_table_override(&t, 0, 7, 7, ACPI_MADT_TRIGGER_RESERVED |
					    ACPI_MADT_POLARITY_RESERVED);
	isa_expect(test, &t.isa[7], 7, true, true);
}

/* An SCI moved to a pin past the ISA ones, and one past them anyway. */
static void isa_table_sci_high_test(struct kunit *test)
{
	struct xen_isa_table t;

	xen_isa_table_reset(&t, 9);
	xen_isa_table_override(&t, 0, 9, 20, LEVEL_LOW);
	xen_isa_table_settle(&t);
	isa_expect(test, &t.isa[9], 20, true, true);
	isa_expect(test, xen_isa_table_sci(&t), 20, true, true);
	KUNIT_EXPECT_EQ(test, t.shadowed, 0);

	xen_isa_table_reset(&t, 21);
	xen_isa_table_override(&t, 0, 21, 21, LEVEL_HIGH);
	xen_isa_table_settle(&t);
	isa_expect(test, xen_isa_table_sci(&t), 21, true, false);
	/* No ISA IRQ is the SCI then. */
	isa_expect(test, &t.isa[9], 9, false, false);
	KUNIT_EXPECT_EQ(test, t.overridden, 0);
}

/* Overrides that swap two pins shadow neither; other buses are not ISA. */
static void isa_table_swap_test(struct kunit *test)
{
	struct xen_isa_table t;

	xen_isa_table_reset(&t, 9);
	xen_isa_table_override(&t, 0, 0, 2, 0);
	xen_isa_table_override(&t, 0, 2, 0, 0);
	xen_isa_table_override(&t, 1, 4, 7, LEVEL_HIGH);
	xen_isa_table_override(&t, 0, 3, 6, 0);
	xen_isa_table_settle(&t);
	isa_expect(test, &t.isa[2], 0, false, false);
	isa_expect(test, &t.isa[4], 4, false, false);
	isa_expect(test, &t.isa[3], 6, false, false);
	/* IRQ 6's pin went to IRQ 3: 6 has no line. */
	KUNIT_EXPECT_EQ(test, t.shadowed, BIT(6));
}

static struct kunit_case isa_table_cases[] = {
	KUNIT_CASE(isa_table_qemu_test),
	KUNIT_CASE(isa_table_sci_default_test),
	KUNIT_CASE(isa_table_sci_high_test),
	KUNIT_CASE(isa_table_swap_test),
	{}
};

static struct kunit_suite isa_table_suite = {
	.name = "xen_dom0_isa_table",
	.test_cases = isa_table_cases,
};

kunit_test_suite(isa_table_suite);
