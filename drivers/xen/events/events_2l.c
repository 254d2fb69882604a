// SPDX-License-Identifier: GPL-2.0
/*
 * The 2-level event channel ABI: a pending and a mask bit per port in
 * shared_info, and per vCPU a selector word saying which words of the
 * pending bitmap to look at.  Used when Xen offers no FIFO ABI.
 *
 * Xen sets a selector bit on the vCPU a port is bound to, but the words
 * it points at hold ports of every vCPU: each CPU keeps the bitmap of
 * its own ports (evtchn_2l_mine) and handles only those.
 *
 * Locking: none of its own.  The bitmaps in shared_info are changed with
 * atomic bit operations, as Xen changes them concurrently; a CPU's own
 * bitmap is written under the core's binding lock and read by that CPU
 * in its upcall.
 */
#include <linux/bitops.h>
#include <linux/percpu.h>
#include <asm/sync_bitops.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>

#include "events_internal.h"

#define EVTCHN_2L_WORDS		(EVTCHN_2L_NR_CHANNELS / BITS_PER_LONG)

static DEFINE_PER_CPU(unsigned long [EVTCHN_2L_WORDS], evtchn_2l_mine);

static unsigned long *evtchn_2l_pending(void)
{
	return HYPERVISOR_shared_info->evtchn_pending;
}

static unsigned long *evtchn_2l_mask_bits(void)
{
	return HYPERVISOR_shared_info->evtchn_mask;
}

static unsigned int evtchn_2l_max_channels(void)
{
	return EVTCHN_2L_NR_CHANNELS;
}

static void evtchn_2l_bind_to_cpu(evtchn_port_t port, unsigned int cpu,
				  unsigned int old_cpu)
{
	clear_bit(port, per_cpu(evtchn_2l_mine, old_cpu));
	set_bit(port, per_cpu(evtchn_2l_mine, cpu));
}

static void evtchn_2l_remove(evtchn_port_t port, unsigned int cpu)
{
	clear_bit(port, per_cpu(evtchn_2l_mine, cpu));
}

static void evtchn_2l_clear_pending(evtchn_port_t port)
{
	sync_clear_bit(port, evtchn_2l_pending());
}

static void evtchn_2l_set_pending(evtchn_port_t port)
{
	sync_set_bit(port, evtchn_2l_pending());
}

static bool evtchn_2l_is_pending(evtchn_port_t port)
{
	return sync_test_bit(port, evtchn_2l_pending());
}

static void evtchn_2l_mask(evtchn_port_t port)
{
	sync_set_bit(port, evtchn_2l_mask_bits());
}

static void evtchn_2l_unmask(evtchn_port_t port)
{
	struct evtchn_unmask unmask = { .port = port };

	/*
	 * Xen does not signal a port that became pending while masked when
	 * the guest clears the mask bit; EVTCHNOP_unmask does, so use it
	 * whenever the port is pending, also when the event raced with the
	 * clearing below.
	 */
	if (!sync_test_bit(port, evtchn_2l_pending())) {
		sync_clear_bit(port, evtchn_2l_mask_bits());
		if (!sync_test_bit(port, evtchn_2l_pending()))
			return;
		sync_set_bit(port, evtchn_2l_mask_bits());
	}
	HYPERVISOR_event_channel_op(EVTCHNOP_unmask, &unmask);
}

static void evtchn_2l_handle_events(unsigned int cpu)
{
	struct vcpu_info *vi = per_cpu(xen_vcpu, cpu);
	unsigned long *mine = per_cpu(evtchn_2l_mine, cpu);
	unsigned long *pending = evtchn_2l_pending();
	unsigned long *mask = evtchn_2l_mask_bits();
	unsigned long sel, bits;
	unsigned int word, bit;

	/* xchg is a full barrier: the bitmaps are read after the selector. */
	sel = xchg(&vi->evtchn_pending_sel, 0);
	while (sel) {
		word = __ffs(sel);
		sel &= sel - 1;
		bits = evtchn_2l_deliverable(READ_ONCE(pending[word]),
					     READ_ONCE(mask[word]),
					     mine[word]);
		while (bits) {
			bit = __ffs(bits);
			bits &= bits - 1;
			xen_evtchn_handle_port(word * BITS_PER_LONG + bit);
		}
	}
}

static const struct evtchn_ops evtchn_2l_ops = {
	.name		= "2-level",
	.max_channels	= evtchn_2l_max_channels,
	.nr_channels	= evtchn_2l_max_channels,
	.bind_to_cpu	= evtchn_2l_bind_to_cpu,
	.remove		= evtchn_2l_remove,
	.clear_pending	= evtchn_2l_clear_pending,
	.set_pending	= evtchn_2l_set_pending,
	.is_pending	= evtchn_2l_is_pending,
	.mask		= evtchn_2l_mask,
	.unmask		= evtchn_2l_unmask,
	.handle_events	= evtchn_2l_handle_events,
};

/**
 * xen_evtchn_2l_init() - select the 2-level ABI
 *
 * Masks every port, so that only ports the core binds are delivered.
 *
 * Return: its ops.
 */
const struct evtchn_ops *xen_evtchn_2l_init(void)
{
	unsigned int i;

	for (i = 0; i < EVTCHN_2L_WORDS; i++)
		WRITE_ONCE(evtchn_2l_mask_bits()[i], ~0UL);
	return &evtchn_2l_ops;
}
