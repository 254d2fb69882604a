# SPDX-License-Identifier: GPL-2.0
#
# Fair sharing between vifs: two busybox domUs on dom0's bridge send to
# dom0 as fast as they can (rootfs/blast.c), "a" over one TCP stream and
# "b" over eight; dom0 counts what each delivered (job/sink.c) in windows
# of 10 s, with the sharing settings netback reads from the backend node
# changed live between them (netback_share.h), while dom0 is capped at
# half a CPU (credit2, SHARE_DOM0_CAP) so that its CPU, which netback
# shares, is what the senders compete for:
#   none   no settings (upstream's behaviour)
#   w11    share-weight 1 and 1
#   w31    a 3, b 1
#   min    a 1 with share-min-kbps at 60% of what both moved in w11,
#          b 3
#   cap    a's toolstack rate (rate=BYTES,USEC) at 20% of that, no weights
# Each window also says how long dom0's CPU was busy and how long Xen
# held it back (its cap): a total that falls while dom0 stays as busy is
# work that costs more, not CPU left idle; the CPU seconds each guest
# ran, against the window's length; and the bytes netback charged each
# vif, against what the sink got.  The senders raise their TCP
# small queues (rootfs/guest-init), so that one stream is not held to a
# few packets in flight while netback holds it.
# The harness judges the shares (harness_share.judge_share); against the
# reference dom0, which has no weights, they are a comparison.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

SHARE_SINK=/dev/shm/pvops-sink.txt
SHARE_DOM0_CAP=50	# % of a CPU

# share_bytes ADDR: what ADDR delivered so far.
share_bytes() {
	awk -v a="$1" '$1 == a { print $2; f = 1 } END { if (!f) print 0 }' "$SHARE_SINK"
}

# share_cpu: dom0's busy and stolen time so far, in hundredths of a
# second (/proc/stat), as "BUSY STEAL".
share_cpu() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9; exit }' /proc/stat
}

# share_nb DOMID: the bytes netback charged the domain's vif so far
# (share_stats; it counts only while the vif has a setting).
share_nb() {
	awk '{ print $2 }' /sys/bus/xen-backend/devices/vif-$1-0/share_stats 2>/dev/null
}

# share_window PHASE: 10 s of both guests' sending, said as one line,
# with the time dom0's CPU was busy and the time Xen held it back, the
# CPU seconds each guest ran, and the bytes netback charged each vif
# (these last two over a little more than the window).
share_window() {
	local a0 b0 a1 b1 t0 t1 c0 c1 ac0 bc0 an0 bn0 an1 bn1
	# The slow reads (xl list takes seconds in a busy dom0) stay
	# outside the timed part: the sink's counts and the clock are read
	# together.
	ac0=$(dom_cpu $da) bc0=$(dom_cpu $db)
	an0=$(share_nb $da) bn0=$(share_nb $db)
	a0=$(share_bytes 169.254.1.1) b0=$(share_bytes 169.254.1.2)
	c0=$(share_cpu)
	clock_cs; t0=$cs_now
	sleep 10
	a1=$(share_bytes 169.254.1.1) b1=$(share_bytes 169.254.1.2)
	c1=$(share_cpu)
	clock_cs; t1=$cs_now
	an1=$(share_nb $da) bn1=$(share_nb $db)
	say "share $sname phase=$1 a=$((a1 - a0)) b=$((b1 - b0)) cs=$((t1 - t0)) busy=$((${c1% *} - ${c0% *})) stolen=$((${c1#* } - ${c0#* })) a_cpu_s=$(sub $(dom_cpu $da) $ac0) b_cpu_s=$(sub $(dom_cpu $db) $bc0) a_charged=$((an1 - an0)) b_charged=$((bn1 - bn0))"
	share_last=$(((a1 - a0) + (b1 - b0)))
}

# run_share NAME TIMEOUT: the two domUs (NAME-a.cfg, NAME-b.cfg), the
# phases, then each vif's share_stats, and what dom0 still holds.
run_share() {
	sname=$1 tmo=$2
	step() { say "share $sname $*"; }
	if ! bridge_up; then
		step "FAILED: no bridge xenbr0"
		return 1
	fi
	ports0=$(dom0_ports)
	rm -f $SHARE_SINK
	/job/sink 5001 $SHARE_SINK &
	sink=$!
	ok=1
	for g in a b; do
		if ! xl create -q "/job/cfg/$sname-$g.cfg" "name=\"$sname-$g\"" \
				> "/job/out/$sname-$g.create.log" 2>&1; then
			step "FAILED: xl create of $g (see out/$sname-$g.create.log)"
			ok=0
		fi
	done
	for g in a b; do
		[ $ok = 1 ] || break
		if ! wait_log "/job/out/console/guest-$sname-$g.log" \
				'PVOPS-HARNESS: blast started' 1 $((tmo * 10)) "$sname-$g"; then
			step "FAILED: $g did not start sending (see console/guest-$sname-$g.log)"
			ok=0
		fi
	done
	if [ $ok = 1 ]; then
		da=$(xl domid "$sname-a") db=$(xl domid "$sname-b")
		ba=/local/domain/0/backend/vif/$da/0 bb=/local/domain/0/backend/vif/$db/0
		step "domids a=$da b=$db"
		# dom0's CPU, which netback shares, must be what the senders
		# compete for, while the guests have more.
		xl sched-credit2 -d 0 -c $SHARE_DOM0_CAP
		step "dom0-cap-percent=$SHARE_DOM0_CAP"
		sleep 3
		share_window none
		xenstore-write $ba/share-weight 1 $bb/share-weight 1
		sleep 2
		share_window w11
		min=$((share_last * 8 / 1000 / 10 * 6 / 10))
		cap=$((share_last / 10 * 2 / 10 / 20))
		xenstore-write $ba/share-weight 3
		sleep 2
		share_window w31
		xenstore-write $ba/share-weight 1 $bb/share-weight 3 \
			$ba/share-min-kbps $min
		sleep 2
		step "min-kbps=$min"
		share_window min
		xenstore-write $ba/share-weight 0 $bb/share-weight 0 \
			$ba/share-min-kbps 0 $ba/rate "$cap,50000"
		sleep 2
		step "cap-bytes-per-50ms=$cap"
		share_window cap
		xl sched-credit2 -d 0 -c 0
		for d in $da $db; do
			step "stats domid=$d $(cat /sys/bus/xen-backend/devices/vif-$d-0/share_stats 2>/dev/null | tr ' ' _)"
			# Events each of its queues took, all windows told.
			step "queues domid=$d $(awk -v v="vif$d.0-q" 'index($NF, v) == 1 { n = 0; for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break; printf "%s=%d ", substr($NF, length(v)), n }' /proc/interrupts)"
		done
	fi
	xl destroy "$sname-a" > /dev/null 2>&1
	xl destroy "$sname-b" > /dev/null 2>&1
	gone_within 100 xl domid "$sname-a"
	gone_within 100 xl domid "$sname-b"
	kill $sink 2> /dev/null
	wait $sink 2> /dev/null
	sleep 1
	step "holds domains=$(xl list | awk 'NR > 2' | wc -l) ports_before=$ports0 ports_after=$(dom0_ports) backend_threads=$(ps -e -o comm= | grep -c '^vif[0-9]')"
	step done
	[ $ok = 1 ]
}
