/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MADT's word on a PV dom0's ISA IRQs (ioapic_dom0.c): pure, for
 * its KUnit test.
 */
#ifndef _XEN_IOAPIC_DOM0_H
#define _XEN_IOAPIC_DOM0_H

#include <linux/types.h>
#include <asm/irq_vectors.h>
#include <asm/xen/hypervisor.h>

/**
 * struct xen_isa_table - the ISA IRQs and the SCI, as the MADT says
 * @isa: each ISA IRQ's GSI, trigger and polarity
 * @sci_high: the SCI's, when it is past the ISA IRQs
 *	(xen_isa_table_sci() gives it either way)
 * @sci_nr: the SCI's interrupt, as the FADT gives it
 * @overridden: the ISA IRQs an override names, a bit each
 * @shadowed: the ISA IRQs that have no line: an override gave their
 *	pin to another IRQ
 */
struct xen_isa_table {
	struct xen_isa_irq isa[NR_IRQS_LEGACY];
	struct xen_isa_irq sci_high;
	u32 sci_nr;
	u16 overridden;
	u16 shadowed;
};

void xen_isa_table_reset(struct xen_isa_table *t, u32 sci);
struct xen_isa_irq *xen_isa_table_sci(struct xen_isa_table *t);
void xen_isa_table_override(struct xen_isa_table *t, u8 bus, u8 source,
			    u32 gsi, u16 flags);
void xen_isa_table_settle(struct xen_isa_table *t);

#endif /* _XEN_IOAPIC_DOM0_H */
