#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Boot kernels under Xen 4.17 inside QEMU and check what happened.

A scenario names a role (native, dom0, PV domU, PVH domU) and which kernel
plays it: "ours" (the overlay build) or "ref" (the same source and config
with upstream's Xen code, the harness's self-test).  Native scenarios boot
the kernel alone in QEMU.  Xen scenarios that share a dom0 kernel share one
boot: Xen with that dom0, which creates each domU in turn with xl.

Every scenario prints one PASS/FAIL line with the log to read; the run ends
with "N passed, N failed".  Logs (QEMU serial = Xen + dom0 console, each
domU console, xl dmesg) stay under the run's log directory.

Known emulator flakes get a retry budget of their own, for reference
kernels only, and every retry is reported; our kernel never gets one.
"""
import argparse
import dataclasses
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

MARK = 'PVOPS-HARNESS: '
INIT_RE = re.compile(MARK + r'init reached (.*)')


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
    pairs: int = 0              # (netio, io) the benchmark only, N pairs of ours and ref
    blkbad: bool = False        # fake disks whose backend says nonsense
    netbad: bool = False        # fake vifs whose backend says nonsense
    survey: bool = False        # (blkbad/netbad) report what it survives
    conflood: bool = False      # dom0 floods the console's event channel
    cases: str = ''             # (blkbad/netbad) only these devices' cases
    kunit: str = ''             # run KUnit at boot: 'pure' (live suites may
                                # skip) or 'all' (nothing may skip)
    doc: str = ''


PIT_FLAKE = ('upstream 6.12 PVH guest triple-faults about 1 boot in 5 '
             'probing the PIT (in $0x42) under emulated SVM')

SCENARIOS = [
    Scenario('native-ours', 'native', 'ours', timeout=120,
             doc='our kernel boots natively in QEMU to a busybox init'),
    Scenario('native-ref', 'native', 'ref', timeout=120,
             doc='reference kernel boots natively in QEMU'),
    Scenario('dom0-ref', 'dom0', 'ref', timeout=180,
             doc='reference kernel as PV dom0: xenstored, xenconsoled, xl'),
    Scenario('pv-domu-ref', 'pv', 'ref', dom0='ref',
             doc='reference kernel as PV domU reaches init'),
    Scenario('pvh-domu-ref', 'pvh', 'ref', dom0='ref',
             flake_retries=2, flake_note=PIT_FLAKE,
             doc='reference kernel as PVH domU reaches init'),
    Scenario('dom0-ours', 'dom0', 'ours', timeout=180,
             doc='our kernel as PV dom0'),
    Scenario('pv-domu-ours', 'pv', 'ours', dom0='ref',
             doc='our kernel as PV domU under the reference dom0'),
    Scenario('pvh-domu-ours', 'pvh', 'ours', dom0='ref',
             doc='our kernel as PVH domU under the reference dom0'),
    Scenario('clock-pvh-ours', 'pvh', 'ours', dom0='ref', clock=60,
             timeout=240,
             doc="our PVH domU's clock over 60 s agrees with dom0's to 1%"),
    Scenario('clock-pvh-ref', 'pvh', 'ref', dom0='ref', clock=60,
             timeout=240, flake_retries=2, flake_note=PIT_FLAKE,
             doc="the same for the reference PVH domU"),
    Scenario('control-pvh-ours', 'pvh', 'ours', dom0='ref', control=True,
             timeout=240,
             doc='xl vcpu-set down and up, xl reboot, xl shutdown on our '
             'PVH domU'),
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
             'from the console ring (rootfs/hostile.c): a backend that '
             'crawls must be taken for stalled as one that stopped, not '
             'cost printk a second a byte'),
    Scenario('console-flood-pvh-ours', 'pvh', 'ours', dom0='ref',
             conflood=True, timeout=120, cmdline='loglevel=7',
             doc='dom0 replaces xenconsoled on our domU\'s console channel '
             'for 20,000 events that move nothing (rootfs/hostile.c): the '
             'guest must take them for spurious and slow them down, and '
             'shut down afterwards'),
    Scenario('kunit-native-ours', 'native', 'ours', timeout=180,
             kunit='pure', cmdline='kunit.enable=1 loglevel=7',
             doc='KUnit suites on a native boot (live suites skip)'),
    Scenario('kunit-pvh-ours', 'pvh', 'ours', dom0='ref', timeout=400,
             kunit='all', xbdev=True, cmdline='kunit.enable=1 loglevel=7',
             doc='KUnit suites, pure and live, in our PVH domU (FIFO '
             'events)'),
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
    Scenario('boot20-pvh-ours', 'pvh', 'ours', dom0='ref', repeat=20,
             timeout=60,
             doc='our PVH domU (2 vCPUs) created 20 times in a row: every '
             'one must reach init, no retry'),
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
    Scenario('debian-io-pvh-ours', 'pvh', 'ours', dom0='ref', debian=True,
             net=False, io=True, timeout=900,
             doc='Debian on our kernel: 256 MiB written and read back with '
             'checksums, xl reboot, checked again; fio 4k random and 1M '
             'sequential reads; a scratch disk attached, written, detached '
             'and attached again, read back, grown (rootfs/debian-io.sh); '
             'fsck'),
    Scenario('debian-io-pvh-ref', 'pvh', 'ref', dom0='ref', debian=True,
             net=False, io=True, timeout=900,
             doc='the same on the reference kernel; with both, the harness '
             'prints the fio ratios'),
    Scenario('blkfront-bad-pvh-ours', 'pvh', 'ours', dom0='ref',
             blkbad=True, timeout=420,
             doc='19 disks whose hostile backend (rootfs/bad-backend.sh, '
             'rootfs/hostile.c through gntdev) offers nonsense, answers '
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
           'debian-io-pvh-ours', 'blkfront-bad-pvh-ours',
           'netfront-bad-pvh-ours', 'dom0-ref',
           'pv-domu-ref', 'pvh-domu-ref']
# Not in the default set: xsbench-pvh-{ours,ref}.  Under that load a PVH
# domU of either kernel sometimes triple-faults in this emulator (see
# README), so it cannot gate make check; run it by name for the figures.

QEMU = ['qemu-system-x86_64', '-nic', 'none', '-display', 'none',
        '-monitor', 'none', '-no-reboot', '-cpu', 'qemu64,+svm,+npt']
XEN_ARGS = ('console=com1 com1=115200,8n1 dom0_mem=1024M,max:1024M '
            'dom0_max_vcpus=1 dom0_vcpus_pin loglvl=all guest_loglvl=all')
# dom0 has one vCPU, so its backends would offer one queue a device;
# two let the frontends' multi-queue paths run (for either domU kernel).
DOM0_ARGS = ('console=hvc0 earlyprintk=xen root=/dev/vda rw '
             'init=/sbin/pvops-dom0-init xen_blkback.max_queues=2 '
             'xen_netback.max_queues=2')
GUEST_TYPE = {'pv': 'PV', 'pvh': 'PVH'}


def log(msg):
    print(f'harness: {msg}', flush=True)


def read(path):
    """A log's text; empty when the file was never written."""
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def parse_fields(text):
    return dict(kv.split('=', 1) for kv in text.split() if '=' in kv)


class Steps(dict):
    """A domU's fields, merged; .lines keeps each field's own line."""

    def __init__(self):
        super().__init__()
        self.lines = {}


def domu_steps(text, name, what):
    """The fields of every 'domu NAME WHAT ...' line of @text, merged."""
    steps = Steps()
    for rest in re.findall(MARK + rf'domu {re.escape(name)} {what} (.*)',
                           text):
        fields = parse_fields(rest)
        steps.update(fields)
        steps.lines.update(dict.fromkeys(fields, rest.strip()))
    return steps


def failed_step(steps, names):
    """'STEP STATE' for the first of @names not ok in @steps, else None.

    A step that failed brings the other fields of its line along (the
    loss of a ping, the log it wrote).
    """
    for step in names:
        if steps.get(step) != 'ok':
            line = steps.lines.get(step, '')
            more = ' '.join(kv for kv in line.split()
                            if '=' in kv and not kv.startswith(step + '='))
            return (f'{step} {steps.get(step, "not reached")}'
                    + (f' ({more})' if more else ''))
    return None


class Result:
    def __init__(self, scen, ok, why, logfile, metric=None):
        self.scen, self.ok, self.why, self.logfile = scen, ok, why, logfile
        self.metric = metric      # a benchmark's figure, for ratios


def time_left():
    """Seconds until XEN_PVOPS_DEADLINE (a Unix time), or None without one.

    `make check` sets it so that a machine that hangs ends the run with
    failures that name it, instead of running past the CI's own limit.
    """
    deadline = os.environ.get('XEN_PVOPS_DEADLINE')
    return int(deadline) - time.time() if deadline else None


def limit(seconds):
    """@seconds, or less when the deadline comes first; (secs, cut)."""
    left = time_left()
    if left is not None and left < seconds:
        return max(0, int(left)), True
    return seconds, False


def monitor_dump(sock, path):
    """Ask QEMU's monitor on @sock for every CPU's registers, into @path.

    For a machine that stopped talking: the RIPs say whether the emulated
    CPUs are stuck in Xen (0xffff82d0...), in dom0 or in a guest.
    """
    out = []
    try:
        with socket.socket(socket.AF_UNIX) as c:
            c.settimeout(5)
            c.connect(sock)
            for cmd in (b'', b'info cpus\n', b'info registers -a\n'):
                c.sendall(cmd)
                buf = b''
                while not buf.endswith(b'(qemu) '):
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    buf += chunk
                # Without the monitor's echo of the command being typed.
                out += [ln for ln in buf.decode(errors='replace').splitlines()
                        if '\x1b' not in ln]
    except OSError as e:
        out.append(f'monitor: {e}')
    with open(path, 'w') as f:
        f.write('\n'.join(out))


def run_qemu(cmd, serial, timeout, stall=None, monitor=None):
    """Run QEMU until it exits or @timeout; echo harness lines as they come.

    With @stall, the machine must print a harness line at least every
    @stall seconds (dom0 says "alive" every 30 s), or it is taken for hung
    and stopped.  Before a hung or timed-out machine is stopped, its CPUs'
    registers go to serial.log.cpus, when @cmd opened a monitor on the
    Unix socket @monitor.

    Returns (exited_in_time, seconds); exited_in_time is None for a hung
    machine, False for one that ran out of time.
    """
    start = last = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=open(serial + '.qemu-stderr', 'w'))
    seen = 0
    while True:
        try:
            proc.wait(timeout=1)
            done = True
        except subprocess.TimeoutExpired:
            done = False
        if os.path.exists(serial):
            with open(serial, 'rb') as f:
                f.seek(seen)
                data = f.read()
            # Only whole lines; the rest is read again next time.
            cut = data.rfind(b'\n') + 1
            seen += cut
            for line in data[:cut].decode(errors='replace').splitlines():
                if MARK in line:
                    last = time.monotonic()
                    said = line[line.index(MARK) + len(MARK):]
                    if not said.startswith('alive '):
                        print('    ' + said, flush=True)
        if done:
            return True, time.monotonic() - start
        hung = stall and time.monotonic() - last > stall
        if hung or time.monotonic() - start > timeout:
            if monitor:
                monitor_dump(monitor, serial + '.cpus')
            if hung:
                log(f'no line from dom0 for {stall} s: taken for hung; '
                    f'its CPUs: {serial}.cpus')
            proc.kill()
            proc.wait()
            return None if hung else False, time.monotonic() - start


# --- native -----------------------------------------------------------------

def run_native(scen, kernels, assets, logdir):
    d = os.path.join(logdir, scen.name)
    os.makedirs(d, exist_ok=True)
    serial = os.path.join(d, 'serial.log')
    timeout, cut = limit(scen.timeout)
    if timeout <= 0:
        return Result(scen, False, 'not run: make check\'s deadline '
                      '(XEN_PVOPS_DEADLINE) had passed', serial)
    log(f'{scen.name}: booting {scen.kernel} kernel natively in QEMU')
    cmd = QEMU + ['-smp', '2', '-m', '512', '-serial', 'file:' + serial,
                  '-kernel', kernels[scen.kernel],
                  '-initrd', os.path.join(assets, 'guest.cpio.gz'),
                  '-append', 'console=ttyS0 panic=-1 loglevel=6 ' +
                  scen.cmdline]
    in_time, secs = run_qemu(cmd, serial, timeout)
    return judge_native(scen, d, in_time, secs, cut)


def judge_native(scen, d, in_time=True, secs=0, cut=False):
    """Judge a native boot from its serial log in @d.

    @in_time, @secs and @cut say how QEMU ended (run_qemu, limit); a
    re-judged log is taken to have ended in time.
    """
    serial = os.path.join(d, 'serial.log')
    text = read(serial)
    m = INIT_RE.search(text)
    if not m:
        why = 'timed out' if not in_time else 'QEMU exited'
        if cut and not in_time:
            why = 'stopped at make check\'s deadline'
        return Result(scen, False, f'{why} after {secs:.0f} s before init '
                      'reached', serial)
    f = parse_fields(m.group(1))
    if f.get('hypervisor') != 'none':
        return Result(scen, False, f'hypervisor={f.get("hypervisor")} on a '
                      'native boot', serial)
    if not in_time:
        return Result(scen, False, 'init reached but the guest did not '
                      f'power off within {scen.timeout} s', serial)
    if scen.kunit:
        return judge_kunit(scen, serial, serial, os.path.join(d, 'kunit'))
    return Result(scen, True, f'init at {f.get("uptime")} s uptime, '
                  f'cpus={f.get("cpus")}', serial)


# --- Xen: one boot per dom0 kernel ---------------------------------------------

RUN_SH_HEAD = r'''
say() { echo "PVOPS-HARNESS: $*"; }

# clock_cs: dom0's uptime in hundredths of a second, in $cs_now, read
# without starting a process.  Every wait below counts time on it, not
# turns of its loop: here a turn's commands take longer than its sleep,
# and a loop of 3,000 turns of 0.1 s took ten minutes, not five.
clock_cs() {
	read -r cs_now _ < /proc/uptime
	cs_now=$((${cs_now%.*} * 100 + 1${cs_now#*.} - 100))
}

# after TENTHS: prints the clock_cs time TENTHS tenths of a second on;
# past END: true once that time has come.
after() { clock_cs; echo $((cs_now + $1 * 10)); }
past() { clock_cs; [ $cs_now -ge $1 ]; }

# A line every 30 s, so that the harness can tell a machine that hangs
# from one that is only quiet (run_qemu's stall).
(while sleep 30; do say "alive uptime=$(cut -d' ' -f1 /proc/uptime)"; done) &
alive=$!

# xbtest_setup DOMID: before the domU runs, give it three devices of type
# pvopstest and run their backend (xbtest_backend) in the background, for
# its xen-xenbus-frontend KUnit suite (drivers/xen/xenbus/xenbus_fe_test.c):
# 0 behaves, 1 names no domain as its backend, 2's backend publishes a
# state that does not exist.
xbtest_setup() {
	d=$1
	fe=/local/domain/$d/device/pvopstest
	be=/local/domain/0/backend/pvopstest/$d
	for i in 0 1 2; do
		xenstore-write $fe/$i/backend $be/$i $fe/$i/backend-id 0 \
			$fe/$i/state 1 $be/$i/frontend $fe/$i \
			$be/$i/frontend-id $d $be/$i/state 1 || return 1
		xenstore-chmod -r $fe/$i n$d r0 || return 1
		xenstore-chmod -r $be/$i n0 r$d || return 1
	done
	xenstore-chmod $fe n0 r$d
	xenstore-write $fe/1/backend-id 70000 $be/2/state 42
	xbtest_backend $d > /job/out/xbtest-$d.log 2>&1 &
}

# xbtest_backend DOMID: the backend of device 0, driven by its frontend's
# states: InitWait; on Initialised copy what the frontend published into
# "seen" and connect; once the frontend is connected, close; once it is
# closed, remove both directories as the toolstack does on detach.
xbtest_backend() {
	d=$1
	fe=/local/domain/$d/device/pvopstest/0
	be=/local/domain/0/backend/pvopstest/$d/0
	wait_fe() {
		local end=$(after $2)
		while [ "$(xenstore-read $fe/state 2>/dev/null)" != "$1" ]; do
			if past $end; then
				echo "timeout: frontend state $(xenstore-read $fe/state 2>&1), wanted $1"
				return 1
			fi
			sleep 0.2
		done
		echo "frontend state $1"
	}
	xenstore-write $be/state 2
	wait_fe 3 2400 || return 1
	xenstore-write $be/seen "ring-ref=$(xenstore-read $fe/ring-ref) event-channel=$(xenstore-read $fe/event-channel)"
	xenstore-write $be/state 4
	wait_fe 4 600 || return 1
	xenstore-write $be/state 5
	wait_fe 6 600 || return 1
	xenstore-write $be/state 6
	xenstore-rm $fe
	xenstore-rm $be
	echo "device 0 done"
}

# run_domu NAME CFG TIMEOUT RETRIES [SETUP]: create a domU, wait for it to
# go away, and retry only when Xen saw it triple-fault (a known emulator
# flake) and the scenario has a retry budget.  Every 0.1 s, note on dom0's
# clock when the guest's init line and clock lines first show in its
# console log.  With SETUP, the domU is created paused and SETUP DOMID
# runs before it is unpaused.
run_domu() {
	name=$1 cfg=$2 tmo=$3 retries=$4 setup=$5 attempt=1
	while :; do
		n=$name-a$attempt
		log=/job/out/console/guest-$n.log
		t0=$(date +%s.%N)
		id= ti= cs= ce= hung= crashed= stop=
		# pvops.stall=S: xenconsoled stopped for S seconds from init on.
		stall=$(sed -n 's/.*pvops\.stall=\([0-9][0-9]*\).*/\1/p' "/job/cfg/$cfg")
		if xl create -q ${setup:+-p} "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
			id=$(xl domid "$n" 2>/dev/null)
			say "domu $n uuid=$(xl list -v "$n" | grep -oE '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}')"
			if [ -n "$setup" ]; then
				$setup "$id" || say "domu $n setup $setup failed"
				xl unpause "$n"
			fi
			end=$(after $((tmo * 10)))
			while xl domid "$n" > /dev/null 2>&1 && ! past $end; do
				sleep 0.1
				[ -z "$ti" ] && grep -q 'PVOPS-HARNESS: init reached' "$log" 2>/dev/null && ti=$(date +%s.%N)
				[ -z "$cs" ] && grep -q 'PVOPS-HARNESS: clock start' "$log" 2>/dev/null && cs=$(date +%s.%N)
				[ -z "$ce" ] && grep -q 'PVOPS-HARNESS: clock end' "$log" 2>/dev/null && ce=$(date +%s.%N)
				if [ -n "$stall" ] && [ -n "$ti" ] && [ -z "$stop" ]; then
					if kill -STOP "$(cat /run/xenconsoled.pid)"; then
						stop=$(after $((stall * 10)))
						say "domu $n xenconsoled stopped for ${stall}s"
						# pvops.trickle=1: one byte a second taken meanwhile.
						grep -q 'pvops\.trickle=1' "/job/cfg/$cfg" &&
							/job/hostile "$id" 0 0 1 trickle:$stall \
								> "/job/out/$n.hostile.log" 2>&1 &
					else
						say "domu $n xenconsoled could not be stopped"
						stop=done
					fi
				fi
				if [ -n "$stop" ] && [ "$stop" != done ] && past "$stop"; then
					kill -CONT "$(cat /run/xenconsoled.pid)"
					stop=done
				fi
			done
			[ -n "$stop" ] && [ "$stop" != done ] && kill -CONT "$(cat /run/xenconsoled.pid)"
			[ -n "$cs" ] && [ -n "$ce" ] &&
				say "domu $n clock dom0_seconds=$(echo "$ce $cs" | awk '{ printf "%.2f", $1 - $2 }')"
			if xl domid "$n" > /dev/null 2>&1; then
				say "domu $n timeout after ${tmo}s"
				xl destroy "$n"
				hung=1
			fi
		else
			say "domu $n xl create failed"
		fi
		secs=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
		# xl's own log of the domain says why it went: SHUTDOWN_crash
		# is reason code 3, what a guest's panic tells Xen.
		cp "/var/log/xen/xl-$n.log" "/job/out/$n.xl.log" 2>/dev/null &&
			grep -q 'shut down, reason code 3 ' "/job/out/$n.xl.log" && crashed=1
		if grep -q 'PVOPS-HARNESS: init reached' "$log" 2>/dev/null; then
			init=$(echo "${ti:-0} $t0" | awk '$1 > 0 { printf "%.1f", $1 - $2 }')
			# Its init powers it off: one destroyed at the limit hung.
			say "domu $n result=${hung:+hung-after-}init domid=$id seconds=$secs init_seconds=${init:-?}${crashed:+ crashed=1}"
			[ -z "$hung" ]
			return
		fi
		if [ -n "$id" ] && xl dmesg | grep -q "d${id}v[0-9]* Triple fault" &&
		   [ "$attempt" -le "$retries" ]; then
			say "domu $n result=triple-fault domid=$id seconds=$secs retrying"
			attempt=$((attempt + 1))
			continue
		fi
		say "domu $n result=no-init domid=$id seconds=$secs"
		return 1
	done
}

# run_repeat NAME CFG TIMEOUT COUNT RETRIES: boot the domU COUNT times,
# one after another (RETRIES as for run_domu, 0 for our kernel); stop at
# the first that does not reach init.  (run_domu's variables are global:
# these have names of their own.)
run_repeat() {
	rname=$1 rcfg=$2 rtmo=$3 rcount=$4 rretries=$5 ri=1
	while [ $ri -le "$rcount" ]; do
		if ! run_domu "$rname-r$ri" "$rcfg" "$rtmo" "$rretries"; then
			say "domu $rname repeat failed_at=$ri of=$rcount"
			return 1
		fi
		ri=$((ri + 1))
	done
	say "domu $rname repeat ok=$rcount of=$rcount"
}

# run_debian NAME CFG TIMEOUT [nonet [INSTANCE]]: boot the Debian image (dom0's /dev/vdc, a
# throw-away overlay of the cached image) as the domU's xvda with a vif on
# dom0's bridge (169.254.0.1; the domU is 169.254.0.2).  Steps, each ok
# or failed, the first failure ending the run: multi-user reached
# (systemd's line on the console), ping (once it answers, 20 packets,
# none lost; skipped with nonet, for a domU without a vif), xl
# shutdown, and a clean e2fsck of the disk afterwards.  The domU is
# NAME-INSTANCE (a1 unless said).
run_debian() {
	name=$1 cfg=$2 tmo=$3 net=${4:-net}
	n=$name-${5:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	bridge_up || { step bridge=failed; return 1; }
	t0=$(date +%s.%N)
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	step boot=ok domid=$(xl domid "$n")
	if ! wait_log "$log" 'Reached target.*[Mm]ulti-[Uu]ser' 1 3000 "$n"; then
		stuck_dump "$n"; step multiuser=failed; xl destroy "$n"; return 1
	fi
	step multiuser=ok seconds=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	if [ "$net" = net ]; then
		ping_domu "$n" ping || { xl destroy "$n"; return 1; }
	fi
	debian_down
}

# stuck_dump NAME: a domU that did not get where it should shows, on its
# console before it is destroyed, its blocked tasks (sysrq w), its CPUs
# (l), its pending hrtimers and clock event devices (q), and every task
# with its state and the run queues (t), so the log says where it
# stood; what Xen and dom0 had at that moment (domains, free memory, the
# disk's requests in flight, the domU's vCPU registers, Xen's last
# messages with its event channel, vCPU and timer dumps, dom0's blocked
# tasks) goes to NAME.stuck.log, with one line of it on the serial log.
stuck_dump() {
	local con=/job/out/console/guest-$1.log size=-1 end
	for key in w l q t; do
		xl sysrq "$1" $key > /dev/null 2>&1
		sleep 2
	done
	# Every task's state takes a while to come through the console:
	# wait until the log stops growing for 5 s (60 s at most).
	end=$(after 600)
	while [ "$(stat -c %s "$con" 2>/dev/null)" != "$size" ] && ! past $end; do
		size=$(stat -c %s "$con" 2>/dev/null)
		sleep 5
	done
	echo w > /proc/sysrq-trigger 2>/dev/null
	sd=$(xl domid "$1" 2>/dev/null)
	# Xen's debug keys: 'e' every domain's ports, pending and masked;
	# 'q' each vCPU's state with its pending upcall; 'a' the timer
	# queues, with each vCPU's singleshot timer and when it expires.
	xl debug-keys e > /dev/null 2>&1
	xl debug-keys q > /dev/null 2>&1
	xl debug-keys a > /dev/null 2>&1
	{
		xl list; xl info; xl vcpu-list "$1"; free -m; cat /proc/loadavg
		echo "vdc in flight (reads writes): $(cat /sys/block/vdc/inflight)"
		echo "--- the domU's vCPUs (map RIP with its kernel's System.map)"
		[ -n "$sd" ] && xenctx -a -C "$sd"
		echo "--- Xen, with its event channel, domain and timer dumps"
		xl dmesg | tail -1500
		echo "--- dom0 (with its blocked tasks)"; dmesg | tail -200
	} > "/job/out/$1.stuck.log" 2>&1
	say "domu $1 stuck domains=$(xl list 2>/dev/null | awk 'NR > 1' | wc -l)" \
		"xen_free_mb=$(xl info 2>/dev/null | awk '$1 == "free_memory" { print $3 }')" \
		"dom0_load=$(cut -d' ' -f1 /proc/loadavg) log=$1.stuck.log"
}

# ping_domu NAME STEP: once the domU (169.254.0.2) answers (60 s at most:
# its address comes moments after the link), 20 pings, none may be lost.
# The step says how long the first answer took (wait=); a failure says
# what dom0 had of the domU's network then, in NAME.STEP.log.
ping_domu() {
	local end=$(after 600) t0=$(date +%s.%N) waited
	until busybox ping -c 1 -W 1 169.254.0.2 > /dev/null 2>&1; do
		if past $end; then
			net_dump "$1" "$2"
			step $2=failed loss=100% wait=60 log=$1.$2.log; return 1
		fi
		sleep 0.2
	done
	waited=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	loss=$(busybox ping -c 20 -i 0.2 -W 2 169.254.0.2 2>&1 | tee "/job/out/$1.$2.log" |
		sed -n 's/.* \([0-9][0-9]*\)% packet loss.*/\1/p')
	if [ "$loss" != 0 ]; then
		net_dump "$1" "$2"
		step $2=failed loss=${loss:-none}% wait=$waited log=$1.$2.log; return 1
	fi
	step $2=ok loss=0% wait=$waited
}

# net_dump NAME STEP: append to NAME.STEP.log what dom0 has of the
# domU's network: whether Xen still runs it, dom0's neighbour entry and
# the bridge's ports, addresses and counters, and the vif's xenstore
# nodes, both ends.
net_dump() {
	local d=$(xl domid "$1" 2>/dev/null)
	{
		echo "--- xl list"; xl list
		echo "--- neighbours"; ip neigh show
		echo "--- bridge ports and addresses"
		bridge link show; bridge fdb show br xenbr0
		echo "--- interfaces"; ip -s link show
		if [ -n "$d" ]; then
			echo "--- backend"; xenstore-ls -f "/local/domain/0/backend/vif/$d"
			echo "--- frontend"; xenstore-ls -f "/local/domain/$d/device/vif"
		fi
		echo "--- Xen"; xl dmesg | tail -40
	} >> "/job/out/$1.$2.log" 2>&1
}

# bridge_up: dom0's bridge for the vifs, 169.254.0.1/16.
bridge_up() {
	ip link show xenbr0 > /dev/null 2>&1 && return 0
	ip link add xenbr0 type bridge &&
	ip addr add 169.254.0.1/16 dev xenbr0 &&
	ip link set xenbr0 up
}

# iperf_to NAME TAG [-R]: 10 s of iperf3 to the domU's server (with -R,
# from it); prints the receiver's Mbit/s, empty on failure (a round in
# which nothing arrived, as when the domU restarts, is one).
iperf_to() {
	timeout 60 iperf3 -c 169.254.0.2 -t 10 -f m $3 > "/job/out/$1.iperf-$2.log" 2>&1
	sed -n 's/.* \([0-9.][0-9.]*\) Mbits\/sec.*receiver.*/\1/p' "/job/out/$1.iperf-$2.log" |
		tail -1 | awk '$1 > 0'
}

# vif_events DOMID [SUFFIX]: the events dom0 took so far on the domU's
# vifs (netback names their irqs vifDOMID.N-qM, with -tx and -rx when
# each ring has its own channel; SUFFIX counts only those): each is a
# notification the domU sent, an EVTCHNOP_send hypercall.
vif_events() {
	awk -v p="vif$1." -v x="$2" 'index($0, p) && (x == "" || $NF ~ x "$") {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}

# vif_packets DOMID DIR: packets netback saw so far on the domU's vifs,
# DIR rx (from the domU) or tx (to it).
vif_packets() {
	cat /sys/class/net/vif$1.*/statistics/$2_packets 2>/dev/null |
		awk '{ s += $1 } END { print s + 0 }'
}

# blkback_events: the events dom0's blkback took so far, all rings of
# all disks (its irqs are named blkif-backend, without the domain: the
# benchmark runs one domU at a time).
blkback_events() {
	awk '/blkif-backend/ {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
	} END { print s + 0 }' /proc/interrupts
}

# dom_cpu DOMID: the CPU seconds the domain's vCPUs ran so far (xl list).
dom_cpu() {
	xl list | awk -v d=$1 '$2 == d { print $6 }'
}

# sub A B: A - B, for decimals.
sub() {
	echo "$1 $2" | awk '{ printf "%.1f", $1 - $2 }'
}

# iperf_rounds NAME DOMID ROUNDS: ROUNDS rounds of iperf_to both ways, each
# with the domU's notifications it took; sets to, from, to_ev and
# from_ev to comma-separated lists, to or from empty on a failure.  The
# CPU seconds the domU and dom0 used in each, how many of the
# notifications came on transmit rings' own channels and how many
# packets the domU sent go to the log (iperf-cpu).
iperf_rounds() {
	to= from= to_ev= from_ev=
	k=1
	while [ $k -le $3 ]; do
		e0=$(vif_events $2) c0=$(dom_cpu $2) z0=$(dom_cpu 0)
		t0=$(vif_events $2 -tx) p0=$(vif_packets $2 rx)
		a=$(iperf_to "$1" to$k)
		e1=$(vif_events $2) c1=$(dom_cpu $2) z1=$(dom_cpu 0)
		t1=$(vif_events $2 -tx) p1=$(vif_packets $2 rx)
		b=$(iperf_to "$1" from$k -R)
		e2=$(vif_events $2) c2=$(dom_cpu $2) z2=$(dom_cpu 0)
		t2=$(vif_events $2 -tx) p2=$(vif_packets $2 rx)
		say "domu $1 iperf-cpu round=$k" \
			"to_domu_s=$(sub $c1 $c0) to_dom0_s=$(sub $z1 $z0)" \
			"from_domu_s=$(sub $c2 $c1) from_dom0_s=$(sub $z2 $z1)" \
			"to_tx_events=$((t1 - t0)) from_tx_events=$((t2 - t1))" \
			"to_domu_sent=$((p1 - p0)) from_domu_sent=$((p2 - p1))"
		if [ -z "$a" ] || [ -z "$b" ]; then
			to=${a:+$to} from=${b:+$from}
			return 1
		fi
		to=$to${to:+,}$a from=$from${from:+,}$b
		to_ev=$to_ev${to_ev:+,}$((e1 - e0))
		from_ev=$from_ev${from_ev:+,}$((e2 - e1))
		k=$((k + 1))
	done
}

# run_debian_repeat NAME CFG TIMEOUT COUNT: run_debian COUNT times in a
# row on the same disk (NAME-a1, NAME-a2, ...); the first failure ends it.
run_debian_repeat() {
	k=1
	while [ $k -le $4 ]; do
		run_debian "$1" "$2" "$3" net "a$k" || return 1
		k=$((k + 1))
	done
}

# run_debian_net NAME CFG TIMEOUT [INSTANCE [bench]]: the Debian domU
# with a vif and its network side (rootfs/debian-net.sh, handed over as
# the raw second disk xvdb through /dev/loop7, starts iperf3 and keeps
# the domU's address on whatever vif it has).  Steps: multi-user, ping,
# iperf3 to and from the domU, vif detached (its frontend directory
# gone) and attached again, ping again, then shutdown and fsck as
# run_debian.  The domU is NAME-INSTANCE (a1 unless said); with bench,
# the vif is neither detached nor attached, and iperf3 runs 3 rounds
# each way instead of 1: the check only needs traffic to flow, and
# every 10 s of iperf3 is that much more exposure to the emulator's
# triple fault (README).
run_debian_net() {
	name=$1 cfg=$2 tmo=$3
	n=$name-${4:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	bridge_up || { step bridge=failed; return 1; }
	losetup -d /dev/loop7 2>/dev/null
	losetup -r /dev/loop7 /job/net-script.img || { step boot=failed; return 1; }
	t0=$(date +%s.%N)
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	d=$(xl domid "$n")
	step boot=ok domid=$d
	if ! wait_log "$log" 'Reached target.*[Mm]ulti-[Uu]ser' 1 3000 "$n"; then
		stuck_dump "$n"; step multiuser=failed; xl destroy "$n"; return 1
	fi
	step multiuser=ok seconds=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	if ! wait_log "$log" 'PVOPS-HARNESS: net ready' 1 600; then
		step ready=failed; xl destroy "$n"; return 1
	fi
	ping_domu "$n" ping || { xl destroy "$n"; return 1; }
	if ! iperf_rounds "$n" $d $([ "$5" = bench ] && echo 3 || echo 1); then
		ip -s -s link > "/job/out/$n.links.log" 2>&1
		step iperf=failed to_domu_mbps=${to:-none} from_domu_mbps=${from:-none}
		xl destroy "$n"; return 1
	fi
	if ! same_dom "$n" $d; then
		step iperf=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
		xl destroy "$n"; return 1
	fi
	step iperf=ok to_domu_mbps=$to from_domu_mbps=$from \
		to_domu_events=$to_ev from_domu_events=$from_ev
	[ "$5" = bench ] && { debian_down; return; }
	vif_replug "$n" $d '' || { xl destroy "$n"; return 1; }
	# Once more, with the vif marked untrusted (xl's "untrusted" flag
	# writes trusted=0 in the frontend's directory): netfront must copy
	# every packet it sends into pages of its own, and still move them.
	vif_replug "$n" $d untrusted- untrusted || { xl destroy "$n"; return 1; }
	trusted=$(xenstore-read /local/domain/$d/device/vif/$(vif_devid "$n")/trusted 2>&1 |
		tr ' ' _)
	b=$(iperf_to "$n" untrusted -R)
	if [ -z "$b" ]; then
		step untrusted=failed at=iperf3 trusted_node=$trusted
		xl destroy "$n"; return 1
	fi
	step untrusted=ok trusted_node=$trusted from_domu_mbps_untrusted=$b
	debian_down
}

# same_dom NAME DOMID: the domU NAME is still domain DOMID.  A guest that
# crashes in a way Xen takes for a reboot (a triple fault) comes back
# under a new domid, and a figure measured across that is no figure.
same_dom() {
	[ "$(xl domid "$1" 2>/dev/null)" = "$2" ]
}

# vif_devid NAME: the devid of the domU's (first) vif; 0 if none is listed.
vif_devid() {
	xl network-list "$1" 2>/dev/null | awk 'NR == 2 { v = $1 } END { print v + 0 }'
}

# vif_replug NAME DOMID PREFIX [FLAG]: detach the domU's vif, attach a
# new one to the bridge (with xl's FLAG, such as untrusted) and ping the
# domU through it; steps PREFIXdetach and PREFIXattach.
vif_replug() {
	local v=$(vif_devid "$1")
	xl network-detach "$1" $v > "/job/out/$1.${3}network-detach.log" 2>&1
	if ! gone_within 600 xenstore-read /local/domain/$2/device/vif/$v/state; then
		step ${3}detach=failed; return 1
	fi
	step ${3}detach=ok
	if ! xl network-attach "$1" bridge=xenbr0 script=/job/hotplug-vif $4 \
			> "/job/out/$1.${3}network-attach.log" 2>&1; then
		step ${3}attach=failed; return 1
	fi
	ping_domu "$1" ${3}attach
}

# debian_repair NAME: after a Debian scenario failed, e2fsck repairs the
# disk they share, so that the next one starts from a clean filesystem
# instead of failing because this one left it half written.
# A domU that xl is restarting (on_reboot) is for a moment in no list:
# only when none of them has shown for 10 s (or after 10 minutes) is
# the disk theirs.  Each repair keeps its own log.
repairs=0
debian_repair() {
	local quiet=0 tries=0
	while [ $quiet -lt 10 ] && [ $tries -lt 600 ]; do
		quiet=$((quiet + 1)) tries=$((tries + 1))
		for dom in $(xl list | awk -v p="$1-" 'index($1, p) == 1 { print $1 }'); do
			xl destroy "$dom"
			quiet=0
		done
		sleep 1
	done
	repairs=$((repairs + 1))
	e2fsck -fy /dev/vdc > "/job/out/$1.repair$repairs.log" 2>&1
	say "domu $1 disk repaired e2fsck_rc=$? log=$1.repair$repairs.log"
}

# run_pairs net|io NAME TIMEOUT COUNT: COUNT pairs of run_debian_net or
# run_debian_io in bench mode, NAME-ours and NAME-ref (cfg files of
# those names), ours first in odd pairs and ref first in even ones, so
# that both kernels meet the same slow and fast spells of the emulator
# and neither always comes first.  A pair in which Xen saw a domU of
# either kernel triple-fault (the emulator flake the README describes)
# is dropped, said so with the domid, and its disk repaired; another
# pair takes its place, up to COUNT/2 (rounded up) dropped pairs.  Any
# other failure, or one more flake, ends the benchmark.
run_pairs() {
	pk=1 pdone=0 pdropped=0
	while [ $pdone -lt "$4" ]; do
		order="ours ref"
		[ $(((pdone + 1) % 2)) = 0 ] && order="ref ours"
		pok=1
		for kern in $order; do
			d=
			run_debian_$1 "$2-$kern" "$2-$kern.cfg" "$3" "a$pk" bench &&
				continue
			if [ -z "$d" ] || [ $pdropped -ge $((($4 + 1) / 2)) ] ||
			   ! xl dmesg | grep -q "d${d}v[0-9]* Triple fault"; then
				return 1
			fi
			say "domu $2 pair=$pk dropped kernel=$kern domid=$d triple-fault"
			debian_repair "$2"
			pdropped=$((pdropped + 1)) pok=0
			break
		done
		[ $pok = 1 ] && pdone=$((pdone + 1))
		pk=$((pk + 1))
	done
	say "domu $2 pairs done=$4 dropped=$pdropped"
}

# debian_down: xl shutdown the Debian domU $n, then fsck its disk.
debian_down() {
	# Passes when the domain is gone within 180 s; xl's own exit status
	# and words are kept for the log.
	timeout 180 xl shutdown -w "$n" > "/job/out/$n.shutdown.log" 2>&1
	rc=$?
	if ! gone_within 1800 xl domid "$n"; then
		step shutdown=failed xl_rc=$rc; xl destroy "$n"; return 1
	fi
	step shutdown=ok xl_rc=$rc
	if ! e2fsck -fn /dev/vdc > "/job/out/$n.fsck.log" 2>&1; then
		step fsck=failed; return 1
	fi
	step fsck=ok
}

# run_debian_io NAME CFG TIMEOUT [INSTANCE [bench]]: the Debian domU
# with its disk checks
# (rootfs/debian-io.sh, handed over as the raw second disk xvdb through
# /dev/loop7): wait for the first boot's write, xl reboot, wait for the
# second boot's checks and fio; attach a scratch disk (xvdc, 32 MiB in
# dom0's memory through /dev/loop6), detach it once the domU wrote to it
# (its frontend directory must go), attach it again and wait for the
# domU's read-back; grow it to 64 MiB and wait for the domU to see the
# new size; once the domU discarded 4 MiB of it, the file must hold that
# much less; wait for its power-off; fsck the disk.  The domU is
# NAME-INSTANCE (a1 unless said); with bench (its command line has
# pvops.bench=1), one boot: fio, then xl shutdown and fsck.
SCRATCH="format=raw, vdev=xvdc, access=rw, script=/job/hotplug-block, target=/dev/loop6"

run_debian_io() {
	name=$1 cfg=$2 tmo=$3
	n=$name-${4:-a1}
	log=/job/out/console/guest-$n.log
	step() { say "domu $n debian $*"; }
	losetup -d /dev/loop7 2>/dev/null
	losetup -r /dev/loop7 /job/io-script.img || { step boot=failed; return 1; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed; return 1
	fi
	step boot=ok domid=$(xl domid "$n")
	if [ "$5" = bench ]; then
		d=$(xl domid "$n") e0=0 e1=0 c0=0 c1=0 z0=0 z1=0
		# The random reads' cost besides the guest's: the events
		# blkback took (each an EVTCHNOP_send of the domU) and the
		# CPU seconds of both domains.
		if wait_log "$log" 'PVOPS-HARNESS: io randread start' 1 $((tmo * 10)) "$n"; then
			e0=$(blkback_events) c0=$(dom_cpu $d) z0=$(dom_cpu 0)
			wait_log "$log" 'PVOPS-HARNESS: io randread done' 1 600
			e1=$(blkback_events) c1=$(dom_cpu $d) z1=$(dom_cpu 0)
		fi
		if ! wait_log "$log" 'PVOPS-HARNESS: io fio' 1 $((tmo * 10)) "$n"; then
			stuck_dump "$n"; step fio=failed; xl destroy "$n"; return 1
		fi
		if ! same_dom "$n" $d; then
			step fio=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
			xl destroy "$n"; return 1
		fi
		step fio=ok randread_sent=$((e1 - e0)) \
			randread_domu_s=$(sub $c1 $c0) randread_dom0_s=$(sub $z1 $z0)
		debian_down; return
	fi
	if ! wait_log "$log" 'PVOPS-HARNESS: io written' 1 $((tmo * 10)); then
		stuck_dump "$n"; step written=failed; xl destroy "$n"; return 1
	fi
	step written=ok
	xl reboot "$n"
	if ! wait_log "$log" 'PVOPS-HARNESS: io fio' 1 $((tmo * 10)); then
		stuck_dump "$n"; step reboot=failed; xl destroy "$n"; return 1
	fi
	step reboot=ok
	d=$(xl domid "$n")
	losetup -d /dev/loop6 2>/dev/null
	rm -f /dev/shm/pvops-scratch.img
	if ! truncate -s 32M /dev/shm/pvops-scratch.img ||
	   ! losetup /dev/loop6 /dev/shm/pvops-scratch.img ||
	   ! xl block-attach "$n" "$SCRATCH" > "/job/out/$n.attach.log" 2>&1 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch written sha256' 1 1800; then
		step block-attach=failed; xl destroy "$n"; return 1
	fi
	step block-attach=ok
	xl block-detach "$n" xvdc > "/job/out/$n.detach.log" 2>&1
	if ! gone_within 600 xenstore-read /local/domain/$d/device/vbd/51744/state ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch gone' 1 600; then
		step block-detach=failed; xl destroy "$n"; return 1
	fi
	step block-detach=ok
	if ! xl block-attach "$n" "$SCRATCH" > "/job/out/$n.reattach.log" 2>&1 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch reattached' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch reattached=ok' "$log"; then
		step block-reattach=failed; xl destroy "$n"; return 1
	fi
	step block-reattach=ok
	if ! truncate -s 64M /dev/shm/pvops-scratch.img ||
	   ! losetup -c /dev/loop6 ||
	   ! wait_log "$log" 'PVOPS-HARNESS: io scratch resized' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch resized=ok' "$log"; then
		step block-resize=failed; xl destroy "$n"; return 1
	fi
	step block-resize=ok
	if ! same_dom "$n" $d; then
		step block-discard=failed restarted_as=$(xl domid "$n" 2>/dev/null || echo none)
		xl destroy "$n"; return 1
	fi
	# The domU's discard must reach the file: 16 MiB written, 4 gone.
	if ! wait_log "$log" 'PVOPS-HARNESS: io scratch discarded' 1 1800 ||
	   ! grep -q 'PVOPS-HARNESS: io scratch discarded=ok' "$log" ||
	   [ "$(du -k /dev/shm/pvops-scratch.img | cut -f1)" -gt 14336 ]; then
		step block-discard=failed kib=$(du -k /dev/shm/pvops-scratch.img | cut -f1)
		xl destroy "$n"; return 1
	fi
	step block-discard=ok kib=$(du -k /dev/shm/pvops-scratch.img | cut -f1)
	if ! gone_within 1800 xl domid "$n"; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
	if ! e2fsck -fn /dev/vdc > "/job/out/$n.fsck.log" 2>&1; then
		step fsck=failed; return 1
	fi
	step fsck=ok
}

# gone_within TENTHS CMD...: true once CMD fails (the thing it asks
# about is gone), within TENTHS tenths of a second.
gone_within() {
	local end=$(after $1)
	shift
	while "$@" > /dev/null 2>&1; do
		past $end && return 1
		sleep 0.1
	done
}

# wait_log FILE PATTERN COUNT TENTHS [DOMAIN]: wait until PATTERN shows
# COUNT times; with DOMAIN, give up as soon as that domain is gone (a
# guest that triple-faulted), rather than at the end of TENTHS.
wait_log() {
	local end=$(after $4) k=0
	while [ "$(grep -c "$2" "$1" 2>/dev/null)" -lt "$3" ]; do
		past $end && return 1
		# Every 5 s: a domain that is gone will print nothing more.
		k=$((k + 1))
		if [ -n "$5" ] && [ $((k % 50)) = 0 ] && ! xl domid "$5" > /dev/null 2>&1; then
			say "domu $5 gone while waiting for: $2"
			return 1
		fi
		sleep 0.1
	done
}

# run_control NAME CFG TIMEOUT: drive a domU that waits for the toolstack
# (pvops.control=1): take a vCPU down and up, reboot it, shut it down.
# Each step prints ok or failed; the first failure ends the run.
run_control() {
	name=$1 cfg=$2 tmo=$3
	n=$name-a1
	log=/job/out/console/guest-$n.log
	step() { say "domu $n control $*"; }
	if ! xl create -q "/job/cfg/$cfg" "name=\"$n\"" > "/job/out/$n.create.log" 2>&1; then
		step boot=failed
		return 1
	fi
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 1 $((tmo * 10)); then
		step boot=failed; xl destroy "$n"; return 1
	fi
	step boot=ok domid=$(xl domid "$n")
	xl vcpu-set "$n" 1
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0[[:space:]]*$' 1 300; then
		step vcpu-down=failed; xl destroy "$n"; return 1
	fi
	step vcpu-down=ok
	xl vcpu-set "$n" 2
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 2 300; then
		step vcpu-up=failed; xl destroy "$n"; return 1
	fi
	step vcpu-up=ok
	xl reboot "$n"
	if ! wait_log "$log" 'PVOPS-HARNESS: init reached' 2 $((tmo * 10)); then
		step reboot=failed; xl destroy "$n"; return 1
	fi
	step reboot=ok domid=$(xl domid "$n")
	if ! wait_log "$log" 'PVOPS-HARNESS: cpus online=0-1' 3 300 ||
	   ! timeout 120 xl shutdown -w "$n" > /dev/null 2>&1 ||
	   xl domid "$n" > /dev/null 2>&1; then
		step shutdown=failed; xl destroy "$n"; return 1
	fi
	step shutdown=ok
}
'''

DEBIAN_CFG = '''type = "{type}"
kernel = "/job/kernels/{kernel}.bzImage"
extra = '{extra}'
memory = 512
vcpus = 2
tsc_mode = "native"
disk = ['format=raw, vdev=xvda, access=rw, script=/job/hotplug-block, target=/dev/vdc'{io_disk}]
{vif}on_poweroff = "destroy"
on_reboot = "{on_reboot}"
on_crash = "destroy"
'''

DOMU_CFG = '''type = "{type}"
kernel = "/job/kernels/{kernel}.bzImage"
ramdisk = "/job/guest.cpio.gz"
extra = "console=hvc0 loglevel=6 {cmdline}"
memory = 256
vcpus = 2
tsc_mode = "native"
on_poweroff = "destroy"
on_reboot = "{on_reboot}"
on_crash = "destroy"
'''


def make_job(jobdir, kernels, assets, domus):
    for sub in ('cfg', 'kernels', 'out'):
        os.makedirs(os.path.join(jobdir, sub), exist_ok=True)
    shutil.copy(os.path.join(assets, 'guest.cpio.gz'), jobdir)
    script = [RUN_SH_HEAD]
    for s in domus:
        for k in (('ours', 'ref') if s.pairs else (s.kernel,)):
            dst = os.path.join(jobdir, 'kernels', k + '.bzImage')
            if not os.path.exists(dst):
                shutil.copy(kernels[k], dst)
        if s.debian:
            for h in ('hotplug-block', 'hotplug-vif'):
                shutil.copy(os.path.join(HERE, 'rootfs', h), jobdir)
            extra = f'console=hvc0 root=/dev/xvda rw {s.cmdline}'
            if s.io or s.netio:
                extra += (' systemd.run="/bin/sh /dev/xvdb" '
                          'systemd.run_success_action=none '
                          'systemd.run_failure_action=none')
            cfgs = ({f'{s.name}-{k}': k for k in ('ours', 'ref')}
                    if s.pairs else {s.name: s.kernel})
            for cfg, kern in cfgs.items():
                with open(os.path.join(jobdir, 'cfg', cfg + '.cfg'),
                          'w') as f:
                    # Only debian-io reboots its domU (xl reboot).
                    # Anywhere else a reboot is a crash (a triple
                    # fault is one) and must not boot the disk again
                    # behind the script's back.
                    f.write(DEBIAN_CFG.format(
                        type=s.role, kernel=kern, extra=extra,
                        on_reboot='restart' if s.io and not s.pairs
                        else 'destroy',
                        io_disk=", 'format=raw, vdev=xvdb, access=ro, "
                        "script=/job/hotplug-block, target=/dev/loop7'"
                        if s.io or s.netio else '',
                        vif="vif = ['bridge=xenbr0, "
                        "script=/job/hotplug-vif']\n" if s.net else ''))
            if s.io or s.netio:
                what = 'io' if s.io else 'net'
                with open(os.path.join(HERE, 'rootfs', f'debian-{what}.sh'),
                          'rb') as src:
                    body = src.read()
                with open(os.path.join(jobdir, f'{what}-script.img'),
                          'wb') as dst:
                    dst.write(body + bytes(65536 - len(body)))
                if s.pairs:
                    script.append(f'run_pairs {what} {s.name} {s.timeout} '
                                  f'{s.pairs} || debian_repair {s.name}\n')
                    continue
                script.append(f'run_debian_{what} {s.name} {s.name}.cfg '
                              f'{s.timeout} || debian_repair {s.name}\n')
                continue
            if s.repeat:
                script.append(f'run_debian_repeat {s.name} {s.name}.cfg '
                              f'{s.timeout} {s.repeat} '
                              f'|| debian_repair {s.name}\n')
                continue
            script.append(f'run_debian {s.name} {s.name}.cfg {s.timeout}'
                          f'{"" if s.net else " nonet"} '
                          f'|| debian_repair {s.name}\n')
            continue
        with open(os.path.join(jobdir, 'cfg', s.name + '.cfg'), 'w') as f:
            cmdline = s.cmdline + (f' pvops.clock={s.clock}' if s.clock else '')
            cmdline += (' pvops.control=1' if s.control or s.blkbad or
                        s.netbad or s.conflood else '')
            cmdline += ' pvops.xsbench=1' if s.xsbench else ''
            # printk.devkmsg=on: /dev/kmsg unthrottled, every line counts.
            cmdline += (f' pvops.crash={s.crash} printk.devkmsg=on'
                        if s.crash else '')
            cmdline += f' pvops.stall={s.stall}' if s.stall else ''
            cmdline += ' pvops.trickle=1' if s.trickle else ''
            f.write(DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                    cmdline=cmdline,
                                    on_reboot='restart' if s.control
                                    else 'destroy'))
        if s.control:
            script.append(f'run_control {s.name} {s.name}.cfg {s.timeout}\n')
            continue
        hostile = os.path.join(jobdir, 'hostile')
        if (s.blkbad or s.netbad or s.trickle or s.conflood) and \
           not os.path.exists(hostile):
            # dom0's part of a hostile backend (rootfs/hostile.c) and the
            # suite's cases (rootfs/bad-backend.sh).
            subprocess.run(['gcc', '-static', '-O2', '-Wall', '-o', hostile,
                            os.path.join(HERE, 'rootfs', 'hostile.c')],
                           check=True)
            shutil.copy(os.path.join(HERE, 'rootfs', 'bad-backend.sh'),
                        jobdir)
            script.append('. /job/bad-backend.sh\n')
        if s.conflood:
            script.append(f'run_console_flood {s.name} {s.name}.cfg '
                          f'{s.timeout}\n')
            continue
        if s.survey:
            script.append(f'run_survey {s.name} {s.name}.cfg {s.timeout} '
                          f'{"vbd" if s.blkbad else "vif"} {s.cases}\n')
            continue
        if s.blkbad or s.netbad:
            script.append(f'run_bad {s.name} {s.name}.cfg {s.timeout} '
                          f'{"vbd" if s.blkbad else "vif"} '
                          f'{"survey" if s.survey else "-"} {s.cases}\n')
            continue
        if s.repeat:
            script.append(f'run_repeat {s.name} {s.name}.cfg {s.timeout} '
                          f'{s.repeat} {s.flake_retries}\n')
            continue
        script.append(f'run_domu {s.name} {s.name}.cfg {s.timeout} '
                      f'{s.flake_retries}'
                      + (' xbtest_setup' if s.xbdev else '') + '\n')
    script.append('rc=$?\nkill $alive\nexit $rc\n')
    with open(os.path.join(jobdir, 'run.sh'), 'w') as f:
        f.write(''.join(script))
    size = sum(os.path.getsize(os.path.join(dp, n))
               for dp, _, ns in os.walk(jobdir) for n in ns) // (1 << 20) + 64
    img = jobdir + '.img'
    with open(img, 'wb') as f:     # mke2fs is quiet only about a file that exists
        f.truncate(size << 20)
    subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-d', jobdir, img,
                    f'{size}M'], check=True)
    return img


HERE = os.path.dirname(os.path.abspath(__file__))
KUNIT_TOOL = None      # kunit.py of the kernel source, from --kunit-tool


def kunit_cases(group, prefix=''):
    """Yield (suite.case, status) from kunit.py's JSON, at every depth."""
    for case in group.get('test_cases', []):
        yield f'{prefix}{case["name"]}', case['status']
    for sub in group.get('sub_groups', []):
        yield from kunit_cases(sub, f'{sub["name"]}.')


KTAP_LINE = re.compile(r'\s*(K?TAP version \d|\d+\.\.\d|(not )?ok \d|#)')


def judge_kunit(s, console, logfile, work):
    """Parse the KTAP in a console log with kunit.py and judge it.

    Every case must pass.  In 'pure' runs (no Xen) the live suites may
    skip; in 'all' runs nothing may skip.
    """
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, 'results.json')
    # Only the KTAP lines: a driver's log line that lands between a
    # suite's "KTAP version" and its "# Subtest" (a test device of the
    # frontend suite, probed from the xenbus thread, can) throws
    # kunit.py's numbering off.
    ktap = os.path.join(work, 'ktap.log')
    with open(ktap, 'w') as f:
        f.writelines(line for line in read(console).splitlines(True)
                     if KTAP_LINE.match(line))
    r = subprocess.run([sys.executable, KUNIT_TOOL, 'parse',
                        f'--json={out}', ktap],
                       capture_output=True, text=True)
    with open(os.path.join(work, 'parse.log'), 'w') as f:
        f.write(r.stdout + r.stderr)
    try:
        with open(out) as f:
            cases = list(kunit_cases(json.load(f)))
    except (OSError, ValueError):
        return Result(s, False, 'no KTAP results in the console log '
                      f'(kunit.py: {work}/parse.log)', logfile)
    counts = {}
    for _, st in cases:
        counts[st] = counts.get(st, 0) + 1
    bad = [n for n, st in cases if st not in ('PASS', 'SKIP')]
    skipped = [n for n, st in cases if st == 'SKIP']
    summary = (f'{counts.get("PASS", 0)} passed, {len(bad)} failed, '
               f'{len(skipped)} skipped of {len(cases)} KUnit cases')
    for line in re.findall(r'# \S+: (xenstore: .*reads/s)', read(console)):
        summary += f'; {line.strip()}'
    if not cases:
        return Result(s, False, 'KTAP output had no test cases', logfile)
    if bad:
        return Result(s, False, f'{summary}: {" ".join(bad[:5])}', logfile)
    if skipped and s.kunit == 'all':
        return Result(s, False, f'{summary}: skipped {" ".join(skipped[:5])}',
                      logfile)
    return Result(s, True, summary, logfile)


def triple_fault(s, out, serial, ids=None):
    """' (Xen saw dN triple-fault ...)' when the scenario's domU did.

    @ids: the domids to look at, instead of all the scenario's.
    """
    if ids is None:
        ids = re.findall(MARK + rf'domu {re.escape(s.name)}(?:-ours|-ref)?'
                         r'-a\d+ .*domid=(\d+)', read(serial))
    # Xen's ring as dom0 read it at the end, and its serial console
    # (the ring keeps only the last 16 KB).
    dmesg = read(os.path.join(out, 'xl-dmesg.txt')) + read(serial)
    for d in filter(None, ids):
        if re.search(rf'\bd{d}v\d+ Triple fault', dmesg):
            return (f' (Xen: d{d} triple-faulted, the emulator flake the '
                    'README describes)')
    return ''


def guest_down(s, out, serial, ids, console):
    """What Xen and the guest's console say of a domU that failed a step.

    triple_fault()'s words, then ' (the guest logged: ...)' with the
    first oops or panic line and the RIP that follows it, so that a
    step that failed because the kernel went down (a double fault, say)
    says so rather than only what dom0 saw missing.
    """
    return triple_fault(s, out, serial, ids) + guest_oops(console)


def guest_oops(console):
    """guest_down()'s second half: the console's oops or panic line."""
    text = read(console)
    m = re.search(r'(?:Oops:|Kernel panic|traps: PANIC:|BUG:)[^\n]*', text)
    if not m:
        return ''
    rip = re.search(r'RIP: [^\n]*', text[m.end():])
    what = m.group(0).strip() + (f', {rip.group(0).strip()}' if rip else '')
    return f' (the guest logged: {what})'


def judge_xsbench(s, res, out, serial):
    """Judge the xenstore benchmark's line in a booted domU's console."""
    m = re.search(MARK + r'xsbench (.*)', read(res.logfile))
    if not m:
        return Result(s, False, 'no xsbench line in the console log'
                      + triple_fault(s, out, serial), res.logfile)
    f = parse_fields(m.group(1))
    if f.get('errors') != '0' or f.get('reads') != '32000':
        return Result(s, False, f'xsbench: {m.group(1).strip()}',
                      res.logfile)
    return Result(s, True, f'{f["reads"]} reads in {f["seconds"]} s: '
                  f'{f["rate"]} reads/s; guest busy {f.get("busy", "?")}, '
                  f'{f.get("cpu_ms_per_kread", "?")} CPU-ms and '
                  f'{f.get("events_per_kread", "?")} xenbus events per '
                  f'1,000 reads', res.logfile, float(f['rate']))


CONTROL_STEPS = ['boot', 'vcpu-down', 'vcpu-up', 'reboot', 'shutdown']


def judge_control(s, out, serial):
    """Judge a control scenario: every step must have printed ok."""
    name = f'{s.name}-a1'
    console = os.path.join(out, 'console', f'guest-{name}.log')
    steps = domu_steps(read(serial), name, 'control')
    bad = failed_step(steps, CONTROL_STEPS)
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial})', console)
    return Result(s, True, 'xl vcpu-set down and up, xl reboot (new domid '
                  f'{steps.get("domid")}), xl shutdown', console)


def judge_repeat(s, out, serial):
    """Judge a repeated boot: every one of them reached init as PVH/PV.

    Only a scenario with a flake budget (the reference's) may have retried
    a boot; the last attempt of each boot counts.
    """
    text = read(serial)
    last = {}
    flakes = 0
    for name, idx, rest in re.findall(
            MARK + rf'domu ({re.escape(s.name)}-r(\d+)-a\d+) (.*)', text):
        if parse_fields(rest).get('result') == 'triple-fault':
            flakes += 1
        last[int(idx)] = (name, rest)
    secs = []
    for _, (name, rest) in sorted(last.items()):
        f = parse_fields(rest)
        console = os.path.join(out, 'console', f'guest-{name}.log')
        if f.get('result') != 'init':
            return Result(s, False, f'{name}: {" ".join(rest.split()[:3])} '
                          f'after {len(secs)} good boots (Xen log: {serial})',
                          console)
        m = INIT_RE.search(read(console))
        g = parse_fields(m.group(1)) if m else {}
        if g.get('guest_type') != GUEST_TYPE[s.role]:
            return Result(s, False, f'{name}: no init line of a '
                          f'{GUEST_TYPE[s.role]} guest in its console log',
                          console)
        secs.append(f.get('init_seconds', '?'))
    if len(secs) != s.repeat:
        return Result(s, False, f'{len(secs)} of {s.repeat} boots ran '
                      f'(Xen log: {serial})', serial)
    # A guest that powers off within dom0's 0.1 s poll of its console
    # reached init at a time nobody saw: it counts as a boot, not as a time.
    timed = [float(t) for t in secs if re.fullmatch(r'\d+(\.\d+)?', t)]
    untimed = (f'; {len(secs) - len(timed)} boot(s) powered off before '
               'dom0 saw their init line, not timed' if len(timed) < len(secs)
               else '')
    retried = (f'; {flakes} triple fault(s) retried ({s.flake_note})'
               if flakes else '')
    mean = sum(timed) / len(timed) if timed else None
    timing = (f'; create to init min {min(timed):.1f} s, mean {mean:.2f} s, '
              f'max {max(timed):.1f} s' if timed else '')
    return Result(s, True, f'{s.repeat} boots in a row reached init{timing}'
                  f'{untimed}{retried}', serial, mean)


DEBIAN_STEPS = ['boot', 'multiuser', 'ping', 'shutdown', 'fsck']
DEBIAN_IO_STEPS = ['boot', 'written', 'reboot', 'block-attach',
                   'block-detach', 'block-reattach', 'block-resize',
                   'block-discard', 'shutdown', 'fsck']
DEBIAN_PAIR_STEPS = ['boot', 'multiuser', 'ping', 'iperf', 'shutdown',
                     'fsck']
DEBIAN_IO_PAIR_STEPS = ['boot', 'fio', 'shutdown', 'fsck']
DEBIAN_NET_STEPS = ['boot', 'multiuser', 'ping', 'iperf', 'detach', 'attach',
                    'untrusted-detach', 'untrusted-attach', 'untrusted',
                    'shutdown', 'fsck']


def fio_rate(text):
    """'129MB/s' or '1.2GB/s' in MB/s; '12.3k' IOPS as a number."""
    m = re.match(r'([\d.]+)([kMG]?)', text or '')
    if not m:
        return None
    scale = {'': 1, 'k': 1e3, 'M': 1, 'G': 1e3}[m.group(2)]
    if text.endswith('B/s') and m.group(2) == 'k':
        scale = 1e-3
    return float(m.group(1)) * scale


def judge_debian_io(s, out, serial, steps, console):
    """The disk checks' lines: data intact twice, fio figures present."""
    bad = failed_step(steps, DEBIAN_IO_STEPS)
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial})', console)
    text = read(console)
    w = re.search(MARK + r'io written (.*)', text)
    a = re.search(MARK + r'io after-reboot=(\S+)', text)
    f = re.search(MARK + r'io fio (.*)', text)
    if not (w and a and f):
        return Result(s, False, 'missing io lines in the console log',
                      console)
    if parse_fields(w.group(1)).get('read-back') != 'ok' or \
            a.group(1).strip() != 'ok':
        return Result(s, False, f'data mismatch: {w.group(0).strip()}; '
                      f'{a.group(0).strip()}', console)
    g = parse_fields(f.group(1))
    iops = fio_rate(g.get('randread_4k_iops'))
    bw = fio_rate(g.get('seqread_1m'))
    if iops is None or bw is None:
        return Result(s, False, f'no fio figures: {f.group(0).strip()}',
                      console)
    r = Result(s, True, f'256 MiB intact after read-back and xl reboot; fio '
               f'4k randread {iops:.0f} IOPS, 1M seqread {bw:.1f} MB/s; '
               'scratch disk attached, written, detached, attached and read '
               'back intact, grown from 32 to 64 MiB, 4 MiB discarded (zeros, '
               f'file down to {steps.get("kib")} KiB); e2fsck clean', console)
    r.fio = (iops, bw)
    return r


def judge_debian_net(s, out, serial, steps, console):
    """Every step ok, iperf3 figures present, no oops in the guest."""
    bad = failed_step(steps, DEBIAN_NET_STEPS)
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial}; guest: '
                      f'{console})' + guest_down(s, out, serial, None,
                                                 console), console)
    # Storm protection must never hold back a working vif's events.
    text = read(console)
    bad = re.search(r'(Oops|BUG:|WARNING:|Call Trace|raises spurious '
                    r'events).*', text)
    if bad:
        return Result(s, False, f'guest logged: {bad.group(0).strip()}',
                      console)
    # The last vif was attached untrusted: the toolstack said so, and
    # our netfront (upstream's says nothing) said it copies.
    if steps.get('trusted_node') != '0':
        return Result(s, False, 'vif attached untrusted, but its trusted '
                      f'node is {steps.get("trusted_node")!r}, not 0 '
                      f'(dom0 log: {serial})', console)
    copies = len(re.findall(r'backend not trusted: packets are copied',
                            text))
    if s.kernel == 'ours' and copies != 1:
        return Result(s, False, f'vif attached untrusted: {copies} lines '
                      'say "backend not trusted: packets are copied", '
                      'expected 1', console)
    # Each direction: the median round (the check runs one), and the
    # domU's notifications per MB moved in that round (10 s at the
    # receiver's rate).
    figs = []
    for way in ('to_domu', 'from_domu'):
        mbps = [float(x) for x in steps[f'{way}_mbps'].split(',')]
        events = [int(x) for x in steps[f'{way}_events'].split(',')]
        k = sorted(range(len(mbps)), key=mbps.__getitem__)[len(mbps) // 2]
        figs.append((mbps[k], events[k] / (mbps[k] * 10 / 8)))
    (to, to_ev), (frm, frm_ev) = figs
    r = Result(s, True, f'multi-user in {steps.get("seconds")} s; ping lost '
               f'0 of 20; iperf3, '
               f'{f"median of {len(mbps)}" if len(mbps) > 1 else "10 s"}: '
               'dom0->domU '
               f'{to:.0f} Mbit/s ({to_ev:.1f} notifications/MB), '
               f'domU->dom0 {frm:.0f} Mbit/s ({frm_ev:.1f}/MB); vif '
               'detached, attached, ping lost 0 of 20; attached untrusted'
               f'{", netfront copies," if s.kernel == "ours" else ""} '
               f'domU->dom0 {float(steps["from_domu_mbps_untrusted"]):.0f} '
               'Mbit/s; xl shutdown, e2fsck clean', console)
    r.iperf = figs
    return r


def debian_boot(text, out, name, wanted):
    """One Debian boot's console, steps and first step not ok (or None)."""
    console = os.path.join(out, 'console', f'guest-{name}.log')
    steps = domu_steps(text, name, 'debian')
    return console, steps, failed_step(steps, wanted)


# What a pair scenario measures: (key, label, unit) of each figure.
PAIR_FIGURES = {
    'net': (('to_domu', 'dom0->domU', 'Mbit/s'),
            ('from_domu', 'domU->dom0', 'Mbit/s')),
    'io': (('randread', '4k randread', 'IOPS'),
           ('seqread', '1M seqread', 'MB/s')),
}
# And what each 1,000 of the random reads cost, lower is better: the
# events the domU took and sent (EVTCHNOP_send, counted by dom0), all
# the domU's interrupts (its IPIs and timers too) and context switches
# (/proc/stat), and the CPU time of each domain.
IO_COSTS = (('events', 'events taken', ''), ('sent', 'notifications sent', ''),
            ('intr', 'domU interrupts (all)', ''),
            ('ctxt', 'domU context switches', ''),
            ('domu_ms', 'domU CPU', 'ms'), ('dom0_ms', 'dom0 CPU', 'ms'))


def pair_figures(s, steps, console):
    """One bench boot's figures, {key: [value of each round]}, or None."""
    if s.netio:
        return {way: [float(x) for x in steps[f'{way}_mbps'].split(',')]
                for way in ('to_domu', 'from_domu')}
    f = re.search(MARK + r'io fio (.*)', read(console))
    g = parse_fields(f.group(1)) if f else {}
    iops = fio_rate(g.get('randread_4k_iops'))
    bw = fio_rate(g.get('seqread_1m'))
    if iops is None or bw is None:
        return None
    figs = {'randread': [iops], 'seqread': [bw]}
    try:
        kio = int(g['randread_ios']) / 1000
        figs.update(events=[int(g['randread_events']) / kio],
                    sent=[int(steps['randread_sent']) / kio],
                    domu_ms=[float(steps['randread_domu_s']) * 1e3 / kio],
                    dom0_ms=[float(steps['randread_dom0_s']) * 1e3 / kio])
        figs.update(intr=[int(g['randread_intr']) / kio],
                    ctxt=[int(g['randread_ctxt']) / kio])
    except (KeyError, ValueError, ZeroDivisionError):
        pass                    # the figures without (all) their costs
    return figs


# Student's t for a two-sided 95% interval, by degrees of freedom 1-31
# (XEN_PVOPS_PAIRS allows up to 32 pairs).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
       2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
       2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
       2.048, 2.045, 2.042, 2.040)


def ratio_interval(ratios):
    """The mean of the pairs' ours/ref ratios with its 95% interval, and
    what that interval tells: ours ahead, behind, or not told apart
    (below 1 and above 1 both inside it); one pair gives no interval."""
    if len(ratios) < 2:
        return 'one pair: no interval'
    m = statistics.mean(ratios)
    h = T95[len(ratios) - 2] * statistics.stdev(ratios) / len(ratios) ** 0.5
    verdict = ('ours ahead' if m - h > 1 else 'ours behind' if m + h < 1
               else 'not told apart')
    return f'{m:.2f} +- {h:.2f} (95%), {verdict}'


def judge_pairs(s, out, serial):
    """Every boot of both kernels ran its benchmark; the figures.

    The scenario passes when all its steps did; the ratios are reported,
    not judged (a benchmark does not gate).  A pair that dom0 dropped
    for a triple fault (run_pairs) is named with its log, and its
    figures are left out: the ratios come from the complete pairs.  A
    failed run names its first failure, then gives the figures of the
    pairs complete before it, marked as such.
    """
    text = read(serial)
    kind = 'net' if s.netio else 'io'
    wanted = DEBIAN_PAIR_STEPS if s.netio else DEBIAN_IO_PAIR_STEPS
    rounds = {}                 # (kernel, key) -> [figure of each round]
    pair_ratio = {key: [] for key, _, _ in PAIR_FIGURES[kind]}
    dropped = {int(m.group(1)): (m.group(2), m.group(3)) for m in re.finditer(
        MARK + rf'domu {re.escape(s.name)} pair=(\d+) dropped '
        r'kernel=(\w+) domid=(\d+)', text)}
    notes, complete, fail = [], 0, None
    for k in range(1, s.pairs + len(dropped) + 1):
        if fail or complete == s.pairs:
            break
        if k in dropped:
            kern, dom = dropped[k]
            notes.append(f'pair {k} dropped: Xen saw the {kern} domU (d{dom}) '
                         'triple-fault, the emulator flake the README '
                         'describes (guest: ' + os.path.join(
                             out, 'console', f'guest-{s.name}-{kern}-a{k}.log')
                         + ')')
            continue
        complete += 1
        means, pair_rounds = {}, {}
        # In the order they booted, so that a failure names the first.
        for kern in ('ours', 'ref') if complete % 2 else ('ref', 'ours'):
            console, steps, bad = debian_boot(text, out, f'{s.name}-{kern}-a{k}',
                                              wanted)
            oops = re.search(r'(Oops|BUG:|WARNING:|Call Trace).*',
                             read(console))
            figs = pair_figures(s, steps, console) if not bad else None
            if bad:
                fail = (f'pair {k}, {kern}: {bad} (dom0 log: {serial}; '
                        f'guest: {console})' + guest_down(
                            s, out, serial, [steps.get('domid')], console),
                        console)
            elif oops:
                fail = (f'pair {k}, {kern}: guest logged: '
                        f'{oops.group(0).strip()}', console)
            elif not figs:
                fail = (f'pair {k}, {kern}: no figures in the guest\'s '
                        f'console: {console}', console)
            if fail:
                break
            for key, vals in figs.items():
                pair_rounds[kern, key] = vals
                means[kern, key] = statistics.mean(vals)
        if fail:
            break
        for kk, vals in pair_rounds.items():
            rounds.setdefault(kk, []).extend(vals)
        for key in pair_ratio:
            pair_ratio[key].append(means['ours', key] / means['ref', key])
    done = len(next(iter(pair_ratio.values())))
    if fail and done < 2:
        return Result(s, False, fail[0], fail[1])
    figs, words = {}, []
    for key, label, unit in PAIR_FIGURES[kind]:
        om, osd = (statistics.mean(rounds['ours', key]),
                   statistics.stdev(rounds['ours', key]))
        rm, rsd = (statistics.mean(rounds['ref', key]),
                   statistics.stdev(rounds['ref', key]))
        pr = pair_ratio[key]
        interval = ratio_interval(pr)
        figs[label] = (om / rm, min(pr), max(pr), interval)
        words.append(f'{label} ours {om:.0f} +- {osd:.0f}, ref {rm:.0f} +- '
                     f'{rsd:.0f} {unit} (mean +- sd of '
                     f'{len(rounds["ours", key])} rounds), ratio of means '
                     f'{om / rm:.2f}, of each pair '
                     f'{", ".join(f"{x:.2f}" for x in pr)}, their mean '
                     f'{interval}')
    costs = [f'{label} ours {statistics.mean(rounds["ours", key]):.1f}, '
             f'ref {statistics.mean(rounds["ref", key]):.1f}{unit}'
             for key, label, unit in (IO_COSTS if kind == 'io' else ())
             if ('ours', key) in rounds and ('ref', key) in rounds]
    if costs:
        words.append('per 1,000 4k reads: ' + ', '.join(costs))
    if fail:
        return Result(s, False, f'{fail[0]}; before it, not a result of '
                      f'the {s.pairs} pairs asked for: {done} complete '
                      'pairs: ' + '; '.join(words + notes), fail[1])
    r = Result(s, True, f'{s.pairs} pairs: ' + '; '.join(words + notes),
               serial)
    r.pairs = figs
    return r


def judge_debian_repeat(s, out, serial):
    """Every boot of a repeated Debian scenario: all its steps ok."""
    text = read(serial)
    secs = []
    for k in range(1, s.repeat + 1):
        console, steps, bad = debian_boot(text, out, f'{s.name}-a{k}',
                                          DEBIAN_STEPS)
        if bad:
            return Result(s, False, f'boot {k} of {s.repeat}: {bad} (dom0 '
                          f'log: {serial})' + guest_down(
                              s, out, serial, [steps.get('domid')], console),
                          console)
        secs.append(float(steps.get('seconds', 'nan')))
    return Result(s, True, f'{s.repeat} boots in a row: multi-user in '
                  f'{min(secs):.1f}-{max(secs):.1f} s, ping lost 0 of 20 '
                  'each time, xl shutdown, e2fsck clean after each',
                  os.path.join(out, 'console'))


def judge_debian(s, out, serial):
    """Judge a Debian scenario: every step must have printed ok."""
    if s.repeat:
        return judge_debian_repeat(s, out, serial)
    name = f'{s.name}-a1'
    console = os.path.join(out, 'console', f'guest-{name}.log')
    steps = domu_steps(read(serial), name, 'debian')
    if s.io:
        return judge_debian_io(s, out, serial, steps, console)
    if s.netio:
        return judge_debian_net(s, out, serial, steps, console)
    bad = failed_step(steps, [st for st in DEBIAN_STEPS
                              if s.net or st != 'ping'])
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial})' + guest_down(
            s, out, serial, [steps.get('domid')], console), console)
    ping = 'ping lost 0 of 20, ' if s.net else 'no vif, '
    return Result(s, True, f'multi-user in {steps.get("seconds")} s, {ping}'
                  'xl shutdown, e2fsck clean', console)


# Each hostile case (rootfs/bad-backend.sh): its device, and the one line
# the frontend must log, or None where the backend did nothing wrong.
BLKBAD_LINES = {'51712': r'vbd-51712: backend sector-size 3000',
                '51728': r'vbd-51728: backend sectors 0',
                '51744': r'vbd-51744: backend sectors 7',
                '51760': r'vbd-51760: backend \S+: answered unknown id 200',
                '51776': r'vbd-51776: backend max-ring-page-order 40, not '
                         r'0 to 31',
                '51792': r'vbd-51792: backend multi-queue-max-queues 0, '
                         r'not 1 to',
                '51808': r'vbd-51808: backend feature-max-indirect-segments '
                         r'100000, not 0 to 4096',
                '51824': r'vbd-51824: backend \S+: answered with unknown '
                         r'status 77',
                '51840': r'vbd-51840: backend \S+: claims responses up to '
                         r'index 2',
                '51856': r'vbd-51856: backend \S+: claims responses up to '
                         r'index 1000',
                '51872': r'vbd-51872: backend \S+: answered with operation 3',
                '51888': r'vbd-51888: backend \S+: held past the timeout the '
                         r'request of id \d+',
                '51904': r'vbd-51904: backend \S+: held past closing the '
                         r'request of id \d+',
                '51920': None,
                '51936': r'vbd-51936: backend sector-size 4096, was 512',
                '51952': r'vbd-51952: backend sectors 0',
                # xvdq and xvdr: disks past xvdp take the extended form.
                '268439552': None,
                '268439808': r'vbd-268439808: backend Connected before it '
                             r'waited for us',
                '268440064': r'vbd-268440064: backend \S+: held past the '
                             r'timeout the request of id \d+'}


NETBAD_LINES = {'0': r'vif-0: backend mtu 70000',
                '1': r'vif-1: backend does not copy received packets',
                '2': r'vif-2: backend mtu 9000',
                '3': r'vif-3: backend \S+: receive response id 300',
                '4': r'vif-4: backend multi-queue-max-queues 0, not 1 to',
                '5': r'vif-5: backend \S+: receive data past the page end '
                     r'at offset 4000',
                '6': r'vif-6: backend \S+: packet of more slots than',
                '7': r'vif-7: backend \S+: extra information of type 9',
                '8': r'vif-8: backend \S+: receive flags 16',
                '9': r'vif-9: backend \S+: receive response producer 5000',
                '10': r'vif-10: backend \S+: receive response id 0',
                '11': r'vif-11: backend \S+: receive response id 300'}

# How soon, in hundredths of a second, vbd 268439552 must see its backend
# close after 1,000 Connected: a watch's events wait at most once a path.
STATEFLOOD_CLOSE_CS = 1000

# How much, in KiB, the guest's slab may grow while 50,000 Connected of
# vbd 268440064 come and the watch thread waits: one event each would be
# several MiB.
STORM_SLAB_KIB = 2048

# The line of a channel whose events, all spurious, are slowed down:
# netfront-bad's after vif-11's bad answer, and console-flood's.
SPURIOUS_LINES = [r'port \d+ \(irq \d+\) raises spurious events; delaying them']


def judge_bad(s, out, serial):
    """Each bad device closed with exactly one line; no oops; shutdown."""
    name = f'{s.name}-a1'
    console = os.path.join(out, 'console', f'guest-{name}.log')
    what, kind, lines, also = (('blkbad', 'vbd', BLKBAD_LINES, [])
                               if s.blkbad else
                               ('netbad', 'vif', NETBAD_LINES,
                                SPURIOUS_LINES))
    if s.cases:
        lines = {v: p for v, p in lines.items() if v in s.cases.split()}
        also = also if '11' in lines and s.netbad else []
    if s.survey:
        return judge_survey(s, out, read(serial), what, kind, lines)
    steps = domu_steps(read(serial), name, what)
    bad = failed_step(steps, ['boot'] + [f'{kind}{v}' for v in lines] +
                      ['leaks', 'shutdown'])
    if bad:
        last = steps.get('last')
        if last:
            bad += f' (grants and irqs at the end: {last})'
        return Result(s, False, f'{bad} (dom0 log: {serial})', console)
    text = read(console)
    for v, pat in lines.items():
        if pat is None:
            # Nothing wrong was done: the device logs no closing line.
            pat = rf'{kind}-{v}: backend \S+: .*; closing'
            want = 0
        else:
            want = 1
        n = len(re.findall(pat, text))
        if n != want:
            return Result(s, False, f'{kind} {v}: {n} lines match {pat!r}, '
                          f'expected {want}', console)
    for pat in also:
        if not re.search(pat, text):
            return Result(s, False, f'no line matches {pat!r}', console)
    # 50,000 Connected while the watch thread waits: no event kept each.
    growth = steps.get('slab_growth')
    if s.blkbad and '268440064' in lines and (
            growth is None or int(growth) > STORM_SLAB_KIB):
        return Result(s, False, 'vbd 268440064: the slab grew by '
                      f'{growth} KiB under 50,000 Connected while the watch '
                      f'thread waited (at most {STORM_SLAB_KIB})', console)
    # After 1,000 Connected, the close must not wait for their handling.
    closed_in = steps.get('closed_in')
    if s.blkbad and '268439552' in lines and (not closed_in or int(closed_in) > STATEFLOOD_CLOSE_CS):
        return Result(s, False, 'vbd 268439552 saw its backend close '
                      f'{int(closed_in or 0) / 100} s after 1,000 '
                      f'Connected (at most {STATEFLOOD_CLOSE_CS / 100} s)',
                      console)
    bad = re.search(r'(Oops|BUG:|WARNING:|Call Trace).*', text)
    if bad:
        return Result(s, False, f'guest logged: {bad.group(0).strip()}',
                      console)
    closed = sum(p is not None for p in lines.values())
    return Result(s, True, f'{len(lines)} {kind} cases: {closed} closed '
                  f'with one log line each, {len(lines) - closed} kept '
                  'working; then every grant and irq given back; guest '
                  'shut down', console)


def judge_conflood(s, out, serial):
    """A console channel flooded: slowed down, and the guest lives on."""
    name = f'{s.name}-a1'
    console = os.path.join(out, 'console', f'guest-{name}.log')
    steps = domu_steps(read(serial), name, 'conflood')
    bad = failed_step(steps, ['boot', 'flood', 'shutdown'])
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial})', console)
    text = read(console)
    for pat in SPURIOUS_LINES:
        if not re.search(pat, text):
            return Result(s, False, f'no line matches {pat!r}: the events '
                          'were not taken for spurious', console)
    oops = re.search(r'(Oops|BUG:|WARNING:|Call Trace).*', text)
    if oops:
        return Result(s, False, f'guest logged: {oops.group(0).strip()}',
                      console)
    return Result(s, True, '20,000 events on the console channel, each '
                  'moving nothing, taken for spurious and slowed down; '
                  'guest shut down', console)


def survey_domus(s):
    """How many domUs a survey boots (one a case); 0 for the rest."""
    if not s.survey:
        return 0
    lines = BLKBAD_LINES if s.blkbad else NETBAD_LINES
    return len([v for v in lines if not s.cases or v in s.cases.split()])


def judge_survey(s, out, text, what, kind, lines):
    """What a kernel survived of the hostile cases, one domU a case.

    For each case: whether the frontend did what ours must (closed, or
    kept working where nothing was wrong), whether it gave back every
    grant and irq once the backend closed (unknown where the kernel has
    no debugfs xen/grants), whether the guest still shut down, and the
    first oops it logged.  It passes when every case was tried.
    """
    tried = handled = down = oopsed = 0
    for v in lines:
        name = f'{s.name}-{v}-a1'
        steps = domu_steps(text, name, what)
        console = os.path.join(out, 'console', f'guest-{name}.log')
        oops = re.search(r'(Oops|BUG:|WARNING:|Call Trace|panic).*',
                         read(console))
        st = steps.get(f'{kind}{v}', 'not tried')
        why = steps.lines.get(f'{kind}{v}', '')
        tried += st != 'not tried'
        handled += st == 'ok'
        down += steps.get('shutdown') == 'ok'
        oopsed += bool(oops)
        log(f'  survey {s.name} {kind} {v}: case {st}'
            + (f' ({why})' if st not in ('ok', 'not tried') else '')
            + f'; leaks {steps.get("leaks", "unknown")}'
            + f'; shutdown {steps.get("shutdown", "not reached")}'
            + (f'; logged: {oops.group(0).strip()[:100]}' if oops else ''))
    summary = (f'{handled} of {len(lines)} {kind} cases handled as ours '
               f'must, {len(lines) - handled} not (stuck or failed: see '
               f'the lines above); {down} domUs shut down, {oopsed} logged '
               'an oops or warning')
    return Result(s, tried == len(lines), summary,
                  os.path.join(out, 'console'))


def judge_domu(s, out, serial):
    """Judge a domU scenario from dom0's lines and its console logs."""
    if s.conflood:
        return judge_conflood(s, out, serial)
    if s.blkbad or s.netbad:
        return judge_bad(s, out, serial)
    if s.debian and s.pairs:
        return judge_pairs(s, out, serial)
    if s.debian:
        return judge_debian(s, out, serial)
    if s.repeat:
        return judge_repeat(s, out, serial)
    if s.control:
        return judge_control(s, out, serial)
    if s.crash:
        return judge_crash(s, out, serial)
    if s.xsbench:
        res = judge_domu_boot(s, out, serial)
        return judge_xsbench(s, res, out, serial) if res.ok else res
    if s.kunit:
        res = judge_domu_boot(s, out, serial)
        if not res.ok:
            return res
        res = judge_kunit(s, res.logfile, res.logfile,
                          os.path.join(out, 'kunit', s.name))
        return judge_xbdev(s, res) if res.ok and s.xbdev else res
    return judge_domu_boot(s, out, serial)


# The bad test devices: each must be reported once, by one clear line.
XBDEV_LINES = [r'pvopstest-1: .*backend-id is not a domain id',
               r'pvopstest-2: .*holds "42", not a state: closing']


def judge_xbdev(s, res):
    """Judge the log lines of the bad test devices (xbtest_setup)."""
    text = read(res.logfile)
    for pat in XBDEV_LINES:
        n = len(re.findall(pat, text))
        if n != 1:
            return Result(s, False, f'{n} log lines match {pat!r}, '
                          'expected exactly 1', res.logfile)
    return Result(s, True, res.why + '; bad backends logged once each',
                  res.logfile)


def last_attempt(s, out, serial):
    """dom0's last attempt at a busybox domU: (name, rest, console, retries).

    rest is the text of its result line, console its console log, and
    retries the number of earlier attempts that triple-faulted (the
    reference's flake retries), each logged here.  None when dom0 never
    ran it.
    """
    lines = re.findall(MARK + rf'domu ({re.escape(s.name)}-a\d+) (.*)',
                       read(serial))
    if not lines:
        return None
    retries = 0
    for n, rest in lines:
        if parse_fields(rest).get('result') == 'triple-fault':
            retries += 1
            log(f'{s.name}: attempt {n} triple-faulted: known reference '
                f'flake ({s.flake_note}); log '
                f'{os.path.join(out, "console", f"guest-{n}.log")}')
    name, rest = lines[-1]
    return name, rest, os.path.join(out, 'console', f'guest-{name}.log'), \
        retries


def judge_domu_boot(s, out, serial):
    """Judge that a domU booted to init, and its clock if asked."""
    last = last_attempt(s, out, serial)
    if not last:
        return Result(s, False, 'dom0 never ran this domU', serial)
    name, rest, console, retries = last
    f = parse_fields(rest)
    if f.get('result') != 'init':
        return Result(s, False, f'{" ".join(rest.split()[:3])} (Xen log: '
                      f'{serial})', console)
    m = INIT_RE.search(read(console))
    if not m:
        return Result(s, False, 'dom0 saw init, but the console log '
                      'extracted from the job disk lacks it', console)
    # Reaching init and powering off do not make a guest that oopsed
    # (or died) on the way well.
    oops = re.search(r'(Oops|BUG:|Kernel panic|WARNING:).*', read(console))
    if oops:
        return Result(s, False, f'guest logged: {oops.group(0).strip()}',
                      console)
    g = parse_fields(m.group(1))
    want = GUEST_TYPE[s.role]
    if g.get('hypervisor') != 'xen' or g.get('guest_type') != want:
        return Result(s, False, f'booted as hypervisor={g.get("hypervisor")} '
                      f'guest_type={g.get("guest_type")}, expected xen/{want}',
                      console)
    extra = f', {retries} flake retr{"y" if retries == 1 else "ies"}' \
        if retries else ''
    why = judge_sys_hypervisor(s, name, read(console), read(serial))
    if why:
        return Result(s, False, why, console)
    if s.clock:
        return judge_clock(s, name, read(console), read(serial), extra,
                           console)
    return Result(s, True, f'create to init {f.get("init_seconds")} s '
                  f'(uptime {g.get("uptime")} s), to power-off '
                  f'{f.get("seconds")} s, cpus={g.get("cpus")}{extra}',
                  console)


# What guest-init's pvops.crash lines carry after their number.
CRASH_PAYLOAD = ('0123456789abcdefghijklmnopqrstuvwxyz'
                 'ABCDEFGHIJKLMNOPQRSTUVWXYZ+-')


def judge_crash(s, out, serial):
    """Judge a console that took a flood of printk lines, then a panic.

    Every numbered line must be there once, whole and in order; after
    them the panic line and its trace to the end; no other oops; and
    xl's log must say the domain shut down for a crash (reason code 3),
    which it does only when the kernel told Xen.  With a stall, lines
    must have been dropped instead (those that are whole still in
    order), the kernel must say it logged the stall once, and the panic
    comes after that.
    """
    last = last_attempt(s, out, serial)
    if not last:
        return Result(s, False, 'dom0 never ran this domU', serial)
    name, rest, console, _ = last
    f = parse_fields(rest)
    ctext = read(console)
    if not INIT_RE.search(ctext):
        return Result(s, False, f'{" ".join(rest.split()[:3])}: no init '
                      f'(Xen log: {serial})', console)
    got = [(m.start(), int(m.group(1)), int(m.group(2)), m.group(3))
           for m in re.finditer(MARK + r'console (\d+)/(\d+) ([^\r\n]*)',
                                ctext)]
    whole = [i for _, i, total, body in got
             if total == s.crash and body == CRASH_PAYLOAD]
    missing = sorted(set(range(1, s.crash + 1)) - set(whole))
    if s.stall and not missing:
        return Result(s, False, f'all {s.crash} printk lines came through '
                      f'a console stopped for {s.stall} s: was it stopped? '
                      f'(Xen log: {serial})', console)
    if not s.stall and missing:
        return Result(s, False, f'{len(missing)} of {s.crash} printk lines '
                      f'missing or damaged (the first: {missing[:1]}), '
                      f'{len(whole)} whole ones', console)
    if whole != sorted(set(whole)):
        return Result(s, False, 'the printk lines are out of order or '
                      'repeated', console)
    tail = ctext[got[-1][0]:] if got else ''
    if s.stall:
        m = re.search(MARK + r'console stall logged=(\d+)', tail)
        if not m or m.group(1) != '1':
            return Result(s, False, 'the kernel logged the stall '
                          f'{m.group(1) if m else "(no answer)"} times, '
                          'not once', console)
        tail = tail[m.end():]
    m = re.search(r'Kernel panic - not syncing: sysrq triggered crash', tail)
    if not m:
        return Result(s, False, 'no panic line after the printk lines',
                      console)
    if '</TASK>' not in tail[m.end():]:
        return Result(s, False, "the panic's trace is cut short", console)
    oops = re.search(r'(Oops|BUG:|WARNING:).*', ctext)
    if oops:
        return Result(s, False, f'guest logged: {oops.group(0).strip()}',
                      console)
    if f.get('result') != 'init' or f.get('crashed') != '1':
        return Result(s, False, 'Xen was not told of the panic '
                      f'({" ".join(rest.split()[:3])}; xl has no "reason '
                      f'code 3" for it in {out}/{name}.xl.log)', console)
    if s.stall:
        return Result(s, True, f'xenconsoled stopped for {s.stall} s: '
                      f'{len(missing)} of {s.crash} printk lines dropped, '
                      'the stall logged once, no hang; then the panic with '
                      'its whole trace; Xen told of the crash; '
                      f'{f.get("seconds")} s from create', console)
    kib = s.crash * len(f'{MARK}console {s.crash}/{s.crash} '
                        f'{CRASH_PAYLOAD}\n') // 1024
    return Result(s, True, f'{s.crash} printk lines (about {kib} KiB) whole '
                  'and in order, then the panic with its whole trace; Xen '
                  f'told of the crash; {f.get("seconds")} s from create',
                  console)


def judge_sys_hypervisor(s, name, console_text, serial_text):
    """Check the guest's /sys/hypervisor against dom0; '' when it agrees.

    Our kernel must print the line; the reference's is checked if there.
    """
    m = re.search(MARK + r'sys-hypervisor (.*)', console_text)
    if not m:
        return ('no sys-hypervisor line: /sys/hypervisor/version missing'
                if s.kernel == 'ours' else '')
    g = parse_fields(m.group(1))
    want_uuid = re.search(MARK + rf'domu {re.escape(name)} uuid=(\S+)',
                          serial_text)
    want_xen = re.search(MARK + r'dom0 up .*xen=(\S+)', serial_text)
    if not want_uuid or g.get('uuid') != want_uuid.group(1).strip():
        return (f'/sys/hypervisor/uuid {g.get("uuid")}, xl says '
                f'{want_uuid.group(1).strip() if want_uuid else "nothing"}')
    if not want_xen or g.get('version') != want_xen.group(1).strip():
        return (f'/sys/hypervisor version {g.get("version")}, xl info says '
                f'{want_xen.group(1).strip() if want_xen else "nothing"}')
    if g.get('pagesize') != '1000':
        return f'/sys/hypervisor/properties/pagesize {g.get("pagesize")}'
    return ''


def judge_clock(s, name, console_text, serial_text, extra, console):
    """Compare the guest's clock over its sleep with dom0's."""
    up = dict(re.findall(MARK + r'clock (start|end) uptime=([\d.]+)',
                         console_text))
    m = re.search(MARK + rf'domu {re.escape(name)} clock dom0_seconds=([\d.]+)',
                  serial_text)
    if len(up) != 2 or not m:
        return Result(s, False, 'no clock lines from the guest or dom0',
                      console)
    guest = float(up['end']) - float(up['start'])
    dom0 = float(m.group(1))
    ratio = guest / dom0 if dom0 else 0.0
    # dom0 sees each line within its 0.1 s poll: allow that on top of 1%.
    ok = abs(guest - dom0) <= 0.01 * dom0 + 0.2
    return Result(s, ok, f'guest {guest:.2f} s vs dom0 {dom0:.2f} s over a '
                  f'{s.clock} s sleep, ratio {ratio:.4f}{extra}', console)


# dom0 says "alive" every 30 s; this long without a line, it is hung.
STALL = int(os.environ.get('XEN_PVOPS_STALL', '300'))


def run_xen(dom0_kernel, scens, kernels, assets, logdir):
    domus = [s for s in scens if s.role in GUEST_TYPE]
    d = os.path.join(logdir, f'xen-dom0-{dom0_kernel}')
    os.makedirs(d, exist_ok=True)
    serial = os.path.join(d, 'serial.log')
    jobdir = os.path.join(d, 'job')
    img = make_job(jobdir, kernels, assets, domus)
    # A pair scenario may replace up to half its pairs (run_pairs).
    budget = 120 + sum(s.timeout * max(1, s.repeat,
                                       2 * (s.pairs + (s.pairs + 1) // 2),
                                       survey_domus(s)) *
                       (1 + s.flake_retries)
                       for s in domus)
    budget, cut = limit(budget)
    if budget <= 0:
        return [Result(s, False, 'not run: make check\'s deadline '
                       '(XEN_PVOPS_DEADLINE) had passed', d) for s in scens]
    log(f'booting Xen 4.17 + {dom0_kernel} dom0 with '
        f'{len(domus)} domU(s): {", ".join(s.name for s in domus) or "none"}'
        f' (limit {budget} s)')
    # XEN_PVOPS_TCG=single: one host thread for both emulated CPUs.
    tcg = os.environ.get('XEN_PVOPS_TCG', 'multi')
    sockdir = tempfile.mkdtemp(prefix='pvops-qemu-')
    monitor = os.path.join(sockdir, 'monitor')
    qemu = QEMU[:]
    qemu[qemu.index('-monitor') + 1] = f'unix:{monitor},server=on,wait=off'
    cmd = qemu + ['-accel', f'tcg,thread={tcg}',
                  '-smp', '2', '-m', '3072', '-serial', 'file:' + serial,
                  '-kernel', os.path.join(assets, 'xen-4.17'),
                  '-append', XEN_ARGS,
                  '-initrd', f'{kernels[dom0_kernel]} {DOM0_ARGS}',
                  '-drive', 'file=' + os.path.join(assets, 'dom0.img') +
                  ',if=virtio,format=raw,snapshot=on',
                  '-drive', f'file={img},if=virtio,format=raw']
    if any(s.debian for s in domus):
        # dom0's /dev/vdc; writes go to a throw-away overlay.
        cmd += ['-drive', 'file=' + os.path.join(assets, 'debian-domu.img')
                + ',if=virtio,format=raw,snapshot=on']
    in_time, secs = run_qemu(cmd, serial, budget, stall=STALL,
                             monitor=monitor)
    shutil.rmtree(sockdir, ignore_errors=True)
    # The job disk's out/ holds the domU consoles and dom0's reports.
    out = os.path.join(d, 'out')
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(['debugfs', '-R', f'rdump /out {d}', img],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.remove(img)
    results = judge_xen(scens, d, in_time)
    if in_time is None or (not in_time and cut):
        for r in results:
            if not r.ok:
                r.why += (f' (the machine hung: no line from dom0 for {STALL}'
                          f' s; its CPUs: {serial}.cpus)' if in_time is None
                          else ' (the run was stopped at make check\'s '
                          'deadline)')
    if in_time is False:
        log(f'Xen boot with {dom0_kernel} dom0 hit its {budget} s limit' +
            (' (make check\'s deadline, XEN_PVOPS_DEADLINE)' if cut else '') +
            f'; the serial log {serial} shows where it stood')
    return results


def judge_dom0(s, serial, in_time=True):
    """Judge dom0 itself from the serial log of its Xen boot."""
    text = read(serial)
    m = re.search(MARK + r'dom0 up (.*)', text)
    if not m:
        why = re.search(MARK + r'dom0 FAILED: (.*)', text)
        return Result(s, False, why.group(1) if why else
                      'dom0 never came up', serial)
    f = parse_fields(m.group(1))
    if not (f.get('xenstored') and f.get('xenconsoled')):
        return Result(s, False, 'toolstack daemons not running', serial)
    if f.get('guest_type') != 'PV':
        return Result(s, False, 'dom0 guest_type='
                      f'{f.get("guest_type")}, expected PV', serial)
    if re.search(r'Kernel panic|Dom0 crashed', text):
        return Result(s, False, 'dom0 crashed: '
                      + re.search(r'(Kernel panic.*|Dom0 crashed.*)',
                                  text).group(1), serial)
    if not re.search(MARK + r'job done', text):
        return Result(s, False, 'dom0 did not finish its job'
                      f' ({"timeout" if not in_time else "stopped"})',
                      serial)
    return Result(s, True, f'Xen {f.get("xen")}, xenstored and xenconsoled '
                  'up', serial)


def judge_xen(scens, d, in_time=True):
    """Judge the scenarios of one Xen boot from what it left in @d."""
    serial = os.path.join(d, 'serial.log')
    out = os.path.join(d, 'out')
    results = []
    for s in scens:
        try:
            results.append(judge_dom0(s, serial, in_time) if s.role == 'dom0'
                           else judge_domu(s, out, serial))
        except Exception as e:  # noqa: BLE001 -- one judge, not the run
            # A harness bug: fail this scenario, keep the others' results.
            results.append(Result(s, False, 'the harness could not judge '
                                  f'it ({type(e).__name__}: {e}); its '
                                  f'lines are in {serial}', serial))
    return results


def rejudge(logdir, scens):
    """Judge again the saved logs of a run, for those of @scens it ran.

    For a change to a judge, or to the harness itself: the same logs must
    get the same verdicts.  A run that hit its limit is judged as one
    that ended in time.
    """
    results = []
    for s in scens:
        d = os.path.join(logdir, s.name if s.role == 'native' else
                         f'xen-dom0-{s.dom0 or s.kernel}')
        text = read(os.path.join(d, 'serial.log'))
        if not text or (s.role in GUEST_TYPE and not re.search(
                MARK + rf'domu {re.escape(s.name)}-', text)):
            continue
        results += (judge_xen([s], d) if s.role != 'native'
                    else [judge_native(s, d)])
    for r in results:
        print(f'{"PASS" if r.ok else "FAIL"} {r.scen.name}: {r.why} '
              f'(log: {r.logfile})')
    npass = sum(r.ok for r in results)
    print(f'harness: {npass} passed, {len(results) - npass} failed '
          '(re-judged)')
    return 0 if npass == len(results) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument('--ours', help="our bzImage")
    ap.add_argument('--ref', help='reference bzImage')
    ap.add_argument('--assets', help='directory made by assets.sh')
    ap.add_argument('--logs', help='where the run keeps its logs')
    ap.add_argument('--kunit-tool', help="the kernel's kunit.py, to parse "
                    'KTAP (for kunit-* scenarios)')
    ap.add_argument('--list', action='store_true', help='list scenarios')
    ap.add_argument('--rejudge', metavar='LOGDIR',
                    help='boot nothing: judge again the logs a run left in '
                    'LOGDIR (one of --logs\'s timestamped directories), '
                    'for the scenarios named or else every one it ran')
    ap.add_argument('scenarios', nargs='*',
                    help=f'scenario names (default: {" ".join(DEFAULT)})')
    a = ap.parse_args()
    global KUNIT_TOOL
    KUNIT_TOOL = a.kunit_tool
    table = {s.name: s for s in SCENARIOS}
    if a.list:
        for s in SCENARIOS:
            print(f'{s.name:20} {s.doc}{" [default]" if s.name in DEFAULT else ""}')
        return 0
    if a.rejudge:
        return rejudge(a.rejudge, [table[n] for n in a.scenarios
                                   if n in table] or SCENARIOS)
    names = a.scenarios or DEFAULT
    unknown = [n for n in names if n not in table]
    if unknown:
        ap.error(f'unknown scenario(s): {" ".join(unknown)} (see --list)')
    scens = [table[n] for n in names]
    # XEN_PVOPS_PAIRS=N: N pairs instead of each pair scenario's own.
    npairs = os.environ.get('XEN_PVOPS_PAIRS', '')
    if npairs:
        if not npairs.isdigit() or not 1 <= int(npairs) <= 32:
            ap.error(f'XEN_PVOPS_PAIRS={npairs}: a count from 1 to 32')
        scens = [dataclasses.replace(s, pairs=int(npairs)) if s.pairs else s
                 for s in scens]
    for s in scens:
        # Retries exist to absorb the reference's known emulator flakes.
        assert not (s.flake_retries and s.kernel != 'ref'), s.name
        if s.kunit and not (a.kunit_tool and os.path.exists(a.kunit_tool)):
            ap.error(f'{s.name} needs kunit.py (--kunit-tool)')
    if any(s.debian for s in scens):
        # Built on first use: most runs never need it.
        subprocess.run(['bash', os.path.join(HERE, 'assets.sh'),
                        os.path.dirname(os.path.abspath(a.assets)), 'debian'],
                       check=True)
    kernels = {'ours': a.ours, 'ref': a.ref}
    for s in scens:
        for k in (s.kernel, s.dom0):
            if k and not (kernels[k] and os.path.exists(kernels[k])):
                ap.error(f'{s.name} needs the {k} kernel (--{k})')
    stamp = time.strftime('%Y%m%d-%H%M%S')
    logdir = os.path.abspath(os.path.join(a.logs, stamp))
    os.makedirs(logdir)
    latest = os.path.join(a.logs, 'latest')
    if os.path.islink(latest):
        os.remove(latest)
    os.symlink(stamp, latest)
    log(f'{len(scens)} scenario(s); logs in {logdir}')

    results = []
    for s in scens:
        if s.role == 'native':
            results.append(run_native(s, kernels, a.assets, logdir))
    for k in ('ref', 'ours'):
        group = [s for s in scens if s.role != 'native' and
                 (s.dom0 or s.kernel) == k]
        if group:
            results += run_xen(k, group, kernels, a.assets, logdir)

    order = {n: i for i, n in enumerate(names)}
    results.sort(key=lambda r: order[r.scen.name])
    print()
    for r in results:
        print(f'{"PASS" if r.ok else "FAIL"} {r.scen.name}: {r.why} '
              f'(log: {r.logfile})')
    rates = {r.scen.name: r.metric for r in results if r.metric}
    if 'xsbench-pvh-ours' in rates and 'xsbench-pvh-ref' in rates:
        print(f'harness: xenstore reads/s, ours/ref: '
              f'{rates["xsbench-pvh-ours"]:.0f}/{rates["xsbench-pvh-ref"]:.0f}'
              f' = {rates["xsbench-pvh-ours"] / rates["xsbench-pvh-ref"]:.2f}')
    ipf = {r.scen.name: r.iperf for r in results
           if getattr(r, 'iperf', None)}
    if 'debian-net-pvh-ours' in ipf and 'debian-net-pvh-ref' in ipf:
        ((ot, ote), (of, ofe)), ((rt, rte), (rf, rfe)) = (
            ipf['debian-net-pvh-ours'], ipf['debian-net-pvh-ref'])
        print(f'harness: iperf3 ours/ref (medians): dom0->domU '
              f'{ot:.0f}/{rt:.0f} Mbit/s = {ot / rt:.2f}, domU->dom0 '
              f'{of:.0f}/{rf:.0f} Mbit/s = {of / rf:.2f}')
        print(f'harness: domU notifications per MB, ours/ref: dom0->domU '
              f'{ote:.1f}/{rte:.1f} = {ote / rte:.2f}, domU->dom0 '
              f'{ofe:.1f}/{rfe:.1f} = {ofe / rfe:.2f}')
    for r in results:
        if getattr(r, 'pairs', None):
            print(f'harness: {"iperf3" if r.scen.netio else "fio"} ours/ref '
                  f'over {r.scen.pairs} pairs, ratio of means (range over '
                  'pairs; mean of the pair ratios): ' + ', '.join(
                      f'{label} {m:.2f} ({lo:.2f}-{hi:.2f}; {iv})'
                      for label, (m, lo, hi, iv) in r.pairs.items()))
    fio = {r.scen.name: r.fio for r in results if getattr(r, 'fio', None)}
    if 'debian-io-pvh-ours' in fio and 'debian-io-pvh-ref' in fio:
        (oi, ob), (ri, rb) = fio['debian-io-pvh-ours'], fio['debian-io-pvh-ref']
        print(f'harness: fio ours/ref: 4k randread {oi:.0f}/{ri:.0f} IOPS = '
              f'{oi / ri:.2f}; 1M seqread {ob:.1f}/{rb:.1f} MB/s = '
              f'{ob / rb:.2f}')
    if 'boot20-pvh-ours' in rates and 'boot20-pvh-ref' in rates:
        print(f'harness: create to init, mean of 20, ours/ref: '
              f'{rates["boot20-pvh-ours"]:.2f}/{rates["boot20-pvh-ref"]:.2f} s'
              f' = {rates["boot20-pvh-ours"] / rates["boot20-pvh-ref"]:.2f}')
    npass = sum(r.ok for r in results)
    print(f'harness: {npass} passed, {len(results) - npass} failed')
    return 0 if npass == len(results) else 1


if __name__ == '__main__':
    sys.exit(main())
