#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make deb`: a Debian package of our kernel, linux-image-RELEASE with its
# modules, built by the kernel's own bindeb-pkg from our tree and the
# lean dom0 config with modules (configs/deb.config).
#
# Usage: deb.sh REPO SRC OUT FRAGMENT...
#
# The package lands in OUT/.. (bindeb-pkg writes beside its build
# directory), with a link to it, linux-image-xen-pvops.deb, for make
# deb-check; its path is printed last, as "DEB: PATH".  The release is
# the kernel's version with "-xen-pvops" after it; the package version
# adds this repository's commit.
set -eu

repo=$(cd "$1" && pwd) src=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
rev=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git -C "$repo" diff --quiet HEAD 2>/dev/null || rev=$rev.dirty
kver=$(make -s -C "$src" kernelversion)

mkdir -p "$out"
rm -f "$out"/../linux-image-*.deb "$out"/../linux-headers-*.deb \
	"$out"/../linux-libc-dev_*.deb "$out"/../linux-*.changes \
	"$out"/../linux-*.buildinfo
# The changelog names the project, not whoever built it on which machine.
PVOPS_TARGETS=bindeb-pkg \
PVOPS_MAKE_ARGS="KDEB_PKGVERSION=$kver-1+pvops.$rev" \
DEBFULLNAME="xen-pvops" DEBEMAIL="xen-pvops@invalid" \
	bash "$here/build.sh" deb "$src" "$out" "$@"

deb=$(ls "$out"/../linux-image-*-xen-pvops_*.deb 2>/dev/null | grep -v -- -dbg_ | head -n 1)
if [ -z "$deb" ]; then
	echo "deb: FAILED: bindeb-pkg made no linux-image package (log: $out/build.log)"
	exit 1
fi
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
ln -sf "$(basename "$deb")" "$out/../linux-image-xen-pvops.deb"
mods=$(dpkg-deb -c "$deb" | grep -c '\.ko' || true)
echo "deb: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), $(du -h "$deb" | cut -f1), $mods modules"
echo "DEB: $deb"
