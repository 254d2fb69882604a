#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the source tree of our kernel: pristine Linux, with every path of the
# manifest deleted, our files copied in, and the kbuild glue applied.
#
# Usage: overlay.sh [--reference] REPO PRISTINE TREE
#
# With --reference, TREE is left as pristine Linux with upstream's own Xen
# code: the reference build, the anchor of every side-by-side comparison.
#
# TREE is kept between runs and only changed where needed: a file whose
# content is unchanged keeps its time, so that kbuild rebuilds only what
# changed.  The pristine files
# are hard links (the build writes only to O=, never to the source tree).
set -eu

reference=false
if [ "$1" = --reference ]; then
	reference=true
	shift
fi
repo=$(cd "$1" && pwd)
pristine=$(cd "$2" && pwd -P)
tree=$3
manifest=$repo/scripts/pvops/manifest

if ! cmp -s "$pristine/.pvops-version" "$tree/.pvops-version" 2>/dev/null; then
	echo "overlay: new tree from $(cat "$pristine/.pvops-version")"
	rm -rf "$tree"
	mkdir -p "$(dirname "$tree")"
	cp -al "$pristine" "$tree"
fi
if $reference; then
	echo "overlay: reference tree (upstream Xen code) at $tree"
	exit 0
fi

# List our files below a path, relative to the repo: tracked and untracked
# but not ignored files when this is a git checkout, every file otherwise.
our_files() {
	[ -e "$repo/$1" ] || return 0
	if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$repo" ls-files --cached --others --exclude-standard -- "$1" |
			while read -r f; do [ -f "$repo/$f" ] && echo "$f"; done
	else
		(cd "$repo" && find "$1" -type f 2>/dev/null)
	fi
}

listfile=$(mktemp)
trap 'rm -f "$listfile"' EXIT
grep -vE '^\s*(#|$)' "$manifest" | while read -r up ours; do
	ours=${ours:-$up}
	our_files "$ours" > "$listfile"
	# Upstream's files, and ours that the repo no longer has, go.
	for d in "$up" "$ours"; do
		[ -e "$tree/$d" ] || continue
		(cd "$tree" && find "$d" \( -type f -o -type l \)) |
			grep -vxF -f "$listfile" | while read -r f; do
				rm -f "${tree:?}/$f"
			done
	done
	# A file is copied only when its content differs, and then gets the
	# time of the copy: kbuild compares times, and the same cache may have
	# been built from another checkout whose files are newer than these.
	# The copy goes through a new name so that a hard link into pristine
	# Linux is replaced, never written through.
	while read -r f; do
		cmp -s "$repo/$f" "$tree/$f" 2>/dev/null && continue
		mkdir -p "$tree/$(dirname "$f")"
		cp "$repo/$f" "$tree/$f.pvops-new"
		mv "$tree/$f.pvops-new" "$tree/$f"
	done < "$listfile"
	if [ "$ours" != "$up" ]; then
		# kbuild glue: the object of a single file becomes a directory.
		mk=$(dirname "$up")/Makefile
		name=$(basename "$up" .c)
		sed -E "s|\\b$name\\.o\\b|$name/|" "$pristine/$mk" > "$tree/$mk.pvops"
		if cmp -s "$tree/$mk.pvops" "$tree/$mk"; then
			rm "$tree/$mk.pvops"
		else
			mv "$tree/$mk.pvops" "$tree/$mk"
		fi
	fi
done

rm -f "$listfile"
exec /usr/bin/python3 "$repo/scripts/pvops/audit.py" "$manifest" "$pristine" "$tree" "$repo"
