#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's linux-source-6.12 (installed by deps.sh) into the cache,
# once per package version, and print the exact version used.
#
# Usage: source.sh CACHE_DIR
# Leaves CACHE_DIR/src/linux (a symlink to the unpacked tree of the installed
# package version) and CACHE_DIR/src/linux/.pvops-version.
set -eu

cache=$1
pkg=linux-source-6.12
debver=$(dpkg-query -W -f='${Version}' "$pkg")
tarball=/usr/src/$pkg.tar.xz
dest=$cache/src/$pkg-$debver

if [ ! -f "$dest/.pvops-version" ]; then
	echo "source: unpacking $tarball ($debver)"
	rm -rf "$dest.tmp"
	mkdir -p "$dest.tmp"
	tar -C "$dest.tmp" --strip-components=1 -xf "$tarball"
	v=$(make -s -C "$dest.tmp" kernelversion)
	echo "$v (Debian $pkg $debver)" > "$dest.tmp/.pvops-version"
	rm -rf "$dest"
	mv "$dest.tmp" "$dest"
fi
ln -sfn "$pkg-$debver" "$cache/src/linux"
echo "source: Linux $(cat "$dest/.pvops-version")"
