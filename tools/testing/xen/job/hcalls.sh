# SPDX-License-Identifier: GPL-2.0
#
# Hypercalls of a PV domU, counted by Xen: xentrace records every
# hypercall and every call inside a multicall (TRC_PV class), on CPU 1
# only, where the domU is pinned; dom0 runs on CPU 0.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# run_hcalls NAME TIMEOUT N: boot the domU twice, each time with its own
# trace: with pvops.forkloop=0 (cfg NAME-0.cfg: boot and power-off) and
# with N (NAME-N.cfg: the same plus N fork+exec+exit).  The harness takes
# the difference.  xentrace reports records it lost; its log is kept.
# (run_domu sets name, n and the like: this function keeps to its own.)
run_hcalls() {
	local hname=$1 htmo=$2 hloops=$3 hrc=0 k trace tp
	for k in 0 "$hloops"; do
		trace=/job/out/$hname-$k.trace
		xentrace -D -S 4096 -c 0x2 -e 0x0020f000 "$trace" \
			> "/job/out/$hname-$k.xentrace.log" 2>&1 &
		tp=$!
		sleep 1
		run_domu "$hname-$k" "$hname-$k.cfg" "$htmo" 0 || hrc=1
		sleep 1
		kill -INT $tp
		wait $tp
		say "hcalls $hname loops=$k trace_bytes=$(stat -c %s "$trace" 2>/dev/null || echo 0)"
	done
	return $hrc
}
