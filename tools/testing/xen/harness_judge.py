# SPDX-License-Identifier: GPL-2.0
"""Which judge a scenario goes to; the judges of native boots and of
dom0 itself.  The families' judges are in harness_busybox,
harness_debian, harness_bench, harness_hostile, harness_kunit and
harness_micro.
"""

import os
import re

from harness_bench import judge_bench, judge_pairs, judge_share
from harness_busybox import (
    judge_balloon, judge_control, judge_crash, judge_domu_boot, judge_grow,
    judge_destroy, judge_lend, judge_memmap, judge_repeat, judge_xbdev,
    judge_xsbench)
from harness_common import (
    INIT_RE, MARK, emulator_stop, parse_fields, read, Result)
from harness_debian import judge_debian
from harness_hcalls import judge_hcalls
from harness_hostile import (
    judge_bad, judge_conflood, judge_devfuzz, judge_hostfe)
from harness_kunit import judge_kunit
from harness_scenarios import BALLOON_HIGH, BALLOON_LOW, DESTROY_GAP
from harness_micro import judge_micro, judge_micro_pairs


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
    if scen.micro:
        return judge_micro(scen, serial, d)
    return Result(scen, True, f'init at {f.get("uptime")} s uptime, '
                  f'cpus={f.get("cpus")}', serial)


def judge_domu(s, out, serial):
    """Judge a domU scenario from dom0's lines and its console logs."""
    if s.devfuzz:
        return judge_devfuzz(s, out, serial)
    if s.hostfe or s.hostnf:
        return judge_hostfe(s, out, serial)
    if s.share:
        return judge_share(s, out, serial)
    if s.conflood:
        return judge_conflood(s, out, serial)
    if s.forkloop:
        return judge_hcalls(s, out, serial)
    if s.blkbad or s.netbad:
        return judge_bad(s, out, serial)
    if s.micro and s.pairs:
        return judge_micro_pairs(s, out, serial)
    if s.debian and s.pairs:
        return judge_pairs(s, out, serial)
    if s.debian and s.bench:
        return judge_bench(s, out, serial)
    if s.debian:
        return judge_debian(s, out, serial)
    if s.memmap:
        return judge_memmap(s, out, serial)
    if s.balloon:
        return judge_balloon(s, out, serial, BALLOON_LOW, BALLOON_HIGH)
    if s.grow:
        return judge_grow(s, out, serial)
    if s.lend:
        return judge_lend(s, out, serial)
    if s.bigdestroy:
        return judge_destroy(s, out, serial, DESTROY_GAP)
    if s.repeat:
        return judge_repeat(s, out, serial)
    if s.control:
        return judge_control(s, out, serial)
    if s.crash:
        return judge_crash(s, out, serial)
    if s.xsbench:
        res = judge_domu_boot(s, out, serial)
        return judge_xsbench(s, res, out, serial) if res.ok else res
    if s.micro:
        res = judge_domu_boot(s, out, serial)
        return judge_micro(s, res.logfile, out) if res.ok else res
    if s.kunit:
        res = judge_domu_boot(s, out, serial)
        if not res.ok:
            return res
        res = judge_kunit(s, res.logfile, res.logfile,
                          os.path.join(out, 'kunit', s.name))
        return judge_xbdev(s, res, out, serial) if res.ok and s.xbdev \
            else res
    return judge_domu_boot(s, out, serial)


# What make deb's package must bring as modules, which dom0's init
# loads as Debian's xencommons would (rootfs/dom0-init).
PACKAGED_MODULES = ('xenfs', 'xen_evtchn', 'xen_privcmd', 'xen_gntdev',
                    'xen_gntalloc', 'xen_blkback', 'xen_netback')


def judge_packaged(f, text):
    """(why it fails or None, words) for a dom0 booted from make deb's
    package: its release, and the modules it must have loaded."""
    rel = f.get('kernel', '')
    if not rel.endswith('-xen-pvops'):
        return (f'dom0 runs kernel {rel or "?"}, not the packaged '
                '*-xen-pvops one', '')
    m = re.search(MARK + r'dom0 modules loaded=(\S*)', text)
    loaded = set(filter(None, (m.group(1) if m else '').split(',')))
    failed = re.findall(MARK + r'dom0 modprobe (\S+) failed', text)
    missing = [x for x in PACKAGED_MODULES if x not in loaded]
    if missing or failed:
        return (f'the packaged dom0 lacks modules: {", ".join(missing)}'
                + (f' (modprobe failed: {", ".join(failed)})'
                   if failed else ''), '')
    return None, (f'packaged kernel {rel} booted from the dom0 root\'s '
                  f'/boot, {len(loaded)} modules loaded ('
                  f'{", ".join(sorted(loaded))}); ')


def judge_q35_lines(text):
    """A q35 dom0's disks (dom0-*-q35): ACPI must route in APIC mode, and
    the virtio disks, having no MSI-X, must interrupt through lines
    above 15 (IO-APIC pins q35 routes to only in APIC mode), each of
    which has fired.  Returns (why it failed or None, what it saw)."""
    mode = re.search(r'ACPI: Using (\S+) for interrupt routing', text)
    if not mode or mode.group(1) != 'IOAPIC':
        return ('ACPI routes interrupts in '
                + (f'{mode.group(1)} mode' if mode else 'no mode it named')
                + ', not APIC mode', '')
    m = re.search(MARK + r'dom0 virtio-lines (\S*) sci=(\d*)', text)
    if not (m and m.group(2)):
        return ('ACPI\'s SCI has no irq ('
                + (m.group(0) if m else 'dom0 virtio-lines not read')
                + ')', '')
    seen = [tuple(int(x) for x in p.split(':'))
            for p in m.group(1).split(',') if p]
    if not seen:
        return ('no virtio disk interrupts through a line: they have '
                f'MSI-X or no irq ({m.group(0)})', '')
    bad = [f'{irq}:{n}' for irq, n in seen if irq < 16 or not n]
    if bad:
        return ('virtio lines below 16 (PIC mode) or that never fired: '
                + ', '.join(bad), '')
    return None, ('; ACPI in APIC mode (SCI on irq ' + m.group(2)
                  + '), virtio disks on irqs '
                  + ', '.join(f'{irq} ({n} interrupts)' for irq, n in seen))


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
    held = {w: parse_fields(m.group(1)) for w, m in
            ((w, re.search(MARK + rf'dom0 holds {w} (.*)', text))
             for w in ('before', 'after')) if m}
    left = ''
    if len(held) == 2:
        b, a = held['before'], held['after']
        left = (f'; after its guests: {a.get("domains")} other domain(s), '
                f'{a.get("ports")} event channels, {a.get("grants")} '
                f'grants in use (before: {b.get("ports")}, '
                f'{b.get("grants")})')
        # Ours must give back what its guests took; the reference is
        # the control, reported only.
        if s.kernel == 'ours' and (a.get('domains') != '0' or
                                   a.get('ports') != b.get('ports') or
                                   a.get('grants') != b.get('grants')):
            return Result(s, False, 'dom0 kept what its guests took' + left,
                          serial)
    bb = re.search(MARK + r'dom0 backend-bus (.*)', text)
    bb = parse_fields(bb.group(1)) if bb else {}
    bad = [k for k in ('add', 'uevent', 'del') if bb.get(k) != 'yes']
    if s.kernel == 'ours' and bad:
        return Result(s, False, 'backend bus: a device directory written '
                      'in xenstore was not ' + ', '.join(
                          {'add': 'added', 'uevent': 'announced with its '
                           'XENBUS_PATH', 'del': 'removed with it'}[k]
                          for k in bad) + f' (see {serial})', serial)
    # libxencall's buffers come from /dev/xen/hypercall (privcmd-buf).
    hb = re.search(MARK + r'dom0 hypercall-buf (.*)', text)
    hb = parse_fields(hb.group(1)) if hb else {}
    if s.kernel == 'ours' and hb.get('xenstored', '0') == '0':
        return Result(s, False, 'xenstored holds no /dev/xen/hypercall: '
                      'libxencall found no buffer device '
                      f'({hb or "not read"}; see {serial})', serial)
    # /dev/xen/xenbus_backend, before and after xenstored (dom0-init).
    for when in ('before', 'after'):
        xsb = re.search(MARK + rf'dom0 xsbackend ({when} .*|FAIL.*)', text)
        if s.kernel == 'ours' and not (xsb and xsb.group(1).startswith(
                when + ' ok')):
            return Result(s, False, '/dev/xen/xenbus_backend ' + (
                xsb.group(1) if xsb else f'not checked {when} xenstored')
                + f' (job/xsbackend.c; see {serial})', serial)
    irqs = re.search(MARK + r'dom0 irqs (.*)', text)
    irqs = parse_fields(irqs.group(1)) if irqs else {}
    lines = ''
    if s.q35:
        why, lines = judge_q35_lines(text)
        if why:
            return Result(s, False, why + f' (see {serial})', serial)
    elif s.kernel == 'ours' and irqs.get('msi', '0') == '0':
        return Result(s, False, 'dom0\'s devices have no MSI-X vector '
                      f'(/proc/interrupts: {irqs or "not read"}; see '
                      f'{serial})', serial)
    if s.kernel == 'ours' and irqs.get('msi_sysfs') != irqs.get('msi'):
        return Result(s, False, f'dom0 has {irqs.get("msi")} MSI vectors '
                      f'but {irqs.get("msi_sysfs")} in sysfs (msi_irqs; '
                      f'see {serial})', serial)
    packaged = ''
    if s.packaged:
        why, packaged = judge_packaged(f, text)
        if why:
            return Result(s, False, why + f' (see {serial})', serial)
    up = float(f.get('uptime', 0)) or None
    return Result(s, True, packaged +
                  f'Xen {f.get("xen")}, xenstored and xenconsoled '
                  'up' + (f' at {up:.1f} s of uptime' if up else '') + left
                  + ('' if bad else '; backend bus finds and drops a device')
                  + (f'; {irqs["msi"]} MSI vectors' if irqs.get('msi')
                     else '') + lines,
                  serial, metric=up)


def toolstack_slips(s, serial, r):
    """@r, with the times dom0's `xl domid` failed for a domU of @s that
    was still there (job/busybox.sh domu_there) named in its words.
    Under our dom0 they fail the scenario: xl's call into our dom0
    kernel failed.  Under the reference dom0 they are only reported."""
    slips = re.findall(MARK + rf'domu ({re.escape(s.name)}-\S+) xl domid '
                       r'failed (\d+) time\(s\), then found it(?:: (.*))?',
                       read(serial))
    if not slips:
        return r
    n = sum(int(k) for _, k, _ in slips)
    said = next((e.strip() for _, _, e in slips if e and e.strip()), '')
    words = (f'; dom0\'s xl domid failed {n} time(s) for a domU still '
             f'there ({slips[0][0]}' + (f': "{said[:160]}"' if said else '')
             + ')')
    r.why += words
    if s.dom0 == 'ours' and r.ok:
        r.ok = False
        r.why += ': a toolstack call into our dom0 failed'
    return r


def judge_xen(scens, d, in_time=True):
    """Judge the scenarios of one Xen boot from what it left in @d."""
    serial = os.path.join(d, 'serial.log')
    out = os.path.join(d, 'out')
    results = []
    for s in scens:
        try:
            results.append(judge_dom0(s, serial, in_time) if s.role == 'dom0'
                           else toolstack_slips(s, serial, emulator_stop(
                               s, out, serial, judge_domu(s, out, serial))))
        except Exception as e:  # noqa: BLE001 -- one judge, not the run
            # A harness bug: fail this scenario, keep the others' results.
            results.append(Result(s, False, 'the harness could not judge '
                                  f'it ({type(e).__name__}: {e}); its '
                                  f'lines are in {serial}', serial))
    return results
