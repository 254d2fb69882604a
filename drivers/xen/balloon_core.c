// SPDX-License-Identifier: GPL-2.0
/*
 * The balloon's logic (see balloon.h): compare what Xen counts as this
 * domain's with the target, move one batch, look again.
 *
 * Xen's own count (XENMEM_current_reservation) is the measure, not a
 * count of our own: it is what `xl list` shows and what the toolstack
 * waits for, and it takes in every page the domain holds, whoever in the
 * kernel holds it.
 *
 * A batch that moves less than asked means the page allocator (going
 * down) or Xen (going up) had no more: the run stops and the caller
 * tries again after schedule_delay seconds, which doubles at each
 * failure up to max_schedule_delay.  Any progress starts the delay
 * again from one second.  After max_retry_count failures in a row (if
 * not 0), the balloon stops trying until the target changes.
 *
 * A debt comes first: pages the domain's memory map holds that Xen does
 * not back.  They go back without a look at Xen's count, which they are
 * not part of, and with or without a target.
 *
 * Callers serialise the calls on one balloon.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "balloon.h"

/**
 * xen_balloon_init_core() - set up a balloon with no target
 * @b: the balloon
 * @ops: what it works with
 * @ctx: passed to @ops
 */
void xen_balloon_init_core(struct xen_balloon *b,
			   const struct xen_balloon_ops *ops, void *ctx)
{
	*b = (struct xen_balloon) {
		.schedule_delay = 1,
		.max_schedule_delay = 32,
		.retry_count = 1,
		.state = XEN_BALLOON_REACHED,
		.ops = ops,
		.ctx = ctx,
	};
}

/**
 * xen_balloon_set_target() - aim at a new target
 * @b: the balloon
 * @pages: the target, in pages
 *
 * The failures counted so far are forgotten: a new target is tried at
 * once.  The caller runs the balloon.
 */
void xen_balloon_set_target(struct xen_balloon *b, unsigned long pages)
{
	b->target = pages;
	b->schedule_delay = 1;
	b->retry_count = 1;
	b->state = XEN_BALLOON_MORE;
}

/**
 * xen_balloon_set_debt() - hand pages back before anything else
 * @b: the balloon
 * @pages: how many
 *
 * The caller runs the balloon.
 */
void xen_balloon_set_debt(struct xen_balloon *b, unsigned long pages)
{
	b->debt = pages;
	b->state = XEN_BALLOON_MORE;
}

static enum xen_balloon_state balloon_failed(struct xen_balloon *b)
{
	if (b->max_retry_count && b->retry_count >= b->max_retry_count)
		return XEN_BALLOON_STUCK;
	b->retry_count++;
	return XEN_BALLOON_WAIT;
}

/* Called after a wait: the delay of the next one. */
static void balloon_waited(struct xen_balloon *b)
{
	b->schedule_delay = min(b->schedule_delay * 2, b->max_schedule_delay);
}

static void balloon_progressed(struct xen_balloon *b)
{
	b->schedule_delay = 1;
	b->retry_count = 1;
}

static int balloon_give(struct xen_balloon *b, unsigned int nr)
{
	int rc = b->ops->give(b->ctx, nr);

	if (rc > 0)
		b->given += rc;
	return rc;
}

/**
 * xen_balloon_run() - move toward the target
 * @b: the balloon
 * @batches: the most batches to move before returning
 *
 * Return: the state the balloon is in; for XEN_BALLOON_WAIT, the caller
 * runs it again after @b->schedule_delay seconds (read before the next
 * run: a run after a wait doubles it).
 */
enum xen_balloon_state xen_balloon_run(struct xen_balloon *b,
				       unsigned int batches)
{
	unsigned long want;
	long cur;
	int rc;

	if (b->state == XEN_BALLOON_WAIT)
		balloon_waited(b);
	while (batches--) {
		if (b->debt) {
			want = min_t(unsigned long, b->debt, XEN_BALLOON_BATCH);
			rc = balloon_give(b, want);
			if (rc > 0)
				b->debt -= rc;
		} else {
			if (!b->target)
				return b->state = XEN_BALLOON_REACHED;
			cur = b->ops->current_pages(b->ctx);
			if (cur < 0)
				return b->state = balloon_failed(b);
			b->current_pages = cur;
			if (cur == b->target) {
				balloon_progressed(b);
				return b->state = XEN_BALLOON_REACHED;
			}
			if (cur > b->target) {
				want = min_t(unsigned long, cur - b->target,
					     XEN_BALLOON_BATCH);
				rc = balloon_give(b, want);
			} else {
				want = min_t(unsigned long, b->target - cur,
					     XEN_BALLOON_BATCH);
				rc = b->ops->take(b->ctx, want);
				if (rc > 0)
					b->taken += rc;
				if (rc == -ENOSPC)
					return b->state = XEN_BALLOON_STUCK;
			}
		}
		if (rc > 0)
			balloon_progressed(b);
		if (rc < (long)want)
			return b->state = balloon_failed(b);
	}
	return b->state = XEN_BALLOON_MORE;
}
