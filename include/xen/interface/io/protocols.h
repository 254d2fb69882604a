/* SPDX-License-Identifier: MIT */
/*
 * The names of the ring layouts a frontend may announce in its
 * "protocol" node, so that a backend of another word size reads its
 * requests right.  A 64-bit x86 kernel's own layout is x86_64-abi.
 *
 * Checked against Xen 4.17's public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_PROTOCOLS_H
#define _XEN_INTERFACE_IO_PROTOCOLS_H

#define XEN_IO_PROTO_ABI_X86_32		"x86_32-abi"
#define XEN_IO_PROTO_ABI_X86_64		"x86_64-abi"
#define XEN_IO_PROTO_ABI_ARM		"arm-abi"

#ifdef __x86_64__
#define XEN_IO_PROTO_ABI_NATIVE		XEN_IO_PROTO_ABI_X86_64
#else
#define XEN_IO_PROTO_ABI_NATIVE		XEN_IO_PROTO_ABI_X86_32
#endif

#endif /* _XEN_INTERFACE_IO_PROTOCOLS_H */
