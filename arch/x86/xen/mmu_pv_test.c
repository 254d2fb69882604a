// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit live tests of the PV MMU (mmu_pv.c): page-table entries that go
 * through Xen and come back, and what Xen requires of a page before it
 * holds it as a page table.  They run only in a PV guest and are
 * skipped elsewhere.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/pgtable.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/page.h>
#include <xen/xen.h>

#include "xen-ops.h"

#define MMU_TEST_PAGES	16
#define MMU_TEST_SLOT	5	/* the entry of the test table that is used */

static int mmu_test_init(struct kunit *test)
{
	if (!xen_pv_domain())
		kunit_skip(test, "not a PV guest");
	return 0;
}

/* The machine frame a present entry names, whatever flags Xen added. */
static unsigned long mmu_test_entry_mfn(u64 val)
{
	return (val & PTE_PFN_MASK) >> PAGE_SHIFT;
}

/*
 * vmap() of 16 pages writes 16 kernel PTEs, each a request to Xen (in
 * a batch when the MMU is lazy).  Each page must then read and write
 * through its new address, and each entry, read back, must hold its
 * page's machine frame (what Xen stored) and give its pfn back through
 * the M2P (what pte_pfn() reads).  Once unmapped, no entry is left.
 */
static void mmu_pte_round_trip_test(struct kunit *test)
{
	struct page *block, *pages[MMU_TEST_PAGES];
	unsigned long addr, pfn;
	unsigned int i, level;
	pte_t *pte;
	u32 *va;

	block = alloc_pages(GFP_KERNEL, ilog2(MMU_TEST_PAGES));
	KUNIT_ASSERT_NOT_NULL(test, block);
	for (i = 0; i < MMU_TEST_PAGES; i++) {
		pages[i] = block + i;
		memset32(page_address(pages[i]), 0x5a5a0000 + i,
			 PAGE_SIZE / sizeof(u32));
	}
	va = vmap(pages, MMU_TEST_PAGES, VM_MAP, PAGE_KERNEL);
	if (!va) {
		__free_pages(block, ilog2(MMU_TEST_PAGES));
		KUNIT_FAIL(test, "vmap() of %u pages failed", MMU_TEST_PAGES);
		return;
	}
	for (i = 0; i < MMU_TEST_PAGES; i++) {
		addr = (unsigned long)va + i * PAGE_SIZE;
		pfn = page_to_pfn(pages[i]);
		KUNIT_EXPECT_EQ(test, READ_ONCE(*(u32 *)(addr + 64)),
				0x5a5a0000 + i);
		pte = lookup_address(addr, &level);
		if (!pte || level != PG_LEVEL_4K) {
			KUNIT_FAIL(test, "no 4 KiB entry maps page %u", i);
			continue;
		}
		KUNIT_EXPECT_TRUE(test, pte_present(*pte));
		KUNIT_EXPECT_EQ(test, pte_pfn(*pte), pfn);
		KUNIT_EXPECT_EQ(test, mmu_test_entry_mfn(native_pte_val(*pte)),
				pfn_to_mfn(pfn));
	}
	/* A write through the new mapping reaches the page. */
	WRITE_ONCE(va[3 * PAGE_SIZE / sizeof(u32) + 1], 0xfeedf00d);
	KUNIT_EXPECT_EQ(test, ((u32 *)page_address(pages[3]))[1], 0xfeedf00d);

	vunmap(va);
	for (i = 0; i < MMU_TEST_PAGES; i++) {
		pte = lookup_address((unsigned long)va + i * PAGE_SIZE, &level);
		KUNIT_EXPECT_TRUE(test, !pte || !pte_present(*pte));
	}
	__free_pages(block, ilog2(MMU_TEST_PAGES));
}

static int mmu_test_ext(unsigned int cmd, unsigned long mfn)
{
	struct mmuext_op op = { .cmd = cmd, .arg1.mfn = mfn };

	return HYPERVISOR_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

static int mmu_test_update(unsigned long table_mfn, u64 val)
{
	struct mmu_update u = {
		.ptr = (PFN_PHYS(table_mfn) + MMU_TEST_SLOT * sizeof(u64)) |
		       MMU_NORMAL_PT_UPDATE,
		.val = val,
	};

	return HYPERVISOR_mmu_update(&u, 1, NULL, DOMID_SELF);
}

/*
 * Xen holds a page as a PTE table (L1) only when no writable mapping of
 * it is left: pinned while writable, it refuses.  Read-only, it pins;
 * an entry written through mmu_update reads back, and one that would map
 * the table itself writable is refused, whether through mmu_update or
 * as a plain store (which Xen emulates for a table, under the writable
 * page-table assist, and faults when it refuses).  Unpinned and made
 * writable again, it is a page like any other.
 */
static void mmu_pin_l1_test(struct kunit *test)
{
	struct page *table, *data;
	unsigned long pfn, mfn, data_mfn;
	u64 *entries, self;

	table = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, table);
	data = alloc_page(GFP_KERNEL);
	if (!data) {
		__free_page(table);
		KUNIT_FAIL(test, "no data page");
		return;
	}
	pfn = page_to_pfn(table);
	mfn = pfn_to_mfn(pfn);
	data_mfn = pfn_to_mfn(page_to_pfn(data));
	entries = page_address(table);
	self = PFN_PHYS(mfn) | _PAGE_PRESENT | _PAGE_RW;

	if (mmu_test_ext(MMUEXT_PIN_L1_TABLE, mfn) == 0) {
		KUNIT_FAIL(test, "Xen pinned a table mapped writable");
		mmu_test_ext(MMUEXT_UNPIN_TABLE, mfn);
		goto out;
	}
	xen_pv_set_page_rw(pfn, false);
	if (mmu_test_ext(MMUEXT_PIN_L1_TABLE, mfn)) {
		KUNIT_FAIL(test, "Xen refused a read-only table");
		xen_pv_set_page_rw(pfn, true);
		goto out;
	}

	KUNIT_EXPECT_EQ(test, mmu_test_update(mfn, PFN_PHYS(data_mfn) |
					      _PAGE_PRESENT), 0);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(entries[MMU_TEST_SLOT]) & _PAGE_PRESENT);
	KUNIT_EXPECT_EQ(test, mmu_test_entry_mfn(READ_ONCE(entries[MMU_TEST_SLOT])),
			data_mfn);
	KUNIT_EXPECT_NE(test, mmu_test_update(mfn, self), 0);
	KUNIT_EXPECT_NE(test, copy_to_kernel_nofault(&entries[0], &self,
						     sizeof(self)), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(entries[0]), 0ULL);
	KUNIT_EXPECT_EQ(test, mmu_test_update(mfn, 0), 0);

	KUNIT_EXPECT_EQ(test, mmu_test_ext(MMUEXT_UNPIN_TABLE, mfn), 0);
	xen_pv_set_page_rw(pfn, true);
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(&entries[0], &self,
						     sizeof(self)), 0);
	KUNIT_EXPECT_EQ(test, entries[0], self);
out:
	__free_page(data);
	__free_page(table);
}

static struct kunit_case mmu_cases[] = {
	KUNIT_CASE(mmu_pte_round_trip_test),
	KUNIT_CASE(mmu_pin_l1_test),
	{}
};

static struct kunit_suite mmu_suite = {
	.name = "xen-pv-mmu-live",
	.init = mmu_test_init,
	.test_cases = mmu_cases,
};

kunit_test_suite(mmu_suite);
