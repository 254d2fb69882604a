/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included by arch/x86/kernel/head_64.S into the kernel's head section.
 *
 * The pieces of a Xen guest that must live in the image itself: the
 * hypercall page Xen fills in, and the ELF notes Xen's domain builder
 * reads.  (The PVH entry point and its note are in arch/x86/platform/pvh.)
 * With CONFIG_XEN off it is empty.
 */
#ifdef CONFIG_XEN

#include <linux/elfnote.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/page_types.h>
#include <asm/unwind_hints.h>
#include <asm/nospec-branch.h>
#include <xen/interface/elfnote.h>

/*
 * One page of 32-byte stubs that Xen overwrites.  Until it does, each stub
 * traps: a hypercall made before the page is set up is a bug to catch, not
 * a call to return garbage from.
 */
	.pushsection .noinstr.text, "ax"
	.balign PAGE_SIZE
SYM_CODE_START(hypercall_page)
	.rept (PAGE_SIZE / 32)
		UNWIND_HINT_FUNC
		ANNOTATE_NOENDBR
		ud2
		.skip 30, 0xcc
	.endr
SYM_CODE_END(hypercall_page)
	.popsection

	ELFNOTE(Xen, XEN_ELFNOTE_GUEST_OS,	.asciz "linux")
	ELFNOTE(Xen, XEN_ELFNOTE_GUEST_VERSION,	.asciz "2.6")
	ELFNOTE(Xen, XEN_ELFNOTE_XEN_VERSION,	.asciz "xen-3.0")
	ELFNOTE(Xen, XEN_ELFNOTE_LOADER,	.asciz "generic")
	ELFNOTE(Xen, XEN_ELFNOTE_HYPERCALL_PAGE, _ASM_PTR hypercall_page)

#endif /* CONFIG_XEN */
