/* SPDX-License-Identifier: MIT */
/*
 * 9pfs over Xen: 9P messages travel on byte rings (DEFINE_XEN_FLEX_RING
 * in ring.h), one pair for each of the rings the frontend and backend
 * agree on in xenstore; the indices' page of each pair also names the
 * grant references of its data pages.
 *
 * Checked against Xen 4.17's public headers by tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_9PFS_H
#define _XEN_INTERFACE_IO_9PFS_H

#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

DEFINE_XEN_FLEX_RING_AND_INTF(xen_9pfs);

#endif /* _XEN_INTERFACE_IO_9PFS_H */
