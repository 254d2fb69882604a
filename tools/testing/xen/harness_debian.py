# SPDX-License-Identifier: GPL-2.0
"""Judges of the unmodified Debian domUs: boots to multi-user, boots in
a row, the disk checks (debian-io) and the network (debian-net).
"""

import os
import re

from harness_common import (
    MARK, domu_steps, emulator_fault, failed_step, fault_words, guest_down,
    guest_oops, parse_fields, read, Result, symbol, without_msr_notices,
    xen_dmesg, xen_fault)


DEBIAN_STEPS = ['boot', 'multiuser', 'ping', 'shutdown', 'fsck']


DEBIAN_IO_STEPS = ['boot', 'written', 'reboot', 'vbd-stats', 'block-attach',
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
               f'xentop showed {steps.get("xentop_rd")} reads of xvda; '
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
                    r'events).*', without_msr_notices(text))
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


def judge_debian_repeat(s, out, serial):
    """Every boot of a repeated Debian scenario: all its steps ok.

    A boot that the emulator's own fault stopped (emulator_fault()) is
    neither: dom0 repairs the disk and goes on with the next boot, and
    the verdict is EMULATOR when that was all that went wrong.
    """
    text = read(serial)
    dmesg = xen_dmesg(out, serial)
    secs, stopped = [], []
    for k in range(1, s.repeat + 1):
        console, steps, bad = debian_boot(text, out, f'{s.name}-a{k}',
                                          DEBIAN_STEPS)
        d = steps.get('domid')
        f = xen_fault(dmesg, d) if d else None
        if f is not None and not bad:
            # xl restarts a domU that triple-faulted: what answered the
            # steps after it was another boot of the disk.
            bad = 'triple fault, then restarted by xl'
        if bad:
            sym = symbol(out, s.kernel, (f or {}).get('rip', ''))
            if emulator_fault(f, sym) and not guest_oops(console):
                stopped.append(f'boot {k} ({bad}): '
                               + fault_words(s, out, d, f))
                continue
            return Result(s, False, f'boot {k} of {s.repeat}: {bad} (dom0 '
                          f'log: {serial})' + guest_down(
                              s, out, serial, [d], console),
                          console)
        secs.append(float(steps.get('seconds', 'nan')))
    what = (f'{len(secs)} of {s.repeat} boots' if stopped
            else f'{s.repeat} boots in a row')
    r = Result(s, not stopped, f'{what}: multi-user in '
               f'{min(secs, default=0):.1f}-{max(secs, default=0):.1f} s, '
               'ping lost 0 of 20 each time, xl shutdown, e2fsck clean after '
               'each', os.path.join(out, 'console'))
    if stopped:
        r.emulator = '; '.join(stopped)
    return r


DEBIAN_DESTROY_STEPS = ['boot', 'writing', 'destroy', 'intact']


def judge_debian_destroy(s, out, serial):
    """Every trial of xl destroy in the middle of fsync'd writes: the
    disk preened and then clean, every synced record intact."""
    text = read(serial)
    records = []
    for k in range(1, s.destroy + 1):
        console, steps, bad = debian_boot(text, out, f'{s.name}-a{k}',
                                          DEBIAN_DESTROY_STEPS)
        if bad:
            return Result(s, False, f'trial {k} of {s.destroy}: {bad} (dom0 '
                          f'log: {serial})' + guest_down(
                              s, out, serial, [steps.get('domid')], console),
                          console)
        records.append(int(steps.get('records', '0')))
    if min(records, default=0) < 1:
        return Result(s, False, 'a trial was destroyed before its first '
                      f'record was synced: records {records}', serial)
    return Result(s, True, f'{s.destroy} trials of xl destroy in the middle '
                  f'of writes: {min(records)}-{max(records)} fsync\'d '
                  '64 KiB records each, all intact; e2fsck -p then -n clean '
                  'after each', os.path.join(out, 'console'))


def judge_debian(s, out, serial):
    """Judge a Debian scenario: every step must have printed ok."""
    if s.repeat:
        return judge_debian_repeat(s, out, serial)
    if s.destroy:
        return judge_debian_destroy(s, out, serial)
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
