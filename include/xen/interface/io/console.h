/* SPDX-License-Identifier: MIT */
/*
 * The PV console ring: one shared page holding an input ring (backend to
 * guest) and an output ring (guest to backend), each with free-running
 * 32-bit indices; the consumer of a ring owns its cons index, the producer
 * its prod index.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_CONSOLE_H
#define _XEN_INTERFACE_IO_CONSOLE_H

#include <linux/types.h>

typedef u32 XENCONS_RING_IDX;

/* The slot of free-running index @idx in @ring (a power-of-two array). */
#define MASK_XENCONS_IDX(idx, ring)	((idx) & (sizeof(ring) - 1))

/**
 * struct xencons_interface - the console page
 * @in: input ring, filled by the backend
 * @out: output ring, filled by the guest
 * @in_cons: input consumed by the guest
 * @in_prod: input produced by the backend
 * @out_cons: output consumed by the backend
 * @out_prod: output produced by the guest
 */
struct xencons_interface {
	char in[1024];
	char out[2048];
	XENCONS_RING_IDX in_cons;
	XENCONS_RING_IDX in_prod;
	XENCONS_RING_IDX out_cons;
	XENCONS_RING_IDX out_prod;
};

#endif /* _XEN_INTERFACE_IO_CONSOLE_H */
