/* SPDX-License-Identifier: MIT */
/*
 * Event channels: the event_channel_op hypercall, and the shared memory
 * layouts of the 2-level and FIFO event ABIs.
 *
 * An event channel is a port number in a domain; Xen sets it pending when
 * the other end (another domain, a virtual IRQ, an IPI) sends.  Types and
 * constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_EVENT_CHANNEL_H
#define _XEN_INTERFACE_EVENT_CHANNEL_H

#include <xen/interface/xen.h>

typedef u32 evtchn_port_t;
DEFINE_GUEST_HANDLE(evtchn_port, evtchn_port_t);

/* Commands of event_channel_op; each takes the struct named after it. */
#define EVTCHNOP_bind_interdomain	0
#define EVTCHNOP_bind_virq		1
#define EVTCHNOP_bind_pirq		2
#define EVTCHNOP_close			3
#define EVTCHNOP_send			4
#define EVTCHNOP_status			5
#define EVTCHNOP_alloc_unbound		6
#define EVTCHNOP_bind_ipi		7
#define EVTCHNOP_bind_vcpu		8
#define EVTCHNOP_unmask			9
#define EVTCHNOP_reset			10
#define EVTCHNOP_init_control		11
#define EVTCHNOP_expand_array		12
#define EVTCHNOP_set_priority		13

/**
 * struct evtchn_alloc_unbound - allocate a port for another domain to bind
 * @dom: domain to allocate in (DOMID_SELF)
 * @remote_dom: the only domain allowed to bind to it
 * @port: out: the new port
 */
struct evtchn_alloc_unbound {
	domid_t dom;
	domid_t remote_dom;
	evtchn_port_t port;
};

/**
 * struct evtchn_bind_interdomain - connect to another domain's unbound port
 * @remote_dom: that domain
 * @remote_port: its port
 * @local_port: out: our end
 */
struct evtchn_bind_interdomain {
	domid_t remote_dom;
	evtchn_port_t remote_port;
	evtchn_port_t local_port;
};

/**
 * struct evtchn_bind_virq - bind a virtual IRQ (VIRQ_*) to a new port
 * @virq: the VIRQ
 * @vcpu: the vCPU it is delivered to (0 for a global VIRQ)
 * @port: out: the new port
 */
struct evtchn_bind_virq {
	u32 virq;
	u32 vcpu;
	evtchn_port_t port;
};

/**
 * struct evtchn_bind_pirq - bind a physical IRQ to a new port (dom0)
 * @pirq: the physical IRQ
 * @flags: BIND_PIRQ__* flags
 * @port: out: the new port
 */
struct evtchn_bind_pirq {
	u32 pirq;
	u32 flags;
	evtchn_port_t port;
};

/* The IRQ line may be shared with other domains. */
#define BIND_PIRQ__WILL_SHARE		1

/**
 * struct evtchn_bind_ipi - allocate a port to signal one of our own vCPUs
 * @vcpu: the vCPU notified when the port is sent on
 * @port: out: the new port
 */
struct evtchn_bind_ipi {
	u32 vcpu;
	evtchn_port_t port;
};

/**
 * struct evtchn_close - close a port; the remote end becomes unbound
 * @port: the port
 */
struct evtchn_close {
	evtchn_port_t port;
};

/**
 * struct evtchn_send - send an event on a port
 * @port: the port
 */
struct evtchn_send {
	evtchn_port_t port;
};

/* Values of evtchn_status.status. */
#define EVTCHNSTAT_closed		0
#define EVTCHNSTAT_unbound		1
#define EVTCHNSTAT_interdomain		2
#define EVTCHNSTAT_pirq			3
#define EVTCHNSTAT_virq			4
#define EVTCHNSTAT_ipi			5

/**
 * struct evtchn_status - what a port is bound to
 * @dom: domain of the port (DOMID_SELF)
 * @port: the port
 * @status: out: an EVTCHNSTAT_* value
 * @vcpu: out: the vCPU the port notifies
 * @u: out: details for @status
 * @u.unbound.dom: who may bind (EVTCHNSTAT_unbound)
 * @u.interdomain.dom: remote domain (EVTCHNSTAT_interdomain)
 * @u.interdomain.port: remote port
 * @u.pirq: the physical IRQ (EVTCHNSTAT_pirq)
 * @u.virq: the VIRQ (EVTCHNSTAT_virq)
 */
struct evtchn_status {
	domid_t dom;
	evtchn_port_t port;
	u32 status;
	u32 vcpu;
	union {
		struct {
			domid_t dom;
		} unbound;
		struct {
			domid_t dom;
			evtchn_port_t port;
		} interdomain;
		u32 pirq;
		u32 virq;
	} u;
};

/**
 * struct evtchn_bind_vcpu - deliver a port's events to another vCPU
 * @port: the port
 * @vcpu: the vCPU
 */
struct evtchn_bind_vcpu {
	evtchn_port_t port;
	u32 vcpu;
};

/**
 * struct evtchn_unmask - unmask a port, re-raising it if pending
 * @port: the port
 */
struct evtchn_unmask {
	evtchn_port_t port;
};

/**
 * struct evtchn_reset - close every port of a domain
 * @dom: the domain (DOMID_SELF)
 */
struct evtchn_reset {
	domid_t dom;
};

/**
 * struct evtchn_init_control - switch to the FIFO ABI for one vCPU
 * @control_gfn: frame holding that vCPU's control block
 * @offset: offset of the control block in the frame
 * @vcpu: the vCPU
 * @link_bits: out: number of bits in an event word's link field
 * @_pad: zero
 */
struct evtchn_init_control {
	u64 control_gfn;
	u32 offset;
	u32 vcpu;
	u8 link_bits;
	u8 _pad[7];
};

/**
 * struct evtchn_expand_array - add a page of FIFO event words
 * @array_gfn: the frame of the new page
 */
struct evtchn_expand_array {
	u64 array_gfn;
};

/**
 * struct evtchn_set_priority - set a port's FIFO priority
 * @port: the port
 * @priority: EVTCHN_FIFO_PRIORITY_MAX (highest) to _MIN
 */
struct evtchn_set_priority {
	evtchn_port_t port;
	u32 priority;
};

/* 2-level ABI: one pending and one mask bit per port in shared_info. */
#define EVTCHN_2L_NR_CHANNELS	(sizeof(xen_ulong_t) * sizeof(xen_ulong_t) * 64)

/*
 * FIFO ABI: one 32-bit event word per port in guest pages, and per vCPU a
 * control block with one queue head per priority.
 */
#define EVTCHN_FIFO_PRIORITY_MAX	0
#define EVTCHN_FIFO_PRIORITY_DEFAULT	7
#define EVTCHN_FIFO_PRIORITY_MIN	15
#define EVTCHN_FIFO_MAX_QUEUES		(EVTCHN_FIFO_PRIORITY_MIN + 1)

typedef u32 event_word_t;

/* Bit numbers in an event word; the low bits link to the next port. */
#define EVTCHN_FIFO_PENDING		31
#define EVTCHN_FIFO_MASKED		30
#define EVTCHN_FIFO_LINKED		29
#define EVTCHN_FIFO_BUSY		28
#define EVTCHN_FIFO_LINK_BITS		17
#define EVTCHN_FIFO_LINK_MASK		((1 << EVTCHN_FIFO_LINK_BITS) - 1)
#define EVTCHN_FIFO_NR_CHANNELS		BIT(EVTCHN_FIFO_LINK_BITS)

/**
 * struct evtchn_fifo_control_block - one vCPU's FIFO queues
 * @ready: bit N set by Xen when queue N is not empty
 * @_rsvd: unused
 * @head: the first port of each queue, by priority
 */
struct evtchn_fifo_control_block {
	u32 ready;
	u32 _rsvd;
	u32 head[EVTCHN_FIFO_MAX_QUEUES];
};

#endif /* _XEN_INTERFACE_EVENT_CHANNEL_H */
