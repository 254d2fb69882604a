#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build, once and cached, what the harness boots besides the kernels:
#   xen-4.17      the hypervisor, from Debian's xen-hypervisor-4.17-amd64
#   dom0.img      ext4 root of a Debian bookworm dom0 with xen-utils-4.17
#   guest.cpio.gz busybox initramfs for native boots and domUs
# and, when asked with "debian", for the scenarios that need it:
#   debian-domu.img  ext4 root of an unmodified Debian bookworm domU
# and, when asked with "deb PACKAGE" (make deb's linux-image package):
#   dom0-deb.img     dom0.img's root with the package installed by dpkg -i
#   dom0-deb.vmlinuz the kernel the package installed in its /boot, which
#                    the harness boots as dom0, as a boot loader would
#
# Usage: assets.sh CACHE_DIR [debian | deb PACKAGE]
#        (results in CACHE_DIR/harness/)
#
# Each asset is rebuilt only when its recipe (this script, the package list,
# the init scripts) changes.  The Debian mirror is the one this machine's
# apt already uses (override with DEBIAN_MIRROR).
set -eu
set -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$1/harness
mkdir -p "$out"
suite=bookworm
dom0_pkgs=xen-utils-4.17,xenstore-utils,iproute2,kmod,procps,e2fsprogs,busybox,iperf3

stamp_ok() { [ -f "$1" ] && [ "$(cat "$1.stamp" 2>/dev/null)" = "$2" ]; }

host_mirror() {
	local m
	m=$(sed -nE 's/^deb +(\[[^]]*\] +)?([^ ]+) +'"$suite"' .*/\2/p' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)
	[ -n "$m" ] || m=$(awk -v s="$suite" '
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) { print uri; exit } }
		' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	echo "$m"
}

# --- the hypervisor ---------------------------------------------------------
xenver=$(apt-cache policy xen-hypervisor-4.17-amd64 | awk '/Candidate:/ { print $2 }')
if ! stamp_ok "$out/xen-4.17" "$xenver"; then
	echo "assets: fetching xen-hypervisor-4.17-amd64 $xenver"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt downloads as its own user
	(cd "$tmp" && apt-get download -q "xen-hypervisor-4.17-amd64=$xenver" >/dev/null)
	dpkg-deb -x "$tmp"/xen-hypervisor-4.17-amd64_*.deb "$tmp/x"
	gunzip -c "$tmp/x/boot/xen-4.17-amd64.gz" > "$out/xen-4.17"
	rm -rf "$tmp"
	echo "$xenver" > "$out/xen-4.17.stamp"
fi

# --- the dom0 root ------------------------------------------------------------
rootstamp=$(echo "$suite $dom0_pkgs" | sha256sum | cut -c1-16)
if ! stamp_ok "$out/dom0-root/etc/os-release" "$rootstamp"; then
	mirror=${DEBIAN_MIRROR:-$(host_mirror)}
	[ -n "$mirror" ] || { echo "assets: no Debian mirror in apt sources; set DEBIAN_MIRROR"; exit 1; }
	echo "assets: debootstrap $suite dom0 root with $dom0_pkgs (a few minutes; log: $out/debootstrap.log)"
	rm -rf "$out/dom0-root"
	if ! debootstrap --variant=minbase --include="$dom0_pkgs" "$suite" \
			"$out/dom0-root" "$mirror" > "$out/debootstrap.log" 2>&1; then
		echo "assets: debootstrap FAILED; last lines of $out/debootstrap.log:"
		tail -15 "$out/debootstrap.log"
		exit 1
	fi
	rm -rf "$out/dom0-root/var/cache/apt/archives/"*.deb
	echo "$rootstamp" > "$out/dom0-root/etc/os-release.stamp"
fi

imgstamp=$( (echo "$rootstamp"; cat "$here/rootfs/dom0-init") | sha256sum | cut -c1-16)
if ! stamp_ok "$out/dom0.img" "$imgstamp"; then
	echo "assets: making dom0.img"
	install -m 0755 "$here/rootfs/dom0-init" "$out/dom0-root/sbin/pvops-dom0-init"
	mkdir -p "$out/dom0-root/job"
	size=$(( $(du -sm "$out/dom0-root" | cut -f1) + 256 ))
	rm -f "$out/dom0.img"
	truncate -s "${size}M" "$out/dom0.img"	# mke2fs is quiet only about a file that exists
	mke2fs -q -t ext4 -L dom0 -d "$out/dom0-root" "$out/dom0.img" "${size}M"
	echo "$imgstamp" > "$out/dom0.img.stamp"
fi

# --- the guest initramfs -------------------------------------------------------
bb=/bin/busybox
gstamp=$( (sha256sum "$bb"; cat "$here/rootfs/guest-init" "$here/bench/xsbench.c" \
	   "$here/bench/microbench.c" "$here/rootfs/hostfe.c" \
	   "$here/rootfs/hostfe-cases" "$here/rootfs/hostnf.c" \
	   "$here/rootfs/hostnf-cases" "$here/rootfs/hostfe-common.h" \
	   "$here/rootfs/blast.c" "$here/rootfs/memtouch.c") |
	  sha256sum | cut -c1-16)
if ! stamp_ok "$out/guest.cpio.gz" "$gstamp"; then
	echo "assets: making guest.cpio.gz"
	tmp=$(mktemp -d)
	mkdir -p "$tmp"/{bin,dev,proc,sys,tmp}
	cp "$bb" "$tmp/bin/busybox"
	ln -s busybox "$tmp/bin/sh"
	install -m 0755 "$here/rootfs/guest-init" "$tmp/init"
	# The xenstore benchmark, static: the initramfs has no C library.
	gcc -static -O2 -Wall -pthread -o "$tmp/bin/xsbench" "$here/bench/xsbench.c"
	# The microbenchmarks (system call, fork, exec, mmap, faults, pipe).
	gcc -static -O2 -Wall -o "$tmp/bin/microbench" "$here/bench/microbench.c"
	# The hostile block and network frontends and their cases
	# (pvops.hostfe=1, pvops.hostnf=1).
	gcc -static -O2 -Wall -o "$tmp/bin/hostfe" "$here/rootfs/hostfe.c"
	gcc -static -O2 -Wall -o "$tmp/bin/hostnf" "$here/rootfs/hostnf.c"
	cp "$here/rootfs/hostfe-cases" "$here/rootfs/hostnf-cases" "$tmp/"
	# The sender of the fair-sharing check (pvops.blast=N:ADDR).
	gcc -static -O2 -Wall -o "$tmp/bin/blast" "$here/rootfs/blast.c"
	# The workload of the balloon check (pvops.memtouch=N).
	gcc -static -O2 -Wall -o "$tmp/bin/memtouch" "$here/rootfs/memtouch.c"
	(cd "$tmp" && find . | cpio -o -H newc --owner=0:0 --quiet) | gzip -9 > "$out/guest.cpio.gz"
	rm -rf "$tmp"
	echo "$gstamp" > "$out/guest.cpio.gz.stamp"
fi

# --- the Debian domU root (only when asked) ---------------------------------------
# Debian as a cloud operator runs it: systemd, iproute2, iperf3, fio, and
# nothing of ours beyond /etc/fstab (root on xvda), /etc/hostname and a
# systemd-networkd file that gives the vif the link-local 169.254.0.2/16
# (dom0 is 169.254.0.1 on its bridge; QEMU has no network, so nothing
# leaves the machine).  The harness attaches the image read-only with a
# throw-away overlay, so every boot starts from this one.
debian_pkgs=systemd,systemd-sysv,udev,dbus,iproute2,iputils-ping,iperf3,fio,e2fsprogs,procps,kmod
if [ "${2:-}" = debian ]; then
	dstamp=$( (echo "$suite $debian_pkgs"; sed -n '/^# --- the Debian/,/^# --- our kernel/p' "$0") |
		  sha256sum | cut -c1-16)
	if ! stamp_ok "$out/debian-domu.img" "$dstamp"; then
		mirror=${DEBIAN_MIRROR:-$(host_mirror)}
		[ -n "$mirror" ] || { echo "assets: no Debian mirror in apt sources; set DEBIAN_MIRROR"; exit 1; }
		root=$out/debian-root
		echo "assets: debootstrap $suite domU root with $debian_pkgs (a few minutes; log: $out/debootstrap-debian.log)"
		rm -rf "$root"
		if ! debootstrap --variant=minbase --include="$debian_pkgs" "$suite" \
				"$root" "$mirror" > "$out/debootstrap-debian.log" 2>&1; then
			echo "assets: debootstrap FAILED; last lines of $out/debootstrap-debian.log:"
			tail -15 "$out/debootstrap-debian.log"
			exit 1
		fi
		rm -rf "$root/var/cache/apt/archives/"*.deb
		echo "/dev/xvda / ext4 errors=remount-ro 0 1" > "$root/etc/fstab"
		echo pvops-domu > "$root/etc/hostname"
		cat > "$root/etc/systemd/network/10-pvops-link-local.network" <<-EOT
		[Match]
		Name=eth0 enX0

		[Network]
		Address=169.254.0.2/16
		LinkLocalAddressing=no
		EOT
		chroot "$root" systemctl enable systemd-networkd > /dev/null 2>&1
		echo "assets: making debian-domu.img"
		rm -f "$out/debian-domu.img"
		truncate -s 2G "$out/debian-domu.img"
		mke2fs -q -t ext4 -L debian -d "$root" "$out/debian-domu.img" 2G
		rm -rf "$root"
		echo "$dstamp" > "$out/debian-domu.img.stamp"
	fi
fi
# --- our kernel's package in the dom0 root (only when asked) --------------
# The way a user's machine gets it: dpkg -i in the root that has
# xen-utils, then the boot loader takes the kernel from /boot.  Debian's
# postinst hooks run in the chroot (the root has no initramfs-tools, and
# the dom0 needs no initramfs: its root is a virtio disk).
if [ "${2:-}" = deb ]; then
	deb=${3:?assets.sh CACHE deb PACKAGE}
	kstamp=$( (sha256sum "$deb"; cat "$out/dom0.img.stamp"; sed -n '/^# --- our kernel/,$p' "$0") |
		  sha256sum | cut -c1-16)
	if ! stamp_ok "$out/dom0-deb.img" "$kstamp"; then
		root=$out/dom0-deb-root
		echo "assets: installing $(basename "$deb") in a copy of the dom0 root (log: $out/dom0-deb.log)"
		rm -rf "$root"
		cp -a "$out/dom0-root" "$root"
		cp "$deb" "$root/tmp/"
		if ! chroot "$root" dpkg -i "/tmp/$(basename "$deb")" > "$out/dom0-deb.log" 2>&1; then
			echo "assets: dpkg -i FAILED; last lines of $out/dom0-deb.log:"
			tail -15 "$out/dom0-deb.log"
			exit 1
		fi
		rm -f "$root/tmp/$(basename "$deb")"
		rel=$(dpkg-deb -f "$deb" Package | sed 's/^linux-image-//')
		if [ ! -f "$root/boot/vmlinuz-$rel" ] || [ ! -d "$root/lib/modules/$rel" ]; then
			echo "assets: the package put no /boot/vmlinuz-$rel or /lib/modules/$rel in the root"
			exit 1
		fi
		cp "$root/boot/vmlinuz-$rel" "$out/dom0-deb.vmlinuz"
		size=$(( $(du -sm "$root" | cut -f1) + 256 ))
		rm -f "$out/dom0-deb.img"
		truncate -s "${size}M" "$out/dom0-deb.img"
		mke2fs -q -t ext4 -L dom0 -d "$root" "$out/dom0-deb.img" "${size}M"
		rm -rf "$root"
		echo "assets: dom0-deb.img has $rel ($(dpkg-deb -f "$deb" Version)), $(dpkg-deb -c "$deb" | grep -c '\.ko') modules"
		echo "$kstamp" > "$out/dom0-deb.img.stamp"
	fi
fi
echo "assets: ready in $out (Xen $xenver)"
