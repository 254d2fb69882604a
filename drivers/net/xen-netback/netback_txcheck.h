/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netback's check of a packet a frontend sends: pure logic, no hypercall,
 * tested by KUnit (netback_txcheck_test.c).
 *
 * A packet is a first slot, whose size is the whole packet's, the extra
 * information slots it announces, and the data slots that follow while
 * a slot says more_data.  The slots are copied out of the ring once, by
 * the caller, and only the copies are checked and used.
 */
#ifndef _XEN_NETBACK_TXCHECK_H
#define _XEN_NETBACK_TXCHECK_H

#include <linux/types.h>
#include <xen/interface/io/netif.h>

/*
 * Slots of data a packet may use: more are dropped; from
 * NETBACK_FATAL_SLOTS on, the frontend is broken.
 */
#define NETBACK_MAX_SLOTS	XEN_NETIF_NR_SLOTS_MIN
#define NETBACK_FATAL_SLOTS	20

/**
 * enum netback_tx_verdict - what to do with a packet
 * @NETBACK_TX_OK: pass it on
 * @NETBACK_TX_DROP: answer every slot with an error, pass nothing on
 * @NETBACK_TX_NONSENSE: no frontend sends that: close the device
 */
enum netback_tx_verdict {
	NETBACK_TX_OK,
	NETBACK_TX_DROP,
	NETBACK_TX_NONSENSE,
};

enum netback_tx_verdict netback_tx_check(const struct netif_tx_request *slots,
					 unsigned int nslots,
					 unsigned int *first_len,
					 const char **why);
enum netback_tx_verdict netback_tx_check_extra(const struct netif_extra_info *extra,
					       const char **why);

#endif /* _XEN_NETBACK_TXCHECK_H */
