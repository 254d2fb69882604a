# SPDX-License-Identifier: GPL-2.0
#
# A hostile user of dom0's devices (job/devfuzz.c) against a paused
# busybox domU, which it destroys on the way.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# dom0_ports: dom0's event channels in use, as Xen counts them (debug
# key 'e').
dom0_ports() {
	xl debug-keys e
	xl dmesg | awk '
		/Event channel information for domain 0:/ { n = 0; on = 1; next }
		/Event channel information for domain/ { on = 0 }
		on && /^\(XEN\) +[0-9]+ \[/ { n++ }
		END { print n + 0 }'
}

# run_devfuzz NAME CFG TIMEOUT SEED: devfuzz's case lines, then whether
# the kernel logged anything that is a bug, and what dom0 holds before
# and after (the domU's ports and grants must all be given back).
run_devfuzz() {
	name=$1 cfg=$2 tmo=$3 seed=$4
	klog=/job/out/$name.dmesg.log
	ports0=$(dom0_ports)
	lines0=$(dmesg | wc -l)
	if ! timeout -k 5 60 xl create -q -p "/job/cfg/$cfg" "name=\"$name\"" \
			> "/job/out/$name.create.log" 2>&1; then
		say "devfuzz FAILED: xl create (see out/$name.create.log)"
		return 1
	fi
	id=$(xl domid "$name")
	timeout -k 5 "$tmo" /job/devfuzz "$id" "$seed" 2>&1 |
		tee "/job/out/$name.log" | grep '^PVOPS-HARNESS:'
	rc=$?
	xl destroy "$name" > /dev/null 2>&1
	gone_within 100 xl domid "$name"
	dmesg | tail -n +$((lines0 + 1)) > "$klog"
	bad=$(grep -m1 -E 'BUG|Oops|WARNING:|general protection|Call Trace|refcount_t|list_del corruption' "$klog")
	if [ -n "$bad" ]; then
		say "devfuzz kernel-log FAIL: $bad"
	else
		say "devfuzz kernel-log clean lines=$(wc -l < "$klog")"
	fi
	if [ -e /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		say "devfuzz kmemleak leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)"
	else
		say "devfuzz kmemleak absent"
	fi
	say "devfuzz holds domains=$(xl list | awk 'NR > 2' | wc -l) ports_before=$ports0 ports_after=$(dom0_ports)"
	return $rc
}
