# SPDX-License-Identifier: GPL-2.0
"""The microbenchmarks (bench/microbench.c, pvops.micro=1): what a null
system call, fork, exec, an mmap, a page fault and a pipe round trip
cost a busybox guest, natively or as a domU.  Each line gives the median
round's nanoseconds per operation and the fastest and slowest round.
"""

import os
import re
import statistics

from harness_bench import ratio_interval
from harness_common import MARK, paired, read, Result, sample

MICRO_RE = re.compile(MARK + r'micro name=(\S+) ns=([\d.]+) min=([\d.]+) '
                      r'max=([\d.]+)')
BENCHES = ['null_syscall', 'fork_exit', 'fork_exec_exit', 'mmap_8k',
           'fault_16m', 'pipe_round_trip']
MICRO_LABELS = {'null_syscall': 'null system call',
                'fork_exit': 'fork+exit', 'fork_exec_exit': 'fork+exec+exit',
                'mmap_8k': 'mmap+touch+munmap of 8 KiB',
                'fault_16m': 'first-touch page faults over 16 MiB',
                'pipe_round_trip': 'pipe round trip'}


def parse_micro(text):
    """{bench: (median, fastest, slowest)} of a finished run, or None."""
    if MARK + 'micro done' not in text:
        return None
    figs = {m.group(1): tuple(float(m.group(i)) for i in (2, 3, 4))
            for m in MICRO_RE.finditer(text)}
    return figs if all(b in figs for b in BENCHES) else None


def judge_micro(s, logfile, out):
    """A booted guest ran every benchmark (its lines in @logfile); ours as
    a domU is held, bench by bench, against the reference's medians of
    the same Xen boot (@out: dom0's output directory)."""
    figs = parse_micro(read(logfile))
    if not figs:
        return Result(s, False, 'the microbenchmarks did not all finish '
                      '(no "micro done" line, or a benchmark missing)',
                      logfile)
    text = ', '.join(f'{b} {figs[b][0]:.0f} ns' for b in BENCHES)
    problems = []
    if s.role != 'native' and s.kernel == 'ours':
        ref_log = os.path.join(out, 'console', 'guest-'
                               f'{s.name.replace("-ours", "-ref")}-a1.log')
        ref = parse_micro(read(ref_log))
        if ref:
            ratios = {b: figs[b][0] / ref[b][0] for b in BENCHES}
            text += '; ours/reference ' + ', '.join(
                f'{b} {ratios[b]:.2f}' for b in BENCHES)
            problems = [b for b in BENCHES if ratios[b] > 1.0]
        else:
            text += '; no reference run in this boot to compare with'
    r = Result(s, not problems, text + (f': slower than the reference: '
                                        f'{", ".join(problems)}'
                                        if problems else ''), logfile)
    r.micro = figs
    r.samples = [sample(f'micro-{b}', MICRO_LABELS[b], 'ns',
                        'native' if s.role == 'native' else s.kernel,
                        [figs[b][0]]) for b in BENCHES]
    return r


def judge_micro_pairs(s, out, serial):
    """@s.pairs pairs of domUs, one on each kernel, ours first in odd
    pairs (job/busybox.sh run_micro_pairs): each benchmark's ours/ref
    ratio of every pair, their mean with its 95% interval.  It passes
    when every domU finished and each mean ratio is at most 1.0."""
    ratios = {b: [] for b in BENCHES}
    medians = {('ours', b): [] for b in BENCHES}
    medians.update({('ref', b): [] for b in BENCHES})
    for k in range(1, s.pairs + 1):
        figs = {}
        for kern in ('ours', 'ref') if k % 2 else ('ref', 'ours'):
            log = os.path.join(out, 'console',
                               f'guest-{s.name}-{kern}-p{k}-a1.log')
            figs[kern] = parse_micro(read(log))
            if not figs[kern]:
                return Result(s, False, f'pair {k}, {kern}: the '
                              'microbenchmarks did not all finish (dom0 '
                              f'log: {serial}; guest: {log})', log)
        for b in BENCHES:
            ratios[b].append(figs['ours'][b][0] / figs['ref'][b][0])
            for kern in ('ours', 'ref'):
                medians[kern, b].append(figs[kern][b][0])
    words, problems = [], []
    for b in BENCHES:
        m = statistics.mean(ratios[b])
        if m > 1.0:
            problems.append(b)
        words.append(f'{b} ours {statistics.median(medians["ours", b]):.0f} '
                     f'ref {statistics.median(medians["ref", b]):.0f} ns '
                     '(median of the pairs), ratio of each pair '
                     f'{", ".join(f"{x:.2f}" for x in ratios[b])}, their '
                     f'mean {ratio_interval(ratios[b], lower_better=True)}')
    r = Result(s, not problems, f'{s.pairs} pairs: ' + '; '.join(words) +
               (f': slower than the reference: {", ".join(problems)}'
                if problems else ''), serial)
    r.micro_pairs = {b: statistics.mean(ratios[b]) for b in BENCHES}
    r.paired = [paired(f'micro-{b}', MICRO_LABELS[b], 'ns',
                       medians['ours', b], medians['ref', b])
                for b in BENCHES]
    return r


def micro_summary(results):
    """Lines for the end of a run: ours/reference as a PV domU, and each
    PV figure over the same kernel's native one (the paper's Xen/native)."""
    figs = {r.scen.name: r.micro for r in results
            if getattr(r, 'micro', None)}
    lines = []
    for role in ('pv', 'pvh'):
        ours, ref = figs.get(f'micro-{role}-ours'), figs.get(f'micro-{role}-ref')
        if ours and ref:
            lines.append(f'harness: microbenchmarks as a {role.upper()} domU, '
                         'ours/ref (median ns): ' + ', '.join(
                             f'{b} {ours[b][0]:.0f}/{ref[b][0]:.0f} = '
                             f'{ours[b][0] / ref[b][0]:.2f}' for b in BENCHES))
        native = figs.get('micro-native-ours')
        if ours and native:
            lines.append(f'harness: ours as a {role.upper()} domU over ours '
                         'native: ' + ', '.join(
                             f'{b} {ours[b][0] / native[b][0]:.2f}'
                             for b in BENCHES))
    return lines
