/* SPDX-License-Identifier: MIT */
/*
 * The sched_op hypercall: yield, block, poll, and shut the domain down.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_SCHED_H
#define _XEN_INTERFACE_SCHED_H

#include <xen/interface/event_channel.h>

/* Give up the CPU; stay runnable.  No argument. */
#define SCHEDOP_yield			0
/* Sleep until an event is pending.  No argument. */
#define SCHEDOP_block			1
/* Shut this domain down: struct sched_shutdown. */
#define SCHEDOP_shutdown		2
/* Sleep until one of some ports is pending: struct sched_poll. */
#define SCHEDOP_poll			3
/* Shut another domain down (privileged): struct sched_remote_shutdown. */
#define SCHEDOP_remote_shutdown		4
/* Record the reason of a coming shutdown: struct sched_shutdown. */
#define SCHEDOP_shutdown_code		5
/* Arm or disarm a domain watchdog. */
#define SCHEDOP_watchdog		6
/* Temporarily pin this vCPU to a physical CPU (dom0). */
#define SCHEDOP_pin_override		7

/* Reasons for SCHEDOP_shutdown; the toolstack acts on them. */
#define SHUTDOWN_poweroff		0
#define SHUTDOWN_reboot			1
#define SHUTDOWN_suspend		2
#define SHUTDOWN_crash			3
#define SHUTDOWN_watchdog		4
#define SHUTDOWN_soft_reset		5
#define SHUTDOWN_MAX			5

/**
 * struct sched_shutdown - argument of SCHEDOP_shutdown
 * @reason: a SHUTDOWN_* value
 */
struct sched_shutdown {
	unsigned int reason;
};

/**
 * struct sched_poll - argument of SCHEDOP_poll
 * @ports: the ports to wait on
 * @nr_ports: how many
 * @timeout: absolute system time to give up at, 0 for none
 */
struct sched_poll {
	GUEST_HANDLE(evtchn_port) ports;
	unsigned int nr_ports;
	u64 timeout;
};

/**
 * struct sched_remote_shutdown - argument of SCHEDOP_remote_shutdown
 * @domain_id: the domain to shut down
 * @reason: a SHUTDOWN_* value
 */
struct sched_remote_shutdown {
	domid_t domain_id;
	unsigned int reason;
};

/**
 * struct sched_watchdog - argument of SCHEDOP_watchdog
 * @id: 0 to make a watchdog (the call returns its id), or the watchdog's
 * @timeout: seconds until Xen shuts the domain down (SHUTDOWN_watchdog);
 *	0 with a non-zero @id destroys the watchdog, another value feeds it
 */
struct sched_watchdog {
	u32 id;
	u32 timeout;
};

#endif /* _XEN_INTERFACE_SCHED_H */
