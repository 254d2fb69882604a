// SPDX-License-Identifier: GPL-2.0
/*
 * netback: sharing dom0 between vifs by weight, with minimum rates and
 * caps (see netback_share.h for the rules).
 */

#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "netback_share.h"

/* Refill periods longer than this are taken in several steps. */
#define NETBACK_SHARE_DT_MAX	BIT_ULL(32)

/* The shortest cap period taken, and the longest. */
#define NETBACK_SHARE_CAP_NS_MIN	NSEC_PER_USEC
#define NETBACK_SHARE_CAP_NS_MAX	BIT_ULL(32)

/* The largest rate or cap taken, in bytes (a second, or a period). */
#define NETBACK_SHARE_BYTES_MAX		BIT_ULL(40)

/*
 * Bring a token bucket up to @now: @bytes every @per_ns, up to @max.
 * Only the time turned into whole bytes is used up, so that slow rates
 * lose nothing to rounding.
 */
static void netback_share_refill(s64 *credit, u64 *stamp, u64 now, u64 bytes,
				 u64 per_ns, s64 max)
{
	u64 dt, add;

	if (now <= *stamp)
		return;
	if (*credit >= max) {
		*stamp = now;
		return;
	}
	dt = min(now - *stamp, NETBACK_SHARE_DT_MAX);
	add = mul_u64_u64_div_u64(dt, bytes, per_ns);
	if (add >= (u64)(max - *credit)) {
		*credit = max;
		*stamp = now;
		return;
	}
	*credit += add;
	*stamp += mul_u64_u64_div_u64(add, per_ns, bytes);
}

/* Nanoseconds until a bucket at @credit (<= 0) holds a byte; 1 s at most. */
static u64 netback_share_until(s64 credit, u64 bytes, u64 per_ns)
{
	u64 need = 1 - credit;

	if (div64_u64(need, bytes) >= div64_u64(NSEC_PER_SEC, per_ns))
		return NSEC_PER_SEC;
	return mul_u64_u64_div_u64(need, per_ns, bytes) + 1;
}

/* The minimum rate's bucket holds this much at most. */
static s64 netback_share_min_burst(const struct netback_share_vif *v)
{
	return max_t(s64, 1, mul_u64_u64_div_u64(v->min_rate,
						 NETBACK_SHARE_MIN_BURST_NS,
						 NSEC_PER_SEC));
}

/*
 * The lowest virtual time of the active vifs that have a weight;
 * @share->vclock if none.
 */
static u64 netback_share_lowest(const struct netback_share *share)
{
	const struct netback_share_vif *v;
	u64 low = U64_MAX;

	list_for_each_entry(v, &share->active, node)
		if (v->weight && !v->capped)
			low = min(low, v->vtime);
	return low == U64_MAX ? share->vclock : low;
}

/* NETBACK_SHARE_LAG bytes of @v's, in virtual time. */
static u64 netback_share_lag(const struct netback_share_vif *v)
{
	return div_u64((u64)NETBACK_SHARE_LAG * NETBACK_SHARE_MAX_WEIGHT,
		       v->weight);
}

/* Bring @v's minimum rate bucket up to @now; true if it is owed. */
static bool netback_share_owed(struct netback_share_vif *v, u64 now)
{
	if (!v->min_rate)
		return false;
	netback_share_refill(&v->min_credit, &v->min_stamp, now, v->min_rate,
			     NSEC_PER_SEC, netback_share_min_burst(v));
	return v->min_credit > 0;
}

/* Whether an active vif other than @v, with work, is owed its minimum. */
static bool netback_share_other_owed(struct netback_share *share,
				     struct netback_share_vif *v, u64 now)
{
	struct netback_share_vif *o;

	list_for_each_entry(o, &share->active, node)
		if (o != v && !o->lingering && netback_share_owed(o, now))
			return true;
	return false;
}

/* Let the vifs whose idle grace ended by @now go; true if one did. */
static bool netback_share_expire(struct netback_share *share, u64 now)
{
	struct netback_share_vif *o, *n;
	bool gone = false;

	list_for_each_entry_safe(o, n, &share->active, node) {
		if (o->lingering && now >= o->linger_end) {
			netback_share_deactivate(share, o);
			gone = true;
		}
	}
	return gone;
}

/* Nanoseconds until the first idle grace ends; NETBACK_SHARE_WAKE if none. */
static u64 netback_share_linger_left(const struct netback_share *share,
				     u64 now)
{
	const struct netback_share_vif *o;
	u64 left = NETBACK_SHARE_WAKE;

	list_for_each_entry(o, &share->active, node)
		if (o->lingering)
			left = min(left, o->linger_end > now ?
					 o->linger_end - now : 1);
	return left;
}

/*
 * Whether active @v, within its cap, may go as far as the minimum rates
 * and the weights go: it is owed its minimum, or no one else is and it
 * is within its lag of the lowest virtual time.
 */
static bool netback_share_may_go(struct netback_share *share,
				 struct netback_share_vif *v, u64 now)
{
	if (netback_share_owed(v, now))
		return true;
	if (netback_share_other_owed(share, v, now))
		return false;
	return !v->weight ||
	       v->vtime <= netback_share_lowest(share) + netback_share_lag(v);
}

/*
 * What a pass of @v, which may go, may move before it asks again: what
 * its cap and its minimum still cover, or else its lead up to its lag
 * beyond the lowest virtual time; at least one byte, so that it makes
 * progress.
 */
static u64 netback_share_allowance(struct netback_share *share,
				   struct netback_share_vif *v)
{
	u64 allow = U64_MAX, low, reach;

	if (v->cap_bytes)
		allow = max_t(s64, v->cap_credit, 1);
	if (v->min_rate && v->min_credit > 0)
		return min_t(u64, allow, v->min_credit);
	if (v->active && v->weight) {
		low = netback_share_lowest(share);
		reach = low + netback_share_lag(v);
		if (reach > v->vtime)
			allow = min(allow, mul_u64_u64_div_u64(reach - v->vtime,
							       v->weight,
							       NETBACK_SHARE_MAX_WEIGHT));
	}
	return max_t(u64, allow, 1);
}

/* Whether a vif waits for the others. */
static bool netback_share_any_waiting(const struct netback_share *share)
{
	const struct netback_share_vif *o;

	list_for_each_entry(o, &share->active, node)
		if (o->waiting)
			return true;
	return false;
}

/* Whether a vif that waits for the others may go now. */
static bool netback_share_waiter_may_go(struct netback_share *share, u64 now)
{
	struct netback_share_vif *o;

	list_for_each_entry(o, &share->active, node)
		if (o->waiting && netback_share_may_go(share, o, now))
			return true;
	return false;
}

/**
 * netback_share_init() - an empty sharing
 * @share: it
 */
void netback_share_init(struct netback_share *share)
{
	INIT_LIST_HEAD(&share->active);
	share->vclock = 0;
}

/**
 * netback_share_vif_init() - a vif outside the sharing, no rate, no cap
 * @v: its part
 * @now: the time, in nanoseconds
 */
void netback_share_vif_init(struct netback_share_vif *v, u64 now)
{
	memset(v, 0, sizeof(*v));
	INIT_LIST_HEAD(&v->node);
	v->min_stamp = now;
	v->cap_stamp = now;
}

/**
 * netback_share_set() - a vif's weight, minimum rate and cap, changed live
 * @share: the sharing
 * @v: the vif's part
 * @weight: 0 (outside the sharing) to NETBACK_SHARE_MAX_WEIGHT; more is
 *	taken as that
 * @min_rate: bytes a second served first, 0 for none
 * @cap_bytes: bytes it may move every @cap_ns, 0 for no cap
 * @cap_ns: the cap's period
 * @now: the time, in nanoseconds
 *
 * A vif that gets a weight while it has work joins the active ones at
 * the next netback_share_activate(); one that loses its weight leaves
 * them now, unless it keeps a minimum rate and has work.
 */
void netback_share_set(struct netback_share *share,
		       struct netback_share_vif *v, u32 weight, u64 min_rate,
		       u64 cap_bytes, u64 cap_ns, u64 now)
{
	u64 low;

	weight = min_t(u32, weight, NETBACK_SHARE_MAX_WEIGHT);
	min_rate = min(min_rate, NETBACK_SHARE_BYTES_MAX);
	if (v->active && weight != v->weight) {
		/* Its lead in bytes stays what it was. */
		low = netback_share_lowest(share);
		if (weight && v->weight && v->vtime > low)
			v->vtime = low + div_u64((v->vtime - low) * v->weight,
						 weight);
		else
			v->vtime = max(v->vtime, low);
	}
	/* Without a weight it has no grace either. */
	if (v->active && !weight && (!min_rate || v->lingering))
		netback_share_deactivate(share, v);
	v->weight = weight;
	if (min_rate != v->min_rate) {
		v->min_rate = min_rate;
		v->min_credit = 0;
		v->min_stamp = now;
	}
	if (!cap_bytes || !cap_ns) {
		cap_bytes = 0;
		cap_ns = 0;
		v->capped = false;
	}
	cap_bytes = min(cap_bytes, NETBACK_SHARE_BYTES_MAX);
	if (cap_ns)
		cap_ns = clamp(cap_ns, NETBACK_SHARE_CAP_NS_MIN,
			       NETBACK_SHARE_CAP_NS_MAX);
	if (cap_bytes != v->cap_bytes || cap_ns != v->cap_ns) {
		v->cap_bytes = cap_bytes;
		v->cap_ns = cap_ns;
		v->cap_credit = cap_bytes;
		v->cap_stamp = now;
	}
}

/**
 * netback_share_activate() - a vif has work
 * @share: the sharing
 * @v: its part
 *
 * A vif with a weight or a minimum rate joins the active ones, at most
 * NETBACK_SHARE_IDLE_LAGS of its lags behind the lowest virtual time
 * among them: a vif whose ring ran dry between two bursts keeps its
 * place, but what it did not use while idle longer is not owed to it.
 * One in its idle grace goes on where it was.  Nothing for one already
 * active or with neither.
 */
void netback_share_activate(struct netback_share *share,
			    struct netback_share_vif *v)
{
	u64 low, credit;

	if (v->lingering) {
		/* Back within its grace: as if it had never gone. */
		v->lingering = false;
		return;
	}
	if (v->active || (!v->weight && !v->min_rate))
		return;
	if (v->weight) {
		low = netback_share_lowest(share);
		credit = netback_share_lag(v) * NETBACK_SHARE_IDLE_LAGS;
		v->vtime = max(v->vtime, low > credit ? low - credit : 0);
	}
	v->waiting = false;
	list_add_tail(&v->node, &share->active);
	v->active = true;
}

/**
 * netback_share_deactivate() - a vif leaves the active ones now
 * @share: the sharing
 * @v: its part
 *
 * For a vif that is no longer served (and for one whose idle grace
 * ended); a vif whose rings merely ran dry pauses instead.
 *
 * Return: true when vifs wait for the others: the lowest virtual time
 * may have moved, and they should look again.
 */
bool netback_share_deactivate(struct netback_share *share,
			      struct netback_share_vif *v)
{
	if (!v->active)
		return false;
	share->vclock = max(share->vclock, netback_share_lowest(share));
	list_del_init(&v->node);
	v->active = false;
	v->waiting = false;
	v->lingering = false;
	return netback_share_any_waiting(share);
}

/**
 * netback_share_pause() - a vif's rings ran dry
 * @share: the sharing
 * @v: its part
 * @now: the time, in nanoseconds
 *
 * A vif with a weight keeps its place among the active ones for
 * @share->idle_grace_ns, holding back those ahead of it, unless it has
 * work again by then (netback_share_activate()); any other leaves now.
 *
 * Return: true when vifs wait for the others: they should look again
 * (for how long the grace holds them, or whether the vif left).
 */
bool netback_share_pause(struct netback_share *share,
			 struct netback_share_vif *v, u64 now)
{
	if (!v->active || v->lingering)
		return false;
	if (!v->weight || !share->idle_grace_ns)
		return netback_share_deactivate(share, v);
	v->lingering = true;
	v->waiting = false;
	v->linger_end = now + share->idle_grace_ns;
	return netback_share_any_waiting(share);
}

/**
 * netback_share_delay() - may a vif's thread make a pass now?
 * @share: the sharing
 * @v: its part
 * @now: the time, in nanoseconds
 *
 * Return: 0 when it may, with the bytes its pass may move in @v->allow;
 * otherwise how many nanoseconds to wait at most before asking again
 * (until a bucket refills or an idle grace ends), or NETBACK_SHARE_WAKE
 * to wait until another vif is charged, pauses or leaves.  A vif over its
 * cap no longer holds back the vifs behind it: the caller wakes them.
 */
u64 netback_share_delay(struct netback_share *share,
			struct netback_share_vif *v, u64 now)
{
	u64 wait;

	netback_share_expire(share, now);
	v->waiting = false;
	if (v->cap_bytes) {
		netback_share_refill(&v->cap_credit, &v->cap_stamp, now,
				     v->cap_bytes, v->cap_ns, v->cap_bytes);
		if (v->cap_credit <= 0) {
			/* Meanwhile it holds no one back. */
			v->capped = true;
			return netback_share_until(v->cap_credit, v->cap_bytes,
						   v->cap_ns);
		}
		if (v->capped) {
			/* Nor is it owed what it could not use. */
			v->capped = false;
			if (v->active && v->weight)
				v->vtime = max(v->vtime,
					       netback_share_lowest(share));
		}
	}
	if (!v->active || netback_share_may_go(share, v, now)) {
		v->allow = netback_share_allowance(share, v);
		return 0;
	}
	v->waiting = true;
	wait = v->min_rate ? netback_share_until(v->min_credit, v->min_rate,
						 NSEC_PER_SEC) :
			     NETBACK_SHARE_WAKE;
	/* A vif in its idle grace may be what holds it: look at its end. */
	return min(wait, netback_share_linger_left(share, now));
}

/**
 * netback_share_charge() - a vif's pass moved @bytes
 * @share: the sharing
 * @v: its part
 * @bytes: both ways
 * @now: the time, in nanoseconds
 *
 * The cap takes them all, and the minimum rate's bucket too; what that
 * bucket still held is covered by the minimum, and the rest moves the
 * vif's virtual time by those bytes over its weight.
 *
 * Return: true when a vif that waits for the others may go now.
 */
bool netback_share_charge(struct netback_share *share,
			  struct netback_share_vif *v, u64 bytes, u64 now)
{
	u64 covered = 0;
	bool expired = netback_share_expire(share, now);

	if (!bytes)
		return expired;
	v->bytes += bytes;
	bytes = min(bytes, NETBACK_SHARE_BYTES_MAX);
	if (v->cap_bytes)
		v->cap_credit -= bytes;
	if (v->min_rate) {
		if (netback_share_owed(v, now))
			covered = min_t(u64, v->min_credit, bytes);
		/*
		 * Below zero, it has had more than its minimum lately; by
		 * no more than a burst, so that it is owed its minimum
		 * again soon after it falls below it.
		 */
		v->min_credit = max_t(s64, v->min_credit - bytes,
				      -netback_share_min_burst(v));
	}
	if (!v->active)
		return expired;
	if (v->weight && covered < bytes)
		v->vtime += div_u64((bytes - covered) * NETBACK_SHARE_MAX_WEIGHT,
				    v->weight);
	return netback_share_waiter_may_go(share, now);
}
