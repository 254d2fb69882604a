/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netback's sharing of dom0 between the vifs it serves: pure logic, no
 * hypercall, no lock, no clock of its own (the caller passes the time
 * and holds its lock), tested by KUnit (netback_share_test.c).
 *
 * Three rules, checked in this order before each pass of a vif's thread
 * and charged with the bytes the pass moved, both ways:
 *
 *   cap (the toolstack's rate=): at most cap_bytes every cap_ns, a token
 *     bucket that holds one period's worth; a vif over it waits, and
 *     the others go on without it.
 *   minimum rate: while a vif that has work has not had its min_rate
 *     lately, it goes and the others wait.  The bytes its minimum
 *     covers are not charged to its share.
 *   weight: each vif that has a weight carries a virtual time, the bytes
 *     it moved beyond its minimum divided by its weight.  A vif may run
 *     while its virtual time is within NETBACK_SHARE_LAG of the lowest of
 *     the vifs that have work (the active ones); one further ahead waits
 *     for the others to catch up.  Busy vifs thus move bytes in
 *     proportion to their weights, however many flows each carries, and
 *     a vif alone gets everything.  A vif that comes back from idle
 *     starts no further than NETBACK_SHARE_IDLE_LAGS lags behind the
 *     lowest virtual time of the active ones: a ring that ran dry
 *     between two bursts does not cost a vif its place, but idle time
 *     is not saved up.
 *   idle grace: a vif with a weight whose rings ran dry stays among the
 *     active ones for @idle_grace_ns more (netback_share_pause()), so
 *     that those ahead of it still wait.  A vif whose sender is paced by
 *     its round trip (one TCP flow) goes idle between bursts far more
 *     often than for longer than a moment; without the grace each of
 *     those moments is given to the others and such a vif gets much less
 *     than its weight.  The grace costs the others what the vif leaves
 *     unused within it, and nothing to vifs without a weight.
 *
 * A vif with neither weight nor minimum rate (the default) is outside the
 * sharing: it is never held back by it and holds no one back, as in
 * upstream's netback.  One with a minimum rate and no weight is held
 * back only while another is owed its minimum.
 */
#ifndef _XEN_NETBACK_SHARE_H
#define _XEN_NETBACK_SHARE_H

#include <linux/list.h>
#include <linux/types.h>

/* The largest weight; weights are 1 to this, 0 being none. */
#define NETBACK_SHARE_MAX_WEIGHT	1000

/*
 * The lead over the slowest active vif allowed, in bytes of the vif's
 * own; a pass stops there (or a packet beyond it).
 */
#define NETBACK_SHARE_LAG		(32 * 1024)

/*
 * How far behind the lowest virtual time a vif that comes back from idle
 * may start, in lags of its own.
 */
#define NETBACK_SHARE_IDLE_LAGS		4

/* The minimum rate's credit kept while a vif does not use it. */
#define NETBACK_SHARE_MIN_BURST_NS	(100 * NSEC_PER_MSEC)

/* netback_share_delay(): wait until another vif moves on. */
#define NETBACK_SHARE_WAKE		U64_MAX

/**
 * struct netback_share_vif - one vif's part in the sharing
 * @node: on netback_share.active while it has work
 * @active: it is
 * @capped: it waits for its cap: it counts for no one's lead meanwhile
 * @waiting: it waits for the others (minimum rates or weights)
 * @lingering: it has no work, but keeps its place until @linger_end
 * @allow: bytes its pass may move, set when it may go
 * @weight: its weight, 0 for none
 * @min_rate: bytes a second it is served first, 0 for none
 * @cap_bytes: bytes it may move every @cap_ns, 0 for no cap
 * @cap_ns: the cap's period
 * @vtime: its virtual time, in bytes times NETBACK_SHARE_MAX_WEIGHT
 *	divided by its weight
 * @min_credit: bytes its minimum rate still covers
 * @min_stamp: when @min_credit was last brought up to date
 * @cap_credit: bytes it may still move within its cap
 * @cap_stamp: when @cap_credit was last brought up to date
 * @linger_end: when its idle grace ends
 * @bytes: bytes charged, all told
 * @held: passes it waited for, all told (counted by the caller)
 */
struct netback_share_vif {
	struct list_head node;
	bool active;
	bool capped;
	bool waiting;
	bool lingering;
	u32 weight;
	u64 allow;
	u64 min_rate;
	u64 cap_bytes;
	u64 cap_ns;
	u64 vtime;
	s64 min_credit;
	u64 min_stamp;
	s64 cap_credit;
	u64 cap_stamp;
	u64 linger_end;
	u64 bytes;
	u64 held;
};

/**
 * struct netback_share - the vifs that share
 * @active: those with a weight or a minimum rate that have work, or are
 *	in their idle grace
 * @vclock: the lowest virtual time of the active ones when the last
 *	left, where the next to come starts
 * @idle_grace_ns: how long a vif with a weight keeps its place once its
 *	rings ran dry; 0 for not at all.  The caller sets it.
 */
struct netback_share {
	struct list_head active;
	u64 vclock;
	u64 idle_grace_ns;
};

void netback_share_init(struct netback_share *share);
void netback_share_vif_init(struct netback_share_vif *v, u64 now);
void netback_share_set(struct netback_share *share,
		       struct netback_share_vif *v, u32 weight, u64 min_rate,
		       u64 cap_bytes, u64 cap_ns, u64 now);
void netback_share_activate(struct netback_share *share,
			    struct netback_share_vif *v);
bool netback_share_deactivate(struct netback_share *share,
			      struct netback_share_vif *v);
bool netback_share_pause(struct netback_share *share,
			 struct netback_share_vif *v, u64 now);
u64 netback_share_delay(struct netback_share *share,
			struct netback_share_vif *v, u64 now);
bool netback_share_charge(struct netback_share *share,
			  struct netback_share_vif *v, u64 bytes, u64 now);

#endif /* _XEN_NETBACK_SHARE_H */
