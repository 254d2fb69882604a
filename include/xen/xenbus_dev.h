/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ioctls of /dev/xen/xenbus_backend, as Xen's tools call them: the
 * argument is a plain number and the answer is the return value.
 */
#ifndef _XEN_XENBUS_DEV_H
#define _XEN_XENBUS_DEV_H

#include <linux/ioctl.h>

/* The event channel of dom0's own xenstore ring. */
#define IOCTL_XENBUS_BACKEND_EVTCHN	_IOC(_IOC_NONE, 'B', 0, 0)

/*
 * Offer that ring to the xenstore domain whose id is the argument;
 * returns the port it is to bind (init-xenstore-domain).
 */
#define IOCTL_XENBUS_BACKEND_SETUP	_IOC(_IOC_NONE, 'B', 1, 0)

#endif /* _XEN_XENBUS_DEV_H */
