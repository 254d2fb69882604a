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
=== demo: what you are about to see
 1. OUR kernel (Linux 6.12 with this project's Xen subtree in place of
    upstream's) booting natively in QEMU to a busybox shell init.
 2. OUR kernel as a PVH domU under Xen 4.17 (inside QEMU), created by xl in
    a REFERENCE dom0, reaching the same init on our hvc0 console.
 3. The REFERENCE kernel (the same source and config with upstream's own Xen
    code) as PV dom0 running xenstored and xenconsoled, and as PV and PVH
    domUs: the harness's self-test, and the side-by-side anchor.
TXT
/usr/bin/python3 "$here/harness.py" --ours "$ours" --ref "$ref" --assets "$assets" \
	--logs "$logs" native-ours pvh-domu-ours dom0-ref pv-domu-ref pvh-domu-ref |
	tee "$logs/demo.out"
rc=${PIPESTATUS[0]}
cat <<TXT

=== demo: what this showed
 - native-ours:  our kernel boots natively; its init saw no hypervisor.
 - pvh-domu-ours: our kernel as a PVH guest: its init saw hypervisor=xen,
   guest_type=PVH and both vCPUs.  No event channels, grants or xenstore
   yet: the console is polled, and there are no PV devices.
 - dom0-ref:     REFERENCE dom0 under Xen 4.17 with the toolstack daemons.
 - pv-domu-ref, pvh-domu-ref: REFERENCE domUs reached init and saw
   hypervisor=xen with the right guest type (PV, PVH).
 Logs: $logs/latest/ (serial.log = Xen + dom0 console; out/console/ = domUs)
TXT
exit "$rc"
