# SPDX-License-Identifier: GPL-2.0
#
# The hostile-backend suite, sourced by run.sh with the rest of dom0's
# shell library (job/*.sh); a blkbad or netbad scenario (run_bad,
# run_survey) runs it: a busybox domU (pvops.control=1) is
# given, while paused, devices whose backend is this script and
# /job/hostile (job/hostile.c), not Xen's.  Each case below is one
# device; the harness (judge_bad) knows the one line the guest must log
# for it.  Uses lib.sh's say, clock_cs, after, past and wait_log.
#
# A case is DEVICE:OFFER:ACTION for a vif, DEVICE:SECTOR-SIZE:SECTORS:
# OFFER:ACTION for a vbd.  OFFER names nodes, comma separated (or -), the
# backend writes from the start; then it goes InitWait (Connected for the
# action "early").  A vbd's then waits for the frontend's Initialised
# (unless it closed already) and publishes the disk and Connected; a
# vif's waits for the frontend's Connected when it has an action.  The
# action (bad_<kind>_<action> below; "-" for none: the offer alone must
# be refused) then plays the backend's part; unless it closed the device
# itself (it sets closed, and may put figures for the case's line in
# extra), the frontend must then go Closing.  At the end every backend
# closes; each
# frontend must then give back every grant and irq it took, and the
# guest must keep running and shut down.  No vbd offers
# feature-persistent: the frontend must keep the backend off its own
# pages all the same.
BLKBAD="51712:3000:2048:-:- 51728:512:0:-:- 51744:4096:7:-:-
51760:512:2048:-:badid
51776:512:2048:max-ring-page-order=40:-
51792:512:2048:multi-queue-max-queues=0:-
51808:512:2048:feature-max-indirect-segments=100000:-
51824:512:2048:-:status 51840:512:2048:-:twice 51856:512:2048:-:jump
51872:512:2048:-:wrongop 51888:512:2048:-:silent
51904:512:2048:-:holdclose 51920:512:2048:-:mapped
51936:512:2048:-:newssize 51952:512:2048:-:nosectors
268439552:512:2048:-:stateflood 268439808:512:2048:-:early
268440064:512:2048:-:stormwait"
NETBAD="0:feature-rx-copy=1,mtu=70000:- 1:feature-sg=1:- 2:feature-rx-copy=1,mtu=9000:-
3:feature-rx-copy=1:badid
4:feature-rx-copy=1,multi-queue-max-queues=0:-
5:feature-rx-copy=1:pastpage 6:feature-rx-copy=1:chain
7:feature-rx-copy=1:extratype 8:feature-rx-copy=1:gsoprefix
9:feature-rx-copy=1:jump 10:feature-rx-copy=1:twice
11:feature-rx-copy=1:flood"

# bad_fields SPEC: a case into v, ssize and sectors (vbd), nodes and act.
bad_fields() {
	v=${1%%:*} rest=${1#*:}
	if [ "$kind" = vbd ]; then
		ssize=${rest%%:*} rest=${rest#*:}
		sectors=${rest%%:*} rest=${rest#*:}
	fi
	nodes=${rest%%:*} act=${rest#*:}
	[ "$nodes" = - ] && nodes=
	[ "$act" = - ] && act=
	fe=/local/domain/$d/device/$kind/$v
	be=/local/domain/0/backend/pvopsbad/$d/$v
}

# bad_fail WHY...: the case failed (in a survey: is stuck) for WHY; but
# not in a survey the domU goes.
bad_fail() {
	if [ -n "$survey" ]; then
		step $kind$v=stuck "$@"
	else
		step $kind$v=failed "$@"
		xl destroy "$n"
	fi
}

# bad_wait_state STATES TENTHS: the frontend $fe reaches one of STATES
# (an extended regex: 3|5) within TENTHS tenths of a second, or the step
# fails and the domU goes (in a survey: the case is stuck, the domU
# stays for the next).
bad_wait_state() {
	local end=$(after $2)
	until xenstore-read $fe/state 2>/dev/null | grep -qxE "$1"; do
		if past $end; then
			bad_fail frontend_state=$(xenstore-read $fe/state 2>&1)
			return 1
		fi
		sleep 0.2
	done
}

# hostile ENTRY_BYTES RING_NODE STEP...: /job/hostile on the frontend's
# ring and channel; its output goes to the case's log.
hostile() {
	hostile_bg "$@"
	hostile_wait
}

# hostile_bg ...: the same in the background, its pid in $hpid: the
# action stops its serving (serve:) with SIGUSR1, and hostile_wait waits
# for it (by its pid: run.sh has background jobs of its own).
hostile_bg() {
	local entry=$1 ring=$2
	shift 2
	/job/hostile "$d" "$(xenstore-read $fe/$ring)" \
		"$(xenstore-read $fe/event-channel)" "$entry" "$@" \
		>> "/job/out/$n.hostile-$v.log" 2>&1 &
	hpid=$!
}

hostile_wait() {
	local rc
	wait $hpid
	rc=$?
	[ $rc = 0 ] || bad_fail hostile_status=$rc log=/job/out/$n.hostile-$v.log
	return $rc
}

# ---- vbd actions: blkif entries are 112 bytes ----

# A response with id 200, past the ring's 32 slots.
bad_vbd_badid() {
	hostile 112 ring-ref wait rsp:c80000000000000000000000 push kick sleep:2000
}
# A status blkif does not have.
bad_vbd_status() { hostile 112 ring-ref wait echo:77 push kick sleep:2000; }
# The same request answered twice.
bad_vbd_twice() {
	hostile 112 ring-ref wait echo:0 echo:0 push kick sleep:2000
}
# A producer index 1000 responses ahead.
bad_vbd_jump() { hostile 112 ring-ref wait prod:1000 kick sleep:2000; }
# An answer for another operation (3: flush).
bad_vbd_wrongop() {
	hostile 112 ring-ref wait echo-op:3 push kick sleep:2000
}
# A backend that never answers: the partition scan's read times out
# (30 s), and the frontend closes rather than hang in the watch thread.
bad_vbd_silent() { hostile 112 ring-ref sleep:36000; }
# The disk works (the partition scan answered), then the backend holds
# a read (the guest reads each disk 5 s after it appears) and closes:
# the frontend fails what it holds BLKFRONT_GRACE later.
bad_vbd_holdclose() {
	hostile_bg 112 ring-ref serve:60000 sleep:20000
	bad_wait_state 4 $patience || return 1
	kill -USR1 $hpid
	sleep 8
	xenstore-write $be/state 5
	bad_wait_state '5|6' $patience || return 1
	hostile_wait || return 1
}
# The backend keeps the page of a request mapped after answering it,
# and still maps it when it closes: the guest must hold that page (and
# its grant) until the backend lets go (debugfs xen/grants "held"),
# then give everything back.  Nothing here is wrong, so the disk works
# until the backend closes.
bad_vbd_mapped() {
	hostile_bg 112 ring-ref wait map:24 echo:0 push kick serve:60000 \
		sleep:8000 unmap
	bad_wait_state 4 $patience || return 1
	sleep 7
	xenstore-write $be/state 6
	bad_wait_state 6 $patience || return 1
	kill -USR1 $hpid
	if ! wait_log "$log" 'PVOPS-HARNESS: xen .* held=[1-9]' 1 $patience; then
		bad_fail never-held
		return 1
	fi
	hostile_wait || return 1
	closed=1
}
# Connected again with another sector-size, or with no sectors.
bad_vbd_renew() {
	hostile_bg 112 ring-ref serve:60000
	bad_wait_state 4 $patience || return 1
	sleep 2
	xenstore-write $be/$1 $2 $be/state 4
	bad_wait_state '5|6' $patience || return 1
	kill -USR1 $hpid
	hostile_wait || return 1
}
bad_vbd_newssize() { bad_vbd_renew sector-size 4096; }
bad_vbd_nosectors() { bad_vbd_renew sectors 0; }
# Connected written 1,000 times over, each write in a transaction of its
# own (xenstore-write of many pairs makes them one transaction, which
# fires the watch once): legal (a resize would say so), so
# the frontend must stay connected; and what it does for them must not
# pile up: it must see the backend close, written right after, within
# seconds (closed_in, in hundredths of a second), not after doing the
# thousand over.
bad_vbd_stateflood() {
	local t0
	hostile_bg 112 ring-ref serve:60000
	bad_wait_state 4 $patience || return 1
	if ! /job/hostile xswrite $be/state 4 1000 >> "/job/out/$n.hostile-$v.log" 2>&1; then
		bad_fail xswrite=failed
		return 1
	fi
	if [ "$(xenstore-read $fe/state)" != 4 ]; then
		bad_fail frontend_state=$(xenstore-read $fe/state 2>&1)
		return 1
	fi
	clock_cs
	t0=$cs_now
	xenstore-write $be/state 6
	bad_wait_state 6 $patience || return 1
	clock_cs
	extra="closed_in=$((cs_now - t0))"
	kill -USR1 $hpid
	hostile_wait || return 1
	closed=1
}

# The backend never answers the partition scan, so that the watch thread
# waits in it (up to the I/O timeout), and meanwhile writes Connected
# 50,000 times: the guest must not keep an event for each (slab_growth,
# in KiB, of what the guest reported just before and at most after),
# then close when the timeout breaks the disk.
# The guest's init must be up (it reports the slab), before the disk is
# offered: the partition scan's timeout starts then.
bad_vbd_stormwait_first() {
	wait_log "$log" 'PVOPS-HARNESS: mem slab=' 1 600 && return
	bad_fail init=not-reporting
	return 1
}
bad_vbd_stormwait() {
	local n0 s0 s1
	hostile_bg 112 ring-ref sleep:40000
	sleep 3
	n0=$(grep -ac 'PVOPS-HARNESS: mem slab=' "$log")
	s0=$(grep -a 'PVOPS-HARNESS: mem slab=' "$log" | tail -n 1 | tr -dc 0-9)
	if ! /job/hostile xswrite $be/state 4 50000 >> "/job/out/$n.hostile-$v.log" 2>&1; then
		bad_fail xswrite=failed
		return 1
	fi
	sleep 3
	s1=$(grep -a 'PVOPS-HARNESS: mem slab=' "$log" | tail -n +$((n0 + 1)) |
	     tr -dc '0-9\n' | sort -n | tail -n 1)
	# Said at once: it tells even if the case fails later.
	step slab_growth=$((${s1:-$s0} - s0))
	bad_wait_state '5|6' $patience || return 1
	hostile_wait || return 1
	closed=1
}

# ---- vif actions: netif receive entries are 8 bytes ----

# The receive ring's first slot answered with id 300.
bad_vif_badid() { hostile 8 rx-ring-ref wait rsp:2c01000000006400 push kick sleep:2000; }
# 200 bytes at offset 4000: past the page.
bad_vif_pastpage() { hostile 8 rx-ring-ref wait rsp:0000a00f0000c800 push kick sleep:2000; }
# A packet whose extra information slots never end (each says "more").
bad_vif_chain() {
	local i=0 x=
	while [ $i -lt 24 ]; do
		x="$x rsp:0101000000000000"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	hostile 8 rx-ring-ref wait rsp:0000000008006400 $x push kick sleep:2000
}
# Extra information of a type netif does not have (9).
bad_vif_extratype() {
	hostile 8 rx-ring-ref wait rsp:0000000008006400 rsp:0900000000000000 \
		push kick sleep:2000
}
# A receive response with the flag of a GSO prefix, which it never asked
# for.
bad_vif_gsoprefix() { hostile 8 rx-ring-ref wait rsp:0000000010006400 push kick sleep:2000; }
# A producer index 5000 responses ahead.
bad_vif_jump() { hostile 8 rx-ring-ref wait prod:5000 kick sleep:2000; }
# Slot 0 answered, then slot 1 answered with slot 0's id.
bad_vif_twice() {
	hostile 8 rx-ring-ref wait rsp:0000000000006400 rsp:0000000000006400 \
		push kick sleep:2000
}
# A bad response, then 20,000 events: the broken vif takes nothing more,
# so each is spurious and the guest must slow them down.
bad_vif_flood() {
	hostile 8 rx-ring-ref wait rsp:2c01000000006400 push kick sleep:1000 \
		flood:20000 sleep:1000
}

# bad_case: one case, from the backend's InitWait (or early Connected) to
# the frontend's closing; 0 when the frontend did what it must.
bad_case() {
	closed= extra=
	if [ "$act" = early ]; then
		xenstore-write $be/state 4
		bad_wait_state '5|6' $patience || return 1
		step $kind$v=ok
		return
	fi
	# An action may need something first (bad_<kind>_<action>_first).
	if command -v bad_${kind}_${act}_first > /dev/null; then
		bad_${kind}_${act}_first || return 1
	fi
	xenstore-write $be/state 2
	if [ "$kind" = vbd ]; then
		bad_wait_state '3|5' $patience || return 1
		if [ "$(xenstore-read $fe/state)" = 3 ]; then
			xenstore-write $be/sectors $sectors $be/info 0 \
				$be/sector-size $ssize $be/state 4
		fi
	elif [ -n "$act" ]; then
		bad_wait_state 4 $patience || return 1
		xenstore-write $be/state 4
	fi
	if [ -n "$act" ]; then
		bad_${kind}_$act || return 1
	fi
	if [ -z "$closed" ]; then
		bad_wait_state '5|6' $patience || return 1
	fi
	step $kind$v=ok $extra
}

# run_bad NAME CFG TIMEOUT KIND [survey|-] [DEVICE...]: every case of
# KIND (or only those of the DEVICEs named) in one domU.
# With survey (for the reference kernel, whose lines differ), a case the
# frontend does not close is noted as stuck and the next one tried, each
# wait lasts at most 15 s, and the domU is destroyed at the end whatever
# it did: the harness reports what the frontend survived.
run_bad() {
	name=$1 cfg=$2 tmo=$3 kind=$4 survey=${5:-}
	[ "$survey" = - ] && survey=
	if [ $# -ge 5 ]; then shift 5; else shift $#; fi
	n=$name-a1
	log=/job/out/console/guest-$n.log
	patience=$((tmo * 5))
	[ -n "$survey" ] && patience=150
	if [ "$kind" = vbd ]; then
		what=blkbad specs=$BLKBAD
	else
		what=netbad specs=$NETBAD
	fi
	if [ $# -gt 0 ]; then
		want=" $* " specs=$(for spec in $specs; do
			case $want in *" ${spec%%:*} "*) echo "$spec" ;; esac
		done)
	fi
	step() { say "domu $n $what $*"; }
	if ! xl create -q -p "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	d=$(xl domid "$n")
	for spec in $specs; do
		bad_fields "$spec"
		xenstore-write $fe/backend $be $fe/backend-id 0 $fe/state 1 \
			$be/frontend $fe $be/frontend-id $d $be/state 1
		# As libxl writes them (the reference's frontends read them).
		if [ "$kind" = vif ]; then
			xenstore-write $fe/handle $v $fe/mac 00:16:3e:00:00:$(printf %02x $v)
		else
			xenstore-write $fe/virtual-device $v $fe/device-type disk
		fi
		for kv in $(echo "$nodes" | tr , ' '); do
			xenstore-write $be/${kv%%=*} ${kv#*=}
		done
		xenstore-chmod -r $fe n$d r0
		xenstore-chmod -r $be n0 r$d
	done
	xenstore-chmod /local/domain/$d/device/$kind n0 r$d
	xl unpause "$n"
	step boot=ok domid=$d
	for spec in $specs; do
		bad_fields "$spec"
		bad_case || [ -n "$survey" ] || return 1
	done
	# The backend closes too; each frontend must then give back every
	# grant and irq it took (the guest reports both from debugfs and
	# /proc/interrupts, and reported more than 0 grants while the
	# devices were there).
	for spec in $specs; do
		bad_fields "$spec"
		xenstore-write $be/state 6
		if [ -n "$survey" ]; then
			# Its own step: the case's outcome stays as it was.
			v=closed-$v
			bad_wait_state 6 $patience
		else
			bad_wait_state 6 $patience || return 1
		fi
	done
	end=$(after $((tmo * 10)))
	[ -n "$survey" ] && end=$(after $patience)
	# A kernel without debugfs xen/grants (the reference) cannot tell.
	grep -aq 'PVOPS-HARNESS: xen grants-in-use=unknown' "$log" && end=0
	leaked=
	until use=$(grep -a 'PVOPS-HARNESS: xen ' "$log" | tail -n 1 |
		    tr -d '\r'); [ "${use##* xen }" = 'grants-in-use=0 held=0 device-irqs=0' ]; do
		if past $end; then
			step leaks=failed last=$(echo "${use##* xen }" | tr ' ' ,)
			leaked=1
			[ -n "$survey" ] && break
			xl destroy "$n"; return 1
		fi
		sleep 0.2
	done
	if [ -n "$leaked" ]; then
		:	# a survey's: said above
	elif grep -aq 'PVOPS-HARNESS: xen grants-in-use=[1-9]' "$log"; then
		step leaks=ok
	elif [ -z "$survey" ]; then
		step leaks=failed last=never-above-0
		xl destroy "$n"; return 1
	fi
	# A surveyed kernel whose init never ran (its boot waits on a stuck
	# device) is given its patience, not the whole timeout.
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 1 \
		$([ -n "$survey" ] && echo $patience || echo $((tmo * 10))) ||
	   ! timeout $([ -n "$survey" ] && echo 20 || echo 120) \
		xl shutdown -w "$n" > /dev/null 2>&1 ||
	   xl domid "$n" > /dev/null 2>&1; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
}

# run_survey NAME CFG TIMEOUT KIND [DEVICE...]: run_bad's survey, each
# case (of KIND, or of the DEVICEs named) in a domU of its own, named
# NAME-DEVICE-a1: a case that leaves a frontend, or the guest's watch
# thread, stuck cannot spoil the cases after it.
run_survey() {
	local sname=$1 scfg=$2 stmo=$3 skind=$4 sv
	shift 4
	if [ $# -eq 0 ]; then
		if [ "$skind" = vbd ]; then
			set -- $(for spec in $BLKBAD; do echo "${spec%%:*}"; done)
		else
			set -- $(for spec in $NETBAD; do echo "${spec%%:*}"; done)
		fi
	fi
	for sv in "$@"; do
		run_bad "$sname-$sv" "$scfg" "$stmo" "$skind" survey "$sv"
		xl destroy "$sname-$sv-a1" > /dev/null 2>&1
	done
	return 0
}

# run_console_flood NAME CFG TIMEOUT: a busybox domU (pvops.control=1)
# whose console channel dom0 floods with 20,000 events: xenconsoled is
# killed (its ports close), /job/hostile binds the guest's console port
# in its place, maps the console page (grant 0) and sends them, then
# xenconsoled starts again.  Each event moves no index of the ring, so
# the guest must take them for spurious and slow them down (it logs so
# at KERN_INFO), keep running, and shut down.
run_console_flood() {
	name=$1 cfg=$2 tmo=$3
	n=$name-a1
	log=/job/out/console/guest-$n.log
	step() { say "domu $n conflood $*"; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	d=$(xl domid "$n")
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 1 $((tmo * 10)); then
		step boot=failed; xl destroy "$n"; return 1
	fi
	step boot=ok domid=$d
	kill -9 "$(cat /run/xenconsoled.pid)"
	sleep 1
	/job/hostile "$d" 0 "$(xenstore-read /local/domain/$d/console/port)" 1 \
		flood:20000 sleep:500 > "/job/out/$n.hostile.log" 2>&1
	rc=$?
	xenconsoled --pid-file=/run/xenconsoled.pid --log=guest \
		--log-dir=/job/out/console
	if [ $rc != 0 ]; then
		step flood=failed hostile_status=$rc log=/job/out/$n.hostile.log
		xl destroy "$n"; return 1
	fi
	step flood=ok
	if ! shut_down "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
}
