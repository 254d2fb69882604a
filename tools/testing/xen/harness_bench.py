# SPDX-License-Identifier: GPL-2.0
"""Benches: pairs of our kernel and the reference in one Xen boot, their
figures, ratios and 95% intervals.
"""

import os
import re
import statistics

from harness_common import (
    MARK, fault_words, guest_down, parse_fields, read, Result,
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
