/* SPDX-License-Identifier: MIT */
/*
 * The memory_op hypercall: a guest's memory map and reservation, and
 * placing Xen-owned pages (shared info, grant frames) in its physical
 * address space.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_MEMORY_H
#define _XEN_INTERFACE_MEMORY_H

#include <xen/interface/xen.h>

#define XENMEM_increase_reservation	0
#define XENMEM_decrease_reservation	1
#define XENMEM_maximum_ram_page		2
#define XENMEM_current_reservation	3
#define XENMEM_maximum_reservation	4
#define XENMEM_machphys_mfn_list	5
#define XENMEM_populate_physmap		6
#define XENMEM_add_to_physmap		7
/* The guest's E820-style memory map: struct xen_memory_map. */
#define XENMEM_memory_map		9
/* The host's memory map (dom0): struct xen_memory_map. */
#define XENMEM_machine_memory_map	10
#define XENMEM_exchange			11
#define XENMEM_maximum_gpfn		14
#define XENMEM_remove_from_physmap	15
#define XENMEM_acquire_resource		28

/* What XENMEM_add_to_physmap maps. */
#define XENMAPSPACE_shared_info		0	/* the shared info page */
#define XENMAPSPACE_grant_table		1	/* a grant table frame */
#define XENMAPSPACE_gmfn		2	/* another of our frames */

/**
 * struct xen_memory_reservation - argument of the reservation operations
 * @extent_start: the extents: for XENMEM_decrease_reservation the frames
 *	given back (a PV guest's mfns), for the others the frames filled in
 * @nr_extents: entries of @extent_start
 * @extent_order: each extent is 2^@extent_order pages
 * @mem_flags: XENMEMF_* flags (address width, NUMA node), 0 for none
 * @domid: whose memory (DOMID_SELF)
 *
 * The operations return how many extents they handled.
 */
struct xen_memory_reservation {
	xen_pfn_t *extent_start;
	xen_ulong_t nr_extents;
	unsigned int extent_order;
	unsigned int mem_flags;
	domid_t domid;
};

/* In mem_flags: every frame handed out lies below 2^bits (0: no limit). */
#define XENMEMF_address_bits(bits)	(bits)

/**
 * struct xen_memory_exchange - argument of XENMEM_exchange (PV only)
 * @in: the frames given up (mfns of extents of @in.extent_order)
 * @out: the extents wanted in their place: @out.extent_start holds, in,
 *	the pfn each extent will back (for the M2P) and, out, its first mfn
 * @nr_exchanged: must be 0; on return, how many input extents were
 *	exchanged (all on success; the rest are untouched on failure)
 */
struct xen_memory_exchange {
	struct xen_memory_reservation in;
	struct xen_memory_reservation out;
	xen_ulong_t nr_exchanged;
};

/**
 * struct xen_add_to_physmap - argument of XENMEM_add_to_physmap
 * @domid: the domain whose physical address space changes (DOMID_SELF)
 * @size: pages, for the range map spaces only
 * @space: an XENMAPSPACE_* value: what to map
 * @idx: which page of that space (e.g. the grant table frame number)
 * @gpfn: the guest frame it appears at; what was there is released
 */
struct xen_add_to_physmap {
	domid_t domid;
	u16 size;
	unsigned int space;
	xen_ulong_t idx;
	xen_pfn_t gpfn;
};

/**
 * struct xen_memory_map - argument of XENMEM_memory_map
 * @nr_entries: in: room in @buffer, in entries; out: entries written
 * @buffer: entries in the format of the BIOS E820 call (struct e820_entry);
 *	a guest handle to void for Xen, which is a plain pointer
 */
struct xen_memory_map {
	unsigned int nr_entries;
	void *buffer;
};

/* XENMEM_acquire_resource: what kind of resource. */
#define XENMEM_resource_ioreq_server		0
#define XENMEM_resource_grant_table		1
#define XENMEM_resource_vmtrace_buf		2

/* Which part of a grant table. */
#define XENMEM_resource_grant_table_id_shared	0
#define XENMEM_resource_grant_table_id_status	1

/**
 * struct xen_mem_acquire_resource - argument of XENMEM_acquire_resource
 * @domid: the domain whose resource is mapped
 * @type: XENMEM_resource_*
 * @id: which one of its type (an ioreq server, a grant table part)
 * @nr_frames: frames wanted; with @frame_list NULL and 0 here, Xen
 *	returns the resource's size in frames instead
 * @pad: must be 0
 * @frame: the first frame wanted
 * @frame_list: where Xen writes the frames: a PV caller gets the mfns,
 *	an HVM caller gives the gfns to map them at
 */
struct xen_mem_acquire_resource {
	domid_t domid;
	u16 type;
	u32 id;
	u32 nr_frames;
	u32 pad;
	u64 frame;
	xen_pfn_t *frame_list;
};

#endif /* _XEN_INTERFACE_MEMORY_H */
