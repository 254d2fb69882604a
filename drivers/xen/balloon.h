/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balloon: this domain's memory follows the target the toolstack
 * sets (xenstore memory/target, `xl mem-set`).  Pages go back to Xen
 * when the domain has more than the target and come back when it has
 * less, a batch at a time; when the page allocator or Xen has none to
 * give, the balloon waits and tries again, longer each time.
 *
 * balloon_core.c is that logic alone, driven through operations so that
 * KUnit runs it against a fake Xen (balloon_test.c); balloon.c gives it
 * Xen, xenstore, a worker and sysfs.
 */
#ifndef _DRIVERS_XEN_BALLOON_H
#define _DRIVERS_XEN_BALLOON_H

#include <linux/errno.h>
#include <linux/types.h>

struct page;

/* Pages asked of the operations at once. */
#define XEN_BALLOON_BATCH	512

/**
 * struct xen_balloon_ops - what the balloon works with
 * @current_pages: the pages Xen counts as this domain's, or a negative
 *	errno
 * @give: hand up to @nr pages back to Xen; returns how many went, or
 *	-ENOMEM when the page allocator had none to spare
 * @take: get up to @nr pages back from Xen; returns how many came (0:
 *	Xen had none), or -ENOSPC when there is no page to put memory in
 */
struct xen_balloon_ops {
	long (*current_pages)(void *ctx);
	int (*give)(void *ctx, unsigned int nr);
	int (*take)(void *ctx, unsigned int nr);
};

/**
 * enum xen_balloon_state - where the balloon stands after a run
 * @XEN_BALLOON_REACHED: the domain has its target
 * @XEN_BALLOON_MORE: work is left; run again soon
 * @XEN_BALLOON_WAIT: the kernel or Xen had no memory; run again in
 *	schedule_delay seconds
 * @XEN_BALLOON_STUCK: the target is above what the domain has room for,
 *	or the retries ran out: nothing to do until something changes
 */
enum xen_balloon_state {
	XEN_BALLOON_REACHED,
	XEN_BALLOON_MORE,
	XEN_BALLOON_WAIT,
	XEN_BALLOON_STUCK,
};

/**
 * struct xen_balloon - the balloon's state and counters
 * @target: pages wanted; 0 while no target was ever set
 * @current_pages: pages Xen counted at the last look
 * @schedule_delay: seconds before the next try after a failure
 * @max_schedule_delay: the most @schedule_delay grows to
 * @retry_count: failed tries since the last progress, plus one
 * @max_retry_count: give up after this many (0: never)
 * @debt: pages to hand back before Xen's count means anything: the
 *	memory map holds this many more pages than Xen backs (a guest
 *	started below its maxmem, whose memory Xen populates on demand)
 * @given: pages handed back to Xen since boot
 * @taken: pages taken from Xen since boot
 * @state: how the last run ended
 * @ops: the operations
 * @ctx: passed to them
 */
struct xen_balloon {
	unsigned long target;
	unsigned long current_pages;
	unsigned long schedule_delay;
	unsigned long max_schedule_delay;
	unsigned long retry_count;
	unsigned long max_retry_count;
	unsigned long debt;
	unsigned long given;
	unsigned long taken;
	enum xen_balloon_state state;
	const struct xen_balloon_ops *ops;
	void *ctx;
};

void xen_balloon_init_core(struct xen_balloon *b,
			   const struct xen_balloon_ops *ops, void *ctx);
void xen_balloon_set_target(struct xen_balloon *b, unsigned long pages);
void xen_balloon_set_debt(struct xen_balloon *b, unsigned long pages);
enum xen_balloon_state xen_balloon_run(struct xen_balloon *b,
				       unsigned int batches);

/* The pool of empty pages as the balloon uses it (unpopulated.c). */
int xen_pool_balloon_give(unsigned int nr);
int xen_pool_balloon_take(unsigned int nr);
void xen_pool_balloon_add(struct page *page, unsigned long nr);
unsigned long xen_pool_balloon_pages(void);
unsigned long xen_pool_idle_pages(void);
unsigned long xen_pool_lent_pages(void);

#ifdef CONFIG_XEN_BALLOON
void xen_balloon_kick(void);
#else
static inline void xen_balloon_kick(void)
{
}
#endif

/* Growth past the boot memory (balloon_hotplug.c). */
#ifdef CONFIG_XEN_BALLOON_MEMORY_HOTPLUG
long xen_balloon_hotplug(void);
int xen_balloon_hotplug_init(void);
#else
static inline long xen_balloon_hotplug(void)
{
	return -ENOSPC;
}

static inline int xen_balloon_hotplug_init(void)
{
	return 0;
}
#endif

#endif /* _DRIVERS_XEN_BALLOON_H */
