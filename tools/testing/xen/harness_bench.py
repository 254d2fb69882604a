# SPDX-License-Identifier: GPL-2.0
"""Benches: pairs of our kernel and the reference in one Xen boot, their
figures, ratios and 95% intervals.
"""

import os
import re
import statistics

from harness_common import (
    MARK, fault_words, guest_down, paired, parse_fields, read, Result,
    without_msr_notices, xen_dmesg, xen_fault)
from harness_debian import (
    DEBIAN_IO_PAIR_STEPS, DEBIAN_PAIR_STEPS, debian_boot, fio_rate)


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
# And what each MB of the sequential reads (15 s at the rate fio gave)
# cost each domain, lower is better.
SEQ_COSTS = (('seq_domu_ms', 'domU CPU', 'ms'),
             ('seq_dom0_ms', 'dom0 CPU', 'ms'))
SEQ_SECONDS = 15


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
    try:
        mb = bw * SEQ_SECONDS
        figs.update(seq_domu_ms=[float(steps['seqread_domu_s']) * 1e3 / mb],
                    seq_dom0_ms=[float(steps['seqread_dom0_s']) * 1e3 / mb])
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    return figs


# Student's t for a two-sided 95% interval, by degrees of freedom 1-31
# (XEN_PVOPS_PAIRS allows up to 32 pairs).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
       2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
       2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
       2.048, 2.045, 2.042, 2.040)


def ratio_interval(ratios, lower_better=False):
    """The mean of the pairs' ours/ref ratios with its 95% interval, and
    what that interval tells: ours ahead, behind, or not told apart
    (below 1 and above 1 both inside it); one pair gives no interval.
    A ratio of rates is ahead above 1, one of times (@lower_better)
    below."""
    if len(ratios) < 2:
        return 'one pair: no interval'
    m = statistics.mean(ratios)
    h = T95[len(ratios) - 2] * statistics.stdev(ratios) / len(ratios) ** 0.5
    above, below = ('ours behind', 'ours ahead') if lower_better else \
        ('ours ahead', 'ours behind')
    verdict = (above if m - h > 1 else below if m + h < 1
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
    dmesg = xen_dmesg(out, serial)
    kind = 'net' if s.netio else 'io'
    wanted = DEBIAN_PAIR_STEPS if s.netio else DEBIAN_IO_PAIR_STEPS
    rounds = {}                 # (kernel, key) -> [figure of each round]
    # key -> [(ours, ref) mean of each complete pair]
    pair_means = {key: [] for key, _, _ in PAIR_FIGURES[kind]}
    dropped = {int(m.group(1)): (m.group(2), m.group(3)) for m in re.finditer(
        MARK + rf'domu {re.escape(s.name)} pair=(\d+) dropped '
        r'kernel=(\w+) domid=(\d+)', text)}
    notes, complete, fail = [], 0, None
    for k in range(1, s.pairs + len(dropped) + 1):
        if fail or complete == s.pairs:
            break
        if k in dropped:
            kern, dom = dropped[k]
            notes.append(f'pair {k} dropped, the {kern} domU: Xen: '
                         + fault_words(s, out, dom, xen_fault(dmesg, dom),
                                       kern) + ' (guest: ' + os.path.join(
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
                             without_msr_notices(read(console)))
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
        for key, got in pair_means.items():
            got.append((means['ours', key], means['ref', key]))
    done = len(next(iter(pair_means.values())))
    if fail and done < 2:
        return Result(s, False, fail[0], fail[1])
    figs, words = {}, []
    for key, label, unit in PAIR_FIGURES[kind]:
        om, osd = (statistics.mean(rounds['ours', key]),
                   statistics.stdev(rounds['ours', key]))
        rm, rsd = (statistics.mean(rounds['ref', key]),
                   statistics.stdev(rounds['ref', key]))
        pr = [o / r for o, r in pair_means[key]]
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
    role = s.role.upper()
    r.paired = [paired(f'{"iperf3" if s.netio else "fio"}-{key}-{role}',
                       f'{"iperf3" if s.netio else "fio"} {label}, Debian '
                       f'{role} domU', unit, *zip(*pair_means[key]),
                       lower_better=False)
                for key, label, unit in PAIR_FIGURES[kind]]
    return r


def judge_bench(s, out, serial):
    """One Debian domU's bench (fio, or iperf3 both ways) in one boot:
    every step ok, no oops, its figures (r.figs: {key: mean of its
    rounds}), for the pairs of dom0 boots that compare backends
    (harness.run_dom0_pairs)."""
    text = read(serial)
    wanted = DEBIAN_PAIR_STEPS if s.netio else DEBIAN_IO_PAIR_STEPS
    console, steps, bad = debian_boot(text, out, f'{s.name}-a1', wanted)
    if bad:
        return Result(s, False, f'{bad} (dom0 log: {serial}; guest: '
                      f'{console})' + guest_down(
                          s, out, serial, [steps.get('domid')], console),
                      console)
    oops = re.search(r'(Oops|BUG:|WARNING:|Call Trace).*',
                     without_msr_notices(read(console)))
    if oops:
        return Result(s, False, f'guest logged: {oops.group(0).strip()}',
                      console)
    figs = pair_figures(s, steps, console)
    if not figs:
        return Result(s, False, f'no figures in the guest\'s console: '
                      f'{console}', console)
    kind = 'net' if s.netio else 'io'
    words = [f'{label} {statistics.mean(figs[key]):.0f} {unit}' +
             (f' (mean of {len(figs[key])} rounds)' if len(figs[key]) > 1
              else '')
             for key, label, unit in PAIR_FIGURES[kind]]
    r = Result(s, True, ', '.join(words), console)
    r.figs = {key: statistics.mean(vals) for key, vals in figs.items()}
    return r


# The shares dom0-ours-share must see, a's of what both delivered, by
# phase (job/share.sh): (low, high).
SHARE_WANTED = {'w11': (0.40, 0.60), 'w31': (0.65, 0.85)}


def judge_share(s, out, serial):
    """Two senders through netback, by phase: what each delivered, a's
    share, and whether the sharing held (job/share.sh).  Against the
    reference dom0 (no weights) the shares are reported only."""
    text = read(serial)
    m = re.search(MARK + rf'share {re.escape(s.name)} FAILED: (.*)', text)
    if m:
        return Result(s, False, m.group(1), serial)
    phases = {p: (int(a), int(b), int(cs)) for p, a, b, cs in re.findall(
        MARK + rf'share {re.escape(s.name)} phase=(\w+) a=(-?\d+) '
        r'b=(-?\d+) cs=(\d+)', text)}
    if set(phases) != {'none', 'w11', 'w31', 'min', 'cap'}:
        return Result(s, False, f'phases measured: {sorted(phases)}, not '
                      'none, w11, w31, min and cap', serial)
    words, bad = [], []
    for p, (a, b, cs) in phases.items():
        secs = cs / 100 or 1
        share = a / (a + b) if a + b > 0 else 0
        words.append(f'{p}: a {a * 8 / 1e6 / secs:.0f}, b '
                     f'{b * 8 / 1e6 / secs:.0f} Mbit/s, a {share:.0%}')
        lo, hi = SHARE_WANTED.get(p, (0, 1))
        if not lo <= share <= hi:
            bad.append(f'{p}: a got {share:.0%}, not {lo:.0%}-{hi:.0%}')
    mk = re.search(MARK + rf'share {re.escape(s.name)} min-kbps=(\d+)', text)
    a, _, cs = phases['min']
    got = a * 8 / 1000 / (cs / 100 or 1)
    if not mk or got < 0.9 * int(mk.group(1)):
        bad.append(f'min: a got {got:.0f} kbit/s, its minimum '
                   f'{mk.group(1) if mk else "?"}')
    words.append(f'min-kbps {mk.group(1) if mk else "?"}')
    mc = re.search(MARK + rf'share {re.escape(s.name)} '
                   r'cap-bytes-per-50ms=(\d+)', text)
    a, _, cs = phases['cap']
    got = a / (cs / 100 or 1)
    if not mc or got > 1.1 * int(mc.group(1)) * 20:
        bad.append(f'cap: a moved {got:.0f} B/s, its cap '
                   f'{int(mc.group(1)) * 20 if mc else "?"} B/s')
    hold = re.search(MARK + rf'share {re.escape(s.name)} holds (.*)', text)
    f = parse_fields(hold.group(1)) if hold else {}
    if (f.get('domains') != '0' or f.get('backend_threads') != '0' or
            f.get('ports_before') != f.get('ports_after')):
        bad.append('dom0 kept what the domUs took: '
                   + (hold.group(1) if hold else 'no count'))
    if s.dom0 == 'ref':
        return Result(s, bool(hold), 'reference dom0, for comparison: '
                      + '; '.join(words), serial)
    if bad:
        return Result(s, False, '; '.join(bad) + ' (' + '; '.join(words)
                      + ')', serial)
    return Result(s, True, '; '.join(words) + '; nothing held after xl '
                  'destroy', serial)
