# SPDX-License-Identifier: GPL-2.0
"""KUnit: the KTAP in a console log, parsed with the kernel's kunit.py.
"""

import json
import os
import re
import subprocess
import sys

from harness_common import read, Result


KUNIT_TOOL = None      # kunit.py of the kernel source, from --kunit-tool


def kunit_cases(group, prefix=''):
    """Yield (suite.case, status) from kunit.py's JSON, at every depth."""
    for case in group.get('test_cases', []):
        yield f'{prefix}{case["name"]}', case['status']
    for sub in group.get('sub_groups', []):
        yield from kunit_cases(sub, f'{sub["name"]}.')


# Live suites that only a PV guest can run: elsewhere, even in an 'all'
# run, they skip.
PV_ONLY_SUITES = ('xen-pv-mmu-live',)
# Cases of other suites that only a PV guest can run: a ring, and a
# backend-allocated shared buffer, mapped from grants of the guest itself
# (an HVM container's frame can sit at one guest frame only).
PV_ONLY_CASES = ('xen-grant-live.grant_map_ring_self_test',
                 'xen-grant-live.shbuf_backend_alloc_test')

KTAP_LINE = re.compile(r'\s*(K?TAP version \d|\d+\.\.\d|(not )?ok \d|#)')


def judge_kunit(s, console, logfile, work):
    """Parse the KTAP in a console log with kunit.py and judge it.

    Every case must pass.  In 'pure' runs (no Xen) the live suites may
    skip; in 'all' runs nothing may skip but, in a guest that is not PV,
    the PV-only suites.
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
    may_skip = [n for n in skipped if s.role != 'pv' and
                (n.split('.')[0] in PV_ONLY_SUITES or n in PV_ONLY_CASES)]
    summary = (f'{counts.get("PASS", 0)} passed, {len(bad)} failed, '
               f'{len(skipped)} skipped of {len(cases)} KUnit cases')
    for line in re.findall(r'# \S+: (xenstore: .*reads/s)', read(console)):
        summary += f'; {line.strip()}'
    if not cases:
        return Result(s, False, 'KTAP output had no test cases', logfile)
    if bad:
        return Result(s, False, f'{summary}: {" ".join(bad[:5])}', logfile)
    unexpected = [n for n in skipped if n not in may_skip]
    if unexpected and s.kunit == 'all':
        return Result(s, False, f'{summary}: skipped '
                      f'{" ".join(unexpected[:5])}', logfile)
    if unexpected:
        summary += (f' ({len(unexpected)} live cases skipped: no Xen here'
                    + (f', {len(may_skip)} PV-only' if may_skip else '')
                    + ')')
    elif may_skip:
        summary += f' (the {len(may_skip)} skipped are PV-only)'
    return Result(s, True, summary, logfile)
