#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The disk checks of the Debian domU, run by systemd from the kernel
# command line (systemd.run="/bin/sh /dev/xvdb": this file is the raw
# content of a small second disk, so nothing in the image changes).
# Lines for the harness go to the console, each "PVOPS-HARNESS: io ...".
#
# First boot: write 256 MiB of random data, sync, record its sha256, read
# it back from the disk (caches dropped) and compare; then wait for the
# toolstack's xl reboot.  Second boot: compare again, measure with fio
# (4 KiB random reads, 1 MiB sequential reads, direct I/O), power off.
say() { echo "PVOPS-HARNESS: io $*" > /dev/hvc0; }
f=/var/tmp/pvops-io.dat
sum=/var/tmp/pvops-io.sum
if [ ! -f "$sum" ]; then
	dd if=/dev/urandom of="$f" bs=1M count=256 conv=fsync 2>/dev/null
	sha256sum "$f" | cut -d' ' -f1 > "$sum"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	again=$(sha256sum "$f" | cut -d' ' -f1)
	[ "$again" = "$(cat "$sum")" ] && r=ok || r=mismatch
	say "written read-back=$r sha256=$(cat "$sum")"
	sleep 600	# until xl reboot
	exit 0
fi
now=$(sha256sum "$f" | cut -d' ' -f1)
[ "$now" = "$(cat "$sum")" ] && r=ok || r=mismatch
say "after-reboot=$r sha256=$now"
iops=$(fio --name=rr --filename="$f" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --runtime=15 --time_based 2>&1 |
	sed -n 's/.*read: IOPS=\([0-9.k]*\).*/\1/p' | head -1)
bw=$(fio --name=sr --filename="$f" --rw=read --bs=1M --direct=1 \
	--ioengine=libaio --iodepth=8 --runtime=15 --time_based 2>&1 |
	sed -n 's/.*read: IOPS=[^,]*, BW=[^(]*(\([0-9.]*[kMG]B\/s\)).*/\1/p' | head -1)
say "fio randread_4k_iops=${iops:-none} seqread_1m=${bw:-none}"
rm -f "$f" "$sum"
sync
systemctl poweroff
exit 0
