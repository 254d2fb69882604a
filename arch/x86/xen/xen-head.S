/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included by arch/x86/kernel/head_64.S into the kernel's head section.
 *
 * The pieces of a Xen guest that must live in the image itself: the
 * hypercall page Xen fills in, and the ELF notes Xen's domain builder
 * reads, and the PV entry point.  (The PVH entry point and its note are in
 * arch/x86/platform/pvh.)  With CONFIG_XEN off it is empty.
 */
#ifdef CONFIG_XEN

#include <linux/elfnote.h>
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/page_types.h>
#include <asm/unwind_hints.h>
#include <asm/nospec-branch.h>
#include <asm/percpu.h>
#include <asm/xen/interface.h>
#include <xen/interface/elfnote.h>
#include <xen/interface/xen.h>

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
/* Modules make hypercalls too: the inline ones call into this page. */
EXPORT_SYMBOL_GPL(hypercall_page)

	ELFNOTE(Xen, XEN_ELFNOTE_GUEST_OS,	.asciz "linux")
	ELFNOTE(Xen, XEN_ELFNOTE_GUEST_VERSION,	.asciz "2.6")
	ELFNOTE(Xen, XEN_ELFNOTE_XEN_VERSION,	.asciz "xen-3.0")
	ELFNOTE(Xen, XEN_ELFNOTE_LOADER,	.asciz "generic")
	ELFNOTE(Xen, XEN_ELFNOTE_HYPERCALL_PAGE, _ASM_PTR hypercall_page)

#ifdef CONFIG_XEN_PV
/*
 * The PV entry point.  Xen's domain builder loads the image at its link
 * address (VIRT_BASE is the kernel map, and the physical addresses of the
 * ELF segments are offsets in it), maps the boot area at VIRT_BASE and
 * enters here in ring 3, with rsi pointing at start_info, a one-page
 * stack and events masked.  The hypercall page is already filled.
 *
 * The GS base is set first, through Xen (the stack protector's canary
 * lives in CPU 0's fixed per-CPU data); then xen_start_kernel() runs on
 * the init task's stack and never returns.
 */
	__INIT
SYM_CODE_START(startup_xen)
	UNWIND_HINT_END_OF_STACK
	ANNOTATE_NOENDBR
	movq	%rsi, %rbx			/* start_info, kept in a callee-saved register */
	leaq	__top_init_kernel_stack(%rip), %rsp
	cld
	movl	$SEGBASE_GS_KERNEL, %edi
	leaq	INIT_PER_CPU_VAR(fixed_percpu_data)(%rip), %rsi
	call	hypercall_page + __HYPERVISOR_set_segment_base * 32
	movq	%rbx, %rdi
	call	xen_start_kernel
SYM_CODE_END(startup_xen)
	__FINIT

	ELFNOTE(Xen, XEN_ELFNOTE_ENTRY,		_ASM_PTR startup_xen)
	ELFNOTE(Xen, XEN_ELFNOTE_VIRT_BASE,	_ASM_PTR __START_KERNEL_map)
	ELFNOTE(Xen, XEN_ELFNOTE_PADDR_OFFSET,	_ASM_PTR 0)
#endif /* CONFIG_XEN_PV */

#endif /* CONFIG_XEN */
