// SPDX-License-Identifier: GPL-2.0
/*
 * The privileged CPU state of a PV guest, through Xen.
 *
 * A PV kernel runs in ring 3: descriptor tables, debug registers, the
 * kernel stack of the TSS and the segment bases are Xen's to load, and
 * the guest asks for them with hypercalls.  These are the cpu paravirt
 * ops that do so.  Xen keeps a GDT or LDT page only while no writable
 * mapping of it exists, and writes its entries itself
 * (update_descriptor), after checking them.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>
#include <asm/desc.h>
#include <asm/debugreg.h>
#include <asm/paravirt.h>
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/interface.h>
#include <asm/xen/page.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>

#include "multicall.h"
#include "xen-ops.h"

/*
 * A PV guest's cpuid runs on the CPU and sees the host's features.
 * Behind Xen's forced-emulation prefix (ud2, then "xen") Xen emulates
 * the instruction instead and answers with the guest's policy.
 */
#define XEN_PV_FORCE_EMULATION	".byte 0x0f, 0x0b, 0x78, 0x65, 0x6e\n\t"

static void xen_pv_cpuid(unsigned int *ax, unsigned int *bx, unsigned int *cx,
			 unsigned int *dx)
{
	unsigned int leaf = *ax;

	asm volatile(XEN_PV_FORCE_EMULATION "cpuid"
		     : "+a" (*ax), "=b" (*bx), "+c" (*cx), "=d" (*dx));

	/*
	 * The APIC ids CPUID gives a PV guest say nothing of its vCPUs;
	 * the topology code compares them with the APIC driver's (the vCPU
	 * number, apic_pv.c), so they are made to agree.
	 */
	if (leaf == 1)
		*bx = (*bx & 0x00ffffff) |
		      (xen_vcpu_nr(raw_smp_processor_id()) << 24);
	else if (leaf == 0xb || leaf == 0x1f)
		*dx = xen_vcpu_nr(raw_smp_processor_id());
}

static unsigned long xen_pv_get_debugreg(int reg)
{
	return HYPERVISOR_get_debugreg(reg);
}

static void xen_pv_set_debugreg(int reg, unsigned long val)
{
	HYPERVISOR_set_debugreg(reg, val);
}

/* Only cr0.TS is the guest's to change (lazy FPU), through Xen. */
static void xen_pv_write_cr0(unsigned long cr0)
{
	HYPERVISOR_fpu_taskswitch(!!(cr0 & X86_CR0_TS));
}

static void xen_pv_wbinvd(void)
{
}

static void xen_pv_io_delay(void)
{
}

/* The stack Xen switches to when an event or trap comes from user mode. */
static void xen_pv_load_sp0(unsigned long sp0)
{
	int rc;

	/* In a context switch, it ends the switch's multicall. */
	if (!xen_pv_switch_end(__KERNEL_DS, sp0)) {
		rc = HYPERVISOR_stack_switch(__KERNEL_DS, sp0);
		if (rc)
			xen_pv_fatal("xen: stack_switch %#lx: %d\n", sp0, rc);
	}
	this_cpu_write(cpu_tss_rw.x86_tss.sp0, sp0);
}

/* A user segment register or base: queued in a context switch's tail. */
static void xen_pv_segment_base(int which, unsigned long val)
{
	if (xen_pv_switch_queue(__HYPERVISOR_set_segment_base, which, val))
		return;
	if (HYPERVISOR_set_segment_base(which, val))
		xen_pv_fatal("xen: segment base %d <- %#lx refused\n", which,
			     val);
}

static void xen_pv_load_gs_index(unsigned int sel)
{
	xen_pv_segment_base(SEGBASE_GS_USER_SEL, sel);
}

/*
 * The GS bases and FS base are Xen's to write.  The system call MSRs
 * are Xen's own (the guest registered its callbacks instead): writes to
 * them are dropped.  Other MSRs Xen emulates or refuses.
 */
static bool xen_pv_msr_is_xens(unsigned int msr)
{
	switch (msr) {
	case MSR_STAR:
	case MSR_LSTAR:
	case MSR_CSTAR:
	case MSR_SYSCALL_MASK:
	case MSR_IA32_SYSENTER_CS:
	case MSR_IA32_SYSENTER_ESP:
	case MSR_IA32_SYSENTER_EIP:
		return true;
	default:
		return false;
	}
}

static void xen_pv_write_msr(unsigned int msr, unsigned int lo, unsigned int hi)
{
	unsigned long val = ((u64)hi << 32) | lo;
	int which;

	if (xen_pv_msr_is_xens(msr))
		return;
	switch (msr) {
	case MSR_FS_BASE:
		which = SEGBASE_FS;
		break;
	case MSR_GS_BASE:
		which = SEGBASE_GS_KERNEL;
		break;
	case MSR_KERNEL_GS_BASE:
		which = SEGBASE_GS_USER;
		break;
	default:
		/* What Xen refuses is dropped, see xen_pv_read_msr(). */
		native_write_msr_safe(msr, lo, hi);
		return;
	}
	/* The kernel's own GS base is never queued: the kernel uses it. */
	if (which == SEGBASE_GS_KERNEL) {
		if (HYPERVISOR_set_segment_base(which, val))
			xen_pv_fatal("xen: kernel GS base %#lx refused\n", val);
		return;
	}
	xen_pv_segment_base(which, val);
}

/*
 * Xen emulates the MSRs a PV guest may see and refuses the rest (model
 * specific ones the generic code probes on the host's CPU model, like
 * AMD's interrupt-pending MSR).  A refused read gives 0, as reading a
 * register that is not there would.
 */
static u64 xen_pv_read_msr(unsigned int msr)
{
	int err;
	u64 val = native_read_msr_safe(msr, &err);

	return err ? 0 : val;
}

static int xen_pv_write_msr_safe(unsigned int msr, unsigned int lo,
				 unsigned int hi)
{
	if (xen_pv_msr_is_xens(msr))
		return 0;
	switch (msr) {
	case MSR_FS_BASE:
	case MSR_GS_BASE:
	case MSR_KERNEL_GS_BASE:
		xen_pv_write_msr(msr, lo, hi);
		return 0;
	default:
		return native_write_msr_safe(msr, lo, hi);
	}
}

/* The frame of the GDT each CPU loaded last (the GDT is one page). */
static DEFINE_PER_CPU(unsigned long, xen_pv_gdt_pfn) = INVALID_P2M_ENTRY;

/*
 * The GDT page goes read-only before Xen takes it; the page of the GDT
 * it replaces is writable again (the boot GDT is in init memory, which
 * is freed).  The CPU entry area maps the same page under another
 * address.
 */
static void xen_pv_load_gdt(const struct desc_ptr *dtr)
{
	unsigned long mfn = arbitrary_virt_to_mfn((void *)dtr->address);
	unsigned long pfn = mfn_to_pfn(mfn), prev;
	int rc;

	BUILD_BUG_ON(GDT_SIZE > PAGE_SIZE);
	if (pfn != INVALID_P2M_ENTRY)
		xen_pv_set_page_rw(pfn, false);
	rc = HYPERVISOR_set_gdt(&mfn, (dtr->size + 1) / sizeof(struct desc_struct));
	if (rc)
		xen_pv_fatal("xen: set_gdt %#lx refused: %d\n", dtr->address, rc);
	prev = this_cpu_xchg(xen_pv_gdt_pfn, pfn);
	if (prev != pfn && prev != INVALID_P2M_ENTRY)
		xen_pv_set_page_rw(prev, true);
}

/* A descriptor in a table Xen holds: Xen writes it. */
static void xen_pv_update_descriptor(const void *slot, const void *desc)
{
	u64 maddr = ((u64)arbitrary_virt_to_mfn(slot) << PAGE_SHIFT) |
		    offset_in_page(slot);
	u64 val;
	int rc;

	memcpy(&val, desc, sizeof(val));
	rc = HYPERVISOR_update_descriptor(maddr, val);
	if (rc)
		xen_pv_fatal("xen: descriptor %#llx refused: %d\n", val, rc);
}

/*
 * The TSS and LDT descriptors of the GDT are native only: Xen keeps
 * both itself (and refuses system descriptors), so they are skipped.
 */
static void xen_pv_write_gdt_entry(struct desc_struct *gdt, int entry,
				   const void *desc, int type)
{
	if (type == DESC_TSS || type == DESC_LDT)
		return;
	xen_pv_update_descriptor(&gdt[entry], desc);
}

static void xen_pv_write_ldt_entry(struct desc_struct *ldt, int entry,
				   const void *desc)
{
	xen_pv_update_descriptor(&ldt[entry], desc);
}

/* TLS entries live in the GDT: only those that change are written. */
static void xen_pv_load_tls(struct thread_struct *t, unsigned int cpu)
{
	struct desc_struct *gdt = get_cpu_gdt_rw(cpu);
	unsigned int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++) {
		struct desc_struct *slot = &gdt[GDT_ENTRY_TLS_MIN + i];

		if (memcmp(slot, &t->tls_array[i], sizeof(*slot)))
			xen_pv_update_descriptor(slot, &t->tls_array[i]);
	}
}

/*
 * LDT pages: read-only while Xen may use them, in every mapping (a large
 * LDT is vmalloc'ed: its vmalloc address is one more).
 */
static void xen_pv_ldt_pages_rw(struct desc_struct *ldt, unsigned int entries,
				bool rw)
{
	unsigned long va = (unsigned long)ldt;
	unsigned long end = va + entries * LDT_ENTRY_SIZE;

	for (va &= PAGE_MASK; va < end; va += PAGE_SIZE) {
		xen_pv_set_page_rw(PFN_DOWN(slow_virt_to_phys((void *)va)), rw);
		if (is_vmalloc_addr((void *)va))
			xen_pv_set_va_rw(va, rw);
	}
}

static void xen_pv_alloc_ldt(struct desc_struct *ldt, unsigned int entries)
{
	xen_pv_ldt_pages_rw(ldt, entries, false);
}

static void xen_pv_free_ldt(struct desc_struct *ldt, unsigned int entries)
{
	xen_pv_ldt_pages_rw(ldt, entries, true);
}

static void xen_pv_set_ldt(const void *addr, unsigned int entries)
{
	struct mmuext_op op = {
		.cmd = MMUEXT_SET_LDT,
		.arg1.linear_addr = entries ? (unsigned long)addr : 0,
		.arg2.nr_ents = entries,
	};
	int rc = xen_mc_mmuext_op(&op, 1);

	if (rc)
		xen_pv_fatal("xen: LDT %p (%u) refused: %d\n", addr, entries, rc);
}

static void xen_pv_load_tr_desc(void)
{
}

static unsigned long xen_pv_store_tr(void)
{
	return 0;
}

/**
 * xen_pv_init_cpu_ops() - install the CPU paravirt ops
 */
void __init xen_pv_init_cpu_ops(void)
{
	struct pv_cpu_ops *cpu = &pv_ops.cpu;

	cpu->cpuid = xen_pv_cpuid;
	cpu->get_debugreg = xen_pv_get_debugreg;
	cpu->set_debugreg = xen_pv_set_debugreg;
	cpu->write_cr0 = xen_pv_write_cr0;
	cpu->wbinvd = xen_pv_wbinvd;
	cpu->io_delay = xen_pv_io_delay;
	cpu->load_sp0 = xen_pv_load_sp0;
	cpu->load_gs_index = xen_pv_load_gs_index;
	cpu->read_msr = xen_pv_read_msr;
	cpu->write_msr = xen_pv_write_msr;
	cpu->write_msr_safe = xen_pv_write_msr_safe;
	cpu->load_gdt = xen_pv_load_gdt;
	cpu->load_idt = xen_pv_load_idt;
	cpu->store_tr = xen_pv_store_tr;
	cpu->load_tr_desc = xen_pv_load_tr_desc;
	cpu->write_gdt_entry = xen_pv_write_gdt_entry;
	cpu->write_ldt_entry = xen_pv_write_ldt_entry;
	cpu->write_idt_entry = xen_pv_write_idt_entry;
	cpu->load_tls = xen_pv_load_tls;
	cpu->alloc_ldt = xen_pv_alloc_ldt;
	cpu->free_ldt = xen_pv_free_ldt;
	cpu->set_ldt = xen_pv_set_ldt;
}
