// SPDX-License-Identifier: GPL-2.0
/*
 * Page tables of processes in a PV guest: pinning, and the user L4.
 *
 * Xen validates a page-table tree when it is first loaded in cr3, and
 * from then on every table in it must stay read-only to the guest.
 * Making a process's tables read-only one write at a time would cost a
 * hypercall per entry while fork copies them, so a process's tables
 * stay ordinary writable pages until it is first loaded (or an exec or
 * fork gives it to the CPU, paravirt enter_mmap): then they are all
 * made read-only and its L4 is pinned, which has Xen validate the tree
 * once and keep it validated; each PTE table (L1) is pinned on its own
 * as well, under its lock (see xen_pv_pin_group_add()).  A table added
 * later to a pinned tree is made read-only before it is linked in
 * (alloc_pte and friends), an L1 pinned too; one taken out is made
 * writable again once unlinked (release_pte), an L1 unpinned first.
 *
 * A PV kernel runs in ring 3 like its processes, so Xen keeps two L4s
 * per process: the kernel's (the pgd, user half and kernel half) and a
 * user L4 that has the user half only and is loaded while user code
 * runs.  It is allocated with the pgd, its page recorded in the pgd
 * page's private word, and every write to the user half of the pgd is
 * made to it too.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/sched.h>
#include <asm/paravirt.h>
#include <asm/pgalloc.h>
#include <asm/mmu_context.h>
#include <asm/tlbflush.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/interface/xen.h>

#include "xen-ops.h"

/* The user L4 of a pgd, or NULL (init_mm, and pgds Xen never loads). */
pgd_t *xen_pv_user_pgd(const pgd_t *pgd)
{
	return (pgd_t *)page_private(virt_to_page(pgd));
}

static bool xen_pv_pgd_pinned(const pgd_t *pgd)
{
	return PagePinned(virt_to_page(pgd));
}

static void xen_pv_table_rw(void *table, bool rw)
{
	xen_pv_set_page_rw(PFN_DOWN(__pa(table)), rw);
}

/*
 * A PTE table (L1) is written by code that holds its lock only: the
 * rmap walks of reclaim and migration, the OOM reaper, and any fault,
 * all of which may touch a process that is being pinned (a fork's
 * child, an exec's new mm) or unpinned (an exiting one).  Between the
 * moment an L1 is made read-only and the moment Xen holds it as a
 * table (or, unpinning, between the two the other way round) such a
 * write would fault for good.  So each L1 is pinned on its own
 * (MMUEXT_PIN_L1_TABLE), both steps are sent while its lock is held,
 * and from then on Xen takes a write to it through the read-only
 * mapping as a checked entry update.  The L1s go in groups: that many
 * locks at most are held, one multicall a group.
 */
#define XEN_PV_PIN_GROUP	16

/**
 * struct xen_pv_pin_group - L1s pinned or unpinned together
 * @mm: their process
 * @pin: pinning them, or unpinning
 * @n: how many so far
 * @pfn: each L1's page
 * @ptl: each L1's PTE lock (NULL: it is @mm's page_table_lock, held)
 */
struct xen_pv_pin_group {
	struct mm_struct *mm;
	bool pin;
	unsigned int n;
	unsigned long pfn[XEN_PV_PIN_GROUP];
	spinlock_t *ptl[XEN_PV_PIN_GROUP];	/* each L1's, or NULL */
};

/*
 * Take the group's PTE locks.  sparse cannot count locks taken in a
 * loop, so each is shown to it as let go at once, and taken again in
 * xen_pv_pin_group_unlock().
 */
static void xen_pv_pin_group_lock(struct xen_pv_pin_group *g)
{
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		if (g->ptl[i]) {
			spin_lock_nest_lock(g->ptl[i], &g->mm->page_table_lock);
			__release(g->ptl[i]);
		}
	}
}

/* Once Xen has done the group's requests: let go of its locks. */
static void xen_pv_pin_group_unlock(struct xen_pv_pin_group *g)
{
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		if (g->ptl[i]) {
			__acquire(g->ptl[i]);
			spin_unlock(g->ptl[i]);
		}
	}
	g->n = 0;
}

/*
 * Queue what pinning (or unpinning) the group's L1s takes; the caller
 * holds their locks (taken with preemption off, in
 * xen_pv_batch_begin(): spinning locks, PREEMPT_RT is not for a PV
 * guest).
 */
static void xen_pv_pin_group_queue(struct xen_pv_pin_group *g)
{
	unsigned int i;

	if (g->pin) {
		for (i = 0; i < g->n; i++)
			xen_pv_set_page_rw(g->pfn[i], false);
	}
	for (i = 0; i < g->n; i++)
		xen_pv_mmuext(g->pin ? MMUEXT_PIN_L1_TABLE : MMUEXT_UNPIN_TABLE,
			      pfn_to_mfn(g->pfn[i]), 0);
	if (!g->pin) {
		for (i = 0; i < g->n; i++)
			xen_pv_set_page_rw(g->pfn[i], true);
	}
}

/* One more L1, whose entry in its L2 is @pmd; a full group is done. */
static void xen_pv_pin_group_add(struct xen_pv_pin_group *g, pmd_t *pmd)
{
	spinlock_t *ptl = pte_lockptr(g->mm, pmd);

	/* Without split PTE locks it is the one the caller holds. */
	g->ptl[g->n] = ptl == &g->mm->page_table_lock ? NULL : ptl;
	g->pfn[g->n++] = pmd_pfn(*pmd);
	if (g->n == XEN_PV_PIN_GROUP) {
		xen_pv_pin_group_lock(g);
		xen_pv_pin_group_queue(g);
		xen_pv_batch_send();
		xen_pv_pin_group_unlock(g);
	}
}

/*
 * Every table below the user half of @mm's pgd (the kernel half is the
 * kernel's own tree, pinned for good): the L2s and L3s are made
 * read-only or writable (@g->pin) here, with nobody else to write
 * them; the L1s join @g, whose last group is left for the caller to
 * lock, queue, send and unlock.
 */
static void xen_pv_walk_user_tables(struct xen_pv_pin_group *g)
{
	pgd_t *pgd = g->mm->pgd;
	unsigned int i, j, k;

	for (i = 0; i < XEN_PV_USER_PGDS; i++) {
		p4d_t *p4d = p4d_offset(&pgd[i], 0);
		pud_t *pud;

		if (p4d_none(*p4d) || !p4d_present(*p4d))
			continue;
		pud = p4d_pgtable(*p4d);
		for (j = 0; j < PTRS_PER_PUD; j++) {
			pmd_t *pmd;

			if (pud_none(pud[j]) || !pud_present(pud[j]))
				continue;
			pmd = pud_pgtable(pud[j]);
			for (k = 0; k < PTRS_PER_PMD; k++) {
				if (pmd_none(pmd[k]) || !pmd_present(pmd[k]))
					continue;
				xen_pv_pin_group_add(g, &pmd[k]);
			}
			xen_pv_table_rw(pmd, !g->pin);
		}
		xen_pv_table_rw(pud, !g->pin);
	}
}

/* Make a process's page tables Xen's; page_table_lock held, not pinned yet. */
static void xen_pv_pin_pgd(struct mm_struct *mm)
{
	struct xen_pv_pin_group g = { .mm = mm, .pin = true };
	pgd_t *user = xen_pv_user_pgd(mm->pgd);

	/* Every table read-only and the L1s pinned, then the L4s pinned. */
	xen_pv_batch_begin();
	xen_pv_walk_user_tables(&g);
	xen_pv_pin_group_lock(&g);
	xen_pv_pin_group_queue(&g);
	xen_pv_table_rw(mm->pgd, false);
	xen_pv_mmuext(MMUEXT_PIN_L4_TABLE, virt_to_mfn(mm->pgd), 0);
	if (user) {
		xen_pv_table_rw(user, false);
		xen_pv_mmuext(MMUEXT_PIN_L4_TABLE, virt_to_mfn(user), 0);
	}
	/* Sent before the locks go, even inside a lazy section. */
	xen_pv_batch_send();
	xen_pv_batch_end();
	xen_pv_pin_group_unlock(&g);
}

/* The reverse, once no CPU has @mm's pgd loaded; page_table_lock held. */
static void xen_pv_unpin_pgd(struct mm_struct *mm)
{
	struct xen_pv_pin_group g = { .mm = mm, .pin = false };
	pgd_t *user = xen_pv_user_pgd(mm->pgd);

	/* The L4s first: until then the L2s hold their L1s as tables. */
	xen_pv_batch_begin();
	if (user) {
		xen_pv_mmuext(MMUEXT_UNPIN_TABLE, virt_to_mfn(user), 0);
		xen_pv_table_rw(user, true);
	}
	xen_pv_mmuext(MMUEXT_UNPIN_TABLE, virt_to_mfn(mm->pgd), 0);
	xen_pv_table_rw(mm->pgd, true);
	xen_pv_walk_user_tables(&g);
	xen_pv_pin_group_lock(&g);
	xen_pv_pin_group_queue(&g);
	xen_pv_batch_send();
	xen_pv_batch_end();
	xen_pv_pin_group_unlock(&g);
}

/**
 * xen_pv_pin_mm() - pin a process's page tables unless they are
 * @mm: the process
 */
void xen_pv_pin_mm(struct mm_struct *mm)
{
	spin_lock(&mm->page_table_lock);
	if (!xen_pv_pgd_pinned(mm->pgd))
		xen_pv_pin_pgd(mm);
	spin_unlock(&mm->page_table_lock);
}

/*
 * The process is gone.  Its L4 may still be loaded (the exiting task
 * runs on it, kernel threads on other CPUs may borrow it): every CPU
 * that has it moves to the kernel's own (all CPUs are asked: with only
 * those of mm_cpumask(), the exit of a 60 s sleep once found its user
 * L4 still in use), and the tables are unpinned, to be freed as
 * ordinary pages (Xen would refuse a writable mapping of a table still
 * in some vCPU's cr3).  A CPU that has the mm moves to init_mm through
 * switch_mm(), so that the TLB code knows.
 */
static void xen_pv_drop_mm(void *info)
{
	struct mm_struct *mm = info;

	if (this_cpu_read(cpu_tlbstate.loaded_mm) == mm)
		switch_mm(NULL, &init_mm, NULL);
	if (__read_cr3() == __pa(mm->pgd))
		write_cr3(__pa(swapper_pg_dir));
}

static void xen_pv_exit_mmap(struct mm_struct *mm)
{
	if (!xen_pv_pgd_pinned(mm->pgd))
		return;
	preempt_disable();
	xen_pv_drop_mm(mm);
	smp_call_function(xen_pv_drop_mm, mm, 1);
	preempt_enable();
	spin_lock(&mm->page_table_lock);
	xen_pv_unpin_pgd(mm);
	spin_unlock(&mm->page_table_lock);
}

static int xen_pv_pgd_alloc(struct mm_struct *mm)
{
	struct page *user = alloc_page(GFP_PGTABLE_USER);

	if (!user)
		return -ENOMEM;
	set_page_private(virt_to_page(mm->pgd),
			 (unsigned long)page_address(user));
	return 0;
}

static void xen_pv_pgd_free(struct mm_struct *mm, pgd_t *pgd)
{
	pgd_t *user = xen_pv_user_pgd(pgd);

	if (xen_pv_pgd_pinned(pgd)) {
		spin_lock(&mm->page_table_lock);
		xen_pv_unpin_pgd(mm);
		spin_unlock(&mm->page_table_lock);
	}
	set_page_private(virt_to_page(pgd), 0);
	if (user)
		free_page((unsigned long)user);
}

/*
 * Tables of a pinned tree: read-only before they are linked in, writable
 * again once taken out.  The kernel's own tree (init_mm) is pinned from
 * boot on; its tables come this way before struct pages exist, so the
 * state is read from the mapping itself, not from page flags.
 */
static void xen_pv_alloc_table(struct mm_struct *mm, unsigned long pfn)
{
	if (mm == &init_mm || xen_pv_pgd_pinned(mm->pgd))
		xen_pv_set_page_rw(pfn, false);
}

static void xen_pv_release_table(unsigned long pfn)
{
	xen_pv_set_page_rw(pfn, true);
}

/*
 * An L1 of a process's pinned tree is pinned on its own, as pinning
 * the tree pins each (above); nobody else can reach it before it is
 * linked in, or after it is taken out.  Only processes' L1s are
 * released this way (the kernel keeps its own).
 */
static void xen_pv_alloc_l1(struct mm_struct *mm, unsigned long pfn)
{
	if (mm == &init_mm || !xen_pv_pgd_pinned(mm->pgd)) {
		xen_pv_alloc_table(mm, pfn);
		return;
	}
	/*
	 * mremap moves a whole L1 to another L2 entry (move_normal_pmd())
	 * and links it in again through here, with no release: pinned
	 * already, and Xen refuses a second pin.  A new L1 is not pinned.
	 */
	if (PagePinned(pfn_to_page(pfn)))
		return;
	xen_pv_batch_begin();
	xen_pv_set_page_rw(pfn, false);
	xen_pv_mmuext(MMUEXT_PIN_L1_TABLE, pfn_to_mfn(pfn), 0);
	xen_pv_batch_end();
}

/*
 * Only ___pte_free_tlb() releases an L1, and only a process's: a pinned
 * one is pinned on its own.  (A kernel L1 is read-only too, but the
 * kernel never gives one back this way.)
 */
static void xen_pv_release_l1(unsigned long pfn)
{
	if (!PagePinned(pfn_to_page(pfn)))
		return;
	xen_pv_batch_begin();
	xen_pv_mmuext(MMUEXT_UNPIN_TABLE, pfn_to_mfn(pfn), 0);
	xen_pv_set_page_rw(pfn, true);
	xen_pv_batch_end();
}

/**
 * xen_pv_init_pin_ops() - install the paravirt ops for process page tables
 */
void __init xen_pv_init_pin_ops(void)
{
	struct pv_mmu_ops *mmu = &pv_ops.mmu;

	mmu->pgd_alloc = xen_pv_pgd_alloc;
	mmu->pgd_free = xen_pv_pgd_free;
	mmu->enter_mmap = xen_pv_pin_mm;
	mmu->exit_mmap = xen_pv_exit_mmap;
	mmu->alloc_pte = xen_pv_alloc_l1;
	mmu->alloc_pmd = xen_pv_alloc_table;
	mmu->alloc_pud = xen_pv_alloc_table;
	mmu->release_pte = xen_pv_release_l1;
	mmu->release_pmd = xen_pv_release_table;
	mmu->release_pud = xen_pv_release_table;
}
