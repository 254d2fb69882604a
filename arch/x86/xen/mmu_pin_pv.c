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
 * once and keep it validated.  A table added later to a pinned tree is
 * made read-only before it is linked in (alloc_pte and friends); one
 * taken out is made writable again once unlinked (release_pte).
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
 * Every table below the user half of @pgd (the kernel half is the
 * kernel's own tree, pinned for good).
 */
static void xen_pv_walk_user_tables(pgd_t *pgd, bool rw)
{
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
				xen_pv_table_rw((void *)pmd_page_vaddr(pmd[k]), rw);
			}
			xen_pv_table_rw(pmd, rw);
		}
		xen_pv_table_rw(pud, rw);
	}
}

/**
 * xen_pv_pin_pgd() - make a process's page tables Xen's
 * @pgd: its pgd, not pinned yet
 */
void xen_pv_pin_pgd(pgd_t *pgd)
{
	pgd_t *user = xen_pv_user_pgd(pgd);

	/* One multicall: every table read-only, then the pins. */
	xen_pv_batch_begin();
	xen_pv_walk_user_tables(pgd, false);
	xen_pv_table_rw(pgd, false);
	xen_pv_mmuext(MMUEXT_PIN_L4_TABLE, virt_to_mfn(pgd), 0);
	if (user) {
		xen_pv_table_rw(user, false);
		xen_pv_mmuext(MMUEXT_PIN_L4_TABLE, virt_to_mfn(user), 0);
	}
	xen_pv_batch_end();
}

/* The reverse, once no CPU has @pgd loaded. */
static void xen_pv_unpin_pgd(pgd_t *pgd)
{
	pgd_t *user = xen_pv_user_pgd(pgd);

	xen_pv_batch_begin();
	if (user) {
		xen_pv_mmuext(MMUEXT_UNPIN_TABLE, virt_to_mfn(user), 0);
		xen_pv_table_rw(user, true);
	}
	xen_pv_mmuext(MMUEXT_UNPIN_TABLE, virt_to_mfn(pgd), 0);
	xen_pv_table_rw(pgd, true);
	xen_pv_walk_user_tables(pgd, true);
	xen_pv_batch_end();
}

static void xen_pv_enter_mmap(struct mm_struct *mm)
{
	spin_lock(&mm->page_table_lock);
	if (!xen_pv_pgd_pinned(mm->pgd))
		xen_pv_pin_pgd(mm->pgd);
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
	xen_pv_unpin_pgd(mm->pgd);
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

	if (xen_pv_pgd_pinned(pgd))
		xen_pv_unpin_pgd(pgd);
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

/**
 * xen_pv_init_pin_ops() - install the paravirt ops for process page tables
 */
void __init xen_pv_init_pin_ops(void)
{
	struct pv_mmu_ops *mmu = &pv_ops.mmu;

	mmu->pgd_alloc = xen_pv_pgd_alloc;
	mmu->pgd_free = xen_pv_pgd_free;
	mmu->enter_mmap = xen_pv_enter_mmap;
	mmu->exit_mmap = xen_pv_exit_mmap;
	mmu->alloc_pte = xen_pv_alloc_table;
	mmu->alloc_pmd = xen_pv_alloc_table;
	mmu->alloc_pud = xen_pv_alloc_table;
	mmu->release_pte = xen_pv_release_table;
	mmu->release_pmd = xen_pv_release_table;
	mmu->release_pud = xen_pv_release_table;
}
