// SPDX-License-Identifier: GPL-2.0
/*
 * A batch of hypercalls goes to Xen as one multicall: one trap into Xen
 * however many calls and requests it holds.  Xen runs the calls in
 * order, writes each one's return value into its entry and returns 0
 * unless the list itself was bad; an mmu_update or mmuext_op call stops
 * at its first failing request.  A failure is logged here with the call
 * and its first request, since Debian's release build of Xen says
 * nothing of its own.
 *
 * Each CPU counts what it sent; debugfs xen/multicall adds them up:
 * multicalls by reason, calls by kind, and a histogram of requests per
 * mmu_update call, the figure that says how well updates are batched;
 * and the page-table hypercalls made on their own, outside multicalls,
 * so that the sum is what Xen sees (xentrace counts the same).
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <asm/xen/hypercall.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "multicall.h"

/* Histogram buckets: 1, 2, 3-4, 5-8, ..., 513-1024 requests. */
#define XEN_MC_HIST	11

/**
 * struct xen_mc_stats - what one CPU sent (u64 counters only: they are
 *	summed as an array)
 * @sent: multicalls, by reason
 * @mmu_requests: requests of the mmu_update calls (those are counted in
 *	@mmu_hist)
 * @mmuext_op: mmuext_op calls
 * @ext_requests: requests in those
 * @va_mapping: update_va_mapping calls
 * @other: other calls
 * @failed: calls Xen failed
 * @mmu_hist: mmu_update calls by requests, power-of-two buckets
 * @direct: page-table hypercalls made on their own, not in a multicall,
 *	by kind (enum xen_mc_direct)
 * @direct_requests: the requests those carried
 */
struct xen_mc_stats {
	u64 sent[XEN_MC_NR_REASONS];
	u64 mmu_requests;
	u64 mmuext_op;
	u64 ext_requests;
	u64 va_mapping;
	u64 other;
	u64 failed;
	u64 mmu_hist[XEN_MC_HIST];
	u64 direct[XEN_MC_NR_DIRECT];
	u64 direct_requests[XEN_MC_NR_DIRECT];
};

static DEFINE_PER_CPU(struct xen_mc_stats, xen_mc_stats);

static unsigned int xen_mc_bucket(unsigned long n)
{
	return min_t(unsigned int, n > 1 ? ilog2(n - 1) + 1 : 0, XEN_MC_HIST - 1);
}

static void xen_mc_count(struct xen_mc_stats *st, const struct multicall_entry *e)
{
	unsigned long n = xen_mcb_requests_of(e);

	switch (e->op) {
	case __HYPERVISOR_mmu_update:
		st->mmu_requests += n;
		st->mmu_hist[xen_mc_bucket(n)]++;
		break;
	case __HYPERVISOR_mmuext_op:
		st->mmuext_op++;
		st->ext_requests += n;
		break;
	case __HYPERVISOR_update_va_mapping:
		st->va_mapping++;
		break;
	default:
		st->other++;
	}
}

static void xen_mc_report(const struct multicall_entry *e, unsigned int i)
{
	const u64 *req = (const u64 *)e->args[0];

	if (e->op == __HYPERVISOR_mmu_update || e->op == __HYPERVISOR_mmuext_op)
		pr_err("xen: multicall entry %u: op %lu of %lu requests failed: %ld (first request %#llx %#llx)\n",
		       i, e->op, e->args[1], (long)e->result, req[0], req[1]);
	else
		pr_err("xen: multicall entry %u: op %lu (%#lx %#lx %#lx) failed: %ld\n",
		       i, e->op, e->args[0], e->args[1], e->args[2],
		       (long)e->result);
}

static void xen_mc_count_direct(enum xen_mc_direct kind, unsigned int requests)
{
	this_cpu_inc(xen_mc_stats.direct[kind]);
	this_cpu_add(xen_mc_stats.direct_requests[kind], requests);
}

/**
 * xen_mc_mmu_update() - mmu_update on its own, counted
 * @req: the requests
 * @n: how many
 *
 * Any context: the counters are this CPU's, added to in one instruction.
 *
 * Return: Xen's answer.
 */
int xen_mc_mmu_update(const struct mmu_update *req, unsigned int n)
{
	xen_mc_count_direct(XEN_MC_DIRECT_MMU, n);
	return HYPERVISOR_mmu_update(req, n, NULL, DOMID_SELF);
}

/**
 * xen_mc_mmuext_op() - mmuext_op on its own, counted
 * @op: the operations
 * @n: how many
 *
 * Return: Xen's answer.
 */
int xen_mc_mmuext_op(const struct mmuext_op *op, unsigned int n)
{
	xen_mc_count_direct(XEN_MC_DIRECT_EXT, n);
	return HYPERVISOR_mmuext_op(op, n, NULL, DOMID_SELF);
}

/**
 * xen_mc_va_mapping() - update_va_mapping on its own, counted
 * @va: the address
 * @val: its new entry
 * @flags: UVMF_*
 *
 * Return: Xen's answer.
 */
int xen_mc_va_mapping(unsigned long va, u64 val, unsigned long flags)
{
	xen_mc_count_direct(XEN_MC_DIRECT_VA, 1);
	return HYPERVISOR_update_va_mapping(va, val, flags);
}

/*
 * A batch of one page-table call goes as that call: the multicall around
 * it would only add Xen's copying of the entry (a single fault's
 * mapping, say).  The batch's calls are all for this domain.  Returns
 * false for a call of another kind.
 */
static bool xen_mc_send_one(struct multicall_entry *e)
{
	unsigned int n = xen_mcb_requests_of(e);

	switch (e->op) {
	case __HYPERVISOR_mmu_update:
		e->result = xen_mc_mmu_update((void *)e->args[0], n);
		return true;
	case __HYPERVISOR_mmuext_op:
		e->result = xen_mc_mmuext_op((void *)e->args[0], n);
		return true;
	case __HYPERVISOR_update_va_mapping:
		e->result = xen_mc_va_mapping(e->args[0], e->args[1],
					      e->args[2]);
		return true;
	case __HYPERVISOR_stack_switch:
		e->result = HYPERVISOR_stack_switch(e->args[0], e->args[1]);
		return true;
	case __HYPERVISOR_set_segment_base:
		e->result = HYPERVISOR_set_segment_base(e->args[0], e->args[1]);
		return true;
	}
	return false;
}

/**
 * xen_mcb_send() - send a batch as one multicall and empty it
 * @b: the batch, this CPU's own or one the caller owns
 * @why: the reason, for the counters
 *
 * A batch of a single page-table call is made as that hypercall instead
 * (counted with those made on their own).
 *
 * Must run with preemption off when @b is per-CPU.
 *
 * Return: 0, the multicall's own error, or the first failing call's.
 */
int xen_mcb_send(struct xen_mcb *b, enum xen_mc_reason why)
{
	struct xen_mc_stats *st = this_cpu_ptr(&xen_mc_stats);
	int rc, first = 0;
	unsigned int i;

	if (xen_mcb_empty(b))
		return 0;
	if (b->calls == 1 && xen_mc_send_one(&b->call[0])) {
		rc = (long)b->call[0].result;
		if (rc) {
			st->failed++;
			xen_mc_report(&b->call[0], 0);
		}
		xen_mcb_reset(b);
		return rc;
	}
	/*
	 * Counted before: Xen rewrites the arguments of a call it preempts
	 * (the count of what is left, with a flag).
	 */
	for (i = 0; i < b->calls; i++)
		xen_mc_count(st, &b->call[i]);
	rc = HYPERVISOR_multicall(b->call, b->calls);
	st->sent[why]++;
	for (i = 0; i < b->calls; i++) {
		if (rc || (long)b->call[i].result >= 0)
			continue;
		st->failed++;
		xen_mc_report(&b->call[i], i);
		if (!first)
			first = b->call[i].result;
	}
	if (rc)
		pr_err("xen: multicall of %u calls refused: %d\n", b->calls, rc);
	xen_mcb_reset(b);
	return rc ?: first;
}

static int xen_mc_show(struct seq_file *m, void *unused)
{
	static const char * const reasons[] = {
		"full", "lazy", "sync", "unlock", "switch"
	};
	static const char * const direct[] = {
		"mmu_update", "mmuext_op", "update_va_mapping"
	};
	struct xen_mc_stats sum = {};
	u64 *total = (u64 *)&sum, mmu_update = 0;
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		const u64 *st = (const u64 *)per_cpu_ptr(&xen_mc_stats, cpu);

		for (i = 0; i < sizeof(sum) / sizeof(u64); i++)
			total[i] += st[i];
	}
	for (i = 0; i < XEN_MC_HIST; i++)
		mmu_update += sum.mmu_hist[i];
	for (i = 0; i < XEN_MC_NR_REASONS; i++)
		seq_printf(m, "multicalls-%s %llu\n", reasons[i], sum.sent[i]);
	seq_printf(m, "calls %llu\n",
		   mmu_update + sum.mmuext_op + sum.va_mapping + sum.other);
	seq_printf(m, "mmu_update %llu requests %llu\n", mmu_update,
		   sum.mmu_requests);
	seq_printf(m, "mmuext_op %llu requests %llu\n", sum.mmuext_op,
		   sum.ext_requests);
	seq_printf(m, "update_va_mapping %llu\n", sum.va_mapping);
	seq_printf(m, "other %llu\n", sum.other);
	seq_printf(m, "failed %llu\n", sum.failed);
	seq_puts(m, "mmu_update-requests-histogram");
	for (i = 0; i < XEN_MC_HIST; i++)
		seq_printf(m, " %u:%llu", i ? (1U << (i - 1)) + 1 : 1,
			   sum.mmu_hist[i]);
	seq_putc(m, '\n');
	for (i = 0; i < XEN_MC_NR_DIRECT; i++)
		seq_printf(m, "direct-%s %llu requests %llu\n", direct[i],
			   sum.direct[i], sum.direct_requests[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(xen_mc);

static int __init xen_mc_debugfs_init(void)
{
	if (xen_domain())
		debugfs_create_file("multicall", 0400, xen_debugfs_dir(), NULL,
				    &xen_mc_fops);
	return 0;
}
late_initcall(xen_mc_debugfs_init);
