# SPDX-License-Identifier: GPL-2.0
#
# The balloon check: a busybox domU that keeps memory busy (pvops.memtouch)
# is moved down to a low target and up again, cycle after cycle, with
# xl mem-set; dom0 times each move on its own clock until `xl list`
# shows the target.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# mem_of DOMID: the domain's memory in MiB as `xl list` shows it.
mem_of() {
	xl list "$1" 2>/dev/null | awk 'NR == 2 { print $3 }'
}

# balloon_move NAME DOMID MIB TIMEOUT SLACK: xl mem-set, then wait (at
# most TIMEOUT seconds) for `xl list` to show MIB, or to come within
# SLACK MiB of it; the seconds it took in $moved, what xl list showed in
# $got, or return 1.
balloon_move() {
	local end t0
	t0=$(date +%s.%N)
	xl mem-set "$2" "$3" || return 1
	end=$(after $(($4 * 10)))
	while :; do
		got=$(mem_of $2)
		[ -n "$got" ] && [ $((got - $3)) -le $5 ] && [ $(($3 - got)) -le $5 ] && break
		past $end && return 1
		sleep 0.05
	done
	moved=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
}

# balloon_seen LOG MIB: wait (10 s at most) until the guest's newest
# MemTotal line (guest-init) gives its target as MIB.  The guest prints
# one when MemTotal and the balloon's target and count held for two of
# its looks at values it did not print last; a short stay at HIGH may
# give none.  What counts is which target the newest line is at, not
# how many lines there are.
balloon_seen() {
	local end want=$(($2 * 1024))
	[ "$slack" != 0 ] && return 0	# its sysfs target is not xl's
	end=$(after 100)
	until [ "$(sed -n 's/.*PVOPS-HARNESS: mem total_kb=[0-9]* target_kb=\([0-9]*\) .*/\1/p' "$1" | tail -n 1)" = "$want" ]; do
		past $end && return 1
		sleep 0.1
	done
}

# run_balloon NAME CFG TIMEOUT CYCLES LOW HIGH SLACK: boot the domU (in
# 120 s; TIMEOUT is the harness's budget for the whole); once its
# workload runs, CYCLES times: xl mem-set LOW, wait for xl list to show
# it, xl mem-set HIGH, the same.  A line per cycle with both times, a
# summary line, then xl shutdown.  The guest's console has its MemTotal
# and balloon sysfs lines (guest-init) and the workload's: in the first
# cycle at LOW and after the last at HIGH, dom0 waits for the guest's
# line, which the harness then reads (harness_busybox.judge_balloon).
# SLACK (MiB) is 0 but for the reference kernel as a PVH domU, which
# lands below its target (see harness_scenarios.BALLOON_SLACK).
run_balloon() {
	name=$1 cfg=$2 tmo=$3 cycles=$4 low=$5 high=$6 slack=$7
	n=$name-a1
	log=/job/out/console/guest-$n.log
	step() { say "domu $n balloon $*"; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed
		return 1
	fi
	if ! wait_log "$log" 'PVOPS-HARNESS: memtouch started' 1 1200 "$n"; then
		step boot=failed; xl destroy "$n"; return 1
	fi
	id=$(xl domid "$n")
	step boot=ok domid=$id mem=$(mem_of $id)
	i=1 downs= ups=
	while [ $i -le "$cycles" ]; do
		if ! balloon_move "$n" "$id" "$low" 120 "$slack"; then
			step cycle=$i down=failed mem=$(mem_of $id)
			xl destroy "$n"; return 1
		fi
		d=$moved dgot=$got
		# A short stay at LOW between two moves may give no line of
		# the guest's (balloon_seen).  So in the first cycle (the
		# judge reads that line) and in the last (so that the one
		# after it at HIGH comes), wait for the guest's line at LOW
		# before going up.
		if { [ $i = 1 ] || [ $i = "$cycles" ]; } &&
		   ! balloon_seen "$log" "$low"; then
			step cycle=$i down=no-memtotal-line
			xl destroy "$n"; return 1
		fi
		if ! balloon_move "$n" "$id" "$high" 120 "$slack"; then
			step cycle=$i up=failed mem=$(mem_of $id)
			xl destroy "$n"; return 1
		fi
		say "domu $n balloon cycle=$i down_s=$d up_s=$moved down_mib=$dgot up_mib=$got"
		downs="$downs $d" ups="$ups $moved"
		i=$((i + 1))
	done
	if ! balloon_seen "$log" "$high"; then
		step cycle=$cycles up=no-memtotal-line
		xl destroy "$n"; return 1
	fi
	step cycles=ok count=$cycles down_mean=$(mean $downs) up_mean=$(mean $ups)
	if ! shut_down "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
}

# mean X...: the mean of decimals, two places.
mean() {
	echo "$@" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s / NF }'
}

# dom0_room MIB: make sure Xen has MIB MiB free, taking dom0 down as far
# as needed (xl mem-set 0); dom0's size before in $dom0_was, or return 1.
# dom0_back: dom0 up again to $dom0_was, if it went down.
dom0_room() {
	local free need
	dom0_was=$(mem_of 0)
	free=$(xl info free_memory)
	need=$(($1 - free))
	[ $need -le 0 ] && return 0
	say "balloon dom0 from=$dom0_was to=$((dom0_was - need)) for=$1 free=$free"
	balloon_move dom0 0 $((dom0_was - need)) 120 0
}

dom0_back() {
	[ "$(mem_of 0)" = "$dom0_was" ] || balloon_move dom0 0 "$dom0_was" 120 0
}

# run_balloon_grow NAME CFG TIMEOUT MIB TOUCH: a domU booted below its
# maxmem (MIB) is given all of it with xl mem-set; the balloon must add
# memory to get there (balloon_hotplug.c).  Its init (pvops.growtouch)
# then keeps TOUCH MiB busy for a few passes and says how that went.
run_balloon_grow() {
	name=$1 cfg=$2 tmo=$3 mib=$4 touch=$5
	n=$name-a1
	log=/job/out/console/guest-$n.log
	step() { say "domu $n balloon $*"; }
	if ! dom0_room $((mib + 64)); then
		step room=failed; return 1
	fi
	if ! boot_domu "$n" "$cfg" $((tmo * 10)); then
		step boot=failed; return 1
	fi
	step boot=ok domid=$id mem=$(mem_of $id)
	if ! balloon_move "$n" "$id" "$mib" 600 0; then
		step grow=failed mem=$(mem_of $id); xl destroy "$n"; return 1
	fi
	step grow=ok seconds=$moved mem=$got
	if ! wait_log "$log" 'PVOPS-HARNESS: memtouch \(done\|error\)' 1 6000 "$n" ||
	   ! grep -q 'PVOPS-HARNESS: memtouch done' "$log"; then
		step touch=failed; xl destroy "$n"; return 1
	fi
	step touch=ok
	if ! shut_down "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
	dom0_back
}

# run_dom0_balloon NAME CFG TIMEOUT MIB: dom0 lends MIB MiB.  A domU that
# needs more than Xen has free is refused; dom0 goes down by MIB (xl
# mem-set 0, which dom0's balloon carries out); the same domU starts and
# reaches init; once it is gone, dom0 goes back up to what it had.
run_dom0_balloon() {
	name=$1 cfg=$2 tmo=$3 mib=$4
	n=$name-a1
	step() { say "domu $n dom0-balloon $*"; }
	d0=$(mem_of 0) free=$(xl info free_memory)
	want=$((free + mib / 2))
	step start=ok dom0=$d0 free=$free domu=$want
	if xl create -q "/job/cfg/$cfg" "name=\"$n-big\"" "memory=$want" \
		> "/job/out/$n.refused.log" 2>&1; then
		step refused=failed; xl destroy "$n-big"; return 1
	fi
	xl destroy "$n-big" > /dev/null 2>&1
	step refused=ok
	if ! balloon_move dom0 0 $((d0 - mib)) 120 0; then
		step down=failed dom0=$(mem_of 0); return 1
	fi
	step down=ok seconds=$moved dom0=$got free=$(xl info free_memory)
	if ! boot_domu "$n" "$cfg" $((tmo * 10)) "memory=$want"; then
		step create=failed; return 1
	fi
	step create=ok domid=$id mem=$(mem_of "$n")
	if ! shut_down "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
	if ! balloon_move dom0 0 "$d0" 120 0; then
		step up=failed dom0=$(mem_of 0); return 1
	fi
	step up=ok seconds=$moved dom0=$got free=$(xl info free_memory)
}
