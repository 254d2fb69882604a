#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every step in turn, with its time; a failed step is named
# with the log or the make target that reproduces it.  The harness's own
# scenarios count one each.  Ends with "check: N passed, N failed"; a
# scenario the emulator's own fault stopped is named and counted apart.
set -u

cd "$(dirname "$0")/../.."
start=$(date +%s)
# The harness stops its emulators at this deadline, so that a machine that
# hangs ends the check with failures that say so, inside a CI's limit
# (CHECK_LIMIT seconds from now, 80 minutes unless said).
export XEN_PVOPS_DEADLINE=$((start + ${CHECK_LIMIT:-4800}))
echo "=== check: scenarios stop by $(date -d @"$XEN_PVOPS_DEADLINE" '+%H:%M:%S') (CHECK_LIMIT=${CHECK_LIMIT:-4800} s)"
pass=0 fail=0
failed=()
logs=${LOGS:-$PWD/logs}
mkdir -p "$logs"

step() {	# step NAME MAKE-TARGET
	local name=$1 target=$2 t0 rc
	t0=$(date +%s)
	echo "=== check: $name (make $target)"
	make --no-print-directory "$target"
	rc=$?
	echo "=== check: $name: $([ $rc = 0 ] && echo PASS || echo FAIL) in $(($(date +%s) - t0)) s"
	if [ $rc = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed+=("$name (make $target)")
	fi
	return $rc
}

step deps deps || { echo "check: cannot install dependencies"; echo "check: 0 passed, 1 failed"; exit 1; }
step "ABI test" abi
step "overlay audit test" test-audit
step "test tools self-test" tools-selftest
step "build ours" kernel
step lint lint
step "patch series" patches
step "distro config" distro-config-check
step "build reference" reference
step "harness assets" assets

# The scenarios: each PASS/FAIL line of the harness counts.
t0=$(date +%s)
echo "=== check: harness scenarios"
make --no-print-directory run-scenarios 2>&1 | tee "$logs/check-harness.out"
hp=$(grep -cE '^PASS ' "$logs/check-harness.out")
hf=$(grep -cE '^FAIL ' "$logs/check-harness.out")
# A PVH domU that the emulator's own fault stopped (README) is reported
# with Xen's evidence, and counted neither way.
he=$(grep -cE '^EMULATOR ' "$logs/check-harness.out")
if [ "$hp" = 0 ] && [ "$hf" = 0 ]; then
	hf=1
	failed+=("harness: no scenario ran (see $logs/check-harness.out)")
fi
pass=$((pass + hp))
fail=$((fail + hf))
while read -r line; do failed+=("$line"); done < <(grep -E '^FAIL ' "$logs/check-harness.out")
echo "=== check: harness scenarios: $hp passed, $hf failed, $he stopped by the emulator in $(($(date +%s) - t0)) s"

echo
echo "check: finished in $(($(date +%s) - start)) s"
for f in "${failed[@]}"; do
	echo "check: FAILED: $f"
done
grep -E '^EMULATOR ' "$logs/check-harness.out" | sed 's/^/check: NOT RUN TO ITS END: /'
echo "check: $pass passed, $fail failed$([ "$he" = 0 ] || echo ", $he stopped by the emulator's nested-SVM fault (see the lines above)")"
[ $fail = 0 ]
