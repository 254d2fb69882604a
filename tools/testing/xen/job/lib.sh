# SPDX-License-Identifier: GPL-2.0
#
# dom0's shell library: the harness's lines, dom0's clock, waits.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

say() { echo "PVOPS-HARNESS: $*"; }

# clock_cs: dom0's uptime in hundredths of a second, in $cs_now, read
# without starting a process.  Every wait below counts time on it, not
# turns of its loop: here a turn's commands take longer than its sleep,
# and a loop of 3,000 turns of 0.1 s took ten minutes, not five.
clock_cs() {
	read -r cs_now _ < /proc/uptime
	cs_now=$((${cs_now%.*} * 100 + 1${cs_now#*.} - 100))
}

# after TENTHS: prints the clock_cs time TENTHS tenths of a second on;
# past END: true once that time has come.
after() { clock_cs; echo $((cs_now + $1 * 10)); }
past() { clock_cs; [ $cs_now -ge $1 ]; }

# dom_cpu DOMID: the CPU seconds the domain's vCPUs ran so far (xl list).
dom_cpu() {
	xl list | awk -v d=$1 '$2 == d { print $6 }'
}

# sub A B: A - B, for decimals.
sub() {
	echo "$1 $2" | awk '{ printf "%.1f", $1 - $2 }'
}

# gone_within TENTHS CMD...: true once CMD fails (the thing it asks
# about is gone), within TENTHS tenths of a second.
gone_within() {
	local end=$(after $1)
	shift
	while "$@" > /dev/null 2>&1; do
		past $end && return 1
		sleep 0.1
	done
}

# wait_log FILE PATTERN COUNT TENTHS [DOMAIN]: wait until PATTERN shows
# COUNT times; with DOMAIN, give up as soon as that domain is gone (a
# guest that triple-faulted), rather than at the end of TENTHS.
wait_log() {
	local end=$(after $4) k=0
	while [ "$(grep -c "$2" "$1" 2>/dev/null)" -lt "$3" ]; do
		past $end && return 1
		# Every 5 s: a domain that is gone will print nothing more.
		k=$((k + 1))
		if [ -n "$5" ] && [ $((k % 50)) = 0 ] && ! xl domid "$5" > /dev/null 2>&1; then
			say "domu $5 gone while waiting for: $2"
			return 1
		fi
		sleep 0.1
	done
}

# boot_domu NAME CFG TENTHS [KEY=VALUE...]: xl create the domU NAME from
# /job/cfg/CFG (KEY=VALUE: xl's overrides of it) and wait, TENTHS tenths
# of a second at most, for its init's first "cpus online" line (the
# guest-init loop of pvops.control=1); its domid in $id.  A domU that
# did not get there is destroyed: return 1.
boot_domu() {
	local n=$1 cfg=$2 tenths=$3
	shift 3
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" "$@" \
		> "/job/out/$n.create.log" 2>&1 ||
	   ! wait_log "/job/out/console/guest-$n.log" \
		'PVOPS-HARNESS: cpus online' 1 "$tenths" "$n"; then
		xl destroy "$n" 2>/dev/null
		return 1
	fi
	id=$(xl domid "$n")
}

# triple_fault DOMID: true when Xen dumped a triple fault of domain
# DOMID; prints the dump's RIP line.  Whether it was the emulator's
# nested-SVM fault (README) or the guest's is for the harness's judge,
# which reads the same dump from the serial log with the guest's
# System.map.
triple_fault() {
	xl dmesg | awk -v d=" d$1v" '
		index($0, d) && / Triple fault/ { n = 16; next }
		n > 0 && /RIP:/ { n = 0; print; hit = 1 }
		n > 0 { n-- }
		END { exit !hit }'
}

# shut_down NAME: xl shutdown the domU and wait for it to go (120 s at
# most); 1 when it is still there.
shut_down() {
	timeout 120 xl shutdown -w "$1" > /dev/null 2>&1 &&
		! xl domid "$1" > /dev/null 2>&1
}
