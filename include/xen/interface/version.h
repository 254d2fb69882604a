/* SPDX-License-Identifier: MIT */
/*
 * The xen_version hypercall: which version of Xen this is, how it was
 * built, and which optional features it offers this guest.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_VERSION_H
#define _XEN_INTERFACE_VERSION_H

#include <xen/interface/xen.h>

/* Returns (major << 16) | minor; takes no argument. */
#define XENVER_version		0

/* Fills a xen_extraversion_t: the version suffix, e.g. ".7-pre". */
#define XENVER_extraversion	1
typedef char xen_extraversion_t[16];

/* Fills a struct xen_compile_info. */
#define XENVER_compile_info	2
/**
 * struct xen_compile_info - how this build of Xen was made
 * @compiler: compiler version string
 * @compile_by: user who built it
 * @compile_domain: their domain
 * @compile_date: build date
 */
struct xen_compile_info {
	char compiler[64];
	char compile_by[16];
	char compile_domain[32];
	char compile_date[32];
};

/* Fills a xen_capabilities_info_t: guest ABIs offered, e.g. "xen-3.0-x86_64". */
#define XENVER_capabilities	3
typedef char xen_capabilities_info_t[1024];

/* Fills a xen_changeset_info_t: the source revision. */
#define XENVER_changeset	4
typedef char xen_changeset_info_t[64];

/* Fills a struct xen_platform_parameters. */
#define XENVER_platform_parameters 5
/**
 * struct xen_platform_parameters - layout of the address space
 * @virt_start: lowest virtual address Xen reserves in a PV guest
 */
struct xen_platform_parameters {
	xen_ulong_t virt_start;
};

/* Fills in submap of a struct xen_feature_info; bits are XENFEAT_*. */
#define XENVER_get_features	6
/**
 * struct xen_feature_info - one 32-bit word of the feature bitmap
 * @submap_idx: in: which word
 * @submap: out: its bits
 */
struct xen_feature_info {
	unsigned int submap_idx;
	u32 submap;
};

/* Returns the page size Xen uses for this guest. */
#define XENVER_pagesize		7

/* Fills a xen_domain_handle_t with the domain's UUID. */
#define XENVER_guest_handle	8

/* Fills a xen_commandline_t: Xen's own command line (privileged). */
#define XENVER_commandline	9
typedef char xen_commandline_t[1024];

/* Fills a struct xen_build_id with Xen's build id. */
#define XENVER_build_id		10
/**
 * struct xen_build_id - Xen's build id
 * @len: in: size of @buf; out: bytes written
 * @buf: the build id
 */
struct xen_build_id {
	u32 len;
	unsigned char buf[];
};

#endif /* _XEN_INTERFACE_VERSION_H */
