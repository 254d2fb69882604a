#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lint our kernel files: checkpatch --strict, kernel-doc, sparse (C=2)
# with W=1, coccicheck (ocaml-nox runs its OCaml rules), and no LOCK a
# one-CPU kernel patches out on memory shared with Xen.  Any finding
# fails.
#
# Usage: lint.sh REPO TREE OUT
#   TREE: our overlaid source tree; OUT: its configured build directory.
#
# sparse and W=1 run in OUT/../lint (a build directory of their own, so the
# main build keeps its flags) on our objects and on every upstream object of
# this config that includes one of our headers; only findings located in our
# files count.
set -eu
set -o pipefail

repo=$(cd "$1" && pwd)
tree=$(cd "$2" && pwd -P)
out=$(cd "$3" && pwd -P)
lintout=$(dirname "$out")/lint
manifest=$repo/scripts/pvops/manifest
cache=${XEN_PVOPS_CACHE:-$HOME/.cache/xen-pvops}
export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
fail=0

# Our kernel files: what the manifest says we own, as the repo has them.
mapfile -t owned < <(grep -vE '^\s*(#|$)' "$manifest" | awk '{ print ($2 ? $2 : $1) }')
mapfile -t files < <(cd "$repo" && git ls-files --cached --others --exclude-standard -- "${owned[@]}" 2>/dev/null ||
			find "${owned[@]}" -type f 2>/dev/null)
mapfile -t code < <(printf '%s\n' "${files[@]}" | grep -E '\.(c|h|S)$' || true)

# --- checkpatch ------------------------------------------------------------------
# The findings that do not apply, and to which files, are listed with the
# reason in scripts/pvops/checkpatch-exempt (the patch series uses the
# same list).
n=0
for f in "${files[@]}"; do
	case "$f" in *.c|*.h|*.S|*Kconfig*|*Makefile|*Kbuild) ;; *) continue ;; esac
	res=$(cd "$repo" && { perl "$tree/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types --no-summary -f "$f" 2>&1 || true; } |
		/usr/bin/python3 "$repo/scripts/pvops/patches.py" exempt "$repo")
	[ -n "$res" ] || continue
	echo "$res"
	n=$((n + $(grep -c . <<< "$res")))
done
echo "lint: checkpatch --strict: ${#files[@]} files, $n finding(s)"
[ $n = 0 ] || fail=1

# --- kernel-doc --------------------------------------------------------------------
res=$(cd "$repo" && perl "$tree/scripts/kernel-doc" -none -Wall "${code[@]}" 2>&1 || true)
n=$(grep -c 'warning\|error' <<< "$res" || true)
[ -n "$res" ] && echo "$res"
echo "lint: kernel-doc -Wall: ${#code[@]} files, $n finding(s)"
[ "$n" = 0 ] || fail=1

# --- sparse and W=1 ------------------------------------------------------------------
mkdir -p "$lintout"
cp "$out/.config" "$lintout/.config.new"
if ! cmp -s "$lintout/.config.new" "$lintout/.config"; then
	mv "$lintout/.config.new" "$lintout/.config"
	make -s -C "$tree" O="$lintout" CC="ccache gcc" olddefconfig > /dev/null
fi
# Objects of this config: our own, and upstream's that include our headers.
hdr_re='#\s*include\s*[<"](xen/|asm/xen/|\.\./xen/)'
mapfile -t targets < <(
	cd "$tree"
	{
		printf '%s\n' "${code[@]}" | grep -E '\.(c|S)$' || true
		grep -rlE "$hdr_re" --include='*.c' --include='*.S' arch block drivers \
			fs kernel mm net init lib 2>/dev/null || true
	} | sort -u | while read -r src; do
		obj=${src%.*}.o
		[ -f "$out/$obj" ] && echo "$obj"
	done)
echo "lint: sparse (C=2) and W=1 on ${#targets[@]} objects (log: $lintout/lint.log)"
make -C "$tree" O="$lintout" CC="ccache gcc" -j"$(($(nproc) + 1))" prepare > "$lintout/lint.log" 2>&1
make -C "$tree" O="$lintout" CC="ccache gcc" C=2 W=1 -k "${targets[@]}" >> "$lintout/lint.log" 2>&1 || true
ours_re=$(printf '%s\n' "${owned[@]}" | sed 's/[.]/\\./g' | paste -sd'|')
res=$(grep -E "(^|/)($ours_re)[^:]*:[0-9]+(:[0-9]+)?: (warning|error)" "$lintout/lint.log" | sort -u || true)
n=$(grep -c . <<< "$res" || true)
[ -n "$res" ] && echo "$res"
errs=$(grep -cE ': error:|\*\*\* ' "$lintout/lint.log" || true)
# sparse checks C files only: each .c target once, whatever else it prints.
checked=$(grep '^  CHECK ' "$lintout/lint.log" | sort -u | grep -c . || true)
ctargets=$(cd "$tree" && for obj in "${targets[@]}"; do
	[ -f "${obj%.o}.c" ] && echo "$obj"; done | grep -c . || true)
echo "lint: sparse and W=1: $checked C files checked (targets: $ctargets), $n finding(s) in our files, $errs error line(s) overall"
[ "$n" = 0 ] && [ "$errs" = 0 ] && [ "$checked" -ge "$ctargets" ] || fail=1

# --- coccicheck ---------------------------------------------------------------------
# The kernel's semantic patches (make coccicheck, report mode) on our C
# files and headers, copied with their paths below one directory so
# that one run covers them all; every report counts.
coccisrc=$lintout/cocci-src
rm -rf "$coccisrc"
for f in "${code[@]}"; do
	case "$f" in *.c|*.h) mkdir -p "$coccisrc/$(dirname "$f")"; cp "$repo/$f" "$coccisrc/$f" ;; esac
done
ncocci=$(find "$coccisrc" -type f | wc -l)
echo "lint: coccicheck on $ncocci files (log: $lintout/cocci.log)"
mkdir -p "$lintout/cocci"
if make -C "$tree" O="$lintout/cocci" coccicheck MODE=report M="$coccisrc" \
		J="$(nproc)" > "$lintout/cocci.log" 2>&1; then
	res=$(grep -E "^$coccisrc/[^:]+:[0-9]+" "$lintout/cocci.log" | sed "s|^$coccisrc/||" | sort -u || true)
	n=$(grep -c . <<< "$res" || true)
	[ -n "$res" ] && echo "$res"
	echo "lint: coccicheck: $ncocci files, $n finding(s)"
	[ "$n" = 0 ] || fail=1
else
	echo "lint: coccicheck FAILED to run (log: $lintout/cocci.log):"
	grep -vE '^/usr/bin/spatch|^$' "$lintout/cocci.log" | tail -5
	fail=1
fi

# --- memory shared with Xen -----------------------------------------------------
# Its read-modify-writes must stay locked on a one-CPU kernel
# (shared-locks.py): the FIFO event words, the 2-level bitmaps, grant flags.
e2l=drivers/xen/events/events_2l.o
python3 "$repo/scripts/pvops/shared-locks.py" "$out" \
	drivers/xen/events/events_fifo.o \
	$e2l:evtchn_2l_clear_pending $e2l:evtchn_2l_set_pending \
	$e2l:evtchn_2l_mask $e2l:evtchn_2l_unmask $e2l:evtchn_2l_handle_events \
	drivers/xen/grant-table.o:gnttab_end_foreign_access_ref || fail=1

if [ $fail = 0 ]; then
	echo "lint: OK"
else
	echo "lint: FAILED"
fi
exit $fail
