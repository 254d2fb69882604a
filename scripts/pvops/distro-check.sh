#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make distro-config-check`: Debian's own amd64 kernel config on our tree.
#
# Usage: distro-check.sh REPO SRC PRISTINE OUT
#                                         the check (SRC: our overlay tree;
#                                         PRISTINE: the unpatched source)
#        distro-check.sh --table REPO     the README's table, in Markdown
#
#  1. Debian's config (package linux-config-6.12) goes through
#     olddefconfig in OUT.  Every option of Debian's with XEN in its name
#     must have a line in configs/debian-xen-options, and end as it says.
#  2. Every C file outside our subtree that includes a Xen header (grep,
#     in SRC) is compiled with that config, one object each, in our tree
#     and in the pristine one.  Each that builds in the pristine tree
#     must build in ours, or be named in configs/debian-xen-objects with
#     why it does not yet; a file named there that builds fails the check
#     too (take its line out).  A file the pristine tree cannot build
#     with this config is not an amd64 one (i386's APIC probe, EISA).
#     Compiling is the check: our headers must give these files what they
#     use, as upstream's did.
#     And each symbol those objects take from the Xen core (one that
#     upstream's Xen files export) must be exported by ours: modpost
#     would refuse the module otherwise.
#  3. The README's table of Debian's options is the one --table makes.
#
# Logs: OUT/olddefconfig.log, OUT/prepare.log, OUT/objects.log, and the
# same under OUT/pristine/ for the pristine tree.
set -eu
set -o pipefail
# Our own makes, not jobs of the make that ran us.
unset MAKEFLAGS MFLAGS MAKELEVEL

DEBIAN_CONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz

# A table of configs/ without comments: its fields split by "|", trimmed.
entries() {
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*|[[:space:]]*/|/g' "$1"
}

# The options' table: OPTION|STATE|WHY.
options() {
	entries "$1/configs/debian-xen-options"
}

table() {
	echo '| option | Debian | state in our tree | why |'
	echo '|---|---|---|---|'
	options "$1" | while IFS='|' read -r opt state why; do
		echo "| \`$opt\` | $(value "$opt" "$2") | $state | $why |"
	done
}

# value OPTION CONFIG: y, m, n (unset), a value, or "-" (not there).
value() {
	local v
	v=$(sed -n "s/^CONFIG_$1=//p" "$2")
	if [ -n "$v" ]; then
		echo "${v//\"/}"
	elif grep -q "^# CONFIG_$1 is not set" "$2"; then
		echo n
	else
		echo -
	fi
}

if [ "${1:-}" = --table ]; then
	tmp=$(mktemp)
	xz -dc "$DEBIAN_CONFIG" > "$tmp"
	table "$2" "$tmp"
	rm -f "$tmp"
	exit 0
fi

repo=$(cd "$1" && pwd -P) src=$(cd "$2" && pwd -P) pristine=$(cd "$3" && pwd -P) out=$4
mkdir -p "$out/pristine"
out=$(cd "$out" && pwd -P)
cache=${XEN_PVOPS_CACHE:-$HOME/.cache/xen-pvops}
export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
# kmake SRC OUT TARGET...
kmake() {
	local s=$1 o=$2
	shift 2
	make -C "$s" O="$o" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"${JOBS:-$(($(nproc) + 1))}" "$@"
}
bad=0
fail() {
	echo "distro: FAIL: $*"
	bad=1
}

ver=$(dpkg-query -W -f='${Version}' linux-config-6.12)
echo "distro: Debian's config.amd64_none_amd64 (linux-config-6.12 $ver) on $(cat "$src/.pvops-version")"
deb=$out/debian.config
xz -dc "$DEBIAN_CONFIG" > "$deb"
# configure TREE OUT: Debian's config, olddefconfig, modules_prepare.
configure() {
	cp "$deb" "$2/.config"
	if ! kmake "$1" "$2" olddefconfig > "$2/olddefconfig.log" 2>&1 ||
	   ! kmake "$1" "$2" modules_prepare > "$2/prepare.log" 2>&1; then
		echo "distro: FAILED to configure $1 (logs: $2/olddefconfig.log, $2/prepare.log)"
		tail -20 "$2/prepare.log" 2>/dev/null || tail -20 "$2/olddefconfig.log"
		exit 1
	fi
}
configure "$src" "$out"

# 1. The options.
declare -A listed
while IFS='|' read -r opt state why; do
	listed[$opt]=1
	want=$(value "$opt" "$deb") got=$(value "$opt" "$out/.config")
	[ "$got" = - ] && [ "$want" = n ] && got=n
	case "$state" in
	ours|upstream|not-xen|off)
		[ "$state" = off ] && [ "$want" != n ] &&
			fail "$opt: listed as off, but Debian sets $want"
		[ "$got" = "$want" ] ||
			fail "$opt: Debian sets $want, our tree ends with $got" ;;
	left-out)
		[ "$want" != n ] && [ "$want" != - ] ||
			fail "$opt: listed as left out, but Debian does not set it"
		[ "$got" = - ] ||
			fail "$opt: listed as left out, but our tree has it ($got)" ;;
	*)
		fail "$opt: unknown state '$state' in configs/debian-xen-options" ;;
	esac
	[ -n "$why" ] || fail "$opt: no reason given in configs/debian-xen-options"
done < <(options "$repo")
nopt=0
for opt in $(grep -oE '^(# )?CONFIG_[A-Z0-9_]*XEN[A-Z0-9_]*' "$deb" | sed 's/.*CONFIG_//' | sort -u); do
	nopt=$((nopt + 1))
	[ -n "${listed[$opt]:-}" ] ||
		fail "$opt: Debian has it ($(value "$opt" "$deb")); give it a line in configs/debian-xen-options"
done
for opt in "${!listed[@]}"; do
	[ "$(value "$opt" "$deb")" != - ] ||
		fail "$opt: in configs/debian-xen-options but not in Debian's config"
done
echo "distro: $nopt Xen options of Debian's: $(options "$repo" | cut -d'|' -f2 | sort | uniq -c | awk '{printf "%s%s %s", s, $1, $2; s=", "}')"

# 2. The files that use Xen's headers from outside our subtree.  The
# manifest: upstream's paths in our scope, and where ours stand.
mapfile -t scope < <(sed -e '/^#/d' -e '/^$/d' "$repo/scripts/pvops/manifest" | cut -f1)
mapfile -t mine < <(sed -e '/^#/d' -e '/^$/d' "$repo/scripts/pvops/manifest" |
	awk '{ print ($2 ? $2 : $1) }')
files=()
while IFS= read -r f; do
	f=${f#./}
	for p in "${scope[@]}" "${mine[@]}"; do
		case "$f" in "$p"|"$p"/*) continue 2 ;; esac
	done
	files+=("$f")
done < <(cd "$src" && grep -rlE '#include <(xen|asm/xen)/' --include='*.c' \
	arch/x86 block certs crypto drivers fs init ipc kernel lib mm net \
	security sound virt 2>/dev/null | sort)

declare -A pending
while IFS='|' read -r f why; do
	pending[$f]=$why
done < <(entries "$repo/configs/debian-xen-objects")

configure "$pristine" "$out/pristine"
objs=()
for f in "${files[@]}"; do
	objs+=("${f%.c}.o")
	rm -f "$out/${f%.c}.o" "$out/pristine/${f%.c}.o"
done
echo "distro: compiling ${#objs[@]} files that include Xen's headers, in our tree and the pristine one (logs: $out/objects.log, $out/pristine/objects.log)"
kmake "$src" "$out" -k "${objs[@]}" > "$out/objects.log" 2>&1 || true
kmake "$pristine" "$out/pristine" -k "${objs[@]}" > "$out/pristine/objects.log" 2>&1 || true
built=0 amd64=0
for f in "${files[@]}"; do
	o=$out/${f%.c}.o
	if [ ! -f "$out/pristine/${f%.c}.o" ]; then
		echo "distro: not amd64: $f does not build in the pristine tree either"
		unset "pending[$f]"
		continue
	fi
	amd64=$((amd64 + 1))
	if [ -n "${pending[$f]:-}" ]; then
		if [ -f "$o" ]; then
			fail "$f builds now: take its line out of configs/debian-xen-objects"
		else
			echo "distro: not yet: $f: ${pending[$f]}"
		fi
		unset "pending[$f]"
	elif [ -f "$o" ]; then
		built=$((built + 1))
	else
		fail "$f does not build with Debian's config; first errors:"
		kmake "$src" "$out" "${f%.c}.o" 2>&1 | grep -E ': (fatal )?error' |
			head -5 | sed 's/^/    /' || true
	fi
done
for f in "${!pending[@]}"; do
	fail "$f: in configs/debian-xen-objects, but no longer a user of Xen's headers"
done
echo "distro: $built of the $amd64 amd64 files built; $((amd64 - built)) not yet (configs/debian-xen-objects)"

# What the built objects take from the Xen core must be exported by ours.
exports() {	# exports DIR PATH...: the symbols those paths export
	(cd "$1" && grep -rhoE 'EXPORT_SYMBOL(_GPL)?\([[:space:]]*[A-Za-z0-9_]+' \
		"${@:2}" 2>/dev/null) | sed 's/.*(\s*//' | sort -u
}
upstream_x=$(exports "$pristine" "${scope[@]}")
ours_x=$(exports "$repo" "${mine[@]}")
needed=$(for f in "${files[@]}"; do
		o=$out/${f%.c}.o
		[ -f "$o" ] && nm -u "$o" | awk '{ print $2 }'
	done | sort -u | comm -12 - <(echo "$upstream_x"))
missing=$(comm -23 <(echo "$needed") <(echo "$ours_x"))
if [ -n "$missing" ]; then
	fail "symbols the built files take from the Xen core that ours does not export: $(echo $missing)"
else
	echo "distro: the $(echo "$needed" | grep -c .) symbols they take from the Xen core are all exported by ours"
fi

# 3. The README's table.
if ! diff -q <(table "$repo" "$deb") \
	<(sed -n '/<!-- debian-xen-options begin -->/,/<!-- debian-xen-options end -->/p' \
	  "$repo/README.md" | sed '1d;$d') > /dev/null; then
	fail "README.md's table of Debian's Xen options is stale: put the output of 'bash scripts/pvops/distro-check.sh --table .' between its markers"
fi

if [ $bad = 0 ]; then
	echo "distro: OK"
else
	echo "distro: FAILED (logs in $out)"
	exit 1
fi
