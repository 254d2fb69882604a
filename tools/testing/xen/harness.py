#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Boot kernels under Xen 4.17 inside QEMU and check what happened.

A scenario names a role (native, dom0, PV domU, PVH domU) and which kernel
plays it: "ours" (the overlay build) or "ref" (the same source and config
with upstream's Xen code, the harness's self-test).  Native scenarios boot
the kernel alone in QEMU.  Xen scenarios that share a dom0 kernel share one
boot: Xen with that dom0, which creates each domU in turn with xl.

Every scenario prints one PASS/FAIL line with the log to read; the run ends
with "N passed, N failed".  A PVH domU that Xen saw triple-fault with Xen's
own RIP in its saved state (the emulator's nested-SVM fault, README) gets
an EMULATOR line instead, with that evidence: not a pass, not a failure of
a kernel, and counted apart.  Logs (QEMU serial = Xen + dom0 console, each
domU console, xl dmesg) stay under the run's log directory.

Known emulator flakes get a retry budget of their own, for reference
kernels only, and every retry is reported; our kernel never gets one.

Where things are: the scenario table in harness_scenarios.py; QEMU and
the Xen boots in harness_emulator.py; dom0's job disk in harness_job.py,
and the shell dom0 runs in job/ (job/hostile.sh and job/hostile.c are
the hostile backend); the judges by family in harness_judge.py (which
judge, native, dom0), harness_busybox.py, harness_debian.py,
harness_hostile.py and harness_kunit.py; the benches in
harness_bench.py.  --rejudge judges a saved run again without booting.
"""

import argparse
import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

import harness_kunit
from harness_common import (
    GUEST_TYPE, HERE, MARK, log, paired, read, Result, tally, verdict_line)
from harness_bench import IO_COSTS, PAIR_FIGURES, SEQ_COSTS, ratio_interval
from harness_emulator import run_native, run_xen
from harness_judge import judge_native, judge_xen
from harness_micro import micro_summary
from harness_scenarios import (BOOT_KEYS, DEFAULT, SCENARIOS, Scenario,
                                boot_key)


def rejudge(logdir, scens):
    """Judge again the saved logs of a run, for those of @scens it ran.

    For a change to a judge, or to the harness itself: the same logs must
    get the same verdicts.  A run that hit its limit is judged as one
    that ended in time.
    """
    results = []
    for s in scens:
        d = os.path.join(logdir, s.name if s.role == 'native' else
                         f'xen-dom0-{boot_key(s)}')
        text = read(os.path.join(d, 'serial.log'))
        if not text or (s.role in GUEST_TYPE and not re.search(
                MARK + rf'domu {re.escape(s.name)}-', text)):
            continue
        results += (judge_xen([s], d) if s.role != 'native'
                    else [judge_native(s, d)])
    for r in results:
        print(verdict_line(r))
    words, rc = tally(results)
    print(f'harness: {words} (re-judged)')
    return rc


# The four kinds of busybox domU a dom0 pair creates (dom0-create-pairs).
CREATE_KINDS = (('pv', 'ref'), ('pv', 'ours'), ('pvh', 'ref'), ('pvh', 'ours'))


def pair_guests(s, k):
    """The domUs dom0 @k creates in one boot of pair scenario @s: with
    @s.creates, a busybox domU of each kind; with @s.serves, a Debian
    domU of our kernel for the fio bench, then one for the iperf3 bench
    (XEN_PVOPS_SERVE=pv|pvh overrides the kind)."""
    if s.serves:
        kind = os.environ.get('XEN_PVOPS_SERVE', s.serves)
        return [Scenario(f'dom0-{k}-fio-{kind}', kind, 'ours', dom0=k,
                         debian=True, net=False, io=True, bench=True,
                         cmdline='pvops.bench=1', timeout=600),
                Scenario(f'dom0-{k}-iperf-{kind}', kind, 'ours', dom0=k,
                         debian=True, netio=True, bench=True, timeout=600)]
    if not s.creates:
        return []
    return [Scenario(f'dom0-{k}-{role}-{kern}', role, kern, dom0=k,
                     timeout=60,
                     flake_retries=2 if (role, kern) == ('pvh', 'ref') else 0)
            for role, kern in CREATE_KINDS]


# What a serving pair compares, per bench: (key, label, unit, lower is
# better) of each figure of judge_bench.
SERVE_FIGURES = {
    'fio': [(k, lb, u, False) for k, lb, u in PAIR_FIGURES['io']] +
           [(k, lb + ' per 1,000 4k reads', u, True) for k, lb, u in IO_COSTS
            if k in ('sent', 'dom0_ms')] +
           [(k, lb + ' per MB of 1M reads', u, True)
            for k, lb, u in SEQ_COSTS],
    'iperf': [(k, lb, u, False) for k, lb, u in PAIR_FIGURES['net']],
}


def serve_words(s, served):
    """The ratios, our dom0 / the reference dom0, of each figure of a
    serving pair scenario, from @served {(kernel, bench, key): [figure
    of each pair]} with only complete pairs in it."""
    words = []
    for bench, figs in SERVE_FIGURES.items():
        for key, label, unit, lower in figs:
            ours = served.get(('ours', bench, key), [])
            ref = served.get(('ref', bench, key), [])
            if not ours or len(ours) != len(ref):
                continue
            pr = [o / r for o, r in zip(ours, ref) if r]
            words.append(
                f'{bench} {label}: ours {statistics.mean(ours):.1f}, ref '
                f'{statistics.mean(ref):.1f}{" " + unit if unit else ""} '
                f'(means of {len(ours)}); pairs '
                f'{", ".join(f"{x:.2f}" for x in pr)}; '
                f'{ratio_interval(pr, lower_better=lower)}')
    return words


def run_dom0_pairs(s, kernels, assets, logdir):
    """@s.pairs pairs of Xen boots, one with our dom0 and one with the
    reference's (ours first, then the reference first, and so on): every
    dom0's toolstack must come up; the ratio of the uptimes at which it
    did, per pair, with their mean and interval.  With @s.creates each
    dom0 also creates one busybox domU of each kind, which must reach
    init: the ratios of their create-to-init times, per kind."""
    # (ours, ref) of each pair: the toolstack's uptimes, and per kind
    # of domU its create-to-init times.
    up_pairs, bad, ups = [], [], {'ours': [], 'ref': []}
    kinds = {f'{role}-{kern}': [] for role, kern in CREATE_KINDS}
    served = {}
    for i in range(s.pairs):
        up, init, figs = {}, {}, {}
        for k in ('ours', 'ref') if i % 2 == 0 else ('ref', 'ours'):
            one = dataclasses.replace(s, name=f'dom0-{k}', kernel=k, pairs=0,
                                      creates=False, serves='')
            rs = run_xen(k, [one] + pair_guests(s, k), kernels, assets,
                         os.path.join(logdir, f'{s.name}-{i + 1}'))
            for r in rs:
                if not r.ok:
                    bad.append(f'pair {i + 1}, {r.scen.name}: {r.why}')
                elif r.scen.role == 'dom0' and r.metric:
                    up[k] = r.metric
                    ups[k].append(r.metric)
                elif getattr(r, 'figs', None):
                    bench = r.scen.name.split('-')[2]
                    for key, val in r.figs.items():
                        figs[(k, bench, key)] = val
                elif r.metric:
                    init[(k, r.scen.name.split('-', 2)[2])] = r.metric
        if len(up) == 2:
            up_pairs.append((up['ours'], up['ref']))
            log(f'{s.name} pair {i + 1}: toolstack up at {up["ours"]:.1f} s '
                f'(ours), {up["ref"]:.1f} s (reference): '
                f'{up["ours"] / up["ref"]:.2f}')
        # A figure counts when both dom0s of the pair gave it.
        for (k, bench, key), val in figs.items():
            if k == 'ours' and ('ref', bench, key) in figs:
                ref = figs[('ref', bench, key)]
                served.setdefault(('ours', bench, key), []).append(val)
                served.setdefault(('ref', bench, key), []).append(ref)
                if key in ('randread', 'seqread', 'to_domu', 'from_domu'):
                    log(f'{s.name} pair {i + 1}: {bench} {key} {val:.0f} '
                        f'(our dom0), {ref:.0f} (reference dom0): '
                        f'{val / ref:.2f}')
        for kind, got in kinds.items():
            if ('ours', kind) in init and ('ref', kind) in init:
                got.append((init[('ours', kind)], init[('ref', kind)]))
                log(f'{s.name} pair {i + 1}: {kind} domU create to init '
                    f'{got[-1][0]:.1f} s (our dom0), {got[-1][1]:.1f} s '
                    f'(reference dom0): {got[-1][0] / got[-1][1]:.2f}')
    spread = '; '.join(f'{k} {min(v):.1f}-{max(v):.1f} s' for k, v in
                       ups.items() if v)
    def ratios(pairs):
        return [o / r for o, r in pairs]
    up_ratio = ratio_interval(ratios(up_pairs), lower_better=True)
    if s.serves:
        words = (f'{len(ups["ours"]) + len(ups["ref"])} of {2 * s.pairs} '
                 f'dom0 boots up; our dom0 / the reference dom0 serving '
                 f'the same domU: ' + '; '.join(serve_words(s, served)))
    elif s.creates:
        words = (f'{len(ups["ours"]) + len(ups["ref"])} of {2 * s.pairs} '
                 f'dom0 boots up, toolstack ours/ref {up_ratio}; domU '
                 'create to init, our dom0 / the reference dom0: ' +
                 '; '.join(f'{kind} '
                           f'{ratio_interval(ratios(got), lower_better=True)}'
                           for kind, got in kinds.items()))
    else:
        words = (f'{2 * s.pairs - len(bad)} of {2 * s.pairs} dom0 boots '
                 f'brought the toolstack up ({spread}); ours/ref over '
                 f'{len(up_pairs)} pairs: {up_ratio}')
    if bad:
        words += '; ' + '; '.join(bad)
    r = Result(s, not bad, words, os.path.join(logdir, f'{s.name}-1'))
    # For bench-report: "ours" and "ref" are the dom0 kernels here.
    if up_pairs:
        r.paired.append(paired('dom0-toolstack-up', 'dom0 toolstack up '
                               '(uptime), our dom0 against the reference\'s',
                               's', *zip(*up_pairs)))
    for kind, got in kinds.items():
        if got:
            r.paired.append(paired(
                f'dom0-create-{kind}', f'xl create to init of a busybox '
                f'{kind} domU, our dom0 against the reference\'s', 's',
                *zip(*got)))
    for bench, figs in SERVE_FIGURES.items():
        for key, label, unit, lower in figs:
            if served.get(('ours', bench, key)):
                r.paired.append(paired(
                    f'dom0-serve-{bench}-{key}', f'{bench} {label}, our '
                    'dom0 serving against the reference\'s', unit,
                    served['ours', bench, key], served['ref', bench, key],
                    lower_better=lower))
    return r


# The figures a judge leaves on its Result besides .metric, kept in
# results.json for the tools that read a run (bisect-perf, bench-report).
FIGURE_ATTRS = ('pairs', 'figs', 'balloon', 'fio', 'iperf', 'micro',
                'micro_pairs', 'samples', 'paired')


def write_results(results, path):
    """Write @results to @path as JSON: one object a scenario with its
    verdict (PASS, FAIL or EMULATOR), words, log, metric and figures."""
    def plain(v):
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v if isinstance(v, (int, float, str, bool)) or v is None \
            else str(v)
    rows = []
    for r in results:
        row = {'name': r.scen.name, 'role': r.scen.role,
               'kernel': r.scen.kernel, 'dom0': r.scen.dom0,
               'verdict': verdict_line(r).split()[0], 'why': r.why,
               'log': r.logfile, 'metric': r.metric}
        for a in FIGURE_ATTRS:
            if getattr(r, a, None) not in (None, [], {}, ()):
                row[a] = plain(getattr(r, a))
        rows.append(row)
    repo = os.path.join(HERE, '..', '..', '..')
    git = subprocess.run(['git', '-C', repo, 'log', '-1', '--format=%h %s'],
                         capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(['git', '-C', repo, 'status', '--porcelain',
                            '--untracked-files=no'], capture_output=True,
                           text=True).stdout.strip()
    with open(path, 'w') as f:
        json.dump({'commit': git + (' (with uncommitted changes)'
                                    if dirty else ''),
                   'results': rows}, f, indent=1)
        f.write('\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument('--ours', help="our bzImage")
    ap.add_argument('--ref', help='reference bzImage')
    ap.add_argument('--assets', help='directory made by assets.sh')
    ap.add_argument('--deb', help='make deb\'s linux-image package, for '
                    'the packaged dom0 scenarios')
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
    harness_kunit.KUNIT_TOOL = a.kunit_tool
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
    if any(s.debian or s.serves for s in scens):
        # Built on first use: most runs never need it.
        subprocess.run(['bash', os.path.join(HERE, 'assets.sh'),
                        os.path.dirname(os.path.abspath(a.assets)), 'debian'],
                       check=True)
    kernels = {'ours': a.ours, 'ref': a.ref}
    if any(s.packaged for s in scens):
        # make deb's package, installed in a copy of the dom0 root; its
        # /boot/vmlinuz is the dom0 kernel of those scenarios' boot.
        if not (a.deb and os.path.exists(a.deb)):
            ap.error('the packaged dom0 scenarios need make deb\'s package '
                     '(--deb)')
        subprocess.run(['bash', os.path.join(HERE, 'assets.sh'),
                        os.path.dirname(os.path.abspath(a.assets)), 'deb',
                        os.path.realpath(a.deb)], check=True)
        kernels['deb'] = os.path.join(a.assets, 'dom0-deb.vmlinuz')
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
    # Each kernel's symbols stay with the logs, to name a guest RIP that
    # Xen dumped (harness_common.symbol()), now or when re-judged.
    for k, image in kernels.items():
        smap = image and os.path.join(os.path.dirname(image), '..', '..',
                                      '..', 'System.map')
        if smap and os.path.exists(smap):
            shutil.copyfile(smap, os.path.join(logdir, f'System.map-{k}'))

    results = []
    for s in scens:
        if s.role == 'native':
            results.append(run_native(s, kernels, a.assets, logdir))
        elif s.role == 'dom0' and s.pairs:
            results.append(run_dom0_pairs(s, kernels, a.assets, logdir))
    for k in BOOT_KEYS:
        group = [s for s in scens if s.role != 'native' and
                 not (s.role == 'dom0' and s.pairs) and boot_key(s) == k]
        if group:
            results += run_xen(k, group, kernels, a.assets, logdir)

    order = {n: i for i, n in enumerate(names)}
    results.sort(key=lambda r: order[r.scen.name])
    write_results(results, os.path.join(logdir, 'results.json'))
    print()
    for r in results:
        print(verdict_line(r))
    for line in micro_summary(results):
        print(line)
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
    balloon = {r.scen.name: r.balloon for r in results
               if getattr(r, 'balloon', None)}
    for kind in ('pv', 'pvh'):
        mine, theirs = balloon.get(f'balloon-{kind}-ours'), balloon.get(
            f'balloon-{kind}-ref')
        if mine and theirs:
            print(f'harness: {kind} balloon, mean seconds to reach a target, '
                  f'ours/ref: down {mine[0]:.2f}/{theirs[0]:.2f} = '
                  f'{mine[0] / theirs[0]:.2f}, up {mine[1]:.2f}/'
                  f'{theirs[1]:.2f} = {mine[1] / theirs[1]:.2f}')
    # Our dom0 against the reference's, in the same run (single figures).
    if 'dom0-ours' in rates and 'dom0-ref' in rates:
        print(f'harness: dom0 toolstack up (uptime), ours/ref: '
              f'{rates["dom0-ours"]:.1f}/{rates["dom0-ref"]:.1f} s = '
              f'{rates["dom0-ours"] / rates["dom0-ref"]:.2f}')
    for kind in ('pv-ref', 'pv-ours', 'pvh-ref', 'pvh-ours'):
        mine, theirs = f'dom0-ours-boot20-{kind}', f'boot20-{kind}'
        if mine in rates and theirs in rates:
            print(f'harness: {kind} domU create to init, mean of 20, '
                  f'our dom0/reference dom0: {rates[mine]:.2f}/'
                  f'{rates[theirs]:.2f} s = '
                  f'{rates[mine] / rates[theirs]:.2f}')
    words, rc = tally(results)
    print(f'harness: {words}')
    return rc


if __name__ == '__main__':
    sys.exit(main())
