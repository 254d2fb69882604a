// SPDX-License-Identifier: GPL-2.0
/*
 * The MMU of a PV guest.
 *
 * A PV guest's page tables are read-only to it: Xen checks every entry
 * that goes in (it must name a frame the guest owns, with flags Xen
 * allows) and keeps the type of each frame (page table of level N, or
 * plain page), so that no frame is at once a page table and writable.
 * The guest writes entries with the mmu_update hypercall, loads cr3
 * with mmuext_op NEW_BASEPTR and flushes TLBs with mmuext_op too.
 *
 * Entries hold machine frames.  The rest of Linux thinks in its own
 * page frames, so the paravirt ops that make and read entries translate
 * through the P2M and the M2P (asm/xen/page.h).
 *
 * Writes are batched (mcb.h): in a lazy MMU section (the generic code
 * opens one around fork's copy, zap, mprotect and the like) every entry
 * joins the CPU's batch, consecutive ones merge into one mmu_update,
 * and the batch goes to Xen as one multicall when the section ends, when
 * it is full, or when something must see the updates.
 *
 * Fault-around maps up to 16 pages of a file per fault with a set_pte()
 * each and no lazy section.  Such an entry (none to present, in a
 * process's PTE table whose lock is held) joins the batch too, and the
 * batch goes out before that lock is released (spinlock_pv.c), or
 * before anything else that must see it.  Until then nobody can look:
 * every writer of a process's PTEs holds the table's lock, another CPU
 * reads the entry only under it (or falls back to it), and an entry the
 * hardware does not see yet only costs a fault that waits for it.  Code
 * that uses a mapping it made under the lock loads its mm first
 * (text_poke's temporary mm), and cr3 sends the batch.  Leaf writes into
 * PMD tables (huge pages) would wait too and could be read back under
 * the lock: there are none, a PV guest has no PSE.
 *
 * This file covers the kernel's own page tables (init_mm): the boot
 * handoff from the tables Xen built, entry updates, cr2/cr3 and TLB
 * flushes.  Page tables of user processes are pinned when they are
 * given to a CPU, each PTE table under its lock (mmu_pin_pv.c).  The
 * pfn <-> mfn conversion of every entry is inline (p2m.h).
 */
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/pgtable.h>
#include <linux/sched.h>
#include <asm/fixmap.h>
#include <asm/paravirt.h>
#include <asm/pgalloc.h>
#include <asm/sections.h>
#include <asm/setup.h>
#include <asm/tlbflush.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/interface/xen.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "multicall.h"
#include "p2m.h"
#include "xen-ops.h"

/* What is open on this CPU: nothing, a lazy MMU section or a context switch. */
enum xen_pv_lazy {
	XEN_PV_LAZY_NONE,
	XEN_PV_LAZY_MMU,
	XEN_PV_LAZY_CPU,
};

static DEFINE_PER_CPU(enum xen_pv_lazy, xen_pv_lazy);
static DEFINE_PER_CPU(struct xen_mcb, xen_pv_mcb);
/* Between the end of a context switch's lazy section and load_sp0. */
static DEFINE_PER_CPU(bool, xen_pv_switch_tail);
/* The page-table lock whose release must send this CPU's batch first. */
DEFINE_PER_CPU(struct qspinlock *, xen_pv_unlock_sends);
/* cr3 as Linux sees it: the physical address of the L4 (a pfn). */
static DEFINE_PER_CPU(unsigned long, xen_pv_cr3);

/*
 * Entries: pfn <-> mfn.  Not-present entries (swap entries, PROT_NONE)
 * carry no frame and pass as they are.  A frame that is not the
 * guest's own reads back as xen_foreign_pfn(mfn) and goes in again as
 * the same mfn, so that code that reads an entry and writes it back
 * changed (set_memory_*, mprotect) keeps the frame.
 */
static u64 xen_pv_to_machine(u64 val)
{
	unsigned long pfn, mfn;

	if (!(val & _PAGE_PRESENT))
		return val;
	pfn = (val & PTE_PFN_MASK) >> PAGE_SHIFT;
	if (pfn & XEN_FOREIGN_PFN_BIT)
		return val & ~((u64)XEN_FOREIGN_PFN_BIT << PAGE_SHIFT);
	mfn = __xen_p2m_entry(pfn);
	if (unlikely(mfn == INVALID_P2M_ENTRY))
		return 0;	/* nothing behind the pfn: map nothing */
	mfn &= ~IDENTITY_FRAME_BIT;
	return (val & ~PTE_PFN_MASK) | ((u64)mfn << PAGE_SHIFT);
}

static u64 xen_pv_from_machine(u64 val)
{
	unsigned long pfn;

	if (!(val & _PAGE_PRESENT))
		return val;
	pfn = __xen_m2p_entry((val & PTE_PFN_MASK) >> PAGE_SHIFT);
	if (unlikely(pfn == INVALID_P2M_ENTRY))
		return val | ((u64)XEN_FOREIGN_PFN_BIT << PAGE_SHIFT);
	return (val & ~PTE_PFN_MASK) | ((u64)pfn << PAGE_SHIFT);
}

/* One pair serves every level: entries of all levels share the layout. */
__visible u64 xen_pv_entry_val(u64 val)
{
	return xen_pv_from_machine(val);
}

PV_CALLEE_SAVE_REGS_THUNK(xen_pv_entry_val);

__visible u64 xen_pv_make_entry(u64 val)
{
	return xen_pv_to_machine(val);
}

PV_CALLEE_SAVE_REGS_THUNK(xen_pv_make_entry);

/* The machine address of a page-table entry (in the direct map or the image). */
static u64 xen_pv_entry_maddr(const void *entry)
{
	phys_addr_t pa = __pa(entry);

	return ((u64)(__xen_p2m_entry(PHYS_PFN(pa)) & ~IDENTITY_FRAME_BIT) <<
		PAGE_SHIFT) | offset_in_page(pa);
}

static void xen_pv_mmu_failed(const char *what, u64 where, u64 val, int rc)
{
	xen_pv_fatal("xen: %s %#llx <- %#llx refused: %d\n", what, where, val,
		     rc);
}

/*
 * Xen checks every entry, so a refused one is a bug of this file: the
 * page tables no longer say what Linux thinks they say, and going on
 * would corrupt memory.
 */
static void xen_pv_mcb_flush(enum xen_mc_reason why)
{
	int rc;

	this_cpu_write(xen_pv_unlock_sends, NULL);
	rc = xen_mcb_send(this_cpu_ptr(&xen_pv_mcb), why);
	if (rc)
		xen_pv_fatal("xen: batch of page-table or switch calls refused: %d\n",
			     rc);
}

/*
 * Before a request goes to Xen on its own: what the batch holds (entries
 * queued under a page-table lock) goes first, in order.  Task context
 * only: the batch is the interrupted task's.  Preemption off.
 */
static void xen_pv_drain(void)
{
	if (in_task() && !xen_mcb_empty(this_cpu_ptr(&xen_pv_mcb)))
		xen_pv_mcb_flush(XEN_MC_SYNC);
}

/**
 * xen_pv_unlock_send() - send the batch before a page-table lock goes
 *
 * Called by the spinlock unlock (spinlock_pv.c) when the lock is the
 * one entries were queued under.
 */
void xen_pv_unlock_send(void)
{
	/* Entries are queued in task context, and the lock is the task's. */
	if (!WARN_ON_ONCE(!in_task()))
		xen_pv_mcb_flush(XEN_MC_UNLOCK);
}

/*
 * Batching: requests join this CPU's batch inside a lazy section (MMU or
 * context switch) and inside xen_pv_batch_begin()/end() (pinning), and
 * go to Xen one by one otherwise.  An interrupt handler never touches
 * the batch: what it asks (a TLB flush for another CPU, say) must be
 * done before it returns, and the task it interrupted may be halfway
 * through queueing a request.  Called with preemption off.
 */
static DEFINE_PER_CPU(unsigned int, xen_pv_batching);

static bool xen_pv_batched(void)
{
	return in_task() &&
	       (this_cpu_read(xen_pv_lazy) != XEN_PV_LAZY_NONE ||
		this_cpu_read(xen_pv_batching));
}

/**
 * xen_pv_batch_begin() - queue the MMU requests that follow
 *
 * Until xen_pv_batch_end(), entry writes, mmuext operations and the
 * remapping of pages read-only or writable join this CPU's batch.
 * Disables preemption; nests.
 */
void xen_pv_batch_begin(void)
{
	preempt_disable();
	this_cpu_inc(xen_pv_batching);
}

/**
 * xen_pv_batch_send() - send what is queued so far, and stay in the batch
 *
 * For a caller that must know Xen has done the requests before it goes
 * on: pinning, before it lets go of the tables' locks.
 */
void xen_pv_batch_send(void)
{
	preempt_disable();
	xen_pv_mcb_flush(XEN_MC_SYNC);
	preempt_enable();
}

/**
 * xen_pv_batch_end() - send what xen_pv_batch_begin() queued
 */
void xen_pv_batch_end(void)
{
	if (!this_cpu_dec_return(xen_pv_batching) &&
	    this_cpu_read(xen_pv_lazy) == XEN_PV_LAZY_NONE)
		xen_pv_mcb_flush(XEN_MC_SYNC);
	preempt_enable();
}

/*
 * Struct pages say which page-table pages Xen holds (PG_pinned), once
 * they exist and the kernel's own tables are marked (pagetable_init).
 * Before that, the mapping the entry is written through says: Xen lets
 * no page it holds as a table be mapped writable, so a table mapped
 * writable is not one yet (the boot's new tables, filled before they
 * are made read-only and linked in) and is written directly.
 */
static bool xen_pv_flags_ready __ro_after_init;

static bool xen_pv_xens_table(const void *entry)
{
	unsigned int level;
	pte_t *pte;

	if (READ_ONCE(xen_pv_flags_ready))
		return PagePinned(virt_to_page(entry));
	pte = lookup_address((unsigned long)entry, &level);
	return !pte || !(native_pte_val(*pte) & _PAGE_RW);
}

/*
 * May this entry write wait in the batch until its table's lock is
 * released?  Only a new read-only mapping (none to present) in a
 * process's PTE table (a page of type table: the kernel's have none)
 * whose lock is held, in task context.  Read-only: fault-around maps
 * up to 16 pages of a file that way, one write each, which is what
 * waiting batches; a writable new mapping is a write fault's single
 * page (anonymous memory, a private copy), which gains nothing from
 * waiting and would go out through the unlock instead of at once.
 * Records the lock; entries under another lock send the batch first.
 * Preemption off.
 */
static bool xen_pv_defer(const void *entry, u64 val)
{
#ifdef CONFIG_SPLIT_PTE_PTLOCKS
	struct qspinlock *lock, *cur;

	if (!xen_pv_spinlocks_on || (val & (_PAGE_PRESENT | _PAGE_RW)) !=
	    _PAGE_PRESENT || READ_ONCE(*(const u64 *)entry) || !in_task() ||
	    !PageTable(virt_to_page(entry)))
		return false;
	lock = &ptlock_ptr(virt_to_ptdesc(entry))->rlock.raw_lock;
	/* Held (by this CPU: writers hold it), not merely waited for. */
	if (!READ_ONCE(lock->locked))
		return false;
	cur = this_cpu_read(xen_pv_unlock_sends);
	if (cur != lock) {
		if (cur)
			xen_pv_mcb_flush(XEN_MC_SYNC);
		this_cpu_write(xen_pv_unlock_sends, lock);
	}
	return true;
#else
	return false;
#endif
}

/* Does a present entry map a frame that is not this domain's? */
static bool xen_pv_foreign_entry(u64 val)
{
	return (val & _PAGE_PRESENT) &&
	       __xen_m2p_entry((val & PTE_PFN_MASK) >> PAGE_SHIFT) ==
	       INVALID_P2M_ENTRY;
}

/*
 * Write one entry.  A table Xen does not hold yet (a process's before
 * it is first loaded) is ordinary memory: the entry is stored.  One Xen
 * holds takes mmu_update, batched when batching, for a PTE (@leaf) only:
 * the generic code reads a pmd, pud or p4d it has just set (to walk on
 * to the table it links), so those go to Xen at once, after what the
 * batch holds.
 */
static void xen_pv_update(void *entry, u64 val, bool leaf)
{
	u64 ptr = xen_pv_entry_maddr(entry) | MMU_NORMAL_PT_UPDATE;
	struct mmu_update *u, one;
	struct qspinlock *lock;
	struct xen_mcb *b;
	int rc;

	if (!xen_pv_xens_table(entry)) {
		WRITE_ONCE(*(u64 *)entry, val);
		return;
	}
	preempt_disable();
	if (leaf && (xen_pv_batched() || xen_pv_defer(entry, val))) {
		b = this_cpu_ptr(&xen_pv_mcb);
		u = xen_mcb_mmu_update(b, 1);
		if (!u) {
			/* Sending clears the lock to send at: set it again. */
			lock = this_cpu_read(xen_pv_unlock_sends);
			xen_pv_mcb_flush(XEN_MC_FULL);
			this_cpu_write(xen_pv_unlock_sends, lock);
			u = xen_mcb_mmu_update(b, 1);
		}
		u->ptr = ptr;
		u->val = val;
		preempt_enable();
		return;
	}
	xen_pv_drain();
	preempt_enable();
	one.ptr = ptr;
	one.val = val;
	rc = xen_mc_mmu_update(&one, 1);
	if (rc && leaf && xen_pv_foreign_entry(val)) {
		/*
		 * Another domain's frame (a toolstack's mapping) written as
		 * ours, as mremap writes what it moves: Xen refuses it and
		 * the entry stays empty, which costs the process the page,
		 * not the kernel.
		 */
		pr_warn_ratelimited("xen: entry %#llx: another domain's frame %#llx cannot be mapped as ours (%d); left unmapped\n",
				    ptr, (val & PTE_PFN_MASK) >> PAGE_SHIFT, rc);
		return;
	}
	if (rc)
		xen_pv_mmu_failed("mmu_update", ptr, val, rc);
}

/* Remap one page: batched when batching. */
static void xen_pv_va_mapping(unsigned long va, u64 val)
{
	struct multicall_entry *e;
	struct xen_mcb *b;
	int rc;

	preempt_disable();
	if (xen_pv_batched()) {
		b = this_cpu_ptr(&xen_pv_mcb);
		e = xen_mcb_call(b, __HYPERVISOR_update_va_mapping, va, val,
				 UVMF_INVLPG);
		if (!e) {
			xen_pv_mcb_flush(XEN_MC_FULL);
			xen_mcb_call(b, __HYPERVISOR_update_va_mapping, va, val,
				     UVMF_INVLPG);
		}
		preempt_enable();
		return;
	}
	xen_pv_drain();
	preempt_enable();
	rc = xen_mc_va_mapping(va, val, UVMF_INVLPG);
	if (rc)
		xen_pv_mmu_failed("update_va_mapping", va, val, rc);
}

static void xen_pv_set_pte(pte_t *ptep, pte_t pte)
{
	xen_pv_update(ptep, native_pte_val(pte), true);
}

static void xen_pv_set_pmd(pmd_t *pmdp, pmd_t pmd)
{
	xen_pv_update(pmdp, pmd.pmd, false);
}

static void xen_pv_set_pud(pud_t *pudp, pud_t pud)
{
	xen_pv_update(pudp, pud.pud, false);
}

/*
 * With four levels, p4d entries are the L4's.  Those of the user half
 * go to the process's user L4 as well.
 */
static void xen_pv_set_p4d(p4d_t *p4dp, p4d_t p4d)
{
	unsigned long index = offset_in_page(p4dp) / sizeof(*p4dp);
	pgd_t *user;

	xen_pv_update(p4dp, native_p4d_val(p4d), false);
	if (index >= XEN_PV_USER_PGDS)
		return;
	user = xen_pv_user_pgd((pgd_t *)((unsigned long)p4dp & PAGE_MASK));
	if (user)
		xen_pv_update(&user[index], native_p4d_val(p4d), false);
}

/* Lazy sections. */
static void xen_pv_enter_lazy_mmu(void)
{
	this_cpu_write(xen_pv_lazy, XEN_PV_LAZY_MMU);
}

static void xen_pv_flush_lazy_mmu(void)
{
	preempt_disable();
	if (this_cpu_read(xen_pv_lazy) == XEN_PV_LAZY_MMU)
		xen_pv_mcb_flush(XEN_MC_SYNC);
	preempt_enable();
}

static void xen_pv_leave_lazy_mmu(void)
{
	preempt_disable();
	xen_pv_mcb_flush(XEN_MC_LAZY);
	this_cpu_write(xen_pv_lazy, XEN_PV_LAZY_NONE);
	preempt_enable();
}

/*
 * A context switch may come in the middle of a lazy MMU section (the
 * section then belongs to the task switched out): its updates go to Xen
 * first, and the section opens again when the task comes back.
 */
void xen_pv_start_context_switch(struct task_struct *prev)
{
	/* The last switch's tail ends with load_sp0, which sends it. */
	if (WARN_ON_ONCE(this_cpu_read(xen_pv_switch_tail)))
		this_cpu_write(xen_pv_switch_tail, false);
	xen_pv_drain();
	if (this_cpu_read(xen_pv_lazy) == XEN_PV_LAZY_MMU)
		set_ti_thread_flag(task_thread_info(prev), TIF_LAZY_MMU_UPDATES);
	this_cpu_write(xen_pv_lazy, XEN_PV_LAZY_CPU);
}

void xen_pv_end_context_switch(struct task_struct *next)
{
	xen_pv_mcb_flush(XEN_MC_LAZY);
	this_cpu_write(xen_pv_lazy, XEN_PV_LAZY_NONE);
	if (test_and_clear_ti_thread_flag(task_thread_info(next),
					  TIF_LAZY_MMU_UPDATES))
		xen_pv_enter_lazy_mmu();
	this_cpu_write(xen_pv_switch_tail, true);
}

/*
 * The tail of a context switch: after the lazy section above, __switch_to
 * loads the next task's FS base and GS selector (up to three
 * set_segment_base calls, two of them for a null GS on AMD) and then its
 * kernel stack (load_sp0, stack_switch), with interrupts off.  All of it
 * matters only once the task is back in user mode, and nothing reads it
 * on the way, so it goes to Xen as one multicall, sent by load_sp0.
 */

/**
 * xen_pv_switch_queue() - queue a call of the context switch's tail
 * @op: the hypercall (set_segment_base or stack_switch)
 * @a0: its first argument
 * @a1: its second argument
 *
 * Return: true if queued, false outside the tail (the caller makes the
 * call itself).
 */
bool xen_pv_switch_queue(unsigned int op, unsigned long a0, unsigned long a1)
{
	struct xen_mcb *b;

	/* Also called with preemption on (exec's load_gs_index). */
	if (!raw_cpu_read(xen_pv_switch_tail))
		return false;
	lockdep_assert_irqs_disabled();
	b = this_cpu_ptr(&xen_pv_mcb);
	if (!xen_mcb_call(b, op, a0, a1, 0)) {
		xen_pv_mcb_flush(XEN_MC_FULL);
		xen_mcb_call(b, op, a0, a1, 0);
	}
	return true;
}

/**
 * xen_pv_switch_end() - end the context switch's tail with its stack
 * @ss: the kernel stack segment
 * @sp0: the next task's kernel stack
 *
 * Queues the stack_switch and sends all the tail queued, as one multicall.
 *
 * Return: true if done so, false outside the tail (the caller makes the
 * call itself).
 */
bool xen_pv_switch_end(unsigned long ss, unsigned long sp0)
{
	if (!xen_pv_switch_queue(__HYPERVISOR_stack_switch, ss, sp0))
		return false;
	this_cpu_write(xen_pv_switch_tail, false);
	xen_pv_mcb_flush(XEN_MC_SWITCH);
	return true;
}

/* An mmuext_op, batched like the entry writes in a lazy section. */
void xen_pv_mmuext(unsigned int cmd, unsigned long arg1, unsigned long arg2)
{
	struct mmuext_op *op, one;
	struct xen_mcb *b;
	int rc;

	preempt_disable();
	if (xen_pv_batched()) {
		b = this_cpu_ptr(&xen_pv_mcb);
		op = xen_mcb_mmuext(b, 1);
		if (!op) {
			xen_pv_mcb_flush(XEN_MC_FULL);
			op = xen_mcb_mmuext(b, 1);
		}
	} else {
		xen_pv_drain();
		op = &one;
	}
	op->cmd = cmd;
	op->arg1.mfn = arg1;
	op->arg2.nr_ents = arg2;
	if (op == &one) {
		rc = xen_mc_mmuext_op(op, 1);
		if (rc)
			xen_pv_mmu_failed("mmuext_op", cmd, arg1, rc);
	}
	preempt_enable();
}

/*
 * cr2 is in the vcpu_info: Xen writes it there before it enters #PF.
 * Read first thing in the #PF and NMI entries, before anything may be
 * traced (a traced fault would overwrite it).
 */
__visible noinstr unsigned long xen_pv_read_cr2(void)
{
	return this_cpu_read(xen_vcpu)->arch.cr2;
}

__PV_CALLEE_SAVE_REGS_THUNK(xen_pv_read_cr2, ".noinstr.text");

static void xen_pv_write_cr2(unsigned long cr2)
{
	this_cpu_read(xen_vcpu)->arch.cr2 = cr2;
}

static unsigned long xen_pv_read_cr3(void)
{
	return this_cpu_read(xen_pv_cr3);
}

/*
 * Load an L4.  Xen flushes the TLB (of everything but global pages,
 * which a PV guest does not have).  The L4 must be validated already:
 * init_mm's is pinned at boot, a process's when it is activated.
 */
static void xen_pv_write_cr3(unsigned long cr3)
{
	unsigned long mfn = pfn_to_mfn(PFN_DOWN(cr3));

	pgd_t *user = NULL;

	if (cr3 != __pa_symbol(init_top_pgt)) {
		pgd_t *pgd = __va(cr3 & PAGE_MASK);

		/* enter_mmap pinned it; Xen would refuse it as it is. */
		if (unlikely(!PagePinned(virt_to_page(pgd))))
			xen_pv_fatal("xen: cr3 %#lx: a pgd that is not pinned\n",
				     cr3);
		user = xen_pv_user_pgd(pgd);
	}
	this_cpu_write(xen_pv_cr3, cr3);
	xen_pv_mmuext(MMUEXT_NEW_BASEPTR, mfn, 0);
	xen_pv_mmuext(MMUEXT_NEW_USER_BASEPTR, user ? virt_to_mfn(user) : 0, 0);
}

/*
 * TLB flushes are done when the call returns, as the generic code
 * expects: after what the batch holds (the entries they are about),
 * never left in it.
 */
static void xen_pv_sync(void)
{
	preempt_disable();
	xen_pv_drain();
	preempt_enable();
}

static void xen_pv_tlb_op(unsigned int cmd, unsigned long addr)
{
	struct mmuext_op op = { .cmd = cmd, .arg1.linear_addr = addr };
	int rc;

	xen_pv_sync();
	rc = xen_mc_mmuext_op(&op, 1);
	if (rc)
		xen_pv_mmu_failed("TLB flush", cmd, addr, rc);
}

static void xen_pv_flush_tlb(void)
{
	xen_pv_tlb_op(MMUEXT_TLB_FLUSH_LOCAL, 0);
}

static void xen_pv_flush_tlb_one_user(unsigned long addr)
{
	xen_pv_tlb_op(MMUEXT_INVLPG_LOCAL, addr & PAGE_MASK);
}

static void xen_pv_flush_tlb_multi(const struct cpumask *cpus,
				   const struct flush_tlb_info *info)
{
	struct mmuext_op op = {};
	struct cpumask vcpus;
	unsigned int cpu;
	int rc;

	/* Xen wants a bitmap of vCPU numbers, which cpumask_t can hold. */
	cpumask_clear(&vcpus);
	for_each_cpu(cpu, cpus)
		__cpumask_set_cpu(xen_vcpu_nr(cpu), &vcpus);
	op.arg2.vcpumask = cpumask_bits(&vcpus);
	if (info->end != TLB_FLUSH_ALL &&
	    info->end - info->start <= PAGE_SIZE) {
		op.cmd = MMUEXT_INVLPG_MULTI;
		op.arg1.linear_addr = info->start;
	} else {
		op.cmd = MMUEXT_TLB_FLUSH_MULTI;
	}
	xen_pv_sync();
	rc = xen_mc_mmuext_op(&op, 1);
	if (rc)
		xen_pv_mmu_failed("flush", op.cmd, 0, rc);
}

/**
 * xen_pv_set_va_rw() - map one kernel address writable or read-only
 * @va: a mapped kernel address (vmalloc, say), page aligned
 * @rw: writable?
 *
 * For a mapping xen_pv_set_page_rw() does not know of.
 */
void xen_pv_set_va_rw(unsigned long va, bool rw)
{
	unsigned int level;
	pte_t *pte = lookup_address(va, &level);
	u64 val;

	if (!pte || level != PG_LEVEL_4K || !pte_present(*pte))
		return;
	val = native_pte_val(*pte);
	val = rw ? val | _PAGE_RW : val & ~_PAGE_RW;
	if (val != native_pte_val(*pte))
		xen_pv_va_mapping(va, val);
}

/**
 * xen_pv_set_page_rw() - map a page writable or read-only, everywhere
 * @pfn: the page
 * @rw: writable?
 *
 * Xen refuses a page as a page table (or descriptor table) while it is
 * mapped writable anywhere, and refuses a writable mapping of one that
 * is.  A page of the kernel has two mappings: the direct map and, for
 * the image, the kernel map.  Either may not exist yet.  The page's
 * PG_pinned says which it is, once struct pages exist.
 */
void xen_pv_set_page_rw(unsigned long pfn, bool rw)
{
	unsigned long va[2] = { (unsigned long)__va(PFN_PHYS(pfn)), 0 };
	unsigned int i;

	if (READ_ONCE(xen_pv_flags_ready)) {
		if (rw)
			ClearPagePinned(pfn_to_page(pfn));
		else
			SetPagePinned(pfn_to_page(pfn));
	}
	if (PFN_PHYS(pfn) >= __pa_symbol(_text) &&
	    PFN_PHYS(pfn) < __pa_symbol(_end))
		va[1] = (unsigned long)__START_KERNEL_map + PFN_PHYS(pfn) -
			phys_base;
	for (i = 0; i < ARRAY_SIZE(va) && va[i]; i++)
		xen_pv_set_va_rw(va[i], rw);
}

/* Boot: from the page tables Xen built to the kernel's own. */

/* A boot-area page by machine frame (Xen maps all of it at the kernel map). */
static void *__init xen_pv_boot_va(u64 entry)
{
	unsigned long mfn = (entry & PTE_PFN_MASK) >> PAGE_SHIFT;

	return (void *)(__START_KERNEL_map + PFN_PHYS(xen_m2p_entry(mfn)));
}

static u64 __init xen_pv_table_entry(const void *table)
{
	return phys_to_machine(__pa_symbol(table)) | _KERNPG_TABLE_NOENC;
}

/* Before the switch: the image is still mapped only by Xen's tables. */
static void __init xen_pv_boot_ro(const void *va)
{
	unsigned long pfn = PFN_DOWN(__pa_symbol(va));
	u64 pte = ((u64)pfn_to_mfn(pfn) << PAGE_SHIFT) | _PAGE_PRESENT |
		  _PAGE_ACCESSED;
	int rc = HYPERVISOR_update_va_mapping((unsigned long)va, pte,
					      UVMF_INVLPG);

	if (rc)
		xen_pv_mmu_failed("boot update_va_mapping", (unsigned long)va,
				  pte, rc);
}

/**
 * xen_pv_boot_pagetable() - switch to the kernel's own page tables
 * @si: the start info, whose pt_base is the L4 Xen built
 *
 * Xen mapped the boot area (image, start info, P2M, its page tables,
 * the boot stack) at the kernel map with 4 KiB pages.  The kernel's
 * static tables (head_64.S) take over Xen's L1 pages: level2_kernel_pgt
 * gets Xen's L2 of the kernel map, level2_ident_pgt the same, so that
 * the boot area appears in the direct map too, where the generic code
 * looks for it by physical address.  The static tables are made
 * read-only, the L4 pinned and loaded.  Xen's L4, L3 and L2 stay
 * unused (they are reserved with the rest of the boot area).
 *
 * Return: the pfn after the last one the boot area maps.
 */
unsigned long __init xen_pv_boot_pagetable(const struct start_info *si)
{
	const pgd_t *xen_l4 = (const pgd_t *)si->pt_base;
	const pud_t *xen_l3;
	const pmd_t *xen_l2;
	unsigned long end = 0, i;
	const void *tables[] = {
		init_top_pgt, level3_ident_pgt, level2_ident_pgt,
		level3_kernel_pgt, level2_kernel_pgt, level2_fixmap_pgt,
	};
	u64 l4;

	xen_l3 = xen_pv_boot_va(native_pgd_val(xen_l4[pgd_index(__START_KERNEL_map)]));
	xen_l2 = xen_pv_boot_va(native_pud_val(xen_l3[pud_index(__START_KERNEL_map)]));

	for (i = 0; i < PTRS_PER_PMD; i++) {
		level2_kernel_pgt[i] = xen_l2[i];
		level2_ident_pgt[i] = xen_l2[i];
		if (native_pmd_val(xen_l2[i]) & _PAGE_PRESENT)
			end = (i + 1) * PTRS_PER_PTE;
	}
	memset(level3_ident_pgt, 0, PAGE_SIZE);
	level3_ident_pgt[0] = native_make_pud(xen_pv_table_entry(level2_ident_pgt));
	level3_kernel_pgt[pud_index(__START_KERNEL_map)] =
		native_make_pud(xen_pv_table_entry(level2_kernel_pgt));
	level3_kernel_pgt[pud_index(__START_KERNEL_map) + 1] =
		native_make_pud(xen_pv_table_entry(level2_fixmap_pgt));
	for (i = 0; i < FIXMAP_PMD_NUM; i++)
		level2_fixmap_pgt[PTRS_PER_PMD - 4 - FIXMAP_PMD_NUM + i] =
			native_make_pmd(xen_pv_table_entry(&level1_fixmap_pgt[i * PTRS_PER_PTE]));
	memset(init_top_pgt, 0, PAGE_SIZE);
	init_top_pgt[pgd_index(__PAGE_OFFSET_BASE_L4)] =
		native_make_pgd(xen_pv_table_entry(level3_ident_pgt));
	init_top_pgt[pgd_index(__START_KERNEL_map)] =
		native_make_pgd(xen_pv_table_entry(level3_kernel_pgt));

	for (i = 0; i < ARRAY_SIZE(tables); i++)
		xen_pv_boot_ro(tables[i]);
	for (i = 0; i < FIXMAP_PMD_NUM; i++)
		xen_pv_boot_ro(&level1_fixmap_pgt[i * PTRS_PER_PTE]);

	l4 = pfn_to_mfn(PFN_DOWN(__pa_symbol(init_top_pgt)));
	{
		struct mmuext_op op[2] = {
			{ .cmd = MMUEXT_PIN_L4_TABLE, .arg1.mfn = l4 },
			{ .cmd = MMUEXT_NEW_BASEPTR, .arg1.mfn = l4 },
		};
		int rc = HYPERVISOR_mmuext_op(op, ARRAY_SIZE(op), NULL,
					      DOMID_SELF);

		if (rc)
			xen_pv_mmu_failed("boot pin and load", l4, 0, rc);
	}
	this_cpu_write(xen_pv_cr3, __pa_symbol(init_top_pgt));
	return end;
}

/*
 * Mark the pages of a table tree below @table (a level-@level table).
 * Tables that are not the guest's (Xen's own, in the L4 slots Xen
 * fills) are left alone.
 */
static void __init xen_pv_mark_tree(const void *table, int level)
{
	const u64 *entry = table;
	unsigned int i;

	SetPagePinned(virt_to_page(table));
	if (level == 1)
		return;
	for (i = 0; i < PTRS_PER_PTE; i++) {
		u64 val = xen_pv_from_machine(entry[i]);
		unsigned long pfn = (val & PTE_PFN_MASK) >> PAGE_SHIFT;

		if ((val & _PAGE_PRESENT) && !(pfn & XEN_FOREIGN_PFN_BIT) &&
		    pfn_valid(pfn))
			xen_pv_mark_tree(__va(PFN_PHYS(pfn)), level - 1);
	}
}

/**
 * xen_pv_mark_kernel_tables() - say in struct pages which tables Xen holds
 *
 * Called once struct pages are initialised (after paging_init()): every
 * table of the kernel's tree gets PG_pinned, and from then on the pages
 * that become or stop being tables Xen holds are marked as they change.
 */
void __init xen_pv_mark_kernel_tables(void)
{
	xen_pv_mark_tree(init_top_pgt, 4);
	WRITE_ONCE(xen_pv_flags_ready, true);
}

#ifdef CONFIG_X86_IO_APIC
/* What the IO-APICs' fixmap slots map: nothing reads it. */
static u8 xen_pv_ioapic_page[PAGE_SIZE] __page_aligned_bss;
#endif

/*
 * pv_ops.mmu.set_fixmap.  The IO-APICs are Xen's and it refuses dom0 a
 * mapping of them; dom0 reads them through Xen (ioapic_dom0.c).  Their
 * slots map a page of the kernel's own instead, so that the generic
 * code can map them as it registers them, and a stray write lands there.
 */
static void xen_pv_set_fixmap(unsigned int idx, phys_addr_t phys,
			      pgprot_t prot)
{
#ifdef CONFIG_X86_IO_APIC
	if (idx >= FIX_IO_APIC_BASE_0 && idx <= FIX_IO_APIC_BASE_END &&
	    pgprot_val(prot)) {
		phys = __pa_symbol(xen_pv_ioapic_page);
		prot = PAGE_KERNEL;
	}
#endif
	native_set_fixmap(idx, phys, prot);
}

/**
 * xen_pv_init_mmu_ops() - install the MMU paravirt ops
 */
void __init xen_pv_init_mmu_ops(void)
{
	struct pv_mmu_ops *mmu = &pv_ops.mmu;

	mmu->read_cr2 = __PV_IS_CALLEE_SAVE(__raw_callee_save_xen_pv_read_cr2);
	mmu->write_cr2 = xen_pv_write_cr2;
	mmu->read_cr3 = xen_pv_read_cr3;
	mmu->write_cr3 = xen_pv_write_cr3;
	mmu->flush_tlb_user = xen_pv_flush_tlb;
	mmu->flush_tlb_kernel = xen_pv_flush_tlb;
	mmu->flush_tlb_one_user = xen_pv_flush_tlb_one_user;
	mmu->flush_tlb_multi = xen_pv_flush_tlb_multi;
	mmu->set_pte = xen_pv_set_pte;
	mmu->set_pmd = xen_pv_set_pmd;
	mmu->set_pud = xen_pv_set_pud;
	mmu->set_p4d = xen_pv_set_p4d;
	mmu->pte_val = PV_CALLEE_SAVE(xen_pv_entry_val);
	mmu->make_pte = PV_CALLEE_SAVE(xen_pv_make_entry);
	mmu->pmd_val = PV_CALLEE_SAVE(xen_pv_entry_val);
	mmu->make_pmd = PV_CALLEE_SAVE(xen_pv_make_entry);
	mmu->pud_val = PV_CALLEE_SAVE(xen_pv_entry_val);
	mmu->make_pud = PV_CALLEE_SAVE(xen_pv_make_entry);
	mmu->pgd_val = PV_CALLEE_SAVE(xen_pv_entry_val);
	mmu->make_pgd = PV_CALLEE_SAVE(xen_pv_make_entry);
	mmu->lazy_mode.enter = xen_pv_enter_lazy_mmu;
	mmu->lazy_mode.leave = xen_pv_leave_lazy_mmu;
	mmu->lazy_mode.flush = xen_pv_flush_lazy_mmu;
	mmu->set_fixmap = xen_pv_set_fixmap;
	pv_ops.cpu.start_context_switch = xen_pv_start_context_switch;
	pv_ops.cpu.end_context_switch = xen_pv_end_context_switch;
	xen_pv_init_pin_ops();
}
