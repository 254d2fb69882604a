/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included by arch/x86/kernel/head_64.S into the kernel's head section.
 *
 * This is where a Xen guest's boot-time pieces go that must live in the
 * image itself: the ELF notes Xen's domain builder reads, the hypercall
 * page and the PV entry point.  With CONFIG_XEN off it is empty.
 */
