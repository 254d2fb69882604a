# SPDX-License-Identifier: GPL-2.0
"""The scenario table: every scenario the harness knows, with what it
asserts (its doc), and the default set that make check runs.
"""

import dataclasses


@dataclasses.dataclass
class Scenario:
    """One named check: which role, played by which kernel."""
    name: str
    role: str                   # native | dom0 | pv | pvh
    kernel: str                 # ours | ref: the kernel playing the role
    dom0: str = ''              # for a domU: the kernel running dom0
    timeout: int = 150          # seconds, for this scenario's own part
    flake_retries: int = 0      # known emulator flake; reference only
    flake_note: str = ''
    cmdline: str = ''           # extra kernel arguments for this role
    clock: int = 0              # seconds of guest clock to check vs dom0's
    control: bool = False       # drive it with xl vcpu-set, reboot, shutdown
    xsbench: bool = False       # 32 threads x 1,000 xenstore reads
    crash: int = 0              # N numbered printk lines, then a panic
    stall: int = 0              # (crash) xenconsoled stopped for S seconds
    trickle: bool = False       # (stall) meanwhile 1 byte/s taken from it
    xbdev: bool = False         # give it test devices and their backend
    repeat: int = 0             # boot it this many times in a row
    debian: bool = False        # boot the Debian image from xvda, with a vif
    net: bool = True            # (debian) with the vif, and ping it
    io: bool = False            # (debian) disk checks and fio instead
    netio: bool = False         # (debian) ping, iperf3, vif detach/attach
    destroy: int = 0            # (debian) N trials: fsync'd writes, xl
                                # destroy, fsck, the records read back
    pairs: int = 0              # (netio, io, micro) N pairs of ours and ref
    bench: bool = False         # (netio, io) one boot of it, bench mode
    creates: bool = False       # (dom0 pairs) each boot creates 4 domUs
    serves: str = ''            # (dom0 pairs) each boot serves a Debian
                                # domU of this kind (pv|pvh) its benches
    blkbad: bool = False        # fake disks whose backend says nonsense
    netbad: bool = False        # fake vifs whose backend says nonsense
    survey: bool = False        # (blkbad/netbad) report what it survives
    conflood: bool = False      # dom0 floods the console's event channel
    cases: str = ''             # (blkbad/netbad) only these devices' cases
    forkloop: int = 0           # (pv) xentrace a boot with and without N fork+exec+exit
    loopbench: str = ''         # (forkloop) N operations of this
                                # microbenchmark instead (microbench --only)
    micro: bool = False         # run the microbenchmarks (pvops.micro=1)
    devfuzz: int = 0            # (dom0) job/devfuzz.c with this seed
    hostfe: bool = False        # the guest plays a hostile block frontend
    hostnf: bool = False        # the guest plays a hostile net frontend
    share: bool = False         # (dom0) two senders, netback's sharing
    kunit: str = ''             # run KUnit at boot: 'pure' (live suites may
                                # skip) or 'all' (nothing may skip)
    memmap: str = ''            # the memory map dom0 gives it before it
                                # runs (job/memmap.c: START-END:TYPE ...)
    balloon: int = 0            # N cycles of xl mem-set down and up
    grow: int = 0               # (balloon) boot at 512 MiB, grow to N
    lend: int = 0               # (dom0) dom0 lends N MiB to a domU
    bigdestroy: int = 0         # xl destroy a domU of N MiB while dom0's
                                # heartbeat runs (job/destroy.sh)
    packaged: bool = False      # (our dom0) from make deb's package,
                                # installed in the dom0 root with dpkg -i
    q35: bool = False           # (dom0) the machine is a q35 whose disks
                                # have no MSI-X: their INTx lines reach
                                # IO-APIC pins above 15 (ACPI APIC mode)
    doc: str = ''


def boot_key(s):
    """Which Xen boot scenario @s runs in: that of its dom0's kernel
    (ours, ref), or 'deb' for our kernel as make deb packaged it; with
    '-q35' for a q35 machine (KERNEL-MACHINE)."""
    return ('deb' if s.packaged else (s.dom0 or s.kernel)) + \
        ('-q35' if s.q35 else '')


# The Xen boots run_xen() knows, in the order they run.
BOOT_KEYS = ('ref', 'ours', 'deb', 'ref-q35', 'ours-q35')


PIT_FLAKE = ('upstream 6.12 PVH guest triple-faults about 1 boot in 5 '
             'probing the PIT (in $0x42) under emulated SVM')


# A memory map with a hole where Xen populates a 256 MiB domU's pfns
# (memmap-pv-*), shaped as libxl's e820_host makes a domU's (RAM from 0,
# the host's holes above 1 MiB): a reserved 32 MiB at 128 MiB, and RAM
# above 256 MiB for 24 MiB of it.
HOLEY_MAP = '0-128M:1 128M-160M:2 160M-280M:1'


# The balloon check (balloon-*): the domU boots with BALLOON_HIGH MiB
# (its maxmem too) and keeps BALLOON_TOUCH MiB busy; xl mem-set moves it
# to BALLOON_LOW and back, BALLOON_CYCLES times (XEN_PVOPS_CYCLES=N for
# fewer while working on it).  A scenario's timeout is the time its
# Xen boot is given for it: the cycles' (PVH moves take about 10 s each).
BALLOON_LOW, BALLOON_HIGH, BALLOON_TOUCH, BALLOON_CYCLES = 128, 512, 32, 100
# The reference kernel as a PVH domU lands 388 KiB below each target (it
# counts its own pages, not Xen's), which xl list shows as 1 MiB less:
# for it alone, a move is done within this many MiB of the target.
BALLOON_SLACK = {('pvh', 'ref'): 1}
# The long hypercall check (dom0-*-destroy): the domU's size, and the
# longest dom0 may go without running anything else while xl destroys
# it.  Measured here: the destroy hypercall holds dom0's vCPU for
# 0.31-0.34 s when nothing lets the scheduler in, and the heartbeat's
# longest gap is 0.03 s when something does (both dom0 kernels).
DESTROY_MIB, DESTROY_GAP = 1536, 0.1
# Growth past the boot memory (balloon-grow-*): booted with 512 MiB.
BALLOON_GROW, BALLOON_GROW_TOUCH = 2048, 1536

BALLOON_DOC = (f'xl mem-set takes our {{}} domU of {BALLOON_HIGH} MiB down to '
               f'{BALLOON_LOW} MiB and back up, {BALLOON_CYCLES} times, '
               f'while a program keeps {BALLOON_TOUCH} MiB busy and checks '
               'it (rootfs/memtouch.c): xl list must show each target '
               'within 120 s, the program must never read a bad word, no '
               'OOM kill or kernel warning, and MemTotal must move by '
               'what the target did; prints the mean times of the moves')


SCENARIOS = [
    Scenario('native-ours', 'native', 'ours', timeout=120,
             doc='our kernel boots natively in QEMU to a busybox init'),
    Scenario('native-ref', 'native', 'ref', timeout=120,
             doc='reference kernel boots natively in QEMU'),
    Scenario('dom0-ref', 'dom0', 'ref', timeout=180,
             doc='reference kernel as PV dom0: xenstored, xenconsoled, xl'),
    Scenario('pv-domu-ref', 'pv', 'ref', dom0='ref',
             doc='reference kernel as PV domU reaches init'),
    Scenario('pv-domu-ours', 'pv', 'ours', dom0='ref',
             doc='our kernel as PV domU under the reference dom0 reaches '
             'init: Xen\'s builder loads it, it runs deprivileged on '
             'its own page tables and events, and powers off'),
    Scenario('pvh-domu-ref', 'pvh', 'ref', dom0='ref',
             flake_retries=2, flake_note=PIT_FLAKE,
             doc='reference kernel as PVH domU reaches init'),
    Scenario('dom0-ours', 'dom0', 'ours', timeout=180,
             doc='our kernel as PV dom0'),
    Scenario('dom0-ours-q35', 'dom0', 'ours', timeout=180, q35=True,
             doc='our kernel as PV dom0 of a q35 machine whose virtio '
             'disks have no MSI-X: ACPI routes in APIC mode, so each '
             'disk\'s INTx line is an IO-APIC pin above 15 (GSI 16-23), '
             'which Xen hands dom0 as a pirq; the toolstack comes up '
             'from those disks and every line has interrupted'),
    Scenario('dom0-ref-q35', 'dom0', 'ref', timeout=180, q35=True,
             doc='the same with the reference dom0, the control (by name)'),
    Scenario('dom0-boot-pairs', 'dom0', 'ours', pairs=10,
             doc='10 pairs of Xen boots with no guest, one with our dom0 '
             'and one with the reference\'s (ours first, then the '
             'reference first, and so on): every toolstack must come up; '
             'prints the ours/ref ratio of the uptimes at which it did, '
             'per pair and their mean with its 95% interval'),
    Scenario('dom0-create-pairs', 'dom0', 'ours', pairs=5, creates=True,
             doc='5 pairs of Xen boots, one with our dom0 and one with the '
             'reference\'s (alternating which goes first), each creating '
             'a busybox domU of all four kinds (PV and PVH, our kernel '
             'and the reference): every domU must reach init; prints the '
             'ours/ref ratio of the create-to-init times per kind, with '
             'its 95% interval (by name: about 17 minutes)'),
    Scenario('dom0-serve-pairs', 'dom0', 'ours', pairs=4, serves='pv',
             timeout=180,
             doc='our backends against upstream\'s: 4 pairs of Xen boots, '
             'one with our dom0 and one with the reference dom0 (ours '
             'first, then the reference first, and so on), each serving '
             'the same Debian PV domU on our kernel the fio bench '
             '(4k randread qd16, 1M seqread) and then the iperf3 bench '
             '(3 rounds of 10 s each way); prints each figure\'s ratio, '
             'our dom0 / the reference dom0, per pair and their mean with '
             'its 95% interval (XEN_PVOPS_SERVE=pvh: a PVH domU)'),
    Scenario('dom0-ours-pv-ref', 'pv', 'ref', dom0='ours',
             doc='the reference kernel as PV domU, created by xl in our '
             'PV dom0, reaches init and powers off'),
    Scenario('dom0-ours-pv-ours', 'pv', 'ours', dom0='ours',
             doc='our kernel as PV domU, created by xl in our PV dom0'),
    Scenario('dom0-ours-pvh-ref', 'pvh', 'ref', dom0='ours',
             flake_retries=2, flake_note=PIT_FLAKE,
             doc='the reference kernel as PVH domU, created by xl in our '
             'PV dom0'),
    Scenario('dom0-ours-pvh-ours', 'pvh', 'ours', dom0='ours',
             doc='our kernel as PVH domU, created by xl in our PV dom0'),
    Scenario('dom0-ours-control-pv-ours', 'pv', 'ours', dom0='ours',
             control=True, timeout=240,
             doc='xl vcpu-set down and up, xl reboot, xl shutdown on our PV '
             'domU, from our PV dom0'),
    Scenario('dom0-ours-control-pvh-ours', 'pvh', 'ours', dom0='ours',
             control=True, timeout=240,
             doc='the same on our PVH domU'),
    Scenario('dom0-ours-devfuzz', 'pv', 'ref', dom0='ours', devfuzz=1,
             timeout=240,
             doc='a hostile user of our dom0\'s privcmd, gntdev and evtchn '
             'devices (job/devfuzz.c): bad frame lists and sizes, grants '
             'and ports of a domU destroyed while mapped and bound, 2,000 '
             'random ioctls; every case answered as it must be, no bug in '
             'the kernel log, the domU gone and every port given back'),
    Scenario('dom0-ref-devfuzz', 'pv', 'ref', dom0='ref', devfuzz=1,
             timeout=240,
             doc='the same against the reference dom0, for comparison '
             '(by name only)'),
    Scenario('dom0-ours-boot20-pv-ref', 'pv', 'ref', dom0='ours', repeat=20,
             timeout=60,
             doc='the reference PV domU created 20 times in a row by our PV '
             'dom0: every one must reach init and power off'),
    Scenario('dom0-ours-boot20-pv-ours', 'pv', 'ours', dom0='ours',
             repeat=20, timeout=60,
             doc='the same with our PV domU'),
    Scenario('dom0-ours-boot20-pvh-ref', 'pvh', 'ref', dom0='ours',
             repeat=20, timeout=60, flake_retries=2, flake_note=PIT_FLAKE,
             doc='the same with the reference PVH domU, whose PIT triple '
             'faults are retried'),
    Scenario('dom0-ours-boot20-pvh-ours', 'pvh', 'ours', dom0='ours',
             repeat=20, timeout=60,
             doc='the same with our PVH domU, no retry'),
    Scenario('dom0-ours-balloon', 'pv', 'ours', dom0='ours', lend=512,
             timeout=120,
             doc='our dom0 lends 512 MiB: a PV domU of what Xen has free '
             'and 256 MiB more is refused; xl mem-set 0 takes our dom0 '
             'down by 512 MiB (its balloon) within 120 s; the same domU '
             'then starts and reaches init; once it is shut down, dom0 '
             'goes back up to what it had'),
    Scenario('dom0-ours-destroy', 'pv', 'ours', dom0='ours',
             bigdestroy=DESTROY_MIB, timeout=180,
             doc=f'our dom0 (one vCPU) destroys a PV domU of {DESTROY_MIB} '
             'MiB: one privcmd hypercall that Xen runs for seconds, in '
             'pieces; a loop in dom0 that wants the CPU all along must '
             f'never wait more than {DESTROY_GAP} s (its longest gap)'),
    Scenario('dom0-ref-destroy', 'pv', 'ours', dom0='ref',
             bigdestroy=DESTROY_MIB, timeout=180,
             doc='the same under the reference dom0, for comparison'),
    Scenario('pvh-domu-ours', 'pvh', 'ours', dom0='ref',
             doc='our kernel as PVH domU under the reference dom0'),
    Scenario('clock-pvh-ours', 'pvh', 'ours', dom0='ref', clock=60,
             timeout=240,
             doc="our PVH domU's clock over 60 s agrees with dom0's to 1%"),
    Scenario('clock-pv-ours', 'pv', 'ours', dom0='ref', clock=60,
             timeout=240,
             doc="our PV domU's clock over 60 s agrees with dom0's to 1%"),
    Scenario('clock-pvh-ref', 'pvh', 'ref', dom0='ref', clock=60,
             timeout=240, flake_retries=2, flake_note=PIT_FLAKE,
             doc="the same for the reference PVH domU"),
    Scenario('control-pvh-ours', 'pvh', 'ours', dom0='ref', control=True,
             timeout=240,
             doc='xl vcpu-set down and up, xl reboot, xl shutdown on our '
             'PVH domU'),
    Scenario('control-pv-ours', 'pv', 'ours', dom0='ref', control=True,
             timeout=240,
             doc='xl vcpu-set down and up, xl reboot, xl shutdown on our '
             'PV domU'),
    Scenario('control-pvh-ref', 'pvh', 'ref', dom0='ref', control=True,
             timeout=240,
             doc='the same on the reference PVH domU; its vcpu-up step '
             'fails here: upstream leaves onlining a returned vCPU to user '
             'space (udev), which the busybox guest lacks'),
    Scenario('console-pvh-ours', 'pvh', 'ours', dom0='ref', crash=2000,
             doc='our PVH domU prints 2,000 numbered lines through printk '
             'as fast as it can, then panics on purpose (sysrq c): the '
             'console has every line whole and in order, then the panic '
             'with its whole trace, and Xen was told the domain crashed '
             '(on_crash)'),
    Scenario('console-pvh-ref', 'pvh', 'ref', dom0='ref', crash=2000,
             flake_retries=2, flake_note=PIT_FLAKE,
             doc='the same for the reference PVH domU'),
    # 500 lines: the stall's log line must still be in the 128 KiB
    # printk buffer when init looks for it.
    Scenario('console-stall-pvh-ours', 'pvh', 'ours', dom0='ref',
             crash=500, stall=4,
             doc='the same with xenconsoled stopped for 4 s from the init '
             'line on: lines are dropped, the kernel logs the stall once, '
             'does not hang, and the panic after the backend is back '
             'comes out whole'),
    Scenario('console-trickle-pvh-ours', 'pvh', 'ours', dom0='ref',
             crash=500, stall=8, trickle=True,
             doc='the same, but for those 8 s dom0 takes one byte a second '
             'from the console ring (job/hostile.c): a backend that '
             'crawls must be taken for stalled as one that stopped, not '
             'cost printk a second a byte'),
    Scenario('console-flood-pvh-ours', 'pvh', 'ours', dom0='ref',
             conflood=True, timeout=120, cmdline='loglevel=7',
             doc='dom0 replaces xenconsoled on our domU\'s console channel '
             'for 20,000 events that move nothing (job/hostile.c): the '
             'guest must take them for spurious and slow them down, and '
             'shut down afterwards'),
    Scenario('kunit-native-ours', 'native', 'ours', timeout=180,
             kunit='pure', cmdline='kunit.enable=1 loglevel=7',
             doc='KUnit suites on a native boot (live suites skip)'),
    Scenario('kunit-pvh-ours', 'pvh', 'ours', dom0='ref', timeout=400,
             kunit='all', xbdev=True, cmdline='kunit.enable=1 loglevel=7',
             doc='KUnit suites, pure and live, in our PVH domU (FIFO '
             'events)'),
    Scenario('kunit-pv-ours', 'pv', 'ours', dom0='ref', timeout=400,
             kunit='all', xbdev=True, cmdline='kunit.enable=1 loglevel=7',
             doc='KUnit suites, pure and live, in our PV domU'),
    Scenario('kunit-pvh-2l-ours', 'pvh', 'ours', dom0='ref', timeout=400,
             kunit='all', xbdev=True, cmdline='kunit.enable=1 loglevel=7 '
             'xen.fifo_events=0',
             doc='the same with 2-level event channels'),
    Scenario('xsbench-pvh-ours', 'pvh', 'ours', dom0='ref', xsbench=True,
             timeout=300,
             doc='xenstore reads/s, 32 threads x 1,000 through '
             '/dev/xen/xenbus, in our PVH domU'),
    Scenario('xsbench-pvh-ref', 'pvh', 'ref', dom0='ref', xsbench=True,
             timeout=300, flake_retries=2, flake_note=PIT_FLAKE,
             doc='the same in the reference PVH domU (the ratio is '
             'printed when both run)'),
    Scenario('xsbench-pvh-ours-early', 'pvh', 'ours', dom0='ref',
             xsbench=True, timeout=300, cmdline='earlyprintk=xen keep_bootcon loglevel=7',
             doc='xsbench-pvh-ours with the boot log on Xen\'s console, '
             'for debugging'),
    Scenario('balloon-pv-ours', 'pv', 'ours', dom0='ref',
             balloon=BALLOON_CYCLES, timeout=900,
             doc=BALLOON_DOC.format('PV')),
    Scenario('balloon-pvh-ours', 'pvh', 'ours', dom0='ref',
             balloon=BALLOON_CYCLES, timeout=2400,
             doc=BALLOON_DOC.format('PVH')),
    Scenario('balloon-pv-ref', 'pv', 'ref', dom0='ref',
             balloon=BALLOON_CYCLES, timeout=900,
             doc='the same on the reference PV domU; with both, the harness '
             'prints the ratios of the mean times'),
    Scenario('balloon-pvh-ref', 'pvh', 'ref', dom0='ref',
             balloon=BALLOON_CYCLES, timeout=2400,
             doc='the same on the reference PVH domU'),
    Scenario('balloon10-pv-ours', 'pv', 'ours', dom0='ref', balloon=10,
             timeout=240,
             doc='balloon-pv-ours with 10 cycles, for make check'),
    Scenario('balloon10-pvh-ours', 'pvh', 'ours', dom0='ref', balloon=10,
             timeout=360,
             doc='balloon-pvh-ours with 10 cycles, for make check'),
    Scenario('balloon-grow-pv-ours', 'pv', 'ours', dom0='ref',
             grow=BALLOON_GROW, timeout=120,
             doc=f'our PV domU boots with 512 MiB and a maxmem of '
             f'{BALLOON_GROW} MiB; xl mem-set gives it all of it, which '
             'the balloon reaches by adding memory (hotplug) within 600 s; '
             f'then a program keeps {BALLOON_GROW_TOUCH} MiB busy for 3 '
             'passes and reads back every word; no OOM kill or kernel '
             'warning (dom0 goes down first as far as Xen needs)'),
    Scenario('balloon-grow-pvh-ours', 'pvh', 'ours', dom0='ref',
             grow=BALLOON_GROW, timeout=120,
             doc=f'our PVH domU boots with 512 MiB and a maxmem of '
             f'{BALLOON_GROW} MiB: its memory map holds all of it and Xen '
             'backs 512 MiB on demand, so its balloon gives the rest back '
             'at boot; xl mem-set then gives it all, within 600 s, and a '
             f'program keeps {BALLOON_GROW_TOUCH} MiB busy for 3 passes and '
             'reads back every word; no OOM kill or kernel warning'),
    Scenario('boot20-pvh-ours', 'pvh', 'ours', dom0='ref', repeat=20,
             timeout=60,
             doc='our PVH domU (2 vCPUs) created 20 times in a row: every '
             'one must reach init, no retry'),
    Scenario('boot20-pv-ours', 'pv', 'ours', dom0='ref', repeat=20,
             timeout=60,
             doc='our PV domU created 20 times in a row: every one must '
             'reach init'),
    Scenario('boot20-pvh-ref', 'pvh', 'ref', dom0='ref', repeat=20,
             timeout=60, flake_retries=2, flake_note=PIT_FLAKE,
             doc='the same for the reference PVH domU, whose PIT triple '
             'faults are retried; the create-to-init ratio is printed when '
             'both run'),
    Scenario('debian-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             timeout=600,
             doc='our kernel as PVH domU boots the unmodified Debian image '
             'from xvda (our blkfront) to multi-user; dom0 pings it, shuts '
             'it down, fscks the disk'),
    Scenario('hcalls-pv-ref', 'pv', 'ref', dom0='ref', forkloop=400,
             timeout=300,
             doc='the reference PV domU\'s hypercalls, counted by Xen '
             '(xentrace), per fork+exec+exit of a busybox program: a boot '
             'with 400 of them less a boot without'),
    Scenario('hcalls-pv-ours', 'pv', 'ours', dom0='ref', forkloop=400,
             timeout=300,
             doc='the same for our PV domU: at most half the reference\'s '
             'hypercalls per fork+exec+exit (run with hcalls-pv-ref), at '
             'least 4 page-table entries per mmu_update, the guest\'s '
             'debugfs counters agreeing with xentrace, and the boot '
             'without the loop at most the reference\'s'),
] + [
    # Hypercalls per operation of each microbenchmark, counted by Xen:
    # what time cannot tell apart at 1.0 (run by name, both kernels).
    Scenario(f'hcalls-{bench.replace("_", "-")}-pv-{kern}', 'pv', kern,
             dom0='ref',
             forkloop=ops, loopbench=bench, timeout=300,
             doc=f'hypercalls per {bench} operation of the '
             f'{"reference" if kern == "ref" else "our"} PV domU, counted '
             f'by Xen: a boot with {ops} of them less a boot without'
             + ('; at most the reference\'s (run with '
                f'hcalls-{bench.replace("_", "-")}-pv-ref)'
                if kern == 'ours' else ''))
    for bench, ops in (('null_syscall', 20000), ('fork_exit', 200),
                       ('fork_exec_exit', 200), ('mmap_8k', 2000),
                       ('fault_16m', 4096 * 2), ('pipe_round_trip', 5000))
    for kern in ('ref', 'ours')
] + [
    Scenario('memmap-pv-ours', 'pv', 'ours', dom0='ref', memmap=HOLEY_MAP,
             cmdline='pvops.memfill=1', timeout=300,
             doc='our PV domU of 256 MiB given a memory map with a hole '
             'where Xen populated its pfns (32 MiB reserved at 128 MiB) and '
             'RAM above for 24 MiB of them: the kernel must move those '
             'frames to the RAM above and give the other 8 MiB back to '
             'Xen, saying so in one line, then fill all but 48 MiB of its '
             'memory and read every page back'),
    Scenario('memmap-pv-ref', 'pv', 'ref', dom0='ref', memmap=HOLEY_MAP,
             cmdline='pvops.memfill=1', timeout=300,
             doc='the same map for the reference PV domU: it boots and '
             'reads its memory back'),
    Scenario('micro-pv-ref', 'pv', 'ref', dom0='ref', micro=True,
             cmdline='pvops.micro=1', timeout=300,
             doc='the microbenchmarks (bench/microbench.c: null system '
             'call, fork+exit, fork+exec+exit, 8 KiB mmap+touch+munmap, '
             'first-touch faults over 16 MiB, pipe round trip) in the '
             'reference as a PV domU of one vCPU, alone on CPU 1 (dom0 '
             'has CPU 0)'),
    Scenario('micro-pv-ours', 'pv', 'ours', dom0='ref', micro=True,
             cmdline='pvops.micro=1', timeout=300,
             doc='the same on ours: each median at most the reference\'s '
             '(run with micro-pv-ref, in the same Xen boot)'),
    Scenario('micro-pairs-pv', 'pv', 'ours', dom0='ref', micro=True,
             pairs=8, cmdline='pvops.micro=1', timeout=300,
             doc='the microbenchmarks, for ratios that noise cannot settle '
             'with one run each: 8 pairs of PV domUs in one Xen boot, one '
             'on our kernel and one on the reference (ours first, then ref '
             'first, and so on); prints each benchmark\'s ratio of every '
             'pair and their mean with its 95% interval, and fails if a '
             'mean is above 1.0'),
    Scenario('micro-native-ours', 'native', 'ours', micro=True,
             cmdline='pvops.micro=1', timeout=300,
             doc='the same natively, for the cost of running as a PV domU '
             '(with micro-pv-ours, the harness prints PV/native)'),
    Scenario('debian-pv-ours', 'pv', 'ours', dom0='ref', debian=True,
             timeout=600,
             doc='our kernel as PV domU boots the unmodified Debian image '
             'from xvda (our blkfront) to multi-user; dom0 pings it, shuts '
             'it down, fscks the disk'),
    Scenario('debian10-pv-ours', 'pv', 'ours', dom0='ref', debian=True,
             repeat=10, timeout=300,
             doc='the Debian image booted 10 times in a row as our PV '
             'domU: every boot must reach multi-user'),
    Scenario('debian10-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             repeat=10, timeout=300,
             doc='debian-pvh-ours 10 times in a row on the same disk: '
             'multi-user, ping, xl shutdown, e2fsck clean, every time'),
    Scenario('debian10-pvh-ref', 'pvh', 'ref', dom0='ref', debian=True,
             repeat=10, timeout=300,
             doc='the same on the reference kernel: the control for a '
             'failure of debian10-pvh-ours (if it fails too, look at the '
             'harness first)'),
    Scenario('debian-disk-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             net=False, timeout=600,
             doc='the same without the vif: multi-user from xvda, '
             'shutdown, fsck'),
    Scenario('debian-net-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             netio=True, timeout=600,
             doc='Debian on our kernel with a vif (our netfront): ping, '
             'iperf3 both ways for 10 s each, xl network-detach and '
             'network-attach with ping again (rootfs/debian-net.sh), then '
             'once more attached untrusted: the trusted node must read 0, '
             'netfront must say it copies, ping and iperf3 from the domU; '
             'shutdown, fsck'),
    Scenario('debian-net-pvh-ref', 'pvh', 'ref', dom0='ref', debian=True,
             netio=True, timeout=600,
             doc='the same on the reference kernel; with both, the harness '
             'prints the iperf3 ratios'),
    Scenario('iperf-pairs-pvh', 'pvh', 'ours', dom0='ref', debian=True,
             netio=True, pairs=4, timeout=600,
             doc='the iperf3 benchmark, for a ratio that noise cannot '
             'settle with one run each: 4 pairs of Debian domUs in one Xen '
             'boot, one on our kernel and one on the reference (ours first, '
             'then ref first, and so on), each with 3 rounds of 10 s each '
             'way; prints every kernel\'s mean and spread and the ours/ref '
             'ratio of each pair and of the means'),
    Scenario('fio-pairs-pvh', 'pvh', 'ours', dom0='ref', debian=True,
             net=False, io=True, pairs=4, timeout=600,
             cmdline='pvops.bench=1',
             doc='the fio benchmark, for a ratio that noise cannot settle '
             'with one run each: 4 pairs of Debian domUs in one Xen boot, '
             'one on our kernel and one on the reference (ours first, then '
             'ref first, and so on), each running the fio jobs of '
             'debian-io on a fresh 256 MiB file; prints every kernel\'s '
             'mean and spread and the ours/ref ratio of each pair and of '
             'the means'),
    Scenario('iperf-pairs-pv', 'pv', 'ours', dom0='ref', debian=True,
             netio=True, pairs=4, timeout=600,
             doc='iperf-pairs-pvh with both kernels as PV domUs: 4 pairs '
             'of Debian domUs in one Xen boot, ours first, then ref '
             'first, and so on; prints the ours/ref ratio of each pair '
             'and of the means'),
    Scenario('fio-pairs-pv', 'pv', 'ours', dom0='ref', debian=True,
             net=False, io=True, pairs=4, timeout=600,
             cmdline='pvops.bench=1',
             doc='fio-pairs-pvh with both kernels as PV domUs'),
    Scenario('debian-io-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             net=False, io=True, timeout=900,
             doc='Debian on our kernel: 256 MiB written and read back with '
             'checksums, xl reboot, checked again; fio 4k random and 1M '
             'sequential reads; xentop in dom0 shows the reads (the '
             'backend\'s statistics); a scratch disk attached, written, '
             'detached and attached again, read back, grown '
             '(rootfs/debian-io.sh); '
             'fsck'),
    Scenario('debian-io-pv-ours', 'pv', 'ours', dom0='ref', debian=True,
             net=False, io=True, timeout=900,
             doc='debian-io-pvh-ours with our kernel as a PV domU: the '
             'reference dom0\'s side of dom0-ours-debian-io-pv-ours'),
    Scenario('debian-io-pvh-ref', 'pvh', 'ref', dom0='ref', debian=True,
             net=False, io=True, timeout=900,
             doc='the same on the reference kernel; with both, the harness '
             'prints the fio ratios'),
    Scenario('dom0-deb', 'dom0', 'ours', packaged=True, timeout=180,
             doc='our kernel as make deb packaged it (lean dom0 config with '
             'modules), installed with dpkg -i in the Debian dom0 root and '
             'booted from its /boot as dom0, as a boot loader would: the '
             'toolstack comes up with the backends and the toolstack\'s '
             'devices loaded as modules (make deb-check)'),
    Scenario('dom0-deb-debian-net-pv-ours', 'pv', 'ours', dom0='ours',
             packaged=True, debian=True, netio=True, timeout=600,
             doc='that packaged dom0 serves the unmodified Debian image to '
             'our PV domU: root on xvda through the blkback module, a vif '
             'through the netback module; multi-user, ping, iperf3 both '
             'ways, xl network-detach and network-attach; shutdown, fsck '
             '(make deb-check)'),
    Scenario('dom0-ours-debian-net-pv-ours', 'pv', 'ours', dom0='ours',
             debian=True, netio=True, timeout=600,
             doc='debian-net with our kernel as dom0 as well: our netback '
             'serves the vif of our PV domU on dom0\'s bridge; ping, '
             'iperf3 both ways, xl network-detach and network-attach, '
             'the untrusted reattach; shutdown, fsck'),
    Scenario('dom0-ours-debian-net-pv-ref', 'pv', 'ref', dom0='ours',
             debian=True, netio=True, timeout=600,
             doc='the same with the reference kernel as the PV domU: '
             'upstream\'s netfront against our netback'),
    Scenario('dom0-ours-debian-net-pvh-ours', 'pvh', 'ours', dom0='ours',
             debian=True, netio=True, timeout=600,
             doc='dom0-ours-debian-net-pv-ours with our kernel as a PVH '
             'domU'),
    Scenario('dom0-ours-hostfe', 'pv', 'ours', dom0='ours', hostfe=True,
             timeout=300,
             doc='a hostile block frontend (rootfs/hostfe.c) in our PV domU '
             'against our blkback: 25 cases of rootfs/hostfe-cases, one '
             'disk each (bad operations, segment counts and sectors, '
             'indirect requests, ring indices that jump, sectors past the '
             'end, grants it never gave, read-only or revoked under I/O, '
             'event floods, bad ring, channel, protocol and queue nodes): '
             'each nonsense closes its device alone with one log line, '
             'each error is answered as one; a healthy disk of the same '
             'domU reads back intact; a bystander domU on the same '
             'blkback and bridge reads its disk and pings dom0 throughout '
             '(no stall over 20 s); after xl destroy dom0 holds no '
             'device, thread or event channel of them and logged no bug'),
    Scenario('dom0-ref-hostfe', 'pv', 'ours', dom0='ref', hostfe=True,
             timeout=300,
             doc='the same cases against the reference dom0\'s blkback, '
             'for comparison (by name only: upstream answers some of them '
             'differently)'),
    Scenario('dom0-ours-hostnf', 'pv', 'ours', dom0='ours', hostnf=True,
             timeout=300,
             doc='a hostile network frontend (rootfs/hostnf.c) in our PV '
             'domU against our netback: 24 cases of rootfs/hostnf-cases, '
             'one vif each on dom0\'s bridge (packets of one to 19 slots, '
             'shorter than a header, GSO over a packet that is not TCP, '
             'grants never given, '
             'a packet published in part, event floods; slots across '
             'their page or larger than the packet, 20 slots, extra slots '
             'of no type or too many, transmit indices that jump; bad '
             'ring, channel, copy, queue and feature nodes): each '
             'nonsense closes its vif alone with one log line, each drop '
             'is answered as one; a bystander domU on the same netback '
             'and bridge reads its disk and pings dom0 throughout (no '
             'stall over 20 s); after xl destroy dom0 holds no device, '
             'thread or event channel of them and logged no bug'),
    Scenario('dom0-ours-share', 'pv', 'ours', dom0='ours', share=True,
             timeout=300,
             doc='netback shares dom0 between vifs by weight: two of our '
             'PV domUs on dom0\'s bridge send to dom0 as fast as they '
             'can, a over 1 TCP stream and b over 8 (rootfs/blast.c, '
             'job/sink.c, job/share.sh); 10 s windows with the sharing '
             'settings changed live in the backend nodes: none, weights '
             '1:1 (a must get 50% +- 10% of what both deliver), 3:1 '
             '(75% +- 10%), a with a minimum rate of 60% of the 1:1 total '
             'against weights 1:3 (a must get 90% of it at least), a capped '
             'at 20% of that total by rate= (a must stay under 110% of its '
             'cap); then nothing held after xl destroy'),
    Scenario('dom0-ref-share', 'pv', 'ours', dom0='ref', share=True,
             timeout=300,
             doc='the same windows with the reference dom0, for comparison: '
             'upstream\'s netback has no weights or minimum rates and '
             'reads rate= only at connect, so its shares are reported, '
             'not judged'),
    Scenario('dom0-ours-debian-io-pv-ours', 'pv', 'ours', dom0='ours',
             debian=True, net=False, io=True, timeout=900,
             doc='debian-io with our kernel as dom0 as well: our blkback '
             'serves the Debian disk, the raw script disk and the scratch '
             'disk to our PV domU; every check of debian-io (read-back, '
             'xl reboot, fio, attach, detach, reattach, resize, discard, '
             'fsck)'),
    Scenario('dom0-ours-debian-io-pv-ref', 'pv', 'ref', dom0='ours',
             debian=True, net=False, io=True, timeout=900,
             doc='the same with the reference kernel as the PV domU: '
             'upstream\'s blkfront against our blkback'),
    Scenario('dom0-ours-debian-io-pvh-ours', 'pvh', 'ours', dom0='ours',
             debian=True, net=False, io=True, timeout=900,
             doc='dom0-ours-debian-io-pv-ours with our kernel as a PVH '
             'domU'),
    Scenario('dom0-ours-debian-io-pvh-ref', 'pvh', 'ref', dom0='ours',
             debian=True, net=False, io=True, timeout=900,
             doc='the same with the reference kernel as a PVH domU'),
    Scenario('dom0-ours-debian10-pv-ours', 'pv', 'ours', dom0='ours',
             debian=True, repeat=10, timeout=300,
             doc='the Debian image booted 10 times in a row as our PV domU '
             'on our dom0 (our blkback and netback): multi-user, ping, xl '
             'shutdown, e2fsck clean, every time'),
    Scenario('dom0-ours-debian10-pv-ref', 'pv', 'ref', dom0='ours',
             debian=True, repeat=10, timeout=300,
             doc='the same with the reference kernel as the PV domU'),
    Scenario('dom0-ours-debian10-pvh-ours', 'pvh', 'ours', dom0='ours',
             debian=True, repeat=10, timeout=300,
             doc='the same with our kernel as a PVH domU'),
    Scenario('dom0-ours-debian10-pvh-ref', 'pvh', 'ref', dom0='ours',
             debian=True, repeat=10, timeout=300,
             doc='the same with the reference kernel as a PVH domU'),
    Scenario('dom0-ours-destroy-pv-ours', 'pv', 'ours', dom0='ours',
             debian=True, net=False, destroy=20, timeout=300,
             doc='20 times: our PV domU on our blkback appends fsync\'d '
             '64 KiB records (rootfs/debian-sync.sh) while another writer '
             'fills its page cache, and is xl destroyed 0.5-4.5 s into it; '
             'e2fsck -p must need nothing beyond what an unclean stop '
             'leaves, e2fsck -n then finds nothing, and every record the '
             'console said was synced reads back intact'),
    Scenario('dom0-ours-destroy-pv-ref', 'pv', 'ref', dom0='ours',
             debian=True, net=False, destroy=20, timeout=300,
             doc='the same with the reference kernel as the PV domU: '
             'upstream\'s blkfront against our blkback'),
    Scenario('dom0-ours-destroy-pvh-ours', 'pvh', 'ours', dom0='ours',
             debian=True, net=False, destroy=20, timeout=300,
             doc='dom0-ours-destroy-pv-ours with our kernel as a PVH domU'),
    Scenario('dom0-ours-destroy-pvh-ref', 'pvh', 'ref', dom0='ours',
             debian=True, net=False, destroy=20, timeout=300,
             doc='the same with the reference kernel as a PVH domU'),
    Scenario('blkfront-bad-pvh-ours', 'pvh', 'ours', dom0='ref',
             blkbad=True, timeout=420,
             doc='19 disks whose hostile backend (job/hostile.sh, '
             'job/hostile.c through gntdev) offers nonsense, answers '
             'with bad ids, statuses, operations or indices, twice, never, '
             'holds a request and closes, keeps a page mapped, changes '
             'the disk under a connected device, floods its state, or '
             'connects early (README lists them): each bad one must be '
             'closed with one log line, no oops; once the backend closes '
             'too, the guest must hold no grant (debugfs xen/grants) and '
             'no device irq; it must keep running and shut down'),
    # loglevel=7: the events' slowing down is logged at KERN_INFO.
    Scenario('netfront-bad-pvh-ours', 'pvh', 'ours', dom0='ref',
             netbad=True, timeout=240, cmdline='loglevel=7',
             doc='12 vifs whose hostile backend offers a bad mtu, no '
             'receive copy, no queue, or answers on the receive ring with '
             'bad ids, data past the page, endless or unknown extra '
             'information, a GSO prefix, a producer jump, twice, or '
             'floods events after a bad answer: each must be closed with '
             'one log line, no oops; a flood must be slowed down; once '
             'the backend closes too, the guest must hold no grant and no '
             'device irq; it must keep running and shut down'),
    # The same suites with our kernel as a PV domU: the same frontends
    # over the PV grant and P2M code, and no nested SVM for the emulator
    # to trip on under the suites' event storms (README); these two are
    # the ones make check runs.
    Scenario('blkfront-bad-pv-ours', 'pv', 'ours', dom0='ref',
             blkbad=True, timeout=420,
             doc='blkfront-bad-pvh-ours\'s 19 disks, our kernel as a PV '
             'domU'),
    Scenario('netfront-bad-pv-ours', 'pv', 'ours', dom0='ref',
             netbad=True, timeout=240, cmdline='loglevel=7',
             doc='netfront-bad-pvh-ours\'s 12 vifs, our kernel as a PV '
             'domU'),
    Scenario('blkfront-bad-pvh-ref', 'pvh', 'ref', dom0='ref',
             blkbad=True, survey=True, timeout=120,
             doc='the same disks for the reference kernel, as a survey, '
             'one domU a case (timeout is per domU): which cases it '
             'closes, which it leaves stuck, whether it oopses, leaks or '
             'still shuts down (its lines differ from ours; it passes '
             'when every case was tried)'),
    Scenario('netfront-bad-pvh-ref', 'pvh', 'ref', dom0='ref',
             netbad=True, survey=True, timeout=120, cmdline='loglevel=7',
             doc='the same vifs for the reference kernel, as a survey, '
             'one domU a case'),
    Scenario('debian-pvh-ref', 'pvh', 'ref', dom0='ref', debian=True,
             timeout=600,
             doc='reference kernel as PVH domU boots the unmodified Debian '
             'image from xvda to multi-user; dom0 pings it over the '
             'bridge, shuts it down, and fscks the disk'),
    Scenario('pvh-domu-ours-early', 'pvh', 'ours', dom0='ref',
             cmdline='earlyprintk=xen keep_bootcon loglevel=7',
             doc='the same, with its whole boot log on Xen\'s console '
             '(port 0xe9), for debugging'),
]


DEFAULT = ['native-ours', 'kunit-native-ours', 'pvh-domu-ours',
           'clock-pvh-ours', 'control-pvh-ours', 'console-pvh-ours',
           'console-stall-pvh-ours', 'console-trickle-pvh-ours',
           'console-flood-pvh-ours',
           'kunit-pvh-ours',
           'kunit-pvh-2l-ours', 'boot20-pvh-ours', 'debian10-pvh-ours',
           'debian-net-pvh-ours',
           'debian-io-pvh-ours', 'dom0-ref',
           'pv-domu-ref', 'pvh-domu-ref', 'pv-domu-ours',
           'kunit-pv-ours', 'control-pv-ours', 'clock-pv-ours',
           'boot20-pv-ours', 'debian-pv-ours', 'blkfront-bad-pv-ours',
           'netfront-bad-pv-ours', 'hcalls-pv-ref', 'hcalls-pv-ours',
           'memmap-pv-ours', 'balloon10-pv-ours', 'balloon10-pvh-ours',
           'balloon-grow-pv-ours', 'balloon-grow-pvh-ours', 'dom0-ours',
           'dom0-ours-devfuzz',
           'dom0-ours-pv-ref',
           'dom0-ours-pv-ours', 'dom0-ours-pvh-ref', 'dom0-ours-pvh-ours',
           'dom0-ours-control-pv-ours', 'dom0-ours-control-pvh-ours',
           'dom0-ours-boot20-pv-ref', 'dom0-ours-boot20-pv-ours',
           'dom0-ours-boot20-pvh-ref', 'dom0-ours-boot20-pvh-ours',
           'dom0-ours-debian-net-pv-ours', 'dom0-ours-debian-io-pv-ours',
           'dom0-ours-debian-io-pv-ref', 'dom0-ours-hostfe',
           'dom0-ours-hostnf', 'dom0-ours-balloon', 'dom0-ours-destroy',
           'dom0-ours-q35']
# Not in the default set yet: dom0-ours-share.  With GSO senders its 3:1
# window gave 52-66% until netback's idle grace, then 72-73% in four
# runs of four; since netback serves two queues a vif (as the harness
# asks), 67-71% in six runs, and the minimum-rate window failed once
# (89% of the minimum, limit 90%): too near its limits to gate make check.
# dom0-ours-debian-io-pv-ours, -pv-ref and dom0-ours-hostfe were out of
# the default set while our dom0 hung now and then at debian-io's xl
# reboot: unlocked compare-and-exchanges on FIFO event words in a
# one-vCPU dom0, since made sync_ (README).
# Not in the default set: blkfront-bad-pvh-ours and netfront-bad-pvh-ours
# (their PV twins are): in two whole runs of the default set the
# emulator triple-faulted one of them, each time with Xen's own RIP
# right after its vmrun, and a CI run failed both at the same step
# (README).  Nor xsbench-pvh-{ours,ref}.  Under that load a PVH
# domU of either kernel sometimes triple-faults in this emulator (see
# README), so it cannot gate make check; run it by name for the figures.
