# SPDX-License-Identifier: GPL-2.0
#
# Busybox domUs: boots, boots in a row, control with xl, and the xenbus
# test devices with their backend.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# xbtest_setup DOMID: before the domU runs, give it three devices of type
# pvopstest and run their backend (xbtest_backend) in the background, for
# its xen-xenbus-frontend KUnit suite (drivers/xen/xenbus/xenbus_fe_test.c):
# 0 behaves, 1 names no domain as its backend, 2's backend publishes a
# state that does not exist.
xbtest_setup() {
	d=$1
	fe=/local/domain/$d/device/pvopstest
	be=/local/domain/0/backend/pvopstest/$d
	for i in 0 1 2; do
		xenstore-write $fe/$i/backend $be/$i $fe/$i/backend-id 0 \
			$fe/$i/state 1 $be/$i/frontend $fe/$i \
			$be/$i/frontend-id $d $be/$i/state 1 || return 1
		xenstore-chmod -r $fe/$i n$d r0 || return 1
		xenstore-chmod -r $be/$i n0 r$d || return 1
	done
	xenstore-chmod $fe n0 r$d
	xenstore-write $fe/1/backend-id 70000 $be/2/state 42
	xbtest_backend $d > /job/out/xbtest-$d.log 2>&1 &
	# Two pages dom0 grants it (job/gntoffer.c), named in data/pvops-ring
	# for the KUnit case that maps another domain's ring.
	/job/gntoffer $d > /job/out/gntoffer-$d.log 2>&1 &
	local end=$(after 10)
	until grep -q '^refs ' /job/out/gntoffer-$d.log; do
		past $end && return 1
		sleep 0.1
	done
	xenstore-write /local/domain/$d/data/pvops-ring \
		"$(sed -n 's/^refs //p' /job/out/gntoffer-$d.log)"
}

# xbtest_backend DOMID: the backend of device 0, driven by its frontend's
# states: InitWait; on Initialised copy what the frontend published into
# "seen" and connect; once the frontend is connected, close; once it is
# closed, remove both directories as the toolstack does on detach.
xbtest_backend() {
	d=$1
	fe=/local/domain/$d/device/pvopstest/0
	be=/local/domain/0/backend/pvopstest/$d/0
	wait_fe() {
		local end=$(after $2)
		while [ "$(xenstore-read $fe/state 2>/dev/null)" != "$1" ]; do
			if past $end; then
				echo "timeout: frontend state $(xenstore-read $fe/state 2>&1), wanted $1"
				return 1
			fi
			sleep 0.2
		done
		echo "frontend state $1"
	}
	xenstore-write $be/state 2
	wait_fe 3 2400 || return 1
	xenstore-write $be/seen "ring-ref=$(xenstore-read $fe/ring-ref) event-channel=$(xenstore-read $fe/event-channel)"
	xenstore-write $be/state 4
	wait_fe 4 600 || return 1
	xenstore-write $be/state 5
	wait_fe 6 600 || return 1
	xenstore-write $be/state 6
	xenstore-rm $fe
	xenstore-rm $be
	echo "device 0 done"
}

# memmap_setup DOMID: before the domU runs, give it the memory map in
# $memmap_map (job/memmap.c), which it reads at boot.
memmap_setup() {
	/job/memmap "$1" $memmap_map > "/job/out/memmap-$1.log" 2>&1
}

# domu_there NAME: whether domain NAME still exists.  One failed xl
# domid is not enough to say it has gone (it lists the domains through
# a hypercall and reads each name from xenstore, and either can fail):
# three in a row, 0.2 s apart, are; a failure before the domain is
# found again is logged, with what xl said.
domu_there() {
	local try err=
	for try in 1 2 3; do
		if xl domid "$1" > /dev/null 2> /tmp/domu_there.err; then
			[ $try = 1 ] ||
				say "domu $1 xl domid failed $((try - 1)) time(s), then found it: $err"
			return 0
		fi
		[ -n "$err" ] || err=$(tr -cd '[:print:]\n' < /tmp/domu_there.err | tr '\n' ' ' | cut -c1-200)
		[ $try = 3 ] || sleep 0.2
	done
	return 1
}

# run_domu NAME CFG TIMEOUT RETRIES [SETUP]: create a domU, wait for it to
# go away, and retry only when Xen saw it triple-fault (a known emulator
# flake) and the scenario has a retry budget.  Every 0.1 s, note on dom0's
# clock when the guest's init line and clock lines first show in its
# console log.  With SETUP, the domU is created paused and SETUP DOMID
# runs before it is unpaused.
run_domu() {
	name=$1 cfg=$2 tmo=$3 retries=$4 setup=$5 attempt=1
	while :; do
		n=$name-a$attempt
		log=/job/out/console/guest-$n.log
		t0=$(date +%s.%N)
		id= ti= tc= cs= ce= hung= crashed= stop=
		# pvops.stall=S: xenconsoled stopped for S seconds from init on.
		stall=$(sed -n 's/.*pvops\.stall=\([0-9][0-9]*\).*/\1/p' "/job/cfg/$cfg")
		# xl's debug log goes to the create log; a create that hangs
		# (the dom0 kernel's devices, say) is stopped at the limit.
		if timeout -k 5 "$tmo" xl -vvv create -q ${setup:+-p} "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
			tc=$(date +%s.%N)
			id=$(xl domid "$n" 2>/dev/null)
			say "domu $n uuid=$(xl list -v "$n" | grep -oE '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}')"
			if [ -n "$setup" ]; then
				$setup "$id" || say "domu $n setup $setup failed"
				xl unpause "$n"
			fi
			end=$(after $((tmo * 10)))
			while domu_there "$n" && ! past $end; do
				sleep 0.1
				[ -z "$ti" ] && grep -q 'PVOPS-HARNESS: init reached' "$log" 2>/dev/null && ti=$(date +%s.%N)
				[ -z "$cs" ] && grep -q 'PVOPS-HARNESS: clock start' "$log" 2>/dev/null && cs=$(date +%s.%N)
				[ -z "$ce" ] && grep -q 'PVOPS-HARNESS: clock end' "$log" 2>/dev/null && ce=$(date +%s.%N)
				if [ -n "$stall" ] && [ -n "$ti" ] && [ -z "$stop" ]; then
					if kill -STOP "$(cat /run/xenconsoled.pid)"; then
						stop=$(after $((stall * 10)))
						say "domu $n xenconsoled stopped for ${stall}s"
						# pvops.trickle=1: one byte a second taken meanwhile.
						grep -q 'pvops\.trickle=1' "/job/cfg/$cfg" &&
							/job/hostile "$id" 0 0 1 trickle:$stall \
								> "/job/out/$n.hostile.log" 2>&1 &
					else
						say "domu $n xenconsoled could not be stopped"
						stop=done
					fi
				fi
				if [ -n "$stop" ] && [ "$stop" != done ] && past "$stop"; then
					kill -CONT "$(cat /run/xenconsoled.pid)"
					stop=done
				fi
			done
			[ -n "$stop" ] && [ "$stop" != done ] && kill -CONT "$(cat /run/xenconsoled.pid)"
			[ -n "$cs" ] && [ -n "$ce" ] &&
				say "domu $n clock dom0_seconds=$(echo "$ce $cs" | awk '{ printf "%.2f", $1 - $2 }')"
			if xl domid "$n" > /dev/null 2>&1; then
				if past $end; then
					say "domu $n timeout after ${tmo}s"
				else
					say "domu $n xl domid failed 3 times in a row but the domain is there: taken for gone too early"
				fi
				xl destroy "$n"
				hung=1
			fi
		else
			say "domu $n xl create failed"
		fi
		secs=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
		# xl's own log of the domain says why it went: SHUTDOWN_crash
		# is reason code 3, what a guest's panic tells Xen.
		cp "/var/log/xen/xl-$n.log" "/job/out/$n.xl.log" 2>/dev/null
		reason=$(sed -n 's/.*shut down, reason code \([0-9]*\) .*/\1/p' \
			"/job/out/$n.xl.log" 2>/dev/null | tail -n 1)
		[ "$reason" = 3 ] && crashed=1
		if grep -q 'PVOPS-HARNESS: init reached' "$log" 2>/dev/null; then
			init=$(echo "${ti:-0} $t0" | awk '$1 > 0 { printf "%.1f", $1 - $2 }')
			# How long xl create itself took (dom0 builds the domain).
			made=$(echo "${tc:-0} $t0" | awk '$1 > 0 { printf "%.2f", $1 - $2 }')
			# Its init powers it off: one destroyed at the limit hung.
			say "domu $n result=${hung:+hung-after-}init domid=$id seconds=$secs init_seconds=${init:-?} create_seconds=${made:-?}${crashed:+ crashed=1}"
			[ -z "$hung" ]
			return
		fi
		if [ -n "$id" ] && xl dmesg | grep -q "d${id}v[0-9]* Triple fault" &&
		   [ "$attempt" -le "$retries" ]; then
			say "domu $n result=triple-fault domid=$id seconds=$secs retrying"
			attempt=$((attempt + 1))
			continue
		fi
		# Why it went, for the judge: the shutdown reason xl saw
		# (0 poweroff, 1 reboot, 2 suspend, 3 crash, 4 watchdog; none
		# when it was destroyed) and the guest's last console line.
		last=$(grep -v '^[[:space:]]*$' "$log" 2>/dev/null | tail -n 1 |
			tr -cd '[:print:]' | cut -c1-160)
		say "domu $n result=no-init domid=$id seconds=$secs reason=${reason:-none} last_line=\"$last\""
		return 1
	done
}

# run_repeat NAME CFG TIMEOUT COUNT RETRIES: boot the domU COUNT times,
# one after another (RETRIES as for run_domu, 0 for our kernel); stop at
# the first that does not reach init.  (run_domu's variables are global:
# these have names of their own.)
run_repeat() {
	rname=$1 rcfg=$2 rtmo=$3 rcount=$4 rretries=$5 ri=1
	while [ $ri -le "$rcount" ]; do
		if ! run_domu "$rname-r$ri" "$rcfg" "$rtmo" "$rretries"; then
			say "domu $rname repeat failed_at=$ri of=$rcount"
			return 1
		fi
		ri=$((ri + 1))
	done
	say "domu $rname repeat ok=$rcount of=$rcount"
}

# run_micro_pairs NAME TIMEOUT COUNT: COUNT pairs of busybox domUs that
# run the microbenchmarks, one on each kernel (cfg files NAME-ours.cfg
# and NAME-ref.cfg), ours first in odd pairs and the reference first in
# even ones, as run_pairs does for the Debian benches: both kernels meet
# the same slow and fast spells of the emulator.  The first domU that
# does not finish ends it.
run_micro_pairs() {
	mname=$1 mtmo=$2 mcount=$3 mk=1
	while [ $mk -le "$mcount" ]; do
		morder="ours ref"
		[ $((mk % 2)) = 0 ] && morder="ref ours"
		for mkern in $morder; do
			if ! run_domu "$mname-$mkern-p$mk" "$mname-$mkern.cfg" "$mtmo" 0; then
				say "domu $mname pairs failed_at=$mk kernel=$mkern"
				return 1
			fi
		done
		mk=$((mk + 1))
	done
	say "domu $mname pairs done=$mcount"
}

# run_control NAME CFG TIMEOUT: drive a domU that waits for the toolstack
# (pvops.control=1): take a vCPU down and up, reboot it, shut it down.
# Each step prints ok or failed; the first failure ends the run.
run_control() {
	name=$1 cfg=$2 tmo=$3
	n=$name-a1
	log=/job/out/console/guest-$n.log
	step() { say "domu $n control $*"; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed
		return 1
	fi
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 1 $((tmo * 10)); then
		step boot=failed; xl destroy "$n"; return 1
	fi
	step boot=ok domid=$(xl domid "$n")
	xl vcpu-set "$n" 1
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0[[:space:]]*$' 1 300; then
		step vcpu-down=failed; xl destroy "$n"; return 1
	fi
	step vcpu-down=ok
	xl vcpu-set "$n" 2
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 2 300; then
		step vcpu-up=failed; xl destroy "$n"; return 1
	fi
	step vcpu-up=ok
	xl reboot "$n"
	if ! wait_log "$log" 'PVOPS-HARNESS: init reached' 2 $((tmo * 10)); then
		step reboot=failed; xl destroy "$n"; return 1
	fi
	step reboot=ok domid=$(xl domid "$n")
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 3 300 ||
	   ! shut_down "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
}
