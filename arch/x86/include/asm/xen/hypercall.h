/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hypercall wrappers for x86 Xen guests.
 *
 * Core x86 code includes this header unconditionally (the call-depth
 * tracking code needs to know the Xen entry points exist).  The wrappers
 * themselves come with the guest support; with CONFIG_XEN off there are
 * none.
 */
#ifndef _ASM_X86_XEN_HYPERCALL_H
#define _ASM_X86_XEN_HYPERCALL_H

#endif /* _ASM_X86_XEN_HYPERCALL_H */
