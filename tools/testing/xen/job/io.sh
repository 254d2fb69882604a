# SPDX-License-Identifier: GPL-2.0
#
# The Debian domU's disks: write and read back, fio, a scratch disk
# attached, detached and grown.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# blkback_events: the events dom0's blkback took so far, all rings of
# all disks (its irqs are named blkif-backend, without the domain: the
# benchmark runs one domU at a time).
blkback_events() {
	awk '/blkif-backend/ {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}

# run_debian_io NAME CFG TIMEOUT [INSTANCE [bench]]: the Debian domU
# with its disk checks
# (rootfs/debian-io.sh, handed over as the raw second disk xvdb through
# /dev/loop7): wait for the first boot's write, xl reboot, wait for the
# second boot's checks and fio; xentop must show reads of xvda; attach
# a scratch disk (xvdc, 32 MiB in
# dom0's memory through /dev/loop6), detach it once the domU wrote to it
# (its frontend directory must go), attach it again and wait for the
# domU's read-back; grow it to 64 MiB and wait for the domU to see the
# new size; once the domU discarded 4 MiB of it, the file must hold that
# much less; wait for its power-off; fsck the disk.  The domU is
# NAME-INSTANCE (a1 unless said); with bench (its command line has
# pvops.bench=1), one boot: fio, then xl shutdown and fsck.
SCRATCH="format=raw, vdev=xvdc, access=rw, script=/job/hotplug-block, target=/dev/loop6"

run_debian_io() {
	name=$1 cfg=$2 tmo=$3
	n=$name-${4:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	losetup -d /dev/loop7 2>/dev/null
	losetup -r /dev/loop7 /job/io-script.img || { step boot=failed; return 1; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	step boot=ok domid=$(xl domid "$n")
	if [ "$5" = bench ]; then
		d=$(xl domid "$n") e0=0 e1=0 c0=0 c1=0 z0=0 z1=0
		# The random reads' cost besides the guest's: the events
		# blkback took (each an EVTCHNOP_send of the domU) and the
		# CPU seconds of both domains; and those of the sequential
		# reads, which run from the random reads' end to the result.
		if wait_log "$log" 'PVOPS-HARNESS: io randread start' 1 $((tmo * 10)) "$n"; then
			e0=$(blkback_events) c0=$(dom_cpu $d) z0=$(dom_cpu 0)
			wait_log "$log" 'PVOPS-HARNESS: io randread done' 1 600
			e1=$(blkback_events) c1=$(dom_cpu $d) z1=$(dom_cpu 0)
		fi
		if ! wait_log "$log" 'PVOPS-HARNESS: io fio' 1 $((tmo * 10)) "$n"; then
			stuck_dump "$n"; step fio=failed; xl destroy "$n"; return 1
		fi
		c2=$(dom_cpu $d) z2=$(dom_cpu 0)
		if ! same_dom "$n" $d; then
			step fio=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
			xl destroy "$n"; return 1
		fi
		step fio=ok randread_sent=$((e1 - e0)) \
			randread_domu_s=$(sub $c1 $c0) randread_dom0_s=$(sub $z1 $z0) \
			seqread_domu_s=$(sub $c2 $c1) seqread_dom0_s=$(sub $z2 $z1)
		debian_down; return
	fi
	if ! wait_log "$log" 'PVOPS-HARNESS: io written' 1 $((tmo * 10)); then
		stuck_dump "$n"; step written=failed; xl destroy "$n"; return 1
	fi
	step written=ok
	xl reboot "$n"
	if ! wait_log "$log" 'PVOPS-HARNESS: io fio' 1 $((tmo * 10)); then
		stuck_dump "$n"; step reboot=failed; xl destroy "$n"; return 1
	fi
	step reboot=ok
	d=$(xl domid "$n")
	# What the backend served this boot, as xentop shows it (from the
	# backend's statistics in sysfs): the checks and fio read xvda.
	st=/sys/bus/xen-backend/devices/vbd-$d-51712/statistics
	rd=$(xentop -b -f -i 1 2>/dev/null | awk -v n="$n" '
		$1 == "NAME" { for (i = 1; i <= NF; i++) if ($i == "VBD_RD") c = i }
		c && $1 == n { print $c; exit }')
	rs=$(cat $st/rd_sect 2>/dev/null)
	# Anything but a number above 0 fails, a missing file included.
	if ! [ "${rd:-0}" -gt 0 ] 2>/dev/null ||
	   ! [ "${rs:-0}" -gt 0 ] 2>/dev/null; then
		step vbd-stats=failed xentop_rd=${rd:-none} rd_sect=${rs:-none}
		xl destroy "$n"; return 1
	fi
	step vbd-stats=ok xentop_rd=$rd rd_sect=$rs
	losetup -d /dev/loop6 2>/dev/null
	rm -f /dev/shm/pvops-scratch.img
	if ! truncate -s 32M /dev/shm/pvops-scratch.img ||
	   ! losetup /dev/loop6 /dev/shm/pvops-scratch.img ||
	   ! xl block-attach "$n" "$SCRATCH" > "/job/out/$n.attach.log" 2>&1 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch written sha256' 1 1800; then
		step block-attach=failed; xl destroy "$n"; return 1
	fi
	step block-attach=ok
	xl block-detach "$n" xvdc > "/job/out/$n.detach.log" 2>&1
	if ! gone_within 600 xenstore-read /local/domain/$d/device/vbd/51744/state ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch gone' 1 600; then
		step block-detach=failed; xl destroy "$n"; return 1
	fi
	step block-detach=ok
	if ! xl block-attach "$n" "$SCRATCH" > "/job/out/$n.reattach.log" 2>&1 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch reattached' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch reattached=ok' "$log"; then
		step block-reattach=failed; xl destroy "$n"; return 1
	fi
	step block-reattach=ok
	if ! truncate -s 64M /dev/shm/pvops-scratch.img ||
	   ! losetup -c /dev/loop6 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch resized' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch resized=ok' "$log"; then
		step block-resize=failed; xl destroy "$n"; return 1
	fi
	step block-resize=ok
	if ! same_dom "$n" $d; then
		step block-discard=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
		xl destroy "$n"; return 1
	fi
	# The domU's discard must reach the file: 16 MiB written, 4 gone.
	if ! wait_log "$log" 'PVOPS-HARNESS: io scratch discarded' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch discarded=ok' "$log" ||
	   [ "$(du -k /dev/shm/pvops-scratch.img | cut -f1)" -gt 14336 ]; then
		step block-discard=failed kib=$(du -k /dev/shm/pvops-scratch.img | cut -f1)
		xl destroy "$n"; return 1
	fi
	step block-discard=ok kib=$(du -k /dev/shm/pvops-scratch.img | cut -f1)
	if ! gone_within 1800 xl domid "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
	if ! e2fsck -fn /dev/vdc > "/job/out/$n.fsck.log" 2>&1; then
		step fsck=failed; return 1
	fi
	step fsck=ok
}

# sync_check NAME RECORDS: after the domU NAME was destroyed, the disk as
# a reboot would find it: e2fsck -p replays the journal and may fix what
# an unclean stop leaves (an orphan, a free count); anything more is a
# failure, and a full e2fsck -n after it must find nothing.  Then the
# first RECORDS records of /var/tmp/pvops-sync.dat (rootfs/debian-sync.sh)
# must read back as written.  Sets why on a failure.
sync_check() {
	local got=/dev/shm/pvops-sync.got want=/dev/shm/pvops-sync.want i=1
	e2fsck -fp /dev/vdc > "/job/out/$1.preen.log" 2>&1
	rc=$?
	[ $rc -le 1 ] || { why="preen_rc=$rc log=$1.preen.log"; return 1; }
	e2fsck -fn /dev/vdc > "/job/out/$1.fsck.log" 2>&1 ||
		{ why="fsck_rc=$? log=$1.fsck.log"; return 1; }
	rm -f "$got" "$want"
	debugfs -R "dump /var/tmp/pvops-sync.dat $got" /dev/vdc > /dev/null 2>&1
	[ -f "$got" ] || { why="no_file"; return 1; }
	size=$(stat -c %s "$got")
	[ "$size" -ge $(($2 * 65536)) ] || { why="short bytes=$size"; return 1; }
	while [ $i -le $2 ]; do
		yes "pvops-sync $i" | head -c 65536
		i=$((i + 1))
	done > "$want"
	if ! head -c $(($2 * 65536)) "$got" | cmp -s - "$want"; then
		at=$(head -c $(($2 * 65536)) "$got" | cmp - "$want" 2>&1 |
			awk '{ sub(",", "", $5); print $5 + 0 }')
		why="mismatch byte=$at record=$(((at - 1) / 65536 + 1))"
		return 1
	fi
	rm -f "$got" "$want"
}

# run_debian_destroy NAME CFG TIMEOUT TRIALS: TRIALS times, the Debian
# domU NAME-aK (rootfs/debian-sync.sh on its xvdb) appends fsync'd
# records while another writer fills its page cache; a random 0.5-4.5 s
# after its first record, xl destroy; then sync_check with every record
# its console said was synced.  The first failure ends it.
run_debian_destroy() {
	name=$1 cfg=$2 tmo=$3
	k=1
	losetup -d /dev/loop7 2>/dev/null
	losetup -r /dev/loop7 /job/sync-script.img || { say "domu $name-a1 debian boot=failed"; return 1; }
	while [ $k -le $4 ]; do
		n=$name-a$k
		log=/job/out/console/guest-$n.log
		step() { say "domu $n debian $*"; }
		if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
			step boot=failed; return 1
		fi
		domid=$(xl domid "$n")
		step boot=ok domid=$domid
		if ! wait_log "$log" 'PVOPS-HARNESS: sync synced ' 1 $((tmo * 10)) "$n"; then
			stuck_dump "$n"; step writing=failed; xl destroy "$n"; return 1
		fi
		if ! same_dom "$n" $domid; then
			step writing=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
			xl destroy "$n"; return 1
		fi
		step writing=ok
		sleep $(awk 'BEGIN { srand(); printf "%.1f", 0.5 + 4 * rand() }')
		xl destroy "$n"
		if ! gone_within 600 xl domid "$n"; then
			step destroy=failed; return 1
		fi
		records=$(sed -n 's/.*PVOPS-HARNESS: sync synced \([0-9]*\).*/\1/p' "$log" | tail -1)
		bad=$(grep -c 'PVOPS-HARNESS: sync write=failed' "$log")
		step destroy=ok records=$records
		why=
		if [ "$bad" != 0 ] || ! sync_check "$n" "$records"; then
			step intact=failed records=$records ${why:-write=failed}; return 1
		fi
		step intact=ok records=$records
		k=$((k + 1))
	done
}
