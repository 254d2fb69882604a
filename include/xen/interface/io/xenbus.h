/* SPDX-License-Identifier: MIT */
/*
 * The states a split device's two ends publish in xenstore, each in the
 * "state" node of its own directory, as a decimal number.
 *
 * A frontend and its backend each move through these states and watch the
 * other's: both start Initialising; the backend waits in InitWait for the
 * frontend's ring details, the frontend says Initialised once they are
 * written, and both end up Connected.  Either side goes Closing, then
 * Closed, to take the device down.  Reconfiguring and Reconfigured are
 * used by a few backends while devices are added to a live connection.
 *
 * Checked against Xen 4.17's public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_XENBUS_H
#define _XEN_INTERFACE_IO_XENBUS_H

enum xenbus_state {
	XenbusStateUnknown = 0,
	XenbusStateInitialising = 1,
	XenbusStateInitWait = 2,
	XenbusStateInitialised = 3,
	XenbusStateConnected = 4,
	XenbusStateClosing = 5,
	XenbusStateClosed = 6,
	XenbusStateReconfiguring = 7,
	XenbusStateReconfigured = 8,
};

#endif /* _XEN_INTERFACE_IO_XENBUS_H */
