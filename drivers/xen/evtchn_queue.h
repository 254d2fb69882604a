/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queue of /dev/xen/evtchn (evtchn.c): ports that had an event, in
 * the order they had it, until the reader takes them.  Pure, for KUnit
 * (dom0_devs_test.c); the caller holds the lock.
 */
#ifndef _XEN_EVTCHN_QUEUE_H
#define _XEN_EVTCHN_QUEUE_H

#include <linux/minmax.h>
#include <linux/types.h>
#include <xen/interface/event_channel.h>

/* Ports one file can have queued, and so bound. */
#define EVTCHN_DEV_QUEUE	1024

/**
 * struct evtchn_queue - ports waiting to be read
 * @port: the ring of them
 * @head: index of the next to read
 * @count: how many are queued
 * @overflow: one was lost
 */
struct evtchn_queue {
	evtchn_port_t port[EVTCHN_DEV_QUEUE];
	unsigned int head;
	unsigned int count;
	bool overflow;
};

/**
 * evtchn_queue_push() - a port had an event
 * @q: the queue
 * @port: the port
 *
 * Return: false if the queue was full: the port is lost and @q says so.
 */
static inline bool evtchn_queue_push(struct evtchn_queue *q,
				     evtchn_port_t port)
{
	if (q->count == EVTCHN_DEV_QUEUE) {
		q->overflow = true;
		return false;
	}
	q->port[(q->head + q->count++) % EVTCHN_DEV_QUEUE] = port;
	return true;
}

/**
 * evtchn_queue_pop() - take the oldest ports
 * @q: the queue
 * @out: where to put them
 * @max: room in @out
 *
 * Return: how many were taken.
 */
static inline unsigned int evtchn_queue_pop(struct evtchn_queue *q,
					    evtchn_port_t *out,
					    unsigned int max)
{
	unsigned int i, n = min(q->count, max);

	for (i = 0; i < n; i++)
		out[i] = q->port[(q->head + i) % EVTCHN_DEV_QUEUE];
	q->head = (q->head + n) % EVTCHN_DEV_QUEUE;
	q->count -= n;
	return n;
}

/**
 * evtchn_queue_reset() - forget every queued port and the overflow
 * @q: the queue
 */
static inline void evtchn_queue_reset(struct evtchn_queue *q)
{
	q->head = 0;
	q->count = 0;
	q->overflow = false;
}

#endif /* _XEN_EVTCHN_QUEUE_H */
