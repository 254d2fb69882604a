#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, with apt, the Debian bookworm packages the build, the lint and the
# harness need.  Only packages that are missing are installed, so a warm
# machine pays one dpkg query.
set -eu

pkgs=(
	# kernel build
	build-essential flex bison bc libelf-dev libssl-dev dwarves cpio
	ccache rsync kmod xz-utils python3
	# the kernel we build on, and Debian's config of it
	linux-source-6.12 linux-config-6.12
	# lint
	sparse coccinelle ocaml-nox
	# make htmldocs of the patch series' Documentation
	python3-sphinx python3-yaml
	# ABI test: Xen 4.17 public headers, DWARF reader
	libxen-dev python3-pyelftools
	# make deb: the kernel's bindeb-pkg
	dpkg-dev debhelper fakeroot
	# harness
	qemu-system-x86 debootstrap busybox-static e2fsprogs
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
