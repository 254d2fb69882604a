# SPDX-License-Identifier: GPL-2.0
#
# Debian domUs: boots to multi-user, boots in a row, shutdown and fsck,
# and the repair of a disk a failed scenario left dirty.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# run_debian NAME CFG TIMEOUT [nonet [INSTANCE]]: boot the Debian image (dom0's /dev/vdc, a
# throw-away overlay of the cached image) as the domU's xvda with a vif on
# dom0's bridge (169.254.0.1; the domU is 169.254.0.2).  Steps, each ok
# or failed, the first failure ending the run: multi-user reached
# (systemd's line on the console), ping (once it answers, 20 packets,
# none lost; skipped with nonet, for a domU without a vif), xl
# shutdown, and a clean e2fsck of the disk afterwards.  The domU is
# NAME-INSTANCE (a1 unless said).
run_debian() {
	name=$1 cfg=$2 tmo=$3 net=${4:-net}
	n=$name-${5:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	domid=
	bridge_up || { step bridge=failed; return 1; }
	t0=$(date +%s.%N)
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	domid=$(xl domid "$n")
	step boot=ok domid=$domid
	if ! wait_log "$log" 'Reached target.*[Mm]ulti-[Uu]ser' 1 3000 "$n"; then
		stuck_dump "$n"; step multiuser=failed; xl destroy "$n"; return 1
	fi
	step multiuser=ok seconds=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	if [ "$net" = net ]; then
		ping_domu "$n" ping || { xl destroy "$n"; return 1; }
	fi
	debian_down
}

# stuck_dump NAME: a domU that did not get where it should shows, on its
# console before it is destroyed, its blocked tasks (sysrq w), its CPUs
# (l), its pending hrtimers and clock event devices (q), and every task
# with its state and the run queues (t), so the log says where it
# stood; what Xen and dom0 had at that moment (domains, free memory, the
# disk's requests in flight, the domU's vCPU registers, Xen's last
# messages with its event channel, vCPU and timer dumps, dom0's blocked
# tasks) goes to NAME.stuck.log, with one line of it on the serial log.
stuck_dump() {
	local con=/job/out/console/guest-$1.log size=-1 end
	for key in w l q t; do
		xl sysrq "$1" $key > /dev/null 2>&1
		sleep 2
	done
	# Every task's state takes a while to come through the console:
	# wait until the log stops growing for 5 s (60 s at most).
	end=$(after 600)
	while [ "$(stat -c %s "$con" 2>/dev/null)" != "$size" ] && ! past $end; do
		size=$(stat -c %s "$con" 2>/dev/null)
		sleep 5
	done
	echo w > /proc/sysrq-trigger 2>/dev/null
	sd=$(xl domid "$1" 2>/dev/null)
	# Xen's debug keys: 'e' every domain's ports, pending and masked;
	# 'q' each vCPU's state with its pending upcall; 'a' the timer
	# queues, with each vCPU's singleshot timer and when it expires.
	xl debug-keys e > /dev/null 2>&1
	xl debug-keys q > /dev/null 2>&1
	xl debug-keys a > /dev/null 2>&1
	{
		xl list; xl info; xl vcpu-list "$1"; free -m; cat /proc/loadavg
		echo "vdc in flight (reads writes): $(cat /sys/block/vdc/inflight)"
		echo "--- the domU's vCPUs (map RIP with its kernel's System.map)"
		[ -n "$sd" ] && xenctx -a -C "$sd"
		echo "--- Xen, with its event channel, domain and timer dumps"
		xl dmesg | tail -1500
		echo "--- dom0 (with its blocked tasks)"; dmesg | tail -200
	} > "/job/out/$1.stuck.log" 2>&1
	say "domu $1 stuck domains=$(xl list 2>/dev/null | awk 'NR > 1' | wc -l)" \
		"xen_free_mb=$(xl info 2>/dev/null | awk '$1 == "free_memory" { print $3 }')" \
		"dom0_load=$(cut -d' ' -f1 /proc/loadavg) log=$1.stuck.log"
}

# run_debian_repeat NAME CFG TIMEOUT COUNT: run_debian COUNT times in a
# row on the same disk (NAME-a1, NAME-a2, ...); the first failure ends it,
# unless Xen saw that boot triple-fault (triple_fault): then the disk is
# repaired and the boots after it still run, and the judge decides from
# Xen's dump whether the emulator or the guest stopped it.
run_debian_repeat() {
	k=1
	while [ $k -le $4 ]; do
		if ! run_debian "$1" "$2" "$3" net "a$k"; then
			rip=$([ -n "$domid" ] && triple_fault "$domid") || return 1
			rip=${rip##*[<}
			say "domu $1-a$k debian triple_fault=$domid rip=${rip%%>*}"
			debian_repair "$1"
		fi
		k=$((k + 1))
	done
}

# same_dom NAME DOMID: the domU NAME is still domain DOMID.  A guest that
# crashes in a way Xen takes for a reboot (a triple fault) comes back
# under a new domid, and a figure measured across that is no figure.
same_dom() {
	[ "$(xl domid "$1" 2>/dev/null)" = "$2" ]
}

# debian_repair NAME: after a Debian scenario failed, e2fsck repairs the
# disk they share, so that the next one starts from a clean filesystem
# instead of failing because this one left it half written.
# A domU that xl is restarting (on_reboot) is for a moment in no list:
# only when none of them has shown for 10 s (or after 10 minutes) is
# the disk theirs.  Each repair keeps its own log.
repairs=0
debian_repair() {
	local quiet=0 tries=0
	while [ $quiet -lt 10 ] && [ $tries -lt 600 ]; do
		quiet=$((quiet + 1)) tries=$((tries + 1))
		for dom in $(xl list | awk -v p="$1-" 'index($1, p) == 1 { print $1 }'); do
			xl destroy "$dom"
			quiet=0
		done
		sleep 1
	done
	repairs=$((repairs + 1))
	e2fsck -fy /dev/vdc > "/job/out/$1.repair$repairs.log" 2>&1
	say "domu $1 disk repaired e2fsck_rc=$? log=$1.repair$repairs.log"
}

# debian_down: xl shutdown the Debian domU $n, then fsck its disk.
debian_down() {
	# Passes when the domain is gone within 180 s; xl's own exit status
	# and words are kept for the log.
	timeout 180 xl shutdown -w "$n" > "/job/out/$n.shutdown.log" 2>&1
	rc=$?
	if ! gone_within 1800 xl domid "$n"; then
		step shutdown=failed xl_rc=$rc; xl destroy "$n"; return 1
	fi
	step shutdown=ok xl_rc=$rc
	if ! e2fsck -fn /dev/vdc > "/job/out/$n.fsck.log" 2>&1; then
		step fsck=failed; return 1
	fi
	step fsck=ok
}
