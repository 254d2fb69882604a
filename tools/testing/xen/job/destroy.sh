# SPDX-License-Identifier: GPL-2.0
#
# The long hypercall check: xl destroy of a large domU is one
# privcmd hypercall that Xen runs for seconds, in pieces.  dom0 has
# one vCPU; a loop that wants it all the time notes dom0's uptime
# whenever it changes.  Its longest gap is how long dom0 ran nothing
# but that hypercall: in a kernel without preemption, the whole of it,
# unless the kernel lets the scheduler run between two pieces.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# heartbeat FILE: dom0's uptime, each time it changes (every 10 ms at
# most), until killed; no process started in the loop.
heartbeat() {
	local u prev=
	while :; do
		read -r u _ < /proc/uptime
		if [ "$u" != "$prev" ]; then
			echo "$u"
			prev=$u
		fi
	done > "$1"
}

# longest_gap FILE: the longest time between two lines of a heartbeat
# FILE, in seconds, and how many lines it has.
longest_gap() {
	awk 'NR > 1 && $1 - p > m { m = $1 - p } { p = $1 }
	     END { printf "gap=%.2f beats=%d", m, NR }' "$1"
}

# run_destroy NAME CFG TIMEOUT MIB: a busybox domU of MIB MiB reaches
# init, then xl destroy takes it down while dom0's heartbeat runs.
run_destroy() {
	name=$1 cfg=$2 tmo=$3 mib=$4
	n=$name-a1
	beat=/job/out/$n.beat
	step() { say "domu $n destroy $*"; }
	if ! dom0_room $((mib + 64)); then
		step room=failed; return 1
	fi
	if ! boot_domu "$n" "$cfg" $((tmo * 10)) "memory=$mib"; then
		step boot=failed; dom0_back; return 1
	fi
	step boot=ok domid=$id mem=$(mem_of $id)
	heartbeat "$beat" &
	hb=$!
	sleep 1
	clock_cs; t0=$cs_now
	xl destroy "$n" > "/job/out/$n.destroy.log" 2>&1
	rc=$?
	clock_cs; t1=$cs_now
	sleep 1
	kill $hb
	wait $hb 2>/dev/null
	if [ $rc != 0 ] || xl domid "$n" > /dev/null 2>&1; then
		step destroy=failed rc=$rc
		return 1
	fi
	step destroy=ok seconds=$(echo "$t0 $t1" | awk '{ printf "%.2f", ($2 - $1) / 100 }') $(longest_gap "$beat")
	dom0_back
}
