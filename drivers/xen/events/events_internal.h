/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface of the event channel core.
 *
 * Xen offers two ABIs for event delivery: 2-level (a pending and a mask
 * bit per port in shared_info, at most 4096 ports) and FIFO (an event
 * word per port in pages the guest supplies, per-vCPU queues, up to
 * 2^17 ports).  Each sits behind struct evtchn_ops; events_base.c owns
 * the port <-> irq bindings and calls only these ops.
 *
 * The bit logic the two ABIs use is kept here as pure functions, free of
 * hypercalls and shared memory, so that KUnit can test it on any kernel.
 */
#ifndef _XEN_EVENTS_INTERNAL_H
#define _XEN_EVENTS_INTERNAL_H

#include <linux/bitops.h>
#include <linux/types.h>
#include <xen/interface/event_channel.h>

/**
 * struct evtchn_ops - one event channel ABI
 * @name: for the boot log
 * @priorities: ports can be put in queues of several priorities
 *	(EVTCHNOP_set_priority)
 * @max_channels: how many ports the ABI can ever address
 * @nr_channels: how many it can address now (FIFO grows)
 * @setup: optional; make room for @port before it is bound
 * @bind_to_cpu: optional; @port now delivers to @cpu (was @old_cpu)
 * @remove: optional; @port, bound to @cpu, is being closed
 * @clear_pending: clear the port's pending bit
 * @set_pending: set it (the port must be masked)
 * @is_pending: test it
 * @mask: stop delivery of the port
 * @unmask: resume delivery; a pending event is delivered again
 * @handle_events: on @cpu, with interrupts off: call
 *	xen_evtchn_handle_port() for each port pending for this CPU
 * @percpu_init: optional; prepare @cpu before it takes events
 * @percpu_deinit: optional; @cpu is dead
 *
 * Every op except @setup, @percpu_init and @percpu_deinit may be called
 * with interrupts off, from any CPU.
 */
struct evtchn_ops {
	const char *name;
	bool priorities;
	unsigned int (*max_channels)(void);
	unsigned int (*nr_channels)(void);
	int (*setup)(evtchn_port_t port);
	void (*bind_to_cpu)(evtchn_port_t port, unsigned int cpu,
			    unsigned int old_cpu);
	void (*remove)(evtchn_port_t port, unsigned int cpu);
	void (*clear_pending)(evtchn_port_t port);
	void (*set_pending)(evtchn_port_t port);
	bool (*is_pending)(evtchn_port_t port);
	void (*mask)(evtchn_port_t port);
	void (*unmask)(evtchn_port_t port);
	void (*handle_events)(unsigned int cpu);
	int (*percpu_init)(unsigned int cpu);
	int (*percpu_deinit)(unsigned int cpu);
};

const struct evtchn_ops *xen_evtchn_2l_init(void);
const struct evtchn_ops *xen_evtchn_fifo_init(void);

void xen_evtchn_handle_port(evtchn_port_t port);

/* ---- 2-level ABI: pure bit logic ---- */

/**
 * evtchn_2l_deliverable() - the ports of one bitmap word to handle
 * @pending: the word of shared_info's pending bitmap
 * @mask: the same word of the mask bitmap
 * @mine: the ports of this word bound to the CPU that scans
 *
 * Return: the bits of ports pending, unmasked and bound to this CPU.
 */
static inline unsigned long evtchn_2l_deliverable(unsigned long pending,
						  unsigned long mask,
						  unsigned long mine)
{
	return pending & ~mask & mine;
}

/* ---- FIFO ABI: pure bit logic ---- */

#define EVTCHN_FIFO_WORDS_PER_PAGE	(PAGE_SIZE / sizeof(event_word_t))

/**
 * evtchn_fifo_link_of() - the port an event word links to
 * @word: the event word
 *
 * Return: the next port in the queue, 0 at the tail.
 */
static inline u32 evtchn_fifo_link_of(u32 word)
{
	return word & EVTCHN_FIFO_LINK_MASK;
}

/**
 * evtchn_fifo_unlinked() - an event word taken off its queue
 * @word: the event word
 *
 * Return: @word without its LINKED bit and link, which Xen then no
 * longer appends to.
 */
static inline u32 evtchn_fifo_unlinked(u32 word)
{
	return word & ~(BIT(EVTCHN_FIFO_LINKED) | EVTCHN_FIFO_LINK_MASK);
}

/**
 * evtchn_fifo_deliverable() - should a dequeued event be handled
 * @word: its event word, read after it was unlinked
 *
 * Return: true when it is pending and not masked.
 */
static inline bool evtchn_fifo_deliverable(u32 word)
{
	return (word & BIT(EVTCHN_FIFO_PENDING)) &&
	       !(word & BIT(EVTCHN_FIFO_MASKED));
}

/**
 * enum evtchn_fifo_unmask_how - who may clear an event word's MASKED bit
 * @EVTCHN_FIFO_UNMASK_HERE: the guest, with a compare-and-exchange
 * @EVTCHN_FIFO_UNMASK_XEN: Xen, through EVTCHNOP_unmask: the event became
 *	pending while masked and was not queued, and only Xen can queue it
 * @EVTCHN_FIFO_UNMASK_WAIT: nobody yet: BUSY is set while Xen links a new
 *	event behind this one, and the ABI lets the guest change the word
 *	only in bounded ways meanwhile (clearing MASKED is not one of them;
 *	after a few failed exchanges Xen gives up and the new event is lost)
 */
enum evtchn_fifo_unmask_how {
	EVTCHN_FIFO_UNMASK_HERE,
	EVTCHN_FIFO_UNMASK_XEN,
	EVTCHN_FIFO_UNMASK_WAIT,
};

/**
 * evtchn_fifo_unmask_how() - how to unmask an event word as it is now
 * @word: the event word
 *
 * Return: see &enum evtchn_fifo_unmask_how.
 */
static inline enum evtchn_fifo_unmask_how evtchn_fifo_unmask_how(u32 word)
{
	if (word & BIT(EVTCHN_FIFO_PENDING))
		return EVTCHN_FIFO_UNMASK_XEN;
	if (word & BIT(EVTCHN_FIFO_BUSY))
		return EVTCHN_FIFO_UNMASK_WAIT;
	return EVTCHN_FIFO_UNMASK_HERE;
}

/**
 * evtchn_fifo_next_queue() - the queue to serve next
 * @ready: the ready bits still set, one per priority
 *
 * Return: the highest priority ready (0 is the highest), or
 * EVTCHN_FIFO_MAX_QUEUES when none is.
 */
static inline unsigned int evtchn_fifo_next_queue(u32 ready)
{
	ready &= BIT(EVTCHN_FIFO_MAX_QUEUES) - 1;
	return ready ? __ffs(ready) : EVTCHN_FIFO_MAX_QUEUES;
}

#endif /* _XEN_EVENTS_INTERNAL_H */
