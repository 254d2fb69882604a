# SPDX-License-Identifier: GPL-2.0
"""Hypercalls of a PV domU, as Xen counted them (job/hcalls.sh).

xentrace writes the trace buffer as it comes: records of one 32-bit
header (event in bits 0-27, extra words in bits 28-30, a cycle count
follows if bit 31) and their extra words.  TRC_PV_HYPERCALL_V2 is one
hypercall: its first extra word holds the op in bits 0-19 and, two bits
per argument, which arguments follow; Xen records mmu_update's and
mmuext_op's count, so the entries each call carried are known.
TRC_PV_HYPERCALL_SUBCALL is one call inside a multicall, the same way.
"""

import os
import re
import struct

from harness_common import MARK, parse_fields, read, Result, sample
from harness_micro import MICRO_LABELS

TRC_LOST_RECORDS = 0x0001f001
TRC_PV_HYPERCALL_V2 = 0x0020100d
TRC_PV_HYPERCALL_SUBCALL = 0x0020200e
MMU_UPDATE, MULTICALL, MMUEXT_OP = 1, 13, 26
UPDATE_VA_MAPPING = 14
# The page-table hypercalls: their number follows the code paths alone,
# where the rest (timers, the returns from interrupts) follows how long
# the loop took too.  A multicall counts as one when it carries one of
# them (a context switch's carries segment bases and a stack instead).
PAGE_TABLE_OPS = (MMU_UPDATE, MMUEXT_OP, UPDATE_VA_MAPPING)
# Bit 31 of a count: a preempted call Xen restarted (MMU_UPDATE_PREEMPTED).
COUNT_MASK = 0x7fffffff

OPS = {0: 'set_trap_table', 1: 'mmu_update', 2: 'set_gdt', 3: 'stack_switch',
       5: 'fpu_taskswitch', 8: 'set_debugreg', 9: 'get_debugreg',
       10: 'update_descriptor', 12: 'memory_op', 13: 'multicall',
       14: 'update_va_mapping', 15: 'set_timer_op', 17: 'xen_version',
       18: 'console_io', 20: 'grant_table_op', 21: 'vm_assist', 23: 'iret',
       24: 'vcpu_op', 25: 'set_segment_base', 26: 'mmuext_op',
       29: 'sched_op', 30: 'callback_op', 32: 'event_channel_op',
       33: 'physdev_op'}


class Counts:
    """What one trace holds."""

    def __init__(self):
        self.calls = {}         # op -> hypercalls (multicall counts once)
        self.subcalls = {}      # op -> calls inside multicalls
        self.mmu_calls = 0      # mmu_update calls, direct or in a multicall
        self.mmu_entries = 0    # the entries they carried
        self.pt_multicalls = 0  # multicalls carrying a page-table call
        self.lost = 0           # records xentrace says it lost

    def total(self):
        return sum(self.calls.values())


def first_arg(words):
    """The op and the first argument recorded (whichever it is)."""
    op = words[0] & 0xfffff
    arg = words[1] if len(words) > 1 and words[0] >> 20 else None
    return op, arg


def parse_trace(path):
    """Counts of the trace at @path (None if it is missing)."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    c = Counts()
    pos = 0
    # Xen records a multicall before the calls inside it.
    in_mc = counted = False
    while pos + 4 <= len(data):
        (hdr,) = struct.unpack_from('<I', data, pos)
        event, extra = hdr & 0x0fffffff, (hdr >> 28) & 7
        pos += 4 + (8 if hdr >> 31 else 0)
        words = struct.unpack_from(f'<{extra}I', data, pos) \
            if pos + 4 * extra <= len(data) else ()
        pos += 4 * extra
        if event == TRC_LOST_RECORDS:
            c.lost += 1
        if event not in (TRC_PV_HYPERCALL_V2, TRC_PV_HYPERCALL_SUBCALL) \
           or not words:
            continue
        op, arg = first_arg(words)
        table = c.calls if event == TRC_PV_HYPERCALL_V2 else c.subcalls
        table[op] = table.get(op, 0) + 1
        if event == TRC_PV_HYPERCALL_V2:
            in_mc, counted = op == MULTICALL, False
        elif in_mc and not counted and op in PAGE_TABLE_OPS:
            c.pt_multicalls += 1
            counted = True
        if op == MMU_UPDATE and arg is not None:
            c.mmu_calls += 1
            c.mmu_entries += arg & COUNT_MASK
    return c


def per_loop(base, loaded, n):
    """Per fork+exec+exit figures: the loaded boot less the base one."""
    ops = set(base.calls) | set(loaded.calls)
    calls = {op: (loaded.calls.get(op, 0) - base.calls.get(op, 0)) / n
             for op in ops}
    mmu = (loaded.mmu_calls - base.mmu_calls) / n
    entries = (loaded.mmu_entries - base.mmu_entries) / n
    return {'hypercalls': (loaded.total() - base.total()) / n,
            'pt_calls': sum(calls.get(op, 0.0) for op in PAGE_TABLE_OPS) +
            (loaded.pt_multicalls - base.pt_multicalls) / n,
            'calls': calls, 'mmu_calls': mmu,
            # Below a call in 20 loops, the ratio is only noise.
            'per_mmu': entries / mmu if mmu >= 0.05 else 0.0,
            'subcalls': (sum(loaded.subcalls.values()) -
                         sum(base.subcalls.values())) / n}


def describe(fig):
    top = sorted(fig['calls'].items(), key=lambda kv: -kv[1])[:5]
    ops = ', '.join(f'{OPS.get(op, op)} {v:.1f}' for op, v in top if v >= 0.05)
    return (f'{fig["hypercalls"]:.1f} hypercalls ({ops}); mmu_update '
            f'{fig["mmu_calls"]:.1f} calls of {fig["per_mmu"]:.2f} entries; '
            f'{fig["subcalls"]:.1f} calls inside multicalls')


def measure(name, out, serial, n):
    """(figures, None) for scenario @name's two traces, or (None, why)."""
    text = read(serial)
    for loops in (0, n):
        m = re.search(MARK + rf'domu {re.escape(name)}-{loops}-a1 (result=.*)',
                      text)
        if not m or parse_fields(m.group(1)).get('result') != 'init':
            return None, (f'{name}-{loops}: '
                          f'{m.group(1).strip() if m else "never ran"}')
    base = parse_trace(os.path.join(out, f'{name}-0.trace'))
    loaded = parse_trace(os.path.join(out, f'{name}-{n}.trace'))
    if base is None or loaded is None:
        return None, f'{name}: a trace is missing (xentrace logs in {out})'
    if base.lost or loaded.lost:
        return None, (f'{name}: xentrace lost records ({base.lost}, '
                      f'{loaded.lost}); the counts are not whole')
    if not loaded.total() or not base.total():
        return None, f'{name}: a trace holds no hypercall of the domU'
    fig = per_loop(base, loaded, n)
    fig['boot'] = base.total()
    return fig, None


def debugfs_loop(log, n):
    """Per-loop figures of the guest's own counters (debugfs
    xen/multicall, printed before and after the loop), or None.
    multicalls: all sent; mmu_calls and mmu_entries: mmu_update calls
    inside multicalls and on their own, and their entries."""
    text = read(log)
    sides = {}
    for when in ('before', 'after'):
        vals = {}
        for m in re.finditer(MARK + rf'forkloop {when} (\S+) (\d+)'
                             r'(?: requests (\d+))?', text):
            key, v, req = m.group(1), int(m.group(2)), m.group(3)
            vals[key] = v
            if req is not None:
                vals[key + '/requests'] = int(req)
        if 'mmu_update' not in vals or 'direct-mmu_update' not in vals:
            return None
        sides[when] = vals

    def delta(key):
        return sides['after'].get(key, 0) - sides['before'].get(key, 0)
    multicalls = sum(delta(k) for k in sides['after']
                     if k.startswith('multicalls-'))
    calls = delta('mmu_update') + delta('direct-mmu_update')
    entries = delta('mmu_update/requests') + \
        delta('direct-mmu_update/requests')
    return {'multicalls': multicalls / n, 'mmu_calls': calls / n,
            'per_mmu': entries / calls if calls else 0.0,
            'direct': (delta('direct-mmu_update') +
                       delta('direct-mmuext_op') +
                       delta('direct-update_va_mapping')) / n}


def agree(a, b):
    """Two per-loop counts agree: within 5%, or 2 calls when small."""
    return abs(a - b) <= max(2.0, 0.05 * max(a, b))


def judge_loopbench(s, out, serial, fig):
    """Hypercalls per operation of one microbenchmark (@fig); ours is
    held against the reference's: at most as many, page-table ones and
    all, with its debugfs counters agreeing with Xen's."""
    label = MICRO_LABELS.get(s.loopbench, s.loopbench)
    text = f'per {label}: {describe(fig)}'
    log = os.path.join(out, 'console', f'guest-{s.name}-{s.forkloop}-a1.log')
    if MARK + 'forkloop failed' in read(log):
        return Result(s, False, f'microbench --only {s.loopbench} failed '
                      f'(its words are in {log})', log)
    rows = [sample(f'hcalls-{s.loopbench}', f'hypercalls per {label}, PV '
                   'domU', 'calls', s.kernel, [fig['hypercalls']],
                   exact=True),
            sample(f'hcalls-pt-{s.loopbench}', 'page-table hypercalls per '
                   f'{label}, PV domU', 'calls', s.kernel, [fig['pt_calls']],
                   exact=True)]
    problems = []
    if s.kernel == 'ours':
        said = []
        problems += debugfs_check(fig, log, s.forkloop, said.append)
        text += ''.join(said)
        ref_name = s.name.replace('-ours', '-ref')
        ref, _ = measure(ref_name, out, serial, s.forkloop)
        if ref:
            text += (f'; reference {ref["hypercalls"]:.2f} hypercalls, '
                     f'{ref["pt_calls"]:.2f} for page tables')
            for key, what in (('hypercalls', 'hypercalls'),
                              ('pt_calls', 'page-table hypercalls')):
                # Half a call per operation is timer and event noise.
                if fig[key] > ref[key] + 0.5:
                    problems.append(f'{fig[key]:.2f} {what} against the '
                                    f'reference\'s {ref[key]:.2f}')
        else:
            text += f'; no {ref_name} in this run to compare with'
    return hcalls_result(s, text, problems, serial, fig, rows)


def hcalls_result(s, text, problems, serial, fig, rows):
    """The verdict: @text, and @problems if any (each fails it)."""
    r = Result(s, not problems, text + (': ' + '; '.join(problems)
                                        if problems else ''),
               serial, metric=fig['hypercalls'])
    r.samples = rows
    return r


def debugfs_check(fig, log, n, say):
    """The guest's own counters against Xen's: [problems].  @say gets
    the text of the counters."""
    dbg = debugfs_loop(log, n)
    if not dbg:
        return [f'no debugfs xen/multicall figures in {log}']
    say(f'; debugfs: {dbg["multicalls"]:.1f} multicalls, '
        f'{dbg["direct"]:.1f} page-table hypercalls on their own, '
        f'mmu_update {dbg["mmu_calls"]:.1f} calls of '
        f'{dbg["per_mmu"]:.2f} entries')
    xen_mc = fig['calls'].get(MULTICALL, 0.0)
    if not agree(dbg['mmu_calls'], fig['mmu_calls']) or \
       not agree(dbg['multicalls'], xen_mc):
        return ['debugfs and xentrace disagree (mmu_update '
                f'{dbg["mmu_calls"]:.1f} against {fig["mmu_calls"]:.1f}, '
                f'multicalls {dbg["multicalls"]:.1f} against {xen_mc:.1f})']
    return []


def judge_hcalls(s, out, serial):
    """Judge a hypercall count; ours is held against the reference's."""
    fig, why = measure(s.name, out, serial, s.forkloop)
    if not fig:
        return Result(s, False, why, serial)
    if s.loopbench:
        return judge_loopbench(s, out, serial, fig)
    text = f'per fork+exec+exit: {describe(fig)}'
    rows = [sample('hcalls-fork-exec', 'hypercalls per fork+exec+exit of '
                   'a busybox program, PV domU', 'calls', s.kernel,
                   [fig['hypercalls']], exact=True),
            sample('hcalls-pt-fork-exec', 'page-table hypercalls (mmu_update, '
                   'mmuext_op, update_va_mapping, multicall) per '
                   'fork+exec+exit, PV domU', 'calls', s.kernel,
                   [fig['pt_calls']], exact=True),
            sample('hcalls-per-mmu-update', 'page-table entries per '
                   'mmu_update, in that loop', 'entries', s.kernel,
                   [fig['per_mmu']], lower_better=False, exact=True),
            sample('hcalls-boot', 'hypercalls of a PV domU\'s boot, xl '
                   'create to power-off', 'calls', s.kernel, [fig['boot']],
                   exact=True)]
    if s.kernel == 'ref':
        r = Result(s, True, text, serial, metric=fig['hypercalls'])
        r.samples = rows
        return r
    ref_name = s.name.replace('-ours', '-ref')
    ref, _ = measure(ref_name, out, serial, s.forkloop)
    problems = []
    log = os.path.join(out, 'console', f'guest-{s.name}-{s.forkloop}-a1.log')
    said = []
    problems += debugfs_check(fig, log, s.forkloop, said.append)
    text += ''.join(said)
    if fig['per_mmu'] < 4:
        problems.append(f'{fig["per_mmu"]:.2f} entries per mmu_update '
                        '(wanted at least 4)')
    if ref:
        ratio = fig['hypercalls'] / ref['hypercalls']
        text += f'; ours/reference {ratio:.2f}'
        if ratio > 0.5:
            problems.append(f'{ratio:.2f} of the reference\'s hypercalls '
                            '(wanted at most 0.5)')
        # The N=0 boot, create to power-off: ours against the reference.
        boot = fig['boot'] / ref['boot']
        text += (f'; boot without the loop {fig["boot"]} hypercalls, '
                 f'reference {ref["boot"]} ({boot:.2f})')
        if boot > 1.0:
            problems.append(f'the boot took {boot:.2f} of the reference\'s '
                            'hypercalls (wanted at most 1.0)')
    else:
        text += f'; no {ref_name} in this run to compare with'
    return hcalls_result(s, text, problems, serial, fig, rows)
