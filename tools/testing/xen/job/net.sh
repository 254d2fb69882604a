# SPDX-License-Identifier: GPL-2.0
#
# The Debian domU's network: the bridge, ping, iperf3, the vif's events
# and packets, detach and attach.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# ping_domu NAME STEP: once the domU (169.254.0.2) answers (60 s at most:
# its address comes moments after the link), 20 pings, none may be lost.
# The step says how long the first answer took (wait=); a failure says
# what dom0 had of the domU's network then, in NAME.STEP.log.
ping_domu() {
	local end=$(after 600) t0=$(date +%s.%N) waited
	until busybox ping -c 1 -W 1 169.254.0.2 > /dev/null 2>&1; do
		if past $end; then
			net_dump "$1" "$2"
			step $2=failed loss=100% wait=60 log=$1.$2.log; return 1
		fi
		sleep 0.2
	done
	waited=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	loss=$(busybox ping -c 20 -i 0.2 -W 2 169.254.0.2 2>&1 | tee "/job/out/$1.$2.log" |
		sed -n 's/.* \([0-9][0-9]*\)% packet loss.*/\1/p')
	if [ "$loss" != 0 ]; then
		net_dump "$1" "$2"
		step $2=failed loss=${loss:-none}% wait=$waited log=$1.$2.log; return 1
	fi
	step $2=ok loss=0% wait=$waited
}

# net_dump NAME STEP: append to NAME.STEP.log what dom0 has of the
# domU's network: whether Xen still runs it, dom0's neighbour entry and
# the bridge's ports, addresses and counters, and the vif's xenstore
# nodes, both ends.
net_dump() {
	local d=$(xl domid "$1" 2>/dev/null)
	{
		echo "--- xl list"; xl list
		echo "--- neighbours"; ip neigh show
		echo "--- bridge ports and addresses"
		bridge link show; bridge fdb show br xenbr0
		echo "--- interfaces"; ip -s link show
		if [ -n "$d" ]; then
			echo "--- backend"; xenstore-ls -f "/local/domain/0/backend/vif/$d"
			echo "--- frontend"; xenstore-ls -f "/local/domain/$d/device/vif"
		fi
		echo "--- Xen"; xl dmesg | tail -40
	} >> "/job/out/$1.$2.log" 2>&1
}

# bridge_up: dom0's bridge for the vifs, 169.254.0.1/16.
bridge_up() {
	ip link show xenbr0 > /dev/null 2>&1 && return 0
	ip link add xenbr0 type bridge &&
	ip addr add 169.254.0.1/16 dev xenbr0 &&
	ip link set xenbr0 up
}

# iperf_to NAME TAG [-R]: 10 s of iperf3 to the domU's server (with -R,
# from it); prints the receiver's Mbit/s, empty on failure (a round in
# which nothing arrived, as when the domU restarts, is one).
iperf_to() {
	timeout 60 iperf3 -c 169.254.0.2 -t 10 -f m $3 > "/job/out/$1.iperf-$2.log" 2>&1
	sed -n 's/.* \([0-9.][0-9.]*\) Mbits\/sec.*receiver.*/\1/p' "/job/out/$1.iperf-$2.log" |
		tail -1 | awk '$1 > 0'
}

# vif_events DOMID [SUFFIX]: the events dom0 took so far on the domU's
# vifs (netback names their irqs vifDOMID.N-qM, with -tx and -rx when
# each ring has its own channel; SUFFIX counts only those): each is a
# notification the domU sent, an EVTCHNOP_send hypercall.
vif_events() {
	awk -v p="vif$1." -v x="$2" 'index($0, p) && (x == "" || $NF ~ x "$") {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}

# vif_packets DOMID DIR: packets netback saw so far on the domU's vifs,
# DIR rx (from the domU) or tx (to it).
vif_packets() {
	cat /sys/class/net/vif$1.*/statistics/$2_packets 2>/dev/null |
		awk '{ s += $1 } END { print s + 0 }'
}

# iperf_rounds NAME DOMID ROUNDS: ROUNDS rounds of iperf_to both ways, each
# with the domU's notifications it took; sets to, from, to_ev and
# from_ev to comma-separated lists, to or from empty on a failure.  The
# CPU seconds the domU and dom0 used in each, how many of the
# notifications came on transmit rings' own channels and how many
# packets the domU sent go to the log (iperf-cpu).
iperf_rounds() {
	to= from= to_ev= from_ev=
	k=1
	while [ $k -le $3 ]; do
		e0=$(vif_events $2) c0=$(dom_cpu $2) z0=$(dom_cpu 0)
		t0=$(vif_events $2 -tx) p0=$(vif_packets $2 rx)
		a=$(iperf_to "$1" to$k)
		e1=$(vif_events $2) c1=$(dom_cpu $2) z1=$(dom_cpu 0)
		t1=$(vif_events $2 -tx) p1=$(vif_packets $2 rx)
		b=$(iperf_to "$1" from$k -R)
		e2=$(vif_events $2) c2=$(dom_cpu $2) z2=$(dom_cpu 0)
		t2=$(vif_events $2 -tx) p2=$(vif_packets $2 rx)
		say "domu $1 iperf-cpu round=$k" \
			"to_domu_s=$(sub $c1 $c0) to_dom0_s=$(sub $z1 $z0)" \
			"from_domu_s=$(sub $c2 $c1) from_dom0_s=$(sub $z2 $z1)" \
			"to_tx_events=$((t1 - t0)) from_tx_events=$((t2 - t1))" \
			"to_domu_sent=$((p1 - p0)) from_domu_sent=$((p2 - p1))"
		if [ -z "$a" ] || [ -z "$b" ]; then
			to=${a:+$to} from=${b:+$from}
			return 1
		fi
		to=$to${to:+,}$a from=$from${from:+,}$b
		to_ev=$to_ev${to_ev:+,}$((e1 - e0))
		from_ev=$from_ev${from_ev:+,}$((e2 - e1))
		k=$((k + 1))
	done
}

# run_debian_net NAME CFG TIMEOUT [INSTANCE [bench]]: the Debian domU
# with a vif and its network side (rootfs/debian-net.sh, handed over as
# the raw second disk xvdb through /dev/loop7, starts iperf3 and keeps
# the domU's address on whatever vif it has).  Steps: multi-user, ping,
# iperf3 to and from the domU, vif detached (its frontend directory
# gone) and attached again, ping again, then shutdown and fsck as
# run_debian.  The domU is NAME-INSTANCE (a1 unless said); with bench,
# the vif is neither detached nor attached, and iperf3 runs 3 rounds
# each way instead of 1: the check only needs traffic to flow, and
# every 10 s of iperf3 is that much more exposure to the emulator's
# triple fault (README).
run_debian_net() {
	name=$1 cfg=$2 tmo=$3
	n=$name-${4:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	bridge_up || { step bridge=failed; return 1; }
	losetup -d /dev/loop7 2>/dev/null
	losetup -r /dev/loop7 /job/net-script.img || { step boot=failed; return 1; }
	t0=$(date +%s.%N)
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	d=$(xl domid "$n")
	step boot=ok domid=$d
	if ! wait_log "$log" 'Reached target.*[Mm]ulti-[Uu]ser' 1 3000 "$n"; then
		stuck_dump "$n"; step multiuser=failed; xl destroy "$n"; return 1
	fi
	step multiuser=ok seconds=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	if ! wait_log "$log" 'PVOPS-HARNESS: net ready' 1 600; then
		step ready=failed; xl destroy "$n"; return 1
	fi
	ping_domu "$n" ping || { xl destroy "$n"; return 1; }
	if ! iperf_rounds "$n" $d $([ "$5" = bench ] && echo 3 || echo 1); then
		ip -s -s link > "/job/out/$n.links.log" 2>&1
		step iperf=failed to_domu_mbps=${to:-none} from_domu_mbps=${from:-none}
		xl destroy "$n"; return 1
	fi
	if ! same_dom "$n" $d; then
		step iperf=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
		xl destroy "$n"; return 1
	fi
	step iperf=ok to_domu_mbps=$to from_domu_mbps=$from \
		to_domu_events=$to_ev from_domu_events=$from_ev
	[ "$5" = bench ] && { debian_down; return; }
	vif_replug "$n" $d '' || { xl destroy "$n"; return 1; }
	# Once more, with the vif marked untrusted (xl's "untrusted" flag
	# writes trusted=0 in the frontend's directory): netfront must copy
	# every packet it sends into pages of its own, and still move them.
	vif_replug "$n" $d untrusted- untrusted || { xl destroy "$n"; return 1; }
	trusted=$(xenstore-read /local/domain/$d/device/vif/$(vif_devid "$n")/trusted 2>&1 |
		tr ' ' _)
	b=$(iperf_to "$n" untrusted -R)
	if [ -z "$b" ]; then
		step untrusted=failed at=iperf3 trusted_node=$trusted
		xl destroy "$n"; return 1
	fi
	step untrusted=ok trusted_node=$trusted from_domu_mbps_untrusted=$b
	debian_down
}

# vif_devid NAME: the devid of the domU's (first) vif; 0 if none is listed.
vif_devid() {
	xl network-list "$1" 2>/dev/null | awk 'NR == 2 { v = $1 } END { print v + 0 }'
}

# vif_replug NAME DOMID PREFIX [FLAG]: detach the domU's vif, attach a
# new one to the bridge (with xl's FLAG, such as untrusted) and ping the
# domU through it; steps PREFIXdetach and PREFIXattach.
vif_replug() {
	local v=$(vif_devid "$1")
	xl network-detach "$1" $v > "/job/out/$1.${3}network-detach.log" 2>&1
	if ! gone_within 600 xenstore-read /local/domain/$2/device/vif/$v/state; then
		step ${3}detach=failed; return 1
	fi
	step ${3}detach=ok
	if ! xl network-attach "$1" bridge=xenbr0 script=/job/hotplug-vif $4 \
			> "/job/out/$1.${3}network-attach.log" 2>&1; then
		step ${3}attach=failed; return 1
	fi
	ping_domu "$1" ${3}attach
}
