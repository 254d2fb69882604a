#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build one kernel out of tree.
#
# Usage: build.sh NAME SRC OUT FRAGMENT...
#
# PVOPS_TARGETS: what to make (default bzImage); PVOPS_MAKE_ARGS: more
# make variables (LOCALVERSION=..., say).
#
# The config is allnoconfig with the fragments merged on top; the build
# fails if any option a fragment asks for did not end up in .config.  The
# config is only redone when a fragment or the source changed, so a rebuild
# after editing a few files recompiles just those.  The logs are
# OUT/config.log and OUT/build.log (of the last build); progress is printed
# as it goes.
set -eu
set -o pipefail

name=$1 src=$(cd "$2" && pwd -P) out=$3
shift 3
frags=("$@")
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
cache=${XEN_PVOPS_CACHE:-$HOME/.cache/xen-pvops}
log=$out/build.log

export CCACHE_DIR=$cache/ccache
# Both trees sit at the same depth below the cache, so paths made relative
# to it match and the reference reuses objects from ours where they agree.
export CCACHE_BASEDIR=$cache
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
jobs=${JOBS:-$(($(nproc) + 1))}
read -ra extra <<< "${PVOPS_MAKE_ARGS:-}"
read -ra targets <<< "${PVOPS_TARGETS:-bzImage}"
kmake=(make -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "${extra[@]}")

stamp=$(cat "$src/.pvops-version" "${frags[@]}" | sha256sum | cut -c1-16)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.pvops-config" 2>/dev/null)" != "$stamp" ]; then
	echo "build $name: configuring (allnoconfig + ${frags[*]##*/})"
	cat "${frags[@]}" > "$out/fragments.config"
	if ! "${kmake[@]}" KCONFIG_ALLCONFIG="$out/fragments.config" allnoconfig > "$out/config.log" 2>&1; then
		echo "build $name: FAILED to configure (full log: $out/config.log):"
		grep -vE '^make(\[[0-9]+\])?: |^  (HOST)?[A-Z]+ ' "$out/config.log" | tail -20
		exit 1
	fi
	# Every option a fragment sets must have the value it asked for
	# (the last fragment's, where two set it, as Kconfig takes it).
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) sym=${line%%=*}
			if grep -q "^$sym=" "$out/.config"; then
				echo "build $name: $sym is set but a fragment asks for n"; bad=1
			fi ;;
		CONFIG_*=*)
			if ! grep -qxF "$line" "$out/.config"; then
				echo "build $name: asked for $line, got: $(grep "^${line%%=*}=" "$out/.config" || echo 'not set')"
				bad=1
			fi ;;
		esac
	done < <(grep -hE '^CONFIG_' "${frags[@]}" |
		awk -F= '!($1 in last) { order[++n] = $1 } { last[$1] = $0 }
			END { for (i = 1; i <= n; i++) print last[order[i]] }')
	if [ $bad = 1 ]; then
		echo "build $name: FAILED: config fragments not satisfied (dependencies missing?)"
		exit 1
	fi
	echo "$stamp" > "$out/.pvops-config"
fi

echo "build $name: compiling in $out (log: $log)"
start=$(date +%s)
if ! "${kmake[@]}" "${targets[@]}" > "$log" 2>&1 < /dev/null; then
	echo "build $name: FAILED; first errors (full log: $log):"
	grep -E 'error|Error|undefined reference' "$log" | head -30
	exit 1
fi &
pid=$!
# Progress: how many objects have been compiled so far, every 30 s.
while kill -0 $pid 2>/dev/null; do
	for _ in $(seq 30); do
		kill -0 $pid 2>/dev/null || break
		sleep 1
	done
	kill -0 $pid 2>/dev/null &&
		echo "build $name: $(grep -c '^  CC ' "$log" || true) objects compiled, $(($(date +%s) - start)) s"
done
wait $pid
echo "build $name: done in $(($(date +%s) - start)) s"
[ "${targets[*]}" != bzImage ] || echo "$name $out/arch/x86/boot/bzImage"
