/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sending a batch of hypercalls (mcb.h) to Xen as one multicall, with
 * counters a performance engineer can read in debugfs xen/multicall.
 */
#ifndef _XEN_MULTICALL_H
#define _XEN_MULTICALL_H

#include "mcb.h"

/**
 * enum xen_mc_reason - why a batch was sent
 * @XEN_MC_FULL: the next request did not fit
 * @XEN_MC_LAZY: the end of a lazy MMU section
 * @XEN_MC_SYNC: someone needs the updates done now
 * @XEN_MC_UNLOCK: the page-table lock the updates were made under is
 *	being released
 * @XEN_MC_SWITCH: the end of a context switch (segment bases and the
 *	kernel stack of the next task)
 * @XEN_MC_NR_REASONS: number of reasons
 */
enum xen_mc_reason {
	XEN_MC_FULL,
	XEN_MC_LAZY,
	XEN_MC_SYNC,
	XEN_MC_UNLOCK,
	XEN_MC_SWITCH,
	XEN_MC_NR_REASONS,
};

/**
 * enum xen_mc_direct - page-table hypercalls made on their own (through
 *	xen_mc_mmu_update() and friends, which count them)
 * @XEN_MC_DIRECT_MMU: mmu_update
 * @XEN_MC_DIRECT_EXT: mmuext_op (TLB flushes, cr3, pins)
 * @XEN_MC_DIRECT_VA: update_va_mapping
 * @XEN_MC_NR_DIRECT: number of kinds
 */
enum xen_mc_direct {
	XEN_MC_DIRECT_MMU,
	XEN_MC_DIRECT_EXT,
	XEN_MC_DIRECT_VA,
	XEN_MC_NR_DIRECT,
};

int xen_mcb_send(struct xen_mcb *b, enum xen_mc_reason why);
int xen_mc_mmu_update(const struct mmu_update *req, unsigned int n);
int xen_mc_mmuext_op(const struct mmuext_op *op, unsigned int n);
int xen_mc_va_mapping(unsigned long va, u64 val, unsigned long flags);

#endif /* _XEN_MULTICALL_H */
