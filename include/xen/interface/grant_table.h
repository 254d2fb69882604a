/* SPDX-License-Identifier: MIT */
/*
 * Grant tables: how a domain lets another map or copy its pages.
 *
 * The granting domain writes an entry in its grant table (version 1:
 * struct grant_entry_v1) naming the grantee and the frame; the grantee
 * then maps it (GNTTABOP_map_grant_ref) or copies to or from it
 * (GNTTABOP_copy) by reference.  While mapped or copied, Xen sets
 * GTF_reading or GTF_writing in the entry, and the granter may take the
 * grant back only when neither is set.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_GRANT_TABLE_H
#define _XEN_INTERFACE_GRANT_TABLE_H

#include <xen/interface/xen.h>

/* An index into the grant table. */
typedef u32 grant_ref_t;
/* A mapping handle, from GNTTABOP_map_grant_ref. */
typedef u32 grant_handle_t;

/**
 * struct grant_entry_v1 - one grant, version 1
 * @flags: GTF_* type and flags; written last when granting, first when
 *	revoking
 * @domid: the domain the grant is for
 * @frame: the frame granted
 */
struct grant_entry_v1 {
	u16 flags;
	domid_t domid;
	u32 frame;
};

/* The first entries are the toolstack's (console, xenstore). */
#define GNTTAB_NR_RESERVED_ENTRIES	8
#define GNTTAB_RESERVED_CONSOLE		0
#define GNTTAB_RESERVED_XENSTORE	1

/* Grant types, in flags bits 0-1. */
#define GTF_invalid		0U
#define GTF_permit_access	1U
#define GTF_accept_transfer	2U
#define GTF_transitive		3U
#define GTF_type_mask		3U
/* The grantee may only read. */
#define GTF_readonly		BIT(2)
/* Set by Xen while the grantee reads or writes the frame. */
#define GTF_reading		BIT(3)
#define GTF_writing		BIT(4)
#define GTF_PWT			BIT(5)
#define GTF_PCD			BIT(6)
#define GTF_PAT			BIT(7)
#define GTF_sub_page		BIT(8)
#define GTF_transfer_committed	BIT(2)
#define GTF_transfer_completed	BIT(3)

#define GNTTABOP_map_grant_ref		0
#define GNTTABOP_unmap_grant_ref	1
#define GNTTABOP_setup_table		2
#define GNTTABOP_dump_table		3
#define GNTTABOP_transfer		4
#define GNTTABOP_copy			5
#define GNTTABOP_query_size		6
#define GNTTABOP_unmap_and_replace	7
#define GNTTABOP_set_version		8
#define GNTTABOP_get_status_frames	9
#define GNTTABOP_get_version		10
#define GNTTABOP_swap_grant_ref		11
#define GNTTABOP_cache_flush		12

/* GNTTABOP_map_grant_ref flags. */
#define GNTMAP_device_map	BIT(0)
#define GNTMAP_host_map		BIT(1)
#define GNTMAP_readonly		BIT(2)
#define GNTMAP_application_map	BIT(3)
#define GNTMAP_contains_pte	BIT(4)

/**
 * struct gnttab_map_grant_ref - map another domain's grant
 * @host_addr: where to map it (a guest physical address for HVM/PVH)
 * @flags: GNTMAP_* flags
 * @ref: the grant reference
 * @dom: the granting domain
 * @status: out: a GNTST_* code
 * @handle: out: for the unmap
 * @dev_bus_addr: out: the frame's machine address (Xen 4.17 sets it on
 *	every successful map, GNTMAP_device_map or not)
 */
struct gnttab_map_grant_ref {
	u64 host_addr;
	u32 flags;
	grant_ref_t ref;
	domid_t dom;
	s16 status;
	grant_handle_t handle;
	u64 dev_bus_addr;
};

/**
 * struct gnttab_unmap_grant_ref - undo a map
 * @host_addr: where it was mapped
 * @dev_bus_addr: its bus address, or 0
 * @handle: the handle the map returned
 * @status: out: a GNTST_* code
 */
struct gnttab_unmap_grant_ref {
	u64 host_addr;
	u64 dev_bus_addr;
	grant_handle_t handle;
	s16 status;
};

/**
 * struct gnttab_setup_table - size the table, get its frames (PV)
 * @dom: DOMID_SELF
 * @nr_frames: how many frames
 * @status: out: a GNTST_* code
 * @frame_list: out: the frames
 */
struct gnttab_setup_table {
	domid_t dom;
	u32 nr_frames;
	s16 status;
	xen_pfn_t *frame_list;
};

/* GNTTABOP_copy flags: the source or destination is a grant reference. */
#define GNTCOPY_source_gref	BIT(0)
#define GNTCOPY_dest_gref	BIT(1)

/**
 * struct gnttab_copy_ptr - one side of a copy
 * @u: a grant reference (with the GNTCOPY_*_gref flag) or a frame
 * @u.ref: the grant reference
 * @u.gmfn: the frame
 * @domid: whose reference or frame (DOMID_SELF for our own)
 * @offset: byte offset in the page
 */
struct gnttab_copy_ptr {
	union {
		grant_ref_t ref;
		xen_pfn_t gmfn;
	} u;
	domid_t domid;
	u16 offset;
};

/**
 * struct gnttab_copy - copy bytes between pages, granted or own
 * @source: where from
 * @dest: where to
 * @len: how many bytes; neither side may cross its page
 * @flags: GNTCOPY_* flags
 * @status: out: a GNTST_* code
 */
struct gnttab_copy {
	struct gnttab_copy_ptr source, dest;
	u16 len;
	u16 flags;
	s16 status;
};

/**
 * struct gnttab_query_size - how big the table is and may grow
 * @dom: DOMID_SELF
 * @nr_frames: out: frames now
 * @max_nr_frames: out: frames at most
 * @status: out: a GNTST_* code
 */
struct gnttab_query_size {
	domid_t dom;
	u32 nr_frames;
	u32 max_nr_frames;
	s16 status;
};

/* GNTST_* status codes. */
#define GNTST_okay		0
#define GNTST_general_error	(-1)
#define GNTST_bad_domain	(-2)
#define GNTST_bad_gntref	(-3)
#define GNTST_bad_handle	(-4)
#define GNTST_bad_virt_addr	(-5)
#define GNTST_bad_dev_addr	(-6)
#define GNTST_no_device_space	(-7)
#define GNTST_permission_denied	(-8)
#define GNTST_bad_page		(-9)
#define GNTST_bad_copy_arg	(-10)
#define GNTST_address_too_big	(-11)
#define GNTST_eagain		(-12)
#define GNTST_no_space		(-13)

#endif /* _XEN_INTERFACE_GRANT_TABLE_H */
