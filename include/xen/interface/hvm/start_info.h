/* SPDX-License-Identifier: MIT */
/*
 * The PVH boot ABI: what a PVH guest finds at entry.
 *
 * Xen (or another loader: QEMU, a boot loader) enters the kernel at the
 * XEN_ELFNOTE_PHYS32_ENTRY address in 32-bit protected mode, paging off,
 * with EBX holding the physical address of a struct hvm_start_info.
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_HVM_START_INFO_H
#define _XEN_INTERFACE_HVM_START_INFO_H

#include <linux/types.h>

/* hvm_start_info.magic */
#define XEN_HVM_START_MAGIC_VALUE	0x336ec578

/* Types of hvm_memmap_table_entry, as in the E820 map. */
#define XEN_HVM_MEMMAP_TYPE_RAM		1
#define XEN_HVM_MEMMAP_TYPE_RESERVED	2
#define XEN_HVM_MEMMAP_TYPE_ACPI	3
#define XEN_HVM_MEMMAP_TYPE_NVS		4
#define XEN_HVM_MEMMAP_TYPE_UNUSABLE	5
#define XEN_HVM_MEMMAP_TYPE_DISABLED	6
#define XEN_HVM_MEMMAP_TYPE_PMEM	7

/**
 * struct hvm_start_info - the PVH start info, at the address in EBX
 * @magic: XEN_HVM_START_MAGIC_VALUE
 * @version: 0, or 1 when the memory map fields are valid
 * @flags: SIF_* flags
 * @nr_modules: entries in the module list
 * @modlist_paddr: physical address of an array of struct hvm_modlist_entry
 * @cmdline_paddr: physical address of the NUL-terminated command line
 * @rsdp_paddr: physical address of the ACPI RSDP, 0 if none
 * @memmap_paddr: (version 1) physical address of an array of struct
 *	hvm_memmap_table_entry
 * @memmap_entries: (version 1) entries in the memory map
 * @reserved: zero
 */
struct hvm_start_info {
	u32 magic;
	u32 version;
	u32 flags;
	u32 nr_modules;
	u64 modlist_paddr;
	u64 cmdline_paddr;
	u64 rsdp_paddr;
	u64 memmap_paddr;
	u32 memmap_entries;
	u32 reserved;
};

/**
 * struct hvm_modlist_entry - one boot module (the initrd)
 * @paddr: its physical address
 * @size: its size in bytes
 * @cmdline_paddr: physical address of its command line, 0 if none
 * @reserved: zero
 */
struct hvm_modlist_entry {
	u64 paddr;
	u64 size;
	u64 cmdline_paddr;
	u64 reserved;
};

/**
 * struct hvm_memmap_table_entry - one range of the memory map
 * @addr: base address
 * @size: size in bytes
 * @type: an XEN_HVM_MEMMAP_TYPE_* value
 * @reserved: zero
 */
struct hvm_memmap_table_entry {
	u64 addr;
	u64 size;
	u32 type;
	u32 reserved;
};

#endif /* _XEN_INTERFACE_HVM_START_INFO_H */
