/* SPDX-License-Identifier: MIT */
/*
 * The xenstore wire protocol: the message header, the message types, and
 * the shared page that carries messages between a guest and xenstored.
 *
 * A message is a struct xsd_sockmsg followed by len bytes of payload,
 * usually NUL-terminated strings.  A reply echoes the request's type
 * (or is XS_ERROR with an errno name such as "ENOENT") and its req_id;
 * XS_WATCH_EVENT messages come unasked, with "path\0token\0".
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_XS_WIRE_H
#define _XEN_INTERFACE_IO_XS_WIRE_H

#include <linux/types.h>

/* Message types (Xen's enum xsd_sockmsg_type). */
#define XS_CONTROL		0
#define XS_DIRECTORY		1
#define XS_READ			2
#define XS_GET_PERMS		3
#define XS_WATCH		4
#define XS_UNWATCH		5
#define XS_TRANSACTION_START	6
#define XS_TRANSACTION_END	7
#define XS_INTRODUCE		8
#define XS_RELEASE		9
#define XS_GET_DOMAIN_PATH	10
#define XS_WRITE		11
#define XS_MKDIR		12
#define XS_RM			13
#define XS_SET_PERMS		14
#define XS_WATCH_EVENT		15
#define XS_ERROR		16
#define XS_IS_DOMAIN_INTRODUCED	17
#define XS_RESUME		18
#define XS_SET_TARGET		19
#define XS_RESET_WATCHES	21
#define XS_DIRECTORY_PART	22
#define XS_TYPE_COUNT		23
#define XS_INVALID		0xffff

/**
 * struct xsd_sockmsg - header of every xenstore message
 * @type: an XS_* type
 * @req_id: chosen by the requester, echoed in the reply
 * @tx_id: the transaction, 0 for none
 * @len: bytes of payload that follow
 */
struct xsd_sockmsg {
	u32 type;
	u32 req_id;
	u32 tx_id;
	u32 len;
};

/* The two strings of an XS_WATCH_EVENT payload, in order. */
#define XS_WATCH_PATH		0
#define XS_WATCH_TOKEN		1

#define XENSTORE_RING_SIZE	1024
typedef u32 XENSTORE_RING_IDX;
#define MASK_XENSTORE_IDX(idx)	((idx) & (XENSTORE_RING_SIZE - 1))

/**
 * struct xenstore_domain_interface - the page shared with xenstored
 * @req: ring of requests, guest to xenstored
 * @rsp: ring of replies and watch events, xenstored to guest
 * @req_cons: xenstored's consumer index of @req
 * @req_prod: the guest's producer index of @req
 * @rsp_cons: the guest's consumer index of @rsp
 * @rsp_prod: xenstored's producer index of @rsp
 * @server_features: XENSTORE_SERVER_FEATURE_* bits
 * @connection: XENSTORE_CONNECTED or XENSTORE_RECONNECT
 * @error: XENSTORE_ERROR_* set by xenstored when it gives up on the ring
 *
 * Indices run freely; MASK_XENSTORE_IDX() gives the byte in the ring.
 */
struct xenstore_domain_interface {
	char req[XENSTORE_RING_SIZE];
	char rsp[XENSTORE_RING_SIZE];
	XENSTORE_RING_IDX req_cons, req_prod;
	XENSTORE_RING_IDX rsp_cons, rsp_prod;
	u32 server_features;
	u32 connection;
	u32 error;
};

/* Longest payload of a message, and of a path. */
#define XENSTORE_PAYLOAD_MAX	4096
#define XENSTORE_ABS_PATH_MAX	3072
#define XENSTORE_REL_PATH_MAX	2048

#define XENSTORE_SERVER_FEATURE_RECONNECTION	1
#define XENSTORE_SERVER_FEATURE_ERROR		2

#define XENSTORE_CONNECTED	0
#define XENSTORE_RECONNECT	1

#define XENSTORE_ERROR_NONE	0
#define XENSTORE_ERROR_COMM	1
#define XENSTORE_ERROR_RINGIDX	2
#define XENSTORE_ERROR_PROTO	3

#endif /* _XEN_INTERFACE_IO_XS_WIRE_H */
