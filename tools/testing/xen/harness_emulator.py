# SPDX-License-Identifier: GPL-2.0
"""The emulator runner: QEMU for native boots, and one boot of Xen 4.17
per dom0 kernel, which runs dom0's job (harness_job) and is judged
once it is over (harness_judge).
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time

from harness_common import GUEST_TYPE, MARK, limit, log, Result
from harness_hostile import survey_domus
from harness_job import make_job
from harness_judge import judge_native, judge_xen


QEMU = ['qemu-system-x86_64', '-nic', 'none', '-display', 'none',
        '-monitor', 'none', '-no-reboot', '-cpu', 'qemu64,+svm,+npt']


XEN_ARGS = ('console=com1 com1=115200,8n1 dom0_mem=1024M,max:1024M '
            'dom0_max_vcpus=1 dom0_vcpus_pin loglvl=all guest_loglvl=all '
            'conring_size=1M')
# conring_size: Xen's ring (16 KiB by default) keeps a triple fault's
# dump for dom0's xl dmesg (job/lib.sh triple_fault) after other output.
# dom0 has one vCPU, so its backends would offer one queue a device;
# two let the frontends' multi-queue paths run (for either domU kernel).


DOM0_ARGS = ('console=hvc0 earlyprintk=xen root=/dev/vda rw '
             'init=/sbin/pvops-dom0-init xen_blkback.max_queues=2 '
             'xen_netback.max_queues=2')
# For experiments: more of dom0's command line (a module parameter, say).
if os.environ.get('XEN_PVOPS_DOM0_EXTRA'):
    DOM0_ARGS += ' ' + os.environ['XEN_PVOPS_DOM0_EXTRA']


def dom0_args(kernel):
    """dom0's command line.  Ours prints from setup_arch's start on its
    own (its boot console, unless earlyprintk= is given), where
    earlyprintk=xen would start only after the memory map is read.
    Ours also offers its xenstore ring through /dev/xen/xenbus_backend
    before xenstored starts (pvops.xsbackend=1, job/xsbackend.c)."""
    if kernel in ('ours', 'deb'):
        return DOM0_ARGS.replace('earlyprintk=xen ', '') + \
            ' pvops.xsbackend=1'
    return DOM0_ARGS


def xp_commands(serial):
    """QEMU monitor commands for the machine memory dom0 asked to be
    dumped on a stall, with lines "pvops-xp: NAME ADDRESS BYTES" (the
    first line of each name: dom0 boots first)."""
    cmds, seen = [], set()
    try:
        with open(serial, errors='replace') as f:
            for line in f:
                if 'pvops-xp: ' not in line:
                    continue
                words = line.split('pvops-xp: ', 1)[1].split()
                if len(words) != 3 or words[0] in seen:
                    continue
                # A guest's console may print anything: only a machine
                # address and a size up to 64 KiB make a command.
                try:
                    addr, size = int(words[1], 16), int(words[2])
                except ValueError:
                    continue
                if not 4 <= size <= 65536:
                    continue
                seen.add(words[0])
                cmds.append(f'xp /{size // 4}wx {addr:#x}\n'.encode())
    except OSError:
        pass
    return cmds


def monitor_dump(sock, path, serial=None):
    """Ask QEMU's monitor on @sock for every CPU's registers, into @path.

    For a machine that stopped talking: the RIPs say whether the emulated
    CPUs are stuck in Xen (0xffff82d0...), in dom0 or in a guest.
    """
    out = []
    try:
        with socket.socket(socket.AF_UNIX) as c:
            c.settimeout(5)
            c.connect(sock)
            for cmd in [b'', b'info cpus\n', b'info registers -a\n'] + \
                    (xp_commands(serial) if serial else []):
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


# Xen's debug keys for a machine that went quiet, after three Ctrl-A have
# given Xen the serial input: every vCPU of every domain with its pending
# events ('q'), dom0's registers and stack ('0'), event channels ('e'),
# timers ('a'), run queues ('r') and each CPU's registers ('d').
# Three CTRL-a give the serial line to Xen and three more give it back
# to dom0, so that a second dump (a machine that was only silent, then
# hangs) reaches Xen too.
XEN_KEYS = b'\x01\x01\x01' + b'q0eard' + b'\x01\x01\x01'


def xen_debug_keys(sock, serial):
    """Type XEN_KEYS on the serial line, a Unix socket @sock, and give Xen
    time to print its answer, which goes to the serial log @serial."""
    try:
        with socket.socket(socket.AF_UNIX) as c:
            c.settimeout(1)
            c.connect(sock)
            size = os.path.getsize(serial)
            for k in XEN_KEYS:
                c.sendall(bytes([k]))
                time.sleep(0.5)
            # Drain what Xen says, as the log takes it, until it stops.
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    if not c.recv(65536):
                        break
                except socket.timeout:
                    now = os.path.getsize(serial)
                    if now == size:
                        break
                    size = now
    except OSError as e:
        log(f'Xen debug keys: {e}')


def run_qemu(cmd, serial, timeout, stall=None, monitor=None, console=None,
             progress=None):
    """Run QEMU until it exits or @timeout; echo harness lines as they come.

    With @progress, dom0 must also print a line other than "alive" at
    least every @progress seconds: a dom0 that ticks but whose job no
    longer moves (a toolstack call that never returns) is dumped the
    same way and stopped, rather than left to run into make check's
    deadline with every scenario after it.

    With @stall, the machine must print a harness line at least every
    @stall seconds (dom0 says "alive" every 30 s).  When it has not, its
    CPUs' registers go to serial.log.cpus (when @cmd opened a monitor on
    the Unix socket @monitor) and Xen is asked for its state (XEN_KEYS,
    when the serial line is the Unix socket @console); if it still says
    nothing for STALL_GRACE seconds more, it is taken for hung and
    stopped.  One that speaks again was frozen, not hung (the whole
    emulated machine has stopped for minutes and come back, Xen's own
    timer with it): that is logged, and it goes on.  A timed-out machine
    is dumped the same way before it is stopped.

    Returns (exited_in_time, seconds, why); exited_in_time is None for a
    hung or stuck machine (@why says which), False for one that ran out
    of time.
    """
    start = last = moved = time.monotonic()
    dumped = False

    def dump():
        """Xen's state to the end of @serial, the CPUs' to .cpus."""
        if console:
            xen_debug_keys(console, serial)
        if monitor:
            monitor_dump(monitor, serial + '.cpus', serial)

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
                    if dumped:
                        log(f'dom0 spoke again after '
                            f'{time.monotonic() - last:.0f} s of silence: '
                            'not hung, only silent (the state '
                            f'dumped meanwhile: {serial}.cpus and the end '
                            f'of {serial} before this line); going on')
                        dumped = False
                    last = time.monotonic()
                    said = line[line.index(MARK) + len(MARK):]
                    if not said.startswith('alive '):
                        moved = last
                        print('    ' + said, flush=True)
        if done:
            return True, time.monotonic() - start, ''
        silent = time.monotonic() - last
        if progress and time.monotonic() - moved > progress:
            log(f'dom0 still ticks, but its job has said nothing for '
                f'{progress} s: taken for stuck; its state goes to '
                f'{serial}.cpus and the end of {serial}')
            dump()
            proc.kill()
            proc.wait()
            return None, time.monotonic() - start, (
                f'the machine was stuck: dom0 ticked, but its job said '
                f'nothing for {progress} s (XEN_PVOPS_PROGRESS); '
                f'its CPUs: {serial}.cpus')
        if stall and silent > stall and not dumped:
            log(f'no line from dom0 for {stall} s: its state goes to '
                f'{serial}.cpus; hung unless it speaks within '
                f'{STALL_GRACE} s')
            dump()
            dumped = True
            continue
        hung = stall and silent > stall + STALL_GRACE
        if hung or time.monotonic() - start > timeout:
            if not dumped:
                dump()
            if hung:
                log(f'no line from dom0 for {stall + STALL_GRACE} s: taken '
                    'for hung; '
                    f'its CPUs: {serial}.cpus' +
                    (f'; Xen\'s state at the end of {serial}' if console
                     else ''))
            proc.kill()
            proc.wait()
            return None if hung else False, time.monotonic() - start, (
                f'the machine hung: no line from dom0 for '
                f'{stall + STALL_GRACE} s; its CPUs: {serial}.cpus'
                if hung else '')


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
    in_time, secs, _ = run_qemu(cmd, serial, timeout)
    return judge_native(scen, d, in_time, secs, cut)


# dom0 says "alive" every 30 s; this long without a line, its state is
# dumped, and STALL_GRACE more, it is hung.
STALL = int(os.environ.get('XEN_PVOPS_STALL', '300'))
STALL_GRACE = 60
# This long without a line of its job (the longest wait of a step is 900
# s, a reboot's), a dom0 that still ticks is stuck.
PROGRESS = int(os.environ.get('XEN_PVOPS_PROGRESS', '1200'))


def disk_args(files, q35):
    """QEMU's arguments for dom0's disks, in order (vda, vdb, ...): on a
    q35 machine, virtio disks with no MSI-X (vectors=0), so that each
    interrupts through its PCI INTx line, which q35's ACPI routes to
    IO-APIC pins 16-23 in APIC mode."""
    args = []
    for i, f in enumerate(files):
        if q35:
            args += ['-drive', f'{f},if=none,id=disk{i}',
                     '-device', f'virtio-blk-pci,drive=disk{i},vectors=0']
        else:
            args += ['-drive', f'{f},if=virtio']
    return args


def run_xen(boot, scens, kernels, assets, logdir):
    """Boot Xen with the dom0 kernel @boot names (boot_key(): KERNEL or
    KERNEL-MACHINE) and run @scens in it; judge them."""
    dom0_kernel, _, machine = boot.partition('-')
    domus = [s for s in scens if s.role in GUEST_TYPE]
    d = os.path.join(logdir, f'xen-dom0-{boot}')
    os.makedirs(d, exist_ok=True)
    serial = os.path.join(d, 'serial.log')
    jobdir = os.path.join(d, 'job')
    img = make_job(jobdir, kernels, assets, domus)
    # A pair scenario may replace up to half its pairs (run_pairs).
    budget = 120 + sum(s.timeout * max(1, s.repeat, s.destroy,
                                       2 * (s.pairs + (s.pairs + 1) // 2),
                                       survey_domus(s),
                                       2 if s.forkloop else 1) *
                       (1 + s.flake_retries)
                       for s in domus)
    budget, cut = limit(budget)
    if budget <= 0:
        return [Result(s, False, 'not run: make check\'s deadline '
                       '(XEN_PVOPS_DEADLINE) had passed', d) for s in scens]
    log(f'booting Xen 4.17 + {dom0_kernel} dom0'
        + (f' on a {machine} machine' if machine else '') + ' with '
        f'{len(domus)} domU(s): {", ".join(s.name for s in domus) or "none"}'
        f' (limit {budget} s)')
    # XEN_PVOPS_TCG=single: one host thread for both emulated CPUs.
    tcg = os.environ.get('XEN_PVOPS_TCG', 'multi')
    sockdir = tempfile.mkdtemp(prefix='pvops-qemu-')
    monitor = os.path.join(sockdir, 'monitor')
    console = os.path.join(sockdir, 'serial')
    qemu = QEMU[:]
    qemu[qemu.index('-monitor') + 1] = f'unix:{monitor},server=on,wait=off'
    # The serial line is a socket nobody listens on but the stall's debug
    # keys, with all its output in the log.
    cmd = qemu + ['-accel', f'tcg,thread={tcg}',
                  '-chardev', f'socket,id=com1,path={console},server=on,'
                  f'wait=off,logfile={serial}',
                  '-smp', '2', '-m', '3072', '-serial', 'chardev:com1',
                  '-kernel', os.path.join(assets, 'xen-4.17'),
                  '-append', XEN_ARGS,
                  '-initrd', f'{kernels[dom0_kernel]} {dom0_args(dom0_kernel)}']
    if machine:
        cmd += ['-machine', machine]
    # The packaged dom0 (deb) has its own root: the dom0 root with make
    # deb's package installed.
    disks = ['file=' + os.path.join(
                 assets, 'dom0-deb.img' if dom0_kernel == 'deb'
                 else 'dom0.img') + ',format=raw,snapshot=on',
             f'file={img},format=raw']
    if any(s.debian for s in domus):
        # dom0's /dev/vdc; writes go to a throw-away overlay.
        disks.append('file=' + os.path.join(assets, 'debian-domu.img')
                     + ',format=raw,snapshot=on')
    cmd += disk_args(disks, machine == 'q35')
    in_time, secs, why = run_qemu(cmd, serial, budget, stall=STALL,
                                  monitor=monitor, console=console,
                                  progress=PROGRESS)
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
                r.why += (f' ({why})' if in_time is None
                          else ' (the run was stopped at make check\'s '
                          'deadline)')
    if in_time is False:
        log(f'Xen boot with {dom0_kernel} dom0 hit its {budget} s limit' +
            (' (make check\'s deadline, XEN_PVOPS_DEADLINE)' if cut else '') +
            f'; the serial log {serial} shows where it stood')
    return results
