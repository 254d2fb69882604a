/* SPDX-License-Identifier: MIT */
/*
 * Feature bits reported by XENVER_get_features.  Submap 0 holds bits 0-31.
 *
 * Constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_FEATURES_H
#define _XEN_INTERFACE_FEATURES_H

/* PV: page tables may be mapped writable; Xen emulates the writes. */
#define XENFEAT_writable_page_tables		0
/* PV: descriptor tables may be mapped writable. */
#define XENFEAT_writable_descriptor_tables	1
/* Xen translates guest frame numbers (HVM, PVH): no P2M in the guest. */
#define XENFEAT_auto_translated_physmap		2
/* The guest kernel runs in ring 0. */
#define XENFEAT_supervisor_mode_kernel		3
/* PV (32-bit PAE): the top-level table may sit above 4 GiB. */
#define XENFEAT_pae_pgdir_above_4gb		4
/* MMU_PT_UPDATE_PRESERVE_AD is available. */
#define XENFEAT_mmu_pt_update_preserve_ad	5
/* MMUEXT_CLEAR_PAGE and MMUEXT_COPY_PAGE are available. */
#define XENFEAT_highmem_assist			6
/* Grant mappings may use the PTE's available bits. */
#define XENFEAT_gnttab_map_avail_bits		7
/* HVM: events may be delivered through a callback vector. */
#define XENFEAT_hvm_callback_vector		8
/* HVM: the pvclock is safe to use. */
#define XENFEAT_hvm_safe_pvclock		9
/* HVM: physical IRQs may be routed as event channels. */
#define XENFEAT_hvm_pirqs			10
/* This domain is dom0. */
#define XENFEAT_dom0				11
/* 12 is retired. */
/* XENMEM_* operations take a vNUMA node. */
#define XENFEAT_memory_op_vnode_supported	13
/* Arm: SMCCC is available. */
#define XENFEAT_ARM_SMCCC_supported		14
/* PVH dom0: the ACPI RSDP may be anywhere, not only below 1 MiB. */
#define XENFEAT_linux_rsdp_unrestricted		15
/* The domain's memory is not direct mapped (Arm). */
#define XENFEAT_not_direct_mapped		16
/* The domain's memory is direct mapped (Arm). */
#define XENFEAT_direct_mapped			17

#define XENFEAT_NR_SUBMAPS			1

#endif /* _XEN_INTERFACE_FEATURES_H */
