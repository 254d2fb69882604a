#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: boot the best stack that works today and say plainly what
# it shows, and what it does not.
#
# Usage: demo.sh OURS_BZIMAGE REF_BZIMAGE ASSETS LOGS
set -u
here=$(cd "$(dirname "$0")" && pwd)
ours=$1 ref=$2 assets=$3 logs=$4
mkdir -p "$logs"

cat <<'TXT'
=== demo: what you are about to see (about 10 minutes)
 1. OUR kernel (Linux 6.12 with this project's Xen subtree in place of
    upstream's) booting natively in QEMU, then as a PVH domU under Xen 4.17
    (inside QEMU), created by xl in a REFERENCE dom0.
 2. OUR kernel running UNMODIFIED Debian bookworm as a PVH domU: root on
    xvda through our blkfront, a vif through our netfront on dom0's bridge.
    Network: ping, iperf3 both ways, xl network-detach/attach.  Disk: 256 MiB
    written, read back, xl reboot, checked again, fio, a scratch disk
    xl block-attach'ed, written, detached, attached, read back.  fsck after.
 3. Backends that misbehave (scripted in dom0): bad sizes and MTUs, and a
    response with a bad id written onto the shared ring through gntdev.
    Each device must close with one log line while the guest runs on.
 4. The REFERENCE dom0 itself (the same source and config with upstream's
    own Xen code): the harness's self-test.
TXT
/usr/bin/python3 "$here/harness.py" --ours "$ours" --ref "$ref" --assets "$assets" \
	--logs "$logs" native-ours pvh-domu-ours debian-net-pvh-ours \
	debian-io-pvh-ours blkfront-bad-pvh-ours netfront-bad-pvh-ours dom0-ref |
	tee "$logs/demo.out"
rc=${PIPESTATUS[0]}

echo
echo "=== demo: what it checked"
summary() {	# NAME WHAT
	local line
	line=$(grep -E "^(PASS|FAIL|EMULATOR) $1:" "$logs/demo.out" | tail -1)
	printf ' %-4s %-22s %s\n' "${line%% *}" "$1" "$2"
	case $line in FAIL*|EMULATOR*) echo "      -> ${line#* $1: }" ;; esac
}
summary native-ours 'our kernel, native: init reached, no hypervisor seen'
summary pvh-domu-ours 'our kernel, PVH domU: init saw hypervisor=xen, PVH, 2 vCPUs'
summary debian-net-pvh-ours 'Debian on our kernel: multi-user, ping, iperf3, vif detach/attach, untrusted vif'
summary debian-io-pvh-ours 'Debian on our kernel: data intact over xl reboot, fio, disk detach/attach/grow'
summary blkfront-bad-pvh-ours 'bad disks and a bad ring response: closed, one line each, no grant left'
summary netfront-bad-pvh-ours 'bad vifs and a bad ring response: closed, one line each, no grant left'
summary dom0-ref 'reference dom0 with xenstored and xenconsoled'
grep -E '^harness: (iperf3|fio) ' "$logs/demo.out" | sed 's/^harness: /      /'
cat <<TXT
 Not shown yet: our kernel as PV domU or as dom0, our backends.
 Logs: $logs/latest/ (serial.log = Xen + dom0 console; out/console/ = domUs)
TXT
exit "$rc"
