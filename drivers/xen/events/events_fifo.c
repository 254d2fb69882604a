// SPDX-License-Identifier: GPL-2.0
/*
 * The FIFO event channel ABI.
 *
 * Each port has a 32-bit event word (PENDING, MASKED, LINKED and a link
 * to the next port) in an array of pages the guest hands Xen one at a
 * time with EVTCHNOP_expand_array.  Each vCPU has a control block with
 * 16 priority queues: Xen appends a newly pending, unmasked event to the
 * tail of its queue, sets the queue's ready bit and raises an upcall; the
 * vCPU takes events off the head.  Xen keeps the tails, the guest its
 * own heads (evtchn_fifo_heads); the control block's head is where Xen
 * restarts a queue the guest has emptied.
 *
 * A dequeue clears LINKED and the link in one compare-and-exchange, so
 * Xen either links the next event behind this one before it is taken
 * (and the guest sees the link) or finds it unlinked and starts the
 * queue again from the control block.
 *
 * Xen queues each event on the vCPU its port is bound to, so there is no
 * per-CPU port state to keep (no bind_to_cpu op).
 *
 * Locking: the array grows under the core's binding lock; a page is
 * published before Xen is told of it, so the upcall, which reads the
 * array without a lock, finds every port Xen can queue.
 *
 * Xen changes the event words from any physical CPU while this kernel
 * runs, so every read-modify-write of a word here is a
 * sync_try_cmpxchg(), locked whatever the number of CPUs.  The atomic_
 * and plain bitops are not enough: a kernel that boots with
 * one CPU (a dom0 with dom0_max_vcpus=1, say) has their LOCK prefixes
 * patched out, and an unlocked compare-and-exchange that races with
 * Xen linking the next event behind this word writes the word back
 * without Xen's link, which orphans the rest of the queue.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <asm/barrier.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/page.h>
#include <xen/xen-ops.h>

#include "events_internal.h"

#define EVTCHN_FIFO_MAX_PAGES \
	(EVTCHN_FIFO_NR_CHANNELS / EVTCHN_FIFO_WORDS_PER_PAGE)

/* The guest's heads of one vCPU's queues. */
struct evtchn_fifo_heads {
	u32 head[EVTCHN_FIFO_MAX_QUEUES];
};

static DEFINE_PER_CPU(struct evtchn_fifo_control_block *, evtchn_fifo_cb);
static DEFINE_PER_CPU(struct evtchn_fifo_heads, evtchn_fifo_heads);
static event_word_t *evtchn_fifo_array[EVTCHN_FIFO_MAX_PAGES];
/* Pages of the array Xen has; ports below pages * words per page exist. */
static unsigned int evtchn_fifo_pages;

static unsigned int evtchn_fifo_max_channels(void)
{
	return EVTCHN_FIFO_NR_CHANNELS;
}

static unsigned int evtchn_fifo_nr_channels(void)
{
	return READ_ONCE(evtchn_fifo_pages) * EVTCHN_FIFO_WORDS_PER_PAGE;
}

static event_word_t *evtchn_fifo_word(evtchn_port_t port)
{
	event_word_t *page = evtchn_fifo_array[port / EVTCHN_FIFO_WORDS_PER_PAGE];

	return page + port % EVTCHN_FIFO_WORDS_PER_PAGE;
}

/*
 * Set @set and clear @clear in an event word, in one locked exchange.
 * Not the sync_ bitops: on x86-64 they change the 8 bytes of a long,
 * which for the odd ports is this word and the next, across a cache line
 * or the end of the array's page for the last of each.
 */
static void evtchn_fifo_change(evtchn_port_t port, event_word_t set,
			       event_word_t clear)
{
	event_word_t *word = evtchn_fifo_word(port);
	event_word_t old = READ_ONCE(*word);

	while (!sync_try_cmpxchg(word, &old, (old | set) & ~clear))
		;
}

/* Take @port off its queue, in one locked exchange; the word as it was. */
static event_word_t evtchn_fifo_unlink(evtchn_port_t port)
{
	event_word_t *word = evtchn_fifo_word(port);
	event_word_t old = READ_ONCE(*word);

	while (!sync_try_cmpxchg(word, &old, evtchn_fifo_unlinked(old)))
		;
	return old;
}

static int evtchn_fifo_setup(evtchn_port_t port)
{
	struct evtchn_expand_array expand = {};
	unsigned int slot, i;
	event_word_t *page;
	int rc;

	while (port >= evtchn_fifo_nr_channels()) {
		slot = evtchn_fifo_pages;
		if (slot >= EVTCHN_FIFO_MAX_PAGES)
			return -ENOSPC;
		page = (event_word_t *)get_zeroed_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		/* Ports Xen finds on a new page start masked. */
		for (i = 0; i < EVTCHN_FIFO_WORDS_PER_PAGE; i++)
			page[i] = BIT(EVTCHN_FIFO_MASKED);

		WRITE_ONCE(evtchn_fifo_array[slot], page);
		expand.array_gfn = virt_to_gfn(page);
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_expand_array,
						 &expand);
		if (rc) {
			WRITE_ONCE(evtchn_fifo_array[slot], NULL);
			free_page((unsigned long)page);
			return rc;
		}
		/* Pairs with the upcall's bound check on a queued port. */
		smp_store_release(&evtchn_fifo_pages, slot + 1);
	}
	return 0;
}

static void evtchn_fifo_clear_pending(evtchn_port_t port)
{
	evtchn_fifo_change(port, 0, BIT(EVTCHN_FIFO_PENDING));
}

static void evtchn_fifo_set_pending(evtchn_port_t port)
{
	evtchn_fifo_change(port, BIT(EVTCHN_FIFO_PENDING), 0);
}

static bool evtchn_fifo_is_pending(evtchn_port_t port)
{
	return READ_ONCE(*evtchn_fifo_word(port)) & BIT(EVTCHN_FIFO_PENDING);
}

static void evtchn_fifo_mask(evtchn_port_t port)
{
	evtchn_fifo_change(port, BIT(EVTCHN_FIFO_MASKED), 0);
}

static void evtchn_fifo_unmask(evtchn_port_t port)
{
	event_word_t *word = evtchn_fifo_word(port);
	struct evtchn_unmask unmask = { .port = port };
	event_word_t old = READ_ONCE(*word);

	for (;;) {
		switch (evtchn_fifo_unmask_how(old)) {
		case EVTCHN_FIFO_UNMASK_XEN:
			/* Xen clears MASKED and queues the pending event. */
			HYPERVISOR_event_channel_op(EVTCHNOP_unmask, &unmask);
			return;
		case EVTCHN_FIFO_UNMASK_WAIT:
			/* Xen clears BUSY within a few of its instructions. */
			cpu_relax();
			old = READ_ONCE(*word);
			continue;
		case EVTCHN_FIFO_UNMASK_HERE:
			if (sync_try_cmpxchg(word, &old,
					     old & ~BIT(EVTCHN_FIFO_MASKED)))
				return;
			continue;
		}
	}
}

/* Take the head event off @queue; return true when the queue emptied. */
static bool evtchn_fifo_dequeue(struct evtchn_fifo_control_block *cb,
				struct evtchn_fifo_heads *heads,
				unsigned int queue)
{
	evtchn_port_t port = heads->head[queue];
	event_word_t *word, old;

	if (!port) {
		/* Xen's head is written before the ready bit we saw. */
		virt_rmb();
		port = READ_ONCE(cb->head[queue]);
	}
	if (!port || port >= evtchn_fifo_nr_channels()) {
		pr_err_once("xen: FIFO queue %u names port %u, beyond the %u ports; queue dropped\n",
			    queue, port, evtchn_fifo_nr_channels());
		heads->head[queue] = 0;
		return true;
	}

	word = evtchn_fifo_word(port);
	old = READ_ONCE(*word);
	if (unlikely(!(old & BIT(EVTCHN_FIFO_LINKED))) && heads->head[queue]) {
		/*
		 * Only we unlink, so a head of ours that is not on a queue
		 * is stale: whatever Xen queued since started from its own
		 * head.  Say so once, and go on from there.
		 */
		pr_warn_once("xen: FIFO queue %u: our head %u (word %#x) is on no queue; taking Xen's head %u\n",
			     queue, port, old, READ_ONCE(cb->head[queue]));
		heads->head[queue] = 0;
		return evtchn_fifo_dequeue(cb, heads, queue);
	}
	old = evtchn_fifo_unlink(port);
	heads->head[queue] = evtchn_fifo_link_of(old);

	if (evtchn_fifo_deliverable(old))
		xen_evtchn_handle_port(port);
	return !heads->head[queue];
}

static void evtchn_fifo_handle_events(unsigned int cpu)
{
	struct evtchn_fifo_control_block *cb = per_cpu(evtchn_fifo_cb, cpu);
	struct evtchn_fifo_heads *heads = per_cpu_ptr(&evtchn_fifo_heads, cpu);
	u32 ready = xchg(&cb->ready, 0);
	unsigned int queue;

	/*
	 * One event at a time from the highest priority queue, so that a
	 * busy low priority queue cannot hold up a higher one.
	 */
	while ((queue = evtchn_fifo_next_queue(ready)) < EVTCHN_FIFO_MAX_QUEUES) {
		if (evtchn_fifo_dequeue(cb, heads, queue))
			ready &= ~BIT(queue);
		ready |= xchg(&cb->ready, 0);
	}
}

static int evtchn_fifo_init_control(unsigned int cpu)
{
	struct evtchn_init_control init = {};
	struct evtchn_fifo_control_block *cb;
	int rc;

	/* Xen maps a vCPU's control block once, for the domain's life. */
	if (per_cpu(evtchn_fifo_cb, cpu))
		return 0;

	cb = (void *)get_zeroed_page(GFP_KERNEL);
	if (!cb)
		return -ENOMEM;
	init.control_gfn = virt_to_gfn(cb);
	init.offset = 0;
	init.vcpu = xen_vcpu_nr(cpu);
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_init_control, &init);
	if (rc) {
		free_page((unsigned long)cb);
		return rc;
	}
	memset(per_cpu_ptr(&evtchn_fifo_heads, cpu), 0,
	       sizeof(struct evtchn_fifo_heads));
	per_cpu(evtchn_fifo_cb, cpu) = cb;
	return 0;
}

/*
 * Take every event still queued for the dead @cpu off its queues.  Xen
 * links a new event behind a queue's tail while that is on the queue,
 * so a chain left behind here would swallow the next event of its queue
 * and all after it, once the CPU is back.  A pending, unmasked event is
 * handed back to Xen (EVTCHNOP_unmask queues it again, on the vCPU its
 * port is bound to now); a masked one is queued again when unmasked.
 */
static void evtchn_fifo_drain(unsigned int cpu)
{
	struct evtchn_fifo_control_block *cb = per_cpu(evtchn_fifo_cb, cpu);
	struct evtchn_fifo_heads *heads = per_cpu_ptr(&evtchn_fifo_heads, cpu);
	struct evtchn_unmask unmask;
	unsigned int queue, n;
	evtchn_port_t port;
	event_word_t old;
	u32 ready, ports;

	if (!cb)
		return;
	ports = evtchn_fifo_nr_channels();
	ready = xchg(&cb->ready, 0);
	for (queue = 0; queue < EVTCHN_FIFO_MAX_QUEUES; queue++) {
		port = heads->head[queue];
		heads->head[queue] = 0;
		if (!port && (ready & BIT(queue))) {
			virt_rmb();	/* the head after its ready bit */
			port = READ_ONCE(cb->head[queue]);
		}
		/* No queue is longer than the ports there are. */
		for (n = 0; port && port < ports && n < ports; n++) {
			if (!(READ_ONCE(*evtchn_fifo_word(port)) &
			      BIT(EVTCHN_FIFO_LINKED)))
				break;
			old = evtchn_fifo_unlink(port);
			if (evtchn_fifo_deliverable(old)) {
				unmask.port = port;
				HYPERVISOR_event_channel_op(EVTCHNOP_unmask,
							    &unmask);
			}
			port = evtchn_fifo_link_of(old);
		}
	}
}

static int evtchn_fifo_percpu_deinit(unsigned int cpu)
{
	/*
	 * The control block stays mapped in Xen; a CPU that comes back
	 * finds its queues empty, with no local heads.
	 */
	evtchn_fifo_drain(cpu);
	return 0;
}

static const struct evtchn_ops evtchn_fifo_ops = {
	.name		= "FIFO",
	.priorities	= true,
	.max_channels	= evtchn_fifo_max_channels,
	.nr_channels	= evtchn_fifo_nr_channels,
	.percpu_init	= evtchn_fifo_init_control,
	.percpu_deinit	= evtchn_fifo_percpu_deinit,
	.setup		= evtchn_fifo_setup,
	.handle_events	= evtchn_fifo_handle_events,
	.is_pending	= evtchn_fifo_is_pending,
	.set_pending	= evtchn_fifo_set_pending,
	.clear_pending	= evtchn_fifo_clear_pending,
	.unmask		= evtchn_fifo_unmask,
	.mask		= evtchn_fifo_mask,
};

/**
 * xen_evtchn_fifo_init() - switch this domain to the FIFO ABI
 *
 * Gives Xen the boot CPU's control block; from then on Xen delivers
 * every port through FIFO queues.
 *
 * Return: its ops, or NULL when Xen refuses (the caller falls back to
 * the 2-level ABI).
 */
const struct evtchn_ops *xen_evtchn_fifo_init(void)
{
	int rc = evtchn_fifo_init_control(smp_processor_id());

	if (rc) {
		pr_info("xen: FIFO event channels unavailable (%d)\n", rc);
		return NULL;
	}
	return &evtchn_fifo_ops;
}
