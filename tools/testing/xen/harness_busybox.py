# SPDX-License-Identifier: GPL-2.0
"""Judges of the busybox domUs: boot to init, boots in a row, control
with xl, the console's crash and stall cases, the clock, the
xenstore benchmark and the xenbus test devices.
"""

import os
import re

from harness_common import (
    GUEST_TYPE, INIT_RE, MARK, domu_steps, failed_step, guest_down,
    last_attempt, parse_fields, read, Result, sample, triple_fault,
    xen_dmesg)


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
    r = Result(s, True, f'{f["reads"]} reads in {f["seconds"]} s: '
               f'{f["rate"]} reads/s; guest busy {f.get("busy", "?")}, '
               f'{f.get("cpu_ms_per_kread", "?")} CPU-ms and '
               f'{f.get("events_per_kread", "?")} xenbus events per '
               f'1,000 reads', res.logfile, float(f['rate']))
    r.samples.append(sample('xenstore-reads', 'xenstore reads, 32 threads, '
                            f'{s.role.upper()} domU', 'reads/s', s.kernel,
                            [f['rate']], lower_better=False))
    return r


CONTROL_STEPS = ['boot', 'vcpu-down', 'vcpu-up', 'reboot', 'shutdown']


def driven_steps(s, out, serial, what, names):
    """The console log of a domU dom0 drove step by step (its 'domu NAME
    WHAT ...' lines), its steps, and a failed Result when one of @names
    is not ok (else None)."""
    name = f'{s.name}-a1'
    console = os.path.join(out, 'console', f'guest-{name}.log')
    steps = domu_steps(read(serial), name, what)
    bad = failed_step(steps, names)
    if bad:
        bad += step_failure(steps, name, what) + guest_down(
            s, out, serial, [steps.get('domid')], console)
    return console, steps, (bad and Result(
        s, False, f'{bad} (dom0 log: {serial})', console))


def step_failure(steps, name, what):
    """'; dom0 logged: LINE' for the last 'domu NAME WHAT' line of
    @steps that says a step failed (a cycle of a balloon scenario, say,
    whose own field is not among the steps the judge names), else ''."""
    failed = [line for line in steps.order
              if re.search(r'=(?:failed|no-)', line)]
    return f'; dom0 logged: {name} {what} {failed[-1]}' if failed else ''


def judge_control(s, out, serial):
    """Judge a control scenario: every step must have printed ok."""
    console, steps, failed = driven_steps(s, out, serial, 'control',
                                          CONTROL_STEPS)
    if failed:
        return failed
    return Result(s, True, 'xl vcpu-set down and up, xl reboot (new domid '
                  f'{steps.get("domid")}), xl shutdown', console)


# xl's shutdown reason codes (SHUTDOWN_* of Xen's sched.h).
SHUTDOWN_WORDS = {'0': 'it powered off', '1': 'it rebooted',
                  '2': 'it suspended',
                  '3': 'it crashed (its panic, or Xen crashed it)',
                  '4': 'its watchdog fired', 'none': 'xl saw no shutdown'}


def gone_words(s, out, serial, f, rest, console):
    """Why a busybox domU that did not reach init went away.

    Xen's triple-fault dump and the guest's oops line where there are
    any (guest_down()), else the shutdown reason xl logged and the last
    line its console showed (job/busybox.sh run_domu).
    """
    words = guest_down(s, out, serial, [f.get('domid')], console)
    if words:
        return words
    reason = f.get('reason')
    last = re.search(r'last_line="(.*)"', rest)
    more = [SHUTDOWN_WORDS.get(reason, f'shutdown reason {reason}')
            if reason else '']
    if last:
        more.append(f'its console last showed "{last.group(1)}"'
                    if last.group(1) else 'its console showed nothing')
    said = xen_lines(out, serial, f.get('domid'))
    if said:
        more.append('Xen logged: ' + ' | '.join(said))
    more = '; '.join(w for w in more if w)
    return f' ({more})' if more else ''


def xen_lines(out, serial, domid, most=3):
    """The first @most lines of Xen's log that name domain @domid (as
    dN, dNvM or 'Domain N'): why Xen crashed a guest that logged
    nothing itself (an emulation it could not do, say)."""
    if not domid or not domid.isdigit():
        return []
    pat = re.compile(rf'\(XEN\).*(?:(?<![\w.])d{domid}(?:v\d+)?\b|'
                     rf'[Dd]omain {domid}\b)')
    seen = []
    for line in xen_dmesg(out, serial).splitlines():
        if pat.search(line):
            line = line.strip()[:200]
            if line not in seen:
                seen.append(line)
            if len(seen) == most:
                break
    return seen


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
                          f'after {len(secs)} good boots'
                          f'{gone_words(s, out, serial, f, rest, console)}'
                          f' (Xen log: {serial})', console)
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
    r = Result(s, True, f'{s.repeat} boots in a row reached init{timing}'
               f'{untimed}{retried}', serial, mean)
    if timed:
        r.samples.append(sample(
            f'create-to-init-{s.role}-dom0-{s.dom0}',
            f'xl create to init, busybox {s.role.upper()} domU, '
            f'{"our" if s.dom0 == "ours" else "the reference"} dom0', 's',
            s.kernel, timed))
    return r


# The bad test devices: each must be reported once, by one clear line.
XBDEV_LINES = [r'pvopstest-1: .*backend-id is not a domain id',
               r'pvopstest-2: .*holds "42", not a state: closing']


def judge_xbdev(s, res, out, serial):
    """Judge the log lines of the bad test devices (xbtest_setup), and
    that the pages dom0 granted (job/gntoffer.c) were written through
    the KUnit case's mapping of them."""
    text = read(res.logfile)
    for pat in XBDEV_LINES:
        n = len(re.findall(pat, text))
        if n != 1:
            return Result(s, False, f'{n} log lines match {pat!r}, '
                          'expected exactly 1', res.logfile)
    last = last_attempt(s, out, serial)
    domid = parse_fields(last[1]).get('domid') if last else None
    glog = os.path.join(out, f'gntoffer-{domid}.log')
    if 'seen' not in read(glog).split():
        return Result(s, False, 'dom0 never saw the byte the KUnit case '
                      'wrote through its mapping of dom0\'s grants '
                      f'(job/gntoffer.c: {glog})', res.logfile)
    return Result(s, True, res.why + '; bad backends logged once each',
                  res.logfile)


def judge_domu_boot(s, out, serial):
    """Judge that a domU booted to init, and its clock if asked."""
    last = last_attempt(s, out, serial)
    if not last:
        return Result(s, False, 'dom0 never ran this domU', serial)
    name, rest, console, retries = last
    f = parse_fields(rest)
    if f.get('result') != 'init':
        return Result(s, False, f'{" ".join(rest.split()[:3])}'
                      f'{gone_words(s, out, serial, f, rest, console)}'
                      f' (Xen log: {serial})', console)
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
    try:
        to_init = float(f.get('init_seconds'))
    except (TypeError, ValueError):
        to_init = None
    made = (f'xl create {f["create_seconds"]} s, '
            if f.get('create_seconds', '?') != '?' else '')
    return Result(s, True, f'create to init {f.get("init_seconds")} s '
                  f'({made}uptime {g.get("uptime")} s), to power-off '
                  f'{f.get("seconds")} s, cpus={g.get("cpus")}{extra}',
                  console, metric=to_init)


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


def memmap_pfns(spec):
    """The RAM of a map in job/memmap.c's words (START-END:TYPE, sizes in
    hex or with a K, M or G suffix), as whole pfn ranges [start, end)."""
    def addr(x):
        m = re.fullmatch(r'(0x[0-9a-fA-F]+|\d+)([KMG]?)', x)
        return int(m.group(1), 0) << {'': 0, 'K': 10, 'M': 20,
                                      'G': 30}[m.group(2)]
    ram = []
    for e in spec.split():
        rng, typ = e.rsplit(':', 1)
        a, b = (addr(x) for x in rng.split('-'))
        if typ == '1':
            ram.append((-(-a // 4096), b // 4096))
    return ram


def memmap_expect(spec, populated):
    """What a guest given @spec must do with the @populated pfns Xen gave
    it: pages in holes, how many of them move to RAM above, how many go
    back to Xen (moves take the RAM above @populated in order)."""
    ram = memmap_pfns(spec)
    covered = sum(max(0, min(e, populated) - s) for s, e in ram)
    in_holes = populated - covered
    above = sum(max(0, e - max(s, populated)) for s, e in ram)
    moved = min(in_holes, above)
    return in_holes, moved, in_holes - moved


def judge_memmap(s, out, serial):
    """Judge a domU given a memory map with holes (memmap-pv-*): it booted,
    ours said in one line what it moved and gave back, as the map
    requires, and every page it filled read back whole."""
    res = judge_domu_boot(s, out, serial)
    if not res.ok:
        return res
    text = read(res.logfile)
    m = re.search(MARK + r'memfill (.*)', text)
    if not m:
        return Result(s, False, 'no memfill line in the console log',
                      res.logfile)
    f = parse_fields(m.group(1))
    if f.get('bad') != '0' or f.get('filled_mb') != f.get('of') or \
       int(f.get('of', 0)) < 64:
        return Result(s, False, f'memfill: {m.group(1).strip()}',
                      res.logfile)
    why = (f'{f["filled_mb"]} MiB filled and read back, MemTotal '
           f'{int(f["total_kb"]) // 1024} MiB')
    if s.kernel != 'ours':
        return Result(s, True, why, res.logfile)
    pe = re.search(r'xen: PV entry: \S+, (\d+) pages', text)
    if not pe:
        return Result(s, False, 'no PV entry line with the populated pages',
                      res.logfile)
    want = memmap_expect(s.memmap, int(pe.group(1)))
    got = re.findall(r'xen: (\d+) pages in memory map holes: (\d+) moved '
                     r'to RAM, (\d+) given back', text)
    if len(got) != 1 or tuple(int(x) for x in got[0]) != want:
        return Result(s, False, f'expected one line of {want[0]} pages in '
                      f'holes, {want[1]} moved, {want[2]} given back; the '
                      f'kernel said {got}', res.logfile)
    return Result(s, True, f'{want[0]} pages in holes: {want[1]} moved to '
                  f'RAM above, {want[2]} given back to Xen; {why}',
                  res.logfile)



BALLOON_STEPS = ['boot', 'cycles', 'shutdown']
# What no balloon may cost the guest: an OOM kill, a kernel warning.
BALLOON_BAD = re.compile(r'Out of memory|oom-kill|invoked oom-killer|'
                         r'WARNING:|BUG:|Oops|Call Trace|memtouch error')


def balloon_bad(text):
    """The first line of @text that BALLOON_BAD matches, or None."""
    m = BALLOON_BAD.search(text)
    if not m:
        return None
    return text[text.rfind('\n', 0, m.start()) + 1:].split('\n', 1)[0].strip()


def balloon_accounting(text, target_mib):
    """The guest's MemTotal lines (guest-init) that give @target_mib as
    the balloon's target: [(MemTotal, current_kb)] in KiB."""
    return [(int(t), int(c) if c.isdigit() else None) for t, c in re.findall(
        MARK + rf'mem total_kb=(\d+) target_kb={target_mib * 1024} '
        r'current_kb=(\S*)', text)]


def judge_balloon(s, out, serial, low, high):
    """Judge a balloon scenario: every cycle reached both targets (xl list),
    the workload never read a bad word, the guest logged no OOM kill or
    warning, and its accounting followed: at @low and back at @high,
    the balloon's current_kb (Xen's count, in ours) is the target, and
    MemTotal moved by what the target did (the same distance below the
    target at both)."""
    console, steps, failed = driven_steps(s, out, serial, 'balloon',
                                          BALLOON_STEPS)
    if failed:
        said = re.findall(r'(?:xen: balloon|PVOPS-HARNESS: mem) [^\n]*',
                          read(console))
        if said:
            failed.why += f'; the guest last said: {said[-1].strip()}'
        return failed
    text = read(console)
    # What the balloon costs: from the workload's start on (the reference
    # PV domU warns of an MSR at boot).
    text = text[max(0, text.find('memtouch started')):]
    bad = balloon_bad(text)
    if bad:
        return Result(s, False, f'guest console: {bad}', console)
    at_low = balloon_accounting(text, low)
    at_high = balloon_accounting(text, high)
    if at_low and len(at_high) >= 2:
        (tl, cl), (th, ch) = at_low[0], at_high[-1]
        gap_low, gap_high = low * 1024 - tl, high * 1024 - th
        acct = (f'MemTotal {tl // 1024} MiB at {low}, {th // 1024} MiB at '
                f'{high} (below the target by {gap_low} and {gap_high} '
                f'KiB); current_kb {cl} and {ch}')
    elif s.kernel == 'ours':
        return Result(s, False, f'no MemTotal line at {low} MiB and at '
                      f'{high} MiB after the cycles', console)
    else:
        acct = 'its sysfs target is not the one xl set'
    if s.kernel == 'ours' and (cl != low * 1024 or ch != high * 1024 or
                               abs(gap_low - gap_high) > 1024):
        return Result(s, False, f'accounting: {acct}', console)
    off = sorted({f for k in ('down_mib', 'up_mib') for f in re.findall(
        MARK + rf'domu {re.escape(s.name)}-a1 balloon cycle=\d+ .*{k}=(\d+)',
        read(serial))} - {str(low), str(high)})
    if off:
        acct += f'; xl list showed {", ".join(off)} MiB at a target'
    down, up = float(steps['down_mean']), float(steps['up_mean'])
    res = Result(s, True, f'{steps["count"]} cycles {high}->{low}->{high} '
                 f'MiB; mean seconds to reach the target: down {down:.2f}, '
                 f'up {up:.2f}; {acct}', console, down + up)
    res.balloon = (down, up)
    res.samples = [sample(f'balloon-{way}-{s.role}', f'xl mem-set {what} '
                          f'MiB, {s.role.upper()} domU, mean seconds to the '
                          'target', 's', s.kernel, [secs])
                   for way, what, secs in (('down', '512->128', down),
                                           ('up', '128->512', up))]
    return res


GROW_STEPS = ['boot', 'grow', 'touch', 'shutdown']
LEND_STEPS = ['start', 'refused', 'down', 'create', 'shutdown', 'up']


def judge_grow(s, out, serial):
    """Judge a domU grown past its boot memory: it got all of its maxmem
    (xl list), by adding memory, and a program then filled most of it
    and read it back, with no OOM kill or warning."""
    console, steps, failed = driven_steps(s, out, serial, 'balloon',
                                          GROW_STEPS)
    if failed:
        return failed
    text = read(console)
    bad = balloon_bad(text)
    if bad:
        return Result(s, False, f'guest console: {bad}', console)
    blocks = re.search(MARK + r'growtouch .*memory_blocks=(\d+)-(\d+)'
                       r'(?: pod_kb=(\d+))?(?: pod_ms=(\d+))?', text)
    done = re.search(MARK + r'memtouch done (.*)', text)
    if not blocks or not done:
        return Result(s, False, 'the program did not finish', console)
    b0, b1, pod = int(blocks.group(1)), int(blocks.group(2)), \
        int(blocks.group(3) or 0)
    # A PV guest's map ends at its boot memory: it grows by adding
    # blocks.  A PVH guest's holds its maxmem, which Xen backed on demand
    # up to 512 MiB: the rest must have gone back at boot.
    if s.role == 'pv' and b1 <= b0:
        return Result(s, False, 'no memory block added', console)
    if s.role == 'pvh' and pod < (s.grow - 512 - 64) * 1024:
        return Result(s, False, f'gave back {pod} KiB at boot, not the '
                      f'{s.grow - 512} MiB Xen did not back', console)
    how = (f'memory blocks {b0} at boot, {b1} after' if s.role == 'pv' else
           f'{pod} KiB given back at boot in {blocks.group(4)} ms, '
           f'memory blocks {b0}-{b1}')
    return Result(s, True, f'{steps["mem"]} MiB in {steps["seconds"]} s '
                  f'({how}); then {done.group(1).strip()} read back whole',
                  console)


def judge_lend(s, out, serial):
    """Judge a dom0 that lends memory: every step ok; what it took."""
    console, steps, failed = driven_steps(s, out, serial, 'dom0-balloon',
                                          LEND_STEPS)
    if failed:
        return failed
    # Our dom0's own log, from the scenario's start: nothing went wrong
    # in its balloon.
    text = read(serial)
    text = text[max(0, text.find(f'domu {s.name}-a1 dom0-balloon start')):]
    bad = balloon_bad(text)
    if bad:
        return Result(s, False, f'dom0 log: {bad}', serial)
    lines = steps.lines
    return Result(s, True, f'dom0 {lines["start"]}; a domU of '
                  f'{steps["domu"]} MiB refused; {lines["down"]}; the domU '
                  f'started; {lines["up"]}', console)


DESTROY_STEPS = ['boot', 'destroy']


def judge_destroy(s, out, serial, most):
    """Judge the long hypercall check (job/destroy.sh): the domU booted
    and went, and dom0's heartbeat never waited more than @most s."""
    console, steps, failed = driven_steps(s, out, serial, 'destroy',
                                          DESTROY_STEPS)
    if failed:
        return failed
    gap = float(steps['gap'])
    what = (f'xl destroy of {steps.get("mem")} MiB took '
            f'{steps["seconds"]} s; dom0\'s heartbeat (one vCPU) '
            f'{steps["beats"]} beats, longest gap {gap:.2f} s')
    if gap > most:
        return Result(s, False, f'{what}, more than {most} s: dom0 '
                      'ran nothing else for that long', console)
    res = Result(s, True, what, console, gap)
    res.samples = [sample(f'destroy-gap-{s.dom0}', 'longest wait of a '
                          'dom0 task while xl destroys a large domU', 's',
                          s.dom0, [gap])]
    return res
