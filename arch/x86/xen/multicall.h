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
 * @XEN_MC_NR_REASONS: number of reasons
 */
enum xen_mc_reason {
	XEN_MC_FULL,
	XEN_MC_LAZY,
	XEN_MC_SYNC,
	XEN_MC_NR_REASONS,
};

int xen_mcb_send(struct xen_mcb *b, enum xen_mc_reason why);

#endif /* _XEN_MULTICALL_H */
