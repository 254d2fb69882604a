/* SPDX-License-Identifier: MIT */
/*
 * ELF notes a guest kernel carries (name "Xen") to tell Xen's domain
 * builder how to load and enter it.
 *
 * Constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_ELFNOTE_H
#define _XEN_INTERFACE_ELFNOTE_H

#define XEN_ELFNOTE_INFO		0	/* unused */
#define XEN_ELFNOTE_ENTRY		1	/* PV entry point (virtual) */
#define XEN_ELFNOTE_HYPERCALL_PAGE	2	/* where Xen writes the stubs */
#define XEN_ELFNOTE_VIRT_BASE		3	/* virtual address of the image */
#define XEN_ELFNOTE_PADDR_OFFSET	4	/* virtual minus load address */
#define XEN_ELFNOTE_XEN_VERSION		5	/* "xen-3.0" */
#define XEN_ELFNOTE_GUEST_OS		6	/* "linux" */
#define XEN_ELFNOTE_GUEST_VERSION	7	/* kernel version string */
#define XEN_ELFNOTE_LOADER		8	/* "generic" */
#define XEN_ELFNOTE_PAE_MODE		9	/* "yes" (32-bit PV only) */
#define XEN_ELFNOTE_FEATURES		10	/* XENFEAT_* names, '|' separated */
#define XEN_ELFNOTE_BSD_SYMTAB		11	/* load the symbol table (BSD) */
#define XEN_ELFNOTE_HV_START_LOW	12	/* lowest address Xen may use */
#define XEN_ELFNOTE_L1_MFN_VALID	13	/* mask and value of valid L1 PTEs */
#define XEN_ELFNOTE_SUSPEND_CANCEL	14	/* supports suspend cancellation */
#define XEN_ELFNOTE_INIT_P2M		15	/* where to map the initial P2M */
#define XEN_ELFNOTE_MOD_START_PFN	16	/* takes mod_start as a frame */
#define XEN_ELFNOTE_SUPPORTED_FEATURES	17	/* XENFEAT_* bitmap */
#define XEN_ELFNOTE_PHYS32_ENTRY	18	/* PVH entry point (physical) */
#define XEN_ELFNOTE_MAX			XEN_ELFNOTE_PHYS32_ENTRY

/*
 * Newer than Xen 4.17, which ignores it: the alignment, lowest and highest
 * load address at which a loader may place a relocatable PVH kernel.
 * Linux's PVH entry code emits it.
 */
#define XEN_ELFNOTE_PHYS32_RELOC	19

#endif /* _XEN_INTERFACE_ELFNOTE_H */
