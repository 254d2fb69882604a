# SPDX-License-Identifier: GPL-2.0
#
# Build and test the Xen subtree on Linux 6.12.  `make help` lists targets.
#
# Everything bulky lives in $(CACHE), outside the repository: the unpacked
# kernel source, the two source trees and their build directories, ccache,
# and the harness's Xen, dom0 root and guest initramfs.

CACHE ?= $(HOME)/.cache/xen-pvops
export XEN_PVOPS_CACHE := $(CACHE)
PY := /usr/bin/python3
LOGS ?= $(CURDIR)/logs

# Our kernel gets the Xen options our subtree implements so far
# (xen-guest.config); it takes configs/xen.config once it has them all.
OURS_CONFIGS ?= configs/base.config configs/kunit.config configs/xen-guest.config
REF_CONFIGS ?= configs/base.config configs/kunit.config configs/xen.config
OURS_SRC := $(CACHE)/ours/src
OURS_OUT := $(CACHE)/ours/out
REF_SRC := $(CACHE)/ref/src
REF_OUT := $(CACHE)/ref/out
PRISTINE := $(CACHE)/src/linux
ASSETS := $(CACHE)/harness
OURS_KERNEL := $(OURS_OUT)/arch/x86/boot/bzImage
REF_KERNEL := $(REF_OUT)/arch/x86/boot/bzImage

# Scenarios for `make harness`; see `make scenarios` for the list.
SCENARIOS ?=

.PHONY: all help deps source overlay kernel reference abi lint test-audit \
	distro-config-check tools-selftest bisect-perf bench-report deb deb-check \
	patches patches-build \
	assets harness run-scenarios scenarios check demo clean distclean

all: kernel
	@echo "KERNEL: $(OURS_KERNEL)"

help:
	@echo 'make               build our kernel; prints KERNEL: <path of bzImage>'
	@echo 'make check         ABI test, lint, audit test, both builds, harness scenarios'
	@echo 'make demo          boot the best stack that works today and say what it shows'
	@echo 'make reference     build the reference kernel (upstream Xen code, same config)'
	@echo 'make abi           ABI test of our headers against Xen 4.17 (with its self-test)'
	@echo 'make lint          checkpatch --strict, kernel-doc, sparse, W=1 and coccicheck on our files'
	@echo 'make test-audit    show that the overlay audit catches upstream Xen code'
	@echo 'make distro-config-check  Debian'"'"'s amd64 config on our tree: Xen options, users of our API'
	@echo 'make harness [SCENARIOS="a b"]   run harness scenarios (default set if empty)'
	@echo 'make scenarios     list harness scenarios'
	@echo 'make bisect-perf GOOD=c1 BAD=c2 [BENCH=pt-hcalls]  find the commit that made a benchmark worse'
	@echo 'make deb           linux-image-*.deb of our kernel (lean dom0 config, with modules)'
	@echo 'make deb-check     install that package in the dom0 root, boot it as dom0, serve a Debian domU'
	@echo 'make bench-report  run every benchmark, ours against the reference, and write a Markdown page with SVG charts'
	@echo 'make patches       the subtree as a patch series against Linux 6.12 in patches/ (checkpatch, htmldocs)'
	@echo 'make patches-build build every patch of that series with the lean config (about an hour, first time)'
	@echo 'make tools-selftest  the decision rules of the test tools (bisect-perf, the fault reading) on made-up input'
	@echo 'make clean         remove our build directories (keeps source, ccache, assets)'
	@echo 'make distclean     remove all of $(CACHE)'

deps:
	@bash scripts/pvops/deps.sh

source: deps
	@bash scripts/pvops/source.sh $(CACHE)

overlay: source
	@bash scripts/pvops/overlay.sh . $(PRISTINE) $(OURS_SRC)

kernel: overlay
	@bash scripts/pvops/build.sh ours $(OURS_SRC) $(OURS_OUT) $(OURS_CONFIGS)

reference: source
	@bash scripts/pvops/overlay.sh --reference . $(PRISTINE) $(REF_SRC)
	@bash scripts/pvops/build.sh ref $(REF_SRC) $(REF_OUT) $(REF_CONFIGS)
	@echo "REFERENCE: $(REF_KERNEL)"

abi: deps
	@$(PY) tools/testing/xen/abi/abi_check.py --selftest .
	@$(PY) tools/testing/xen/abi/abi_check.py .

lint: kernel
	@bash scripts/pvops/lint.sh . $(OURS_SRC) $(OURS_OUT)

# Debian's amd64 config on our tree: its Xen options, and the files outside
# our subtree that use Xen's headers (configs/debian-xen-*).
distro-config-check: overlay
	@bash scripts/pvops/distro-check.sh . $(OURS_SRC) $(PRISTINE) $(CACHE)/distro/out

test-audit: overlay
	@bash scripts/pvops/test-audit.sh . $(PRISTINE) $(OURS_SRC)

# A Debian package of our kernel with the lean dom0 config and modules
# (configs/deb.config), as a distribution would ship it.
DEB_CONFIGS ?= configs/base.config configs/xen-guest.config configs/deb.config
DEB_OUT := $(CACHE)/deb/out
deb: overlay
	@bash scripts/pvops/deb.sh . $(OURS_SRC) $(DEB_OUT) $(DEB_CONFIGS)

# The package as a user's machine takes it: installed with dpkg -i in the
# Debian dom0 root, booted as dom0 from its /boot, serving a Debian domU
# its disk and network (not in make check: the package is a build of its
# own; see the README for its time).
DEB_SCENARIOS ?= dom0-deb dom0-deb-debian-net-pv-ours
deb-check: deb kernel assets
	@$(PY) tools/testing/xen/harness.py --ours $(OURS_KERNEL) \
		--ref $(REF_KERNEL) --assets $(ASSETS) --logs $(LOGS) \
		--deb $(CACHE)/deb/linux-image-xen-pvops.deb $(DEB_SCENARIOS)

# The subtree as a patch series against the Linux it builds on, one patch
# per subsystem (scripts/pvops/series/), in $(PATCHES): checkpatch --strict
# on every patch, the last step checked against the overlay tree, and
# make htmldocs of its Documentation/virt/.  patches-build builds every
# step with the lean config (not in make check; see the README for its
# time).
PATCHES ?= $(CURDIR)/patches
patches: overlay
	@$(PY) scripts/pvops/patches.py series . $(PRISTINE) $(CACHE) $(PATCHES) \
		--overlay $(OURS_SRC)

patches-build: patches
	@$(PY) scripts/pvops/patches.py build . $(CACHE) $(OURS_CONFIGS)

# The test tools' own rules, on made-up figures: quick, in make check.
tools-selftest:
	@$(PY) tools/testing/xen/bisect-perf --selftest
	@$(PY) tools/testing/xen/fault-selftest

# The commit between GOOD and BAD that made BENCH worse (bisect-perf
# --help); needs the reference kernel and the harness's assets.
BENCH ?= pt-hcalls
bisect-perf: reference assets
	@$(PY) tools/testing/xen/bisect-perf --bench $(BENCH) \
		--cache $(CACHE) $(GOOD) $(BAD)

# Every benchmark of the harness, ours against the reference (and native
# where it means something), in one run, written as logs/<time>/report/
# report.md with SVG charts.  XEN_PVOPS_PAIRS=N shortens the pair
# scenarios, XEN_PVOPS_CYCLES=N the balloon's.
REPORT_SCENARIOS ?= micro-native-ours micro-pairs-pv hcalls-pv-ref \
	hcalls-pv-ours xsbench-pvh-ours xsbench-pvh-ref boot20-pvh-ours \
	boot20-pvh-ref \
	fio-pairs-pvh iperf-pairs-pvh fio-pairs-pv iperf-pairs-pv \
	dom0-create-pairs dom0-serve-pairs balloon-pv-ours balloon-pv-ref
bench-report: kernel reference assets
	@$(PY) tools/testing/xen/harness.py --ours $(OURS_KERNEL) \
		--ref $(REF_KERNEL) --assets $(ASSETS) --logs $(LOGS) \
		--kunit-tool $(OURS_SRC)/tools/testing/kunit/kunit.py \
		$(REPORT_SCENARIOS); rc=$$?; \
	$(PY) tools/testing/xen/bench-report $(LOGS)/latest && exit $$rc

assets: deps
	@bash tools/testing/xen/assets.sh $(CACHE)

scenarios:
	@$(PY) tools/testing/xen/harness.py --list

harness: kernel reference assets
	@$(MAKE) --no-print-directory run-scenarios

# The scenarios alone, on kernels and assets already built.
run-scenarios:
	@$(PY) tools/testing/xen/harness.py --ours $(OURS_KERNEL) \
		--ref $(REF_KERNEL) --assets $(ASSETS) --logs $(LOGS) \
		--kunit-tool $(OURS_SRC)/tools/testing/kunit/kunit.py $(SCENARIOS)

check:
	@bash scripts/pvops/check.sh

demo: kernel reference assets
	@bash tools/testing/xen/demo.sh $(OURS_KERNEL) $(REF_KERNEL) $(ASSETS) $(LOGS)

clean:
	rm -rf $(OURS_OUT) $(REF_OUT) $(CACHE)/ours/lint

distclean:
	rm -rf $(CACHE)
