# SPDX-License-Identifier: GPL-2.0
"""Judges of the hostile-backend suite (job/hostile.sh, job/hostile.c):
the one line each bad device must log, the console flood, and the
reference kernel's survey.
"""

import os
import re

from harness_common import MARK, domu_steps, failed_step, guest_down, log, \
    parse_fields, read, Result


# Each hostile case (job/hostile.sh): its device, and the one line
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
        bad += guest_down(s, out, serial, [steps.get('domid')], console)
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


def survey_leaks(steps):
    """What a surveyed domU held once its backend closed.

    A kernel without debugfs xen/grants (the reference) reports its
    grants as unknown: then only its device irqs tell.
    """
    leaks = steps.get('leaks')
    last = dict(kv.split('=', 1) for kv in steps.get('last', '').split(',')
                if '=' in kv)
    if leaks == 'ok':
        return 'nothing held'
    if leaks and not last:
        return 'nothing reported (its init never ran)'
    if last.get('grants-in-use') == 'unknown':
        return (f'{last.get("device-irqs", "?")} device irqs held '
                '(grants not known)')
    if leaks:
        return f'held {steps.get("last", "?")}'
    return 'leaks not checked'


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
            + ('; once the backend closed: '
               + steps.lines.get(f'{kind}closed-{v}', '').split('=', 1)[-1]
               if f'{kind}closed-{v}' in steps else '')
            + f'; {survey_leaks(steps)}'
            + f'; shutdown {steps.get("shutdown", "not reached")}'
            + (f'; logged: {oops.group(0).strip()[:100]}' if oops else ''))
    summary = (f'{handled} of {len(lines)} {kind} cases handled as ours '
               f'must, {len(lines) - handled} not (stuck or failed: see '
               f'the lines above); {down} domUs shut down, {oopsed} logged '
               'an oops or warning')
    return Result(s, tried == len(lines), summary,
                  os.path.join(out, 'console'))


def judge_devfuzz(s, out, serial):
    """A hostile user of dom0's devices (job/devfuzz.c): every case
    answered as it must be, nothing in dom0's kernel log that is a bug,
    the destroyed domU gone and every port it took given back."""
    text = read(serial)
    klog = os.path.join(out, f'{s.name}.dmesg.log')
    if re.search(MARK + r'devfuzz FAILED: (.*)', text):
        return Result(s, False, re.search(MARK + r'devfuzz FAILED: (.*)',
                                          text).group(1), serial)
    cases = re.findall(MARK + r'devfuzz case (\S+) (ok|FAIL)(.*)', text)
    done = re.search(MARK + r'devfuzz done fails=(\d+)', text)
    if not done:
        last = cases[-1][0] if cases else 'none'
        return Result(s, False, f'devfuzz did not finish (last case: {last};'
                      f' see {serial} and out/{s.name}.log): dom0 hung or '
                      'died on the way', serial)
    bad = [f'{n}{why}' for n, v, why in cases if v == 'FAIL']
    if bad:
        return Result(s, False, f'{len(bad)} of {len(cases)} cases '
                      'answered wrong: ' + '; '.join(bad[:4]), serial)
    m = re.search(MARK + r'devfuzz kernel-log (.*)', text)
    if not m or not m.group(1).startswith('clean'):
        return Result(s, False, 'dom0 logged '
                      + (m.group(1) if m else 'nothing we could read')
                      + f' (see {klog})', klog)
    hold = re.search(MARK + r'devfuzz holds (.*)', text)
    f = parse_fields(hold.group(1)) if hold else {}
    if (f.get('domains') != '0' or
            f.get('ports_before') != f.get('ports_after')):
        return Result(s, False, 'dom0 kept what the domU took: '
                      + (hold.group(1) if hold else 'no count'), serial)
    leak = re.search(MARK + r'devfuzz kmemleak (.*)', text)
    return Result(s, True, f'{len(cases)} cases (2,000 random ioctls among '
                  'them) answered as they must be, no bug logged, the domU '
                  f'gone, {f.get("ports_after")} event channels as before; '
                  f'kmemleak: {leak.group(1) if leak else "?"}', serial)


def hostfe_cases(kind='vbd'):
    """The hostile frontend's cases (rootfs/hostfe-cases for disks,
    rootfs/hostnf-cases for vifs): (device, expectation, steps), the
    device as the guest names it in its lines (xvdb, vif3), the
    expectation 'serve', the text of a close, or 'log:' and a line's
    text."""
    cases = []
    name = 'hostfe-cases' if kind == 'vbd' else 'hostnf-cases'
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'rootfs', name)
    with open(path) as f:
        for line in f:
            if not line[:1].isalnum() or line.startswith('#'):
                continue
            dev, expect, steps = (x.strip() for x in line.split('|'))
            cases.append((dev if kind == 'vbd' else f'vif{dev}', expect,
                          steps))
    return cases


# The longest a bystander domU may go without a round of disk and ping
# while a hostile one runs beside it (job/hostfe.sh): a round takes about
# 2 s; the hostile domU's creation runs a hotplug script a device.
BYSTANDER_STALL_S = 20


def judge_hostfe(s, out, serial):
    """A hostile block frontend against dom0's blkback (rootfs/hostfe.c,
    job/hostfe.sh), or a network one against netback (rootfs/hostnf.c):
    every case ended as its line in rootfs/host{fe,nf}-cases says, the
    healthy disk read back intact (disks), a bystander domU beside it kept
    reading its disk and pinging dom0 throughout, and once both are
    destroyed dom0 holds nothing of them and logged no bug.  Against the
    reference dom0, a survey: how each case ended."""
    kind = 'vif' if s.hostnf else 'vbd'
    # Only this scenario's lines: from its start to its done.
    text = read(serial)
    m = re.search(MARK + rf'hostfe start {re.escape(s.name)}\s', text)
    if not m:
        return Result(s, False, 'dom0 did not start it', serial)
    text = text[m.end():]
    m = re.search(MARK + r'hostfe done', text)
    text = text[:m.end()] if m else text
    console = os.path.join(out, 'console', f'guest-{s.name}.log')
    ctext = read(console)
    klog = os.path.join(out, f'{s.name}.dmesg.log')
    ktext = read(klog)
    m = re.search(MARK + r'hostfe FAILED: (.*)', text)
    if m:
        return Result(s, False, m.group(1), serial)
    m = re.search(MARK + r'hostfe domid=(\d+) xvda_sha256=(\S+)', text)
    if not m:
        return Result(s, False, 'the domU was not created', serial)
    domid, want_sum = m.groups()
    states = dict(re.findall(MARK + r'hostfe backend vdev=(\d+) state=(\d+)',
                             text))
    cases = hostfe_cases(kind)
    bad, ok = [], 0
    for disk, expect, _ in cases:
        start = re.search(MARK + rf'hostfe case {disk} start vdev=(\d+)',
                          ctext)
        end = re.search(MARK + rf'hostfe case {disk} (ok|failed)', ctext)
        if not start or not end:
            bad.append(f'{disk}: not run')
            continue
        vdev = start.group(1)
        state = states.get(vdev, 'gone')
        why = None
        if end.group(1) != 'ok':
            m = re.search(rf'hostfe device/{kind}/{vdev}: FAILED: (.*)',
                          ctext)
            why = 'its steps failed: ' + (m.group(1) if m else '?')
        elif expect == 'serve':
            if state != '4':
                why = f'backend state {state}, not Connected'
        elif expect.startswith('log:'):
            want = expect.split(':', 1)[1].strip()
            if not any(f'{kind}{domid}.{vdev}:' in ln and want in ln
                       for ln in ktext.splitlines()):
                why = f'no log line with "{want}"'
            elif state != '4':
                why = f'backend state {state}, not Connected'
        else:
            want = expect.split(':', 1)[1].strip()
            lines = [ln for ln in ktext.splitlines()
                     if f'{kind}-{domid}-{vdev}:' in ln and want in ln]
            if state not in ('5', '6'):
                why = f'backend state {state}, not Closing'
            elif len(lines) != 1:
                why = f'{len(lines)} log lines with "{want}", not 1'
        if why:
            bad.append(f'{disk} ({expect}): {why}')
        else:
            ok += 1
    m = re.search(MARK + r'hostfe xvda sha256=(\S+)', ctext)
    got_sum = m.group(1) if m else 'none'
    m = re.search(MARK + r'hostfe kernel-log (.*)', text)
    klog_ok = m and m.group(1).startswith('clean')
    hold = re.search(MARK + r'hostfe holds (.*)', text)
    f = parse_fields(hold.group(1)) if hold else {}
    held = (f.get('domains') != '0' or
            f.get('ports_before') != f.get('ports_after') or
            f.get('backend_devices') != '0' or
            f.get('backend_threads') != '0')
    by = re.search(MARK + r'hostfe bystander (.*)', text)
    b = parse_fields(by.group(1)) if by else {}
    by_words = (f'the bystander domU made {b.get("rounds")} rounds of disk '
                f'and ping, {b.get("wrong")} wrong, none stalled over '
                f'{b.get("longest_stall_s")} s' if by else 'no bystander')
    by_bad = (not by or int(b.get('rounds', 0)) < 3 or
              b.get('wrong') != '0' or
              int(b.get('longest_stall_s', 999)) > BYSTANDER_STALL_S)
    if s.dom0 == 'ref':
        return Result(s, bool(klog_ok), f'survey: {ok} of '
                      f'{len(cases)} cases as ours answers them; '
                      + '; '.join(bad[:30]) + f'; kernel log: '
                      f'{m.group(1) if m else "?"}; holds: '
                      f'{hold.group(1) if hold else "?"}; {by_words}', klog)
    if not klog_ok:
        return Result(s, False, 'dom0 logged '
                      + (m.group(1) if m else 'nothing we could read')
                      + f' (see {klog})', klog)
    if bad:
        return Result(s, False, f'{len(bad)} of {len(cases)} '
                      'cases wrong: ' + '; '.join(bad[:5]), console)
    if kind == 'vbd' and got_sum != want_sum:
        return Result(s, False, f'the healthy disk read back {got_sum}, '
                      f'not {want_sum}', console)
    if by_bad:
        return Result(s, False, f'other guests\' I/O did not go on: '
                      f'{by_words} (at most {BYSTANDER_STALL_S} s allowed; '
                      f'see console/guest-{s.name}-by.log)', serial)
    if held:
        return Result(s, False, 'dom0 kept what the domU took: '
                      + (hold.group(1) if hold else 'no count'), serial)
    return Result(s, True, f'{ok} cases as they must be (each nonsense '
                  'closed its device alone with one log line, each error '
                  'answered), '
                  + ('the healthy disk intact, ' if kind == 'vbd' else '')
                  + 'nothing held after '
                  f'xl destroy ({f.get("ports_after")} event channels as '
                  f'before), no bug logged; {by_words}', console)
