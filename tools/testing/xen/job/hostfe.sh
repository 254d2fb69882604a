# SPDX-License-Identifier: GPL-2.0
#
# A hostile block frontend (rootfs/hostfe.c, run by the guest's init with
# pvops.hostfe=1) against dom0's blkback: a busybox domU gets one disk a
# case of rootfs/hostfe-cases, each 1 MiB of dom0's memory through a loop
# device, and a healthy 8 MiB disk, xvda, of random bytes.  Or a hostile
# network frontend (rootfs/hostnf.c, pvops.hostnf=1) against netback: one
# vif on dom0's bridge a case of rootfs/hostnf-cases, with a broadcast
# ping a second from dom0 to all of them.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# run_hostfe NAME CFG TIMEOUT [vif]: start the bystander, create the
# domU, wait for its cases, say each backend's state, destroy it, stop
# the bystander, then say what dom0 still holds: the
# domain, its event channels, blkback's threads and devices, and whether
# the kernel logged anything that is a bug.  The harness judges the cases
# against the table (harness_hostile.judge_hostfe).
run_hostfe() {
	name=$1 cfg=$2 tmo=$3 kind=${4:-vbd}
	log=/job/out/console/guest-$name.log
	klog=/job/out/$name.dmesg.log
	step() { say "hostfe $*"; }
	step "start $name"
	if ! bridge_up; then
		step "FAILED: no bridge xenbr0 for the vifs"
		step done
		return 1
	fi
	ports0=$(dom0_ports)
	lines0=$(dmesg | wc -l)
	bystander_start "$name" || { step done; return 1; }
	dd if=/dev/urandom of=/dev/shm/hostfe-xvda.img bs=1M count=8 2>/dev/null
	sum=$(sha256sum < /dev/shm/hostfe-xvda.img | cut -d' ' -f1)
	disks= loops= vifs=
	disklist=xvda
	[ "$kind" = vbd ] && disklist="xvda $(sed -n 's/^\(xvd[a-z]\) *|.*/\1/p' /job/hostfe-cases)"
	for disk in $disklist; do
		img=/dev/shm/hostfe-$disk.img
		[ -e $img ] || truncate -s 1M $img
		if ! l=$(losetup -f --show $img); then
			step "FAILED: no loop device for $disk"
			return 1
		fi
		loops="$loops $l"
		disks="$disks${disks:+, }'format=raw, vdev=$disk, access=rw, script=/job/hotplug-block, target=$l'"
	done
	stall_ms0= bcast=
	if [ "$kind" = vif ]; then
		for v in $(sed -n 's/^\([0-9][0-9]*\) *|.*/\1/p' /job/hostnf-cases); do
			vifs="$vifs${vifs:+, }'devid=$v, bridge=xenbr0, script=/job/hotplug-vif'"
		done
		# A ping a second to the bridge's broadcast address: every
		# vif gets packets, and one whose guest posts no buffers
		# stalls (our netback: after rx_stall_ms, 2 s here).
		stall_knob=/sys/module/xen_netback/parameters/rx_stall_ms
		if [ -w $stall_knob ]; then
			stall_ms0=$(cat $stall_knob)
			echo 2000 > $stall_knob
		fi
		(while :; do busybox ping -c 1 -W 1 169.254.255.255 > /dev/null 2>&1; done) &
		bcast=$!
	fi
	if ! timeout -k 5 180 xl create -q "/job/cfg/$cfg" "name=\"$name\"" \
			"disk=[$disks]" "vif=[$vifs]" > "/job/out/$name.create.log" 2>&1; then
		step "FAILED: xl create (see out/$name.create.log)"
	else
		d=$(xl domid "$name")
		step "domid=$d xvda_sha256=$sum"
		if ! wait_log "$log" 'PVOPS-HARNESS: hostfe done' 1 $((tmo * 10)) "$name"; then
			step "FAILED: the guest did not finish its cases (see console/guest-$name.log)"
		fi
		be=/local/domain/0/backend/$kind/$d
		for vd in $(xenstore-list $be 2>/dev/null); do
			step "backend vdev=$vd state=$(xenstore-read $be/$vd/state)"
		done
		xl destroy "$name" > /dev/null 2>&1
		gone_within 100 xl domid "$name"
		gone_within 100 xenstore-read $be
	fi
	bystander_stop "$name"
	[ -n "$bcast" ] && kill $bcast 2>/dev/null
	[ -n "$stall_ms0" ] && echo "$stall_ms0" > /sys/module/xen_netback/parameters/rx_stall_ms
	# The backends' devices must go with the domains, and their threads.
	sleep 1
	devs=$(ls /sys/bus/xen-backend/devices 2>/dev/null | grep -c "^$kind-$d-")
	threads=$(ps -e -o comm= | grep -c -E '^(blkback|vif[0-9])')
	for l in $loops; do losetup -d $l 2>/dev/null; done
	rm -f /dev/shm/hostfe-*.img
	dmesg | tail -n +$((lines0 + 1)) > "$klog"
	bad=$(grep -m1 -E 'BUG|Oops|WARNING:|general protection|Call Trace|refcount_t|list_del corruption' "$klog")
	if [ -n "$bad" ]; then
		step "kernel-log FAIL: $bad"
	else
		step "kernel-log clean lines=$(wc -l < "$klog")"
	fi
	step "holds domains=$(xl list | awk 'NR > 2' | wc -l) ports_before=$ports0 ports_after=$(dom0_ports) backend_devices=$devs backend_threads=$threads"
	step done
}

# bystander_start NAME: beside the hostile domU, a busybox domU NAME-by
# (pvops.bystander: a round a second of reading its whole 4 MiB disk and
# pinging dom0) on the same backends, one disk and one vif; once its
# first round is in, a sampler notes every 2 s dom0's clock and how many
# rounds it made.  Says FAILED and returns 1 when it does not get there.
bystander_start() {
	by=$1-by
	bylog=/job/out/console/guest-$by.log
	dd if=/dev/urandom of=/dev/shm/bystander.img bs=1M count=4 2>/dev/null
	bysum=$(sha256sum < /dev/shm/bystander.img | cut -d' ' -f1)
	byloop=$(losetup -f --show /dev/shm/bystander.img) || {
		step "FAILED: no loop device for the bystander"
		rm -f /dev/shm/bystander.img
		return 1
	}
	if ! timeout -k 5 180 xl create -q /job/cfg/bystander.cfg "name=\"$by\"" \
			"disk=['format=raw, vdev=xvda, access=ro, script=/job/hotplug-block, target=$byloop']" \
			"vif=['bridge=xenbr0, script=/job/hotplug-vif']" > "/job/out/$by.create.log" 2>&1 ||
	   ! wait_log "$bylog" 'PVOPS-HARNESS: bystander round=1 ' 1 1200 "$by"; then
		step "FAILED: the bystander did not start (see console/guest-$by.log)"
		xl destroy "$by" > /dev/null 2>&1
		gone_within 100 xl domid "$by"
		losetup -d "$byloop"
		rm -f /dev/shm/bystander.img
		return 1
	fi
	(while :; do
		echo "$(cut -d' ' -f1 /proc/uptime) $(grep -c 'PVOPS-HARNESS: bystander round=' "$bylog")"
		sleep 2
	done) > "/job/out/$by.rounds" &
	bysampler=$!
}

# bystander_stop NAME: its rounds while the hostile domU ran: how many,
# the longest dom0 saw none in, and how many read other than its disk or
# lost the ping; then destroy it.
bystander_stop() {
	kill $bysampler 2>/dev/null
	wait $bysampler 2>/dev/null
	rounds=$(grep -c 'PVOPS-HARNESS: bystander round=' "$bylog")
	wrong=$(grep 'PVOPS-HARNESS: bystander round=' "$bylog" |
		grep -c -v "sha256=$bysum ping=ok")
	stall=$(awk 'NR == 1 || $2 != r { if (NR > 1 && $1 - t > m) m = $1 - t; t = $1; r = $2 }
		     END { if ($1 - t > m) m = $1 - t; printf "%.0f", m }' "/job/out/$by.rounds")
	step "bystander rounds=$rounds wrong=$wrong longest_stall_s=$stall"
	xl destroy "$by" > /dev/null 2>&1
	gone_within 100 xl domid "$by"
	losetup -d "$byloop" 2>/dev/null
	rm -f /dev/shm/bystander.img
}
