#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The network side of the Debian domU's checks, run by systemd from the
# kernel command line (systemd.run="/bin/sh /dev/xvdb": this file is the
# raw content of a small second disk, so nothing in the image changes).
# Lines for the harness go to the console, each "PVOPS-HARNESS: net ...".
#
# Started that way, systemd boots into the command line's own target
# instead of the default one; so the first run only asks for
# multi-user.target, as a normal boot would, and hands itself over to a
# service of its own that starts after it (udev must have named the vif
# before anyone brings it up).  That service starts an iperf3 server for dom0 (169.254.0.1)
# to measure against, then keeps the link-local address 169.254.0.2/16
# on whichever vif is there: the image's networkd file names only the
# first one, and dom0 detaches and attaches the vif while this runs.  It
# runs until the domain shuts down.
say() { echo "PVOPS-HARNESS: net $*" > /dev/hvc0; }
if [ "$1" != serve ]; then
	systemd-run --no-block --unit=pvops-net -p After=multi-user.target \
		/bin/sh /dev/xvdb serve || say "service=failed"
	systemctl --no-block start multi-user.target || say "multi-user=failed"
	exit 0
fi
# The events each of the vifs' channels took so far, all CPUs, by irq
# name (NAME-qN-tx and -rx with a channel a ring, NAME-qN when shared).
vif_irqs() {
	awk '$NF ~ /-q[0-9]+(-[rt]x)?$/ {
		s = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		printf "%s=%d ", $NF, s
	}' /proc/interrupts
}
iperf3 -s -D --logfile /var/tmp/iperf3.log || say "iperf3=failed"
ready=
n=0
last=
while :; do
	for d in /sys/class/net/en* /sys/class/net/eth*; do
		[ -e "$d" ] || continue
		i=${d##*/}
		if ! ip -4 addr show dev "$i" | grep -q 169.254.0.2/; then
			ip link set dev "$i" up
			ip addr add 169.254.0.2/16 dev "$i" 2>/dev/null
			say "address on $i"
		fi
		if [ -z "$ready" ]; then
			ready=1
			say "ready iface=$i"
		fi
	done
	# Every 10 s, the vifs' counters when they changed (for a failure's
	# log): bytes, packets, errors, drops, each way; with the interrupts
	# and context switches so far (/proc/stat), the guest's side of what
	# its traffic cost.
	n=$((n + 1))
	if [ $((n % 20)) = 0 ]; then
		now=$(sed -n 's/^ *\(en[^:]*\|eth[^:]*\): *\([0-9]*\) *\([0-9]*\) *\([0-9]*\) *\([0-9]*\) *[0-9]* *[0-9]* *[0-9]* *[0-9]* *\([0-9]*\) *\([0-9]*\) *\([0-9]*\) *\([0-9]*\).*/\1 rx=\2B\/\3p err=\4 drop=\5 tx=\6B\/\7p err=\8 drop=\9/p' /proc/net/dev | tr '\n' ' ')
		[ "$now" != "$last" ] && say "stats $now$(awk '$1 == "intr" || $1 == "ctxt" { printf "%s=%s ", $1, $2 }' /proc/stat)$(vif_irqs)"
		last=$now
	fi
	sleep 0.5
done
