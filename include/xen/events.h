/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event channels as Linux interrupts: the API drivers use to bind a
 * port, a virtual IRQ or an IPI to an irq handler, to notify the other
 * end, and to acknowledge events late when a peer could flood them.
 *
 * Every binding gets its own Linux irq.  Unbinding closes the port.
 */
#ifndef _XEN_EVENTS_H
#define _XEN_EVENTS_H

#include <linux/interrupt.h>
#include <linux/types.h>
#include <asm/xen/events.h>
#include <asm/xen/hypercall.h>
#include <xen/interface/event_channel.h>

struct xenbus_device;

unsigned int xen_evtchn_nr_channels(void);
unsigned int xen_evtchn_ports_on_cpu(unsigned int cpu);

int bind_evtchn_to_irq(evtchn_port_t port);
int bind_evtchn_to_irq_lateeoi(evtchn_port_t port);
int bind_evtchn_to_irqhandler(evtchn_port_t port, irq_handler_t handler,
			      unsigned long irqflags, const char *name,
			      void *cookie);
int bind_evtchn_to_irqhandler_lateeoi(evtchn_port_t port,
				      irq_handler_t handler,
				      unsigned long irqflags,
				      const char *name, void *cookie);
int bind_interdomain_evtchn_to_irq_lateeoi(struct xenbus_device *dev,
					   evtchn_port_t their_port);
int bind_interdomain_evtchn_to_irqhandler_lateeoi(struct xenbus_device *dev,
						  evtchn_port_t their_port,
						  irq_handler_t handler,
						  unsigned long irqflags,
						  const char *name,
						  void *cookie);
int bind_virq_to_irqhandler(unsigned int virq, unsigned int cpu,
			    irq_handler_t handler, unsigned long irqflags,
			    const char *name, void *cookie);
int bind_ipi_to_irqhandler(enum ipi_vector ipi, unsigned int cpu,
			   irq_handler_t handler, unsigned long irqflags,
			   const char *name, void *cookie);
void unbind_from_irqhandler(unsigned int irq, void *cookie);
void unbind_from_irq(unsigned int irq);

/* The event was spurious: there was no work for it. */
#define XEN_EOI_FLAG_SPURIOUS	BIT(0)

void xen_irq_lateeoi(unsigned int irq, unsigned int eoi_flags);

unsigned int irq_from_evtchn(evtchn_port_t port);
evtchn_port_t evtchn_from_irq(unsigned int irq);
int xen_set_irq_priority(unsigned int irq, unsigned int priority);

void notify_remote_via_irq(int irq);

/**
 * notify_remote_via_evtchn() - send an event on a port
 * @port: a local port bound to the other end
 */
static inline void notify_remote_via_evtchn(evtchn_port_t port)
{
	struct evtchn_send send = { .port = port };

	HYPERVISOR_event_channel_op(EVTCHNOP_send, &send);
}

/**
 * xen_evtchn_close() - close a port that no irq is bound to
 * @port: the port
 */
static inline void xen_evtchn_close(evtchn_port_t port)
{
	struct evtchn_close close = { .port = port };

	HYPERVISOR_event_channel_op(EVTCHNOP_close, &close);
}

void xen_send_IPI_one(unsigned int cpu, enum ipi_vector vector);

/* Ports left masked and polled instead of taking interrupts. */
bool xen_test_irq_pending(int irq);
void xen_clear_irq_pending(int irq);
void xen_poll_irq_timeout(int irq, u64 timeout);
void xen_poll_irq(int irq);

int xen_pirq_to_irq(unsigned int pirq, int want_irq, bool level,
		    const char *name);
int xen_pirq_msi_to_irq(unsigned int pirq, bool eoi, const char *name);
unsigned int xen_pirq_from_irq(unsigned int irq);
void xen_pirq_free_irq(unsigned int irq);

int xen_evtchn_do_upcall(void);
void xen_init_IRQ(void);

#endif /* _XEN_EVENTS_H */
