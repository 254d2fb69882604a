#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that the overlay audit fails when upstream Xen code comes back.
#
# Usage: test-audit.sh REPO PRISTINE TREE
#
# Works on a hard-linked scratch copy of TREE (the real tree is not
# touched): the copy must pass as it is, then fail with each planted
# regression named: an upstream file put back where we have none yet,
# or over a file of ours, an upstream file
# copied elsewhere under another name, and the kbuild glue undone.
set -eu

repo=$(cd "$1" && pwd)
pristine=$(cd "$2" && pwd -P)
tree=$(cd "$3" && pwd -P)
audit=(/usr/bin/python3 "$repo/scripts/pvops/audit.py" "$repo/scripts/pvops/manifest" "$pristine")
scratch=$(mktemp -d "$(dirname "$tree")/audit-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -al "$tree/." "$scratch/"

fails=0
expect() {	# expect WHAT PASS|FAIL [TEXT...]
	local what=$1 want=$2 out rc=0
	shift 2
	out=$("${audit[@]}" "$scratch" "$repo" 2>&1) || rc=$?
	if { [ "$want" = PASS ] && [ $rc != 0 ]; } || { [ "$want" = FAIL ] && [ $rc = 0 ]; }; then
		echo "test-audit: FAIL: $what: expected the audit to $want"
		echo "$out" | tail -5
		fails=$((fails + 1))
		return
	fi
	for text in "$@"; do
		if ! grep -qF "$text" <<< "$out"; then
			echo "test-audit: FAIL: $what: audit did not report '$text'"
			fails=$((fails + 1))
			return
		fi
	done
	echo "test-audit: ok: $what"
}

expect "clean overlay passes" PASS
mkdir -p "$scratch/drivers/xen"
cp "$pristine/drivers/xen/xen-balloon.c" "$scratch/drivers/xen/xen-balloon.c"
expect "upstream file put back" FAIL "survives: drivers/xen/xen-balloon.c" "not ours: drivers/xen/xen-balloon.c"
rm "$scratch/drivers/xen/xen-balloon.c"
# Over a file of ours (rm first: the scratch files are hard links).
rm "$scratch/drivers/xen/grant-table.c"
cp "$pristine/drivers/xen/grant-table.c" "$scratch/drivers/xen/grant-table.c"
expect "upstream file put back over ours" FAIL "survives: drivers/xen/grant-table.c"
rm "$scratch/drivers/xen/grant-table.c"
cp "$pristine/drivers/xen/events/events_base.c" "$scratch/drivers/misc/renamed.c"
expect "upstream file copied elsewhere" FAIL "survives: drivers/misc/renamed.c (identical to upstream drivers/xen/events/events_base.c)"
rm "$scratch/drivers/misc/renamed.c"
rm "$scratch/drivers/net/Makefile"
cp "$pristine/drivers/net/Makefile" "$scratch/drivers/net/Makefile"
expect "kbuild glue undone" FAIL "glue: drivers/net/Makefile still builds xen-netfront.o"

if [ $fails = 0 ]; then
	echo "test-audit: OK: the audit catches every planted regression"
else
	echo "test-audit: FAILED: $fails case(s)"
	exit 1
fi
