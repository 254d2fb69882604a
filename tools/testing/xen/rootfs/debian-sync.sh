#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The writes that an xl destroy interrupts, in the Debian domU (run by
# systemd from the kernel command line, like debian-io.sh: this file is
# the raw content of a small second disk).
#
# Record K of /var/tmp/pvops-sync.dat is 64 KiB of the line
# "pvops-sync K" over and over, cut at 64 KiB.  Each record is appended
# and fsync'd, and only then does "PVOPS-HARNESS: sync synced K" go to
# the console: a line dom0 sees names a record that must be on the disk
# after the domain is destroyed.  Meanwhile a second writer keeps the
# page cache full of data nobody synced (a 32 MiB file written over and
# over), so that the destroy lands in the middle of writes in flight.
say() { echo "PVOPS-HARNESS: sync $*" > /dev/hvc0; }
f=/var/tmp/pvops-sync.dat
rm -f "$f" /var/tmp/pvops-sync.noise
: > "$f"
sync
say "start"
(while :; do
	dd if=/dev/urandom of=/var/tmp/pvops-sync.noise bs=1M count=32 2>/dev/null
done) &
k=1
while [ $k -le 2000 ]; do
	yes "pvops-sync $k" | head -c 65536 |
		dd of="$f" bs=65536 iflag=fullblock oflag=append conv=notrunc,fsync 2>/dev/null ||
		{ say "write=failed record=$k"; break; }
	say "synced $k"
	k=$((k + 1))
done
# dom0 destroys the domain long before this.
say "done records=$((k - 1))"
sleep 600
