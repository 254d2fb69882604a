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
# (4 KiB random reads, 1 MiB sequential reads, direct I/O); then the
# toolstack attaches a scratch disk (xvdc): write 16 MiB to it, let the
# toolstack detach it and attach it again, read them back; then it grows
# the disk from 32 to 64 MiB, which must show here; discard 4 MiB of
# it, which must read back as zeros; power off.  With pvops.bench=1 on
# the kernel command line only fio (see below).
say() { echo "PVOPS-HARNESS: io $*" > /dev/hvc0; }
# until_dev present|absent: wait (300 s at most) for /dev/xvdc to be so.
until_dev() {
	t=0
	while :; do
		if [ -b /dev/xvdc ]; then [ "$1" = present ] && return 0
		else [ "$1" = absent ] && return 0
		fi
		t=$((t + 1))
		[ $t -le 300 ] || return 1
		sleep 1
	done
}
# blkif events so far, all CPUs and rings together.
blkirqs() {
	awk '/blkif/ { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i }
	     END { print n + 0 }' /proc/interrupts
}
# intrctxt: the interrupts and context switches so far, all CPUs, as
# "INTR CTXT".
intrctxt() {
	awk '$1 == "intr" { i = $2 } $1 == "ctxt" { c = $2 } END { print i, c }' /proc/stat
}
# intrby: every interrupt source's count so far, all CPUs together, as
# "NAME COUNT" lines (a numbered irq by its action's name, the others by
# their /proc/interrupts label).
intrby() {
	awk 'NR == 1 { n = NF; next }
	     { s = 0; for (i = 2; i <= n + 1; i++) s += $i
	       name = $1 ~ /^[0-9]+:$/ ? $NF : $1; sub(/:$/, "", name)
	       c[name] += s }
	     END { for (k in c) print k, c[k] }' /proc/interrupts
}
# intrdelta BEFORE AFTER: the sources that fired between two intrby,
# busiest first, as "NAME:COUNT,...".
intrdelta() {
	printf '%s\n%s\n' "$1" "$2" |
		awk 'seen[$1]++ { if ($2 > v[$1]) print $2 - v[$1], $1; next }
		     { v[$1] = $2 }' |
		sort -rn | awk '{ printf "%s%s:%d", sep, $2, $1; sep = "," }'
}
# cpustat: per CPU, its busy (user, nice, system, irq, softirq), steal
# and total ticks so far.
cpustat() {
	awk '/^cpu[0-9]/ { print $1, $2 + $3 + $4 + $7 + $8, $9,
			   $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}
# cpuuse BEFORE AFTER: each CPU's busy and stolen share between them.
cpuuse() {
	printf '%s\n%s\n' "$1" "$2" | awk '
		$1 in b { t = $4 - t0[$1]; if (t < 1) t = 1
			  printf "%s%s=%d%%/%d%%", sep, $1,
				 100 * ($2 - b[$1]) / t, 100 * ($3 - s[$1]) / t
			  sep = "," ; next }
		{ b[$1] = $2; s[$1] = $3; t0[$1] = $4 }'
}
# bench FILE: what the block layer made of xvda and on which CPU each
# blkif event lands (all disks' rings), then fio on FILE: 15 s
# of 4 KiB random reads (with the blkif events they took and fio's own
# CPU use), 15 s of 1 MiB sequential reads.
bench() {
	q=/sys/block/xvda
	cpus=
	for i in $(awk -F: '/blkif/ { print $1 + 0 }' /proc/interrupts); do
		cpus=$cpus${cpus:+,}$(cat /proc/irq/$i/effective_affinity_list)
	done
	say "queue hwq=$(ls $q/mq | wc -l) sched=$(sed 's/.*\[\(.*\)\].*/\1/' $q/queue/scheduler) nr_requests=$(cat $q/queue/nr_requests) blkif_irq_cpus=$cpus"
	say "randread start"
	c0=$(cpustat)
	i0=$(blkirqs)
	s0=$(intrctxt)
	b0=$(intrby)
	rr=$(fio --name=rr --filename="$1" --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=32 --runtime=15 --time_based 2>&1)
	i1=$(blkirqs)
	s1=$(intrctxt)
	b1=$(intrby)
	c1=$(cpustat)
	say "randread done"
	iops=$(echo "$rr" | sed -n 's/.*read: IOPS=\([0-9.k]*\).*/\1/p' | head -1)
	ios=$(echo "$rr" | sed -n 's/.*issued rwts: total=\([0-9]*\).*/\1/p' | head -1)
	cpu=$(echo "$rr" | sed -n 's/.*cpu *: *usr=\([0-9.]*\)%, *sys=\([0-9.]*\)%.*/usr=\1 sys=\2/p' | head -1)
	bw=$(fio --name=sr --filename="$1" --rw=read --bs=1M --direct=1 \
		--ioengine=libaio --iodepth=8 --runtime=15 --time_based 2>&1 |
		sed -n 's/.*read: IOPS=[^,]*, BW=[^(]*(\([0-9.]*[kMG]B\/s\)).*/\1/p' | head -1)
	say "fio randread_4k_iops=${iops:-none} seqread_1m=${bw:-none} randread_ios=${ios:-none} randread_events=$((i1 - i0)) randread_intr=$((${s1% *} - ${s0% *})) randread_ctxt=$((${s1#* } - ${s0#* })) randread_intr_by=$(intrdelta "$b0" "$b1") ${cpu:-usr=none sys=none} busy/steal=$(cpuuse "$c0" "$c1")"
}
# With pvops.bench=1 (the harness's fio pairs) only the benchmark, on a
# file of zeros written for it and removed after, then wait for xl
# shutdown.
if grep -qw pvops.bench=1 /proc/cmdline; then
	f=/var/tmp/pvops-bench.dat
	dd if=/dev/zero of="$f" bs=1M count=256 oflag=direct conv=fsync 2>/dev/null
	bench "$f"
	rm -f "$f"
	exit 0
fi
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
bench "$f"
rm -f "$f" "$sum"
s=/var/tmp/pvops-scratch.dat
if until_dev present; then
	dd if=/dev/urandom of="$s" bs=1M count=16 2>/dev/null
	dd if="$s" of=/dev/xvdc bs=1M oflag=direct conv=fsync 2>/dev/null &&
		say "scratch written sha256=$(sha256sum "$s" | cut -d' ' -f1)" ||
		say "scratch written=failed"
	if until_dev absent; then
		say "scratch gone"
		if until_dev present; then
			back=$(dd if=/dev/xvdc bs=1M count=16 iflag=direct 2>/dev/null |
				sha256sum | cut -d' ' -f1)
			[ "$back" = "$(sha256sum "$s" | cut -d' ' -f1)" ] && r=ok || r=mismatch
			say "scratch reattached=$r sha256=$back"
			# blkback looks at the size when it has I/O to do.
			t=0
			while [ "$(cat /sys/block/xvdc/size)" != 131072 ] && [ $t -lt 120 ]; do
				dd if=/dev/xvdc of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
				sleep 1
				t=$((t + 1))
			done
			size=$(cat /sys/block/xvdc/size)
			[ "$size" = 131072 ] && r=ok || r=failed
			say "scratch resized=$r sectors=$size"
			# Discarded, the first 4 MiB must read back as zeros.
			if blkdiscard -o 0 -l 4194304 /dev/xvdc 2>/dev/null; then
				left=$(dd if=/dev/xvdc bs=1M count=4 iflag=direct 2>/dev/null |
					tr -d '\000' | wc -c)
				[ "$left" = 0 ] && r=ok || r=nonzero
			else
				r=refused
			fi
			say "scratch discarded=$r"
		else
			say "scratch reattached=timeout"
		fi
	else
		say "scratch gone=timeout"
	fi
else
	say "scratch written=timeout"
fi
rm -f "$s"
sync
systemctl poweroff
exit 0
