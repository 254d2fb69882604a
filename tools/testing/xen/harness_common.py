# SPDX-License-Identifier: GPL-2.0
"""What every part of the harness shares: the marker that dom0 and the
guests print, the fields parsed from their lines, a scenario's Result,
the run's deadline, and what Xen and a guest's console say of a domU
that went down.
"""

import os
import re
import time


MARK = 'PVOPS-HARNESS: '


INIT_RE = re.compile(MARK + r'init reached (.*)')


GUEST_TYPE = {'pv': 'PV', 'pvh': 'PVH'}


def log(msg):
    print(f'harness: {msg}', flush=True)


def read(path):
    """A log's text; empty when the file was never written."""
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def parse_fields(text):
    return dict(kv.split('=', 1) for kv in text.split() if '=' in kv)


class Steps(dict):
    """A domU's fields, merged; .lines keeps each field's own line."""

    def __init__(self):
        super().__init__()
        self.lines = {}
        self.order = []     # every line, in the order dom0 logged them


def domu_steps(text, name, what):
    """The fields of every 'domu NAME WHAT ...' line of @text, merged."""
    steps = Steps()
    for rest in re.findall(MARK + rf'domu {re.escape(name)} {what} (.*)',
                           text):
        fields = parse_fields(rest)
        steps.update(fields)
        steps.lines.update(dict.fromkeys(fields, rest.strip()))
        steps.order.append(rest.strip())
    return steps


def failed_step(steps, names):
    """'STEP STATE' for the first of @names not ok in @steps, else None.

    A step that failed brings the other fields of its line along (the
    loss of a ping, the log it wrote).
    """
    for step in names:
        if steps.get(step) != 'ok':
            line = steps.lines.get(step, '')
            more = ' '.join(kv for kv in line.split()
                            if '=' in kv and not kv.startswith(step + '='))
            return (f'{step} {steps.get(step, "not reached")}'
                    + (f' ({more})' if more else ''))
    return None


class Result:
    def __init__(self, scen, ok, why, logfile, metric=None):
        self.scen, self.ok, self.why, self.logfile = scen, ok, why, logfile
        self.metric = metric      # a benchmark's figure, for ratios
        self.emulator = None      # emulator_stop()'s words, if it was that
        self.samples = []         # sample()s, for bench-report
        self.paired = []          # paired()s, for bench-report


def sample(key, label, unit, kernel, values, lower_better=True,
           exact=False):
    """A benchmark figure of one kernel for the report (bench-report):
    @values are its runs (boots, rounds); @exact marks a count (of
    hypercalls), one a side, compared as it is, without an interval."""
    return {'key': key, 'label': label, 'unit': unit, 'kernel': kernel,
            'values': [float(v) for v in values],
            'lower_better': lower_better, 'exact': exact}


def paired(key, label, unit, ours, ref, lower_better=True):
    """A benchmark figure taken in pairs, ours and the reference in the
    same boot, one after the other: the report's interval is that of
    the mean of the pairs' ratios."""
    return {'key': key, 'label': label, 'unit': unit,
            'ours': [float(v) for v in ours], 'ref': [float(v) for v in ref],
            'lower_better': lower_better}


def verdict_line(r):
    """A scenario's line: PASS, FAIL, or EMULATOR (a PVH domU stopped by
    the emulator's own nested-SVM fault, emulator_stop(): reported, not
    counted either way), its words, and its log."""
    if r.emulator:
        return (f'EMULATOR {r.scen.name}: {r.why}; stopped by the emulator, '
                f'not by a kernel: {r.emulator} (log: {r.logfile})')
    return (f'{"PASS" if r.ok else "FAIL"} {r.scen.name}: {r.why} '
            f'(log: {r.logfile})')


def tally(results):
    """'harness: N passed, N failed[, N stopped by the emulator]' and
    the exit status: 0 when nothing failed."""
    npass = sum(r.ok for r in results)
    nemu = sum(bool(not r.ok and r.emulator) for r in results)
    nfail = len(results) - npass - nemu
    words = f'{npass} passed, {nfail} failed'
    if nemu:
        words += (f', {nemu} stopped by the emulator\'s nested-SVM fault '
                  '(not passed: what they test did not run to its end)')
    return words, (0 if nfail == 0 else 1)


def time_left():
    """Seconds until XEN_PVOPS_DEADLINE (a Unix time), or None without one.

    `make check` sets it so that a machine that hangs ends the run with
    failures that name it, instead of running past the CI's own limit.
    """
    deadline = os.environ.get('XEN_PVOPS_DEADLINE')
    return int(deadline) - time.time() if deadline else None


def limit(seconds):
    """@seconds, or less when the deadline comes first; (secs, cut)."""
    left = time_left()
    if left is not None and left < seconds:
        return max(0, int(left)), True
    return seconds, False


HERE = os.path.dirname(os.path.abspath(__file__))


def xen_fault(dmesg, domid):
    """Xen's dump of domain @domid's triple fault, or None.

    A dict of the faulting vCPU's 'rip', 'cs', 'rflags' and 'cr2' as Xen saved
    them, read from the '(XEN)' lines that follow its 'dNvM Triple
    fault' line (dom0's own lines may come in between on the serial).
    """
    m = re.search(rf'(?<![\w.])d{domid}v\d+ Triple fault[^\n]*\n', dmesg)
    if not m:
        return None
    dump = '\n'.join([ln for ln in dmesg[m.end():].split('\n', 60)[:60]
                      if ln.startswith('(XEN)')][:16])
    f = {}
    rip = re.search(r'RIP:\s+([0-9a-f]{4}):\[<([0-9a-f]+)>\]', dump)
    cr2 = re.search(r'cr2: ([0-9a-f]+)', dump)
    rflags = re.search(r'RFLAGS: ([0-9a-f]+)', dump)
    if rip:
        f['cs'], f['rip'] = rip.groups()
    if rflags:
        f['rflags'] = rflags.group(1)
    if cr2:
        f['cr2'] = cr2.group(1)
    return f


# Guest instructions right after one that exits to Xen, where the
# emulated VMRUN resumes the guest: PVH domUs of both kernels were seen
# to triple-fault there with nothing wrong in their saved state (a sane
# stack, the hypercall's answer in rax), so the fault is the emulator's
# nested SVM, not the guest's (README).  Each with its evidence:
#   hypercall_page + 32 n + 8, after the vmmcall of Xen's stub n: ours
#     (debian10-pvh-ours, CI check of 2026-11-27, d37 at
#     hypercall_page+0x308, in VCPUOP_set_singleshot_timer);
#   xen_hypercall_amd+0x3, after the reference's own vmmcall: the
#     reference (iperf pairs of 2026-11-26 08:42, d10);
#   native_apic_msr_eoi+0xb, after the x2APIC EOI's wrmsr: the
#     reference (iperf pairs of 2026-11-26 22:54, d15).
RESUME_POINTS = {('xen_hypercall_amd', 0x3), ('native_apic_msr_eoi', 0xb)}

# X86_EFLAGS_IF: interrupts on.
EFLAGS_IF = 0x200


def user_mode_fault(f):
    """True when Xen's dump @f stopped the guest in its user space (the
    64-bit user code segment, 0033) with interrupts on: an instruction
    of a user program, where Xen may have stopped the guest for any
    interrupt of its own and resumed it.  Both kernels were seen to
    triple-fault so, running the same Debian user space: the reference
    twice (Debian domUs under iperf3, README), ours in debian10-pvh-ours
    (d11 of a run of 2026-12-07, after its ping).  What a user program
    does wrong reaches its kernel as an exception, through tables the
    kernel set up at boot and used all along: had they been broken, the
    guest would not have run that far.  (A PV guest's user code segment
    is e033: it never matches.)"""
    try:
        flags = int(f.get('rflags', ''), 16)
    except ValueError:
        return False
    return f.get('cs') == '0033' and bool(flags & EFLAGS_IF)


def emulator_resume(sym):
    """True when @sym ('name+0xoff') is one of the RESUME_POINTS."""
    m = re.fullmatch(r'(\w+)\+0x([0-9a-f]+)', sym or '')
    if not m:
        return False
    name, off = m.group(1), int(m.group(2), 16)
    return (name == 'hypercall_page' and off % 32 == 8) or \
        (name, off) in RESUME_POINTS


def emulator_fault(f, sym=''):
    """True when Xen's dump @f is the emulator's nested-SVM fault.

    Either the guest's saved state holds Xen's own code segment (e008)
    and a RIP in Xen's text (the instruction after its vmrun): no guest
    instruction faulted; or the guest was in its user space
    (user_mode_fault()); or the guest's RIP, whose symbol @sym is, is
    one of the RESUME_POINTS.  A PV guest never enters nested SVM.
    """
    if not f:
        return False
    if f.get('cs') == 'e008' and f.get('rip', '').startswith('ffff82d0'):
        return True
    if user_mode_fault(f):
        return True
    return f.get('cs') == '0010' and emulator_resume(sym)


def symbol(out, kernel, rip):
    """'name+0xoff' for @rip in @kernel's System.map, which the run
    copied beside its Xen boots' directories; '' when not found."""
    path = os.path.join(out, '..', '..', f'System.map-{kernel}')
    try:
        addr = int(rip, 16)
    except ValueError:
        return ''
    best = None
    for line in read(path).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tTwW':
            a = int(parts[0], 16)
            if a <= addr and (best is None or a > best[0]):
                best = (a, parts[2])
    return f'{best[1]}+{addr - best[0]:#x}' if best else ''


def fault_words(s, out, d, f, kernel=None):
    """What triple_fault() says of domain @d's dump @f; @kernel, the
    one that domain ran when not the scenario's (a pair's)."""
    kernel = kernel or s.kernel
    if not f or 'rip' not in f:
        return f'd{d} triple-faulted (no register dump found)'
    sym = symbol(out, kernel, f['rip'])
    if emulator_fault(f) and f.get('cs') == 'e008':
        return (f'd{d} triple-faulted with Xen\'s own RIP {f["rip"]} '
                f'(cs e008, cr2 {f.get("cr2", "?")}) in the guest\'s saved '
                'state: the emulator\'s nested-SVM fault the README describes')
    if user_mode_fault(f):
        return (f'd{d} triple-faulted in its user space (RIP {f["cs"]}:'
                f'{f["rip"]}, RFLAGS {f["rflags"]}), where both kernels were '
                'seen to: the emulator\'s nested-SVM fault the README describes')
    if emulator_fault(f, sym):
        return (f'd{d} triple-faulted at the guest\'s RIP {f["cs"]}:'
                f'{f["rip"]} ({sym}), right after an instruction that exits '
                'to Xen, where both kernels were seen to: the emulator\'s '
                'nested-SVM fault the README describes')
    who = 'ours until shown otherwise' if kernel == 'ours' else \
        'the reference\'s'
    return (f'd{d} triple-faulted at the guest\'s RIP {f["cs"]}:{f["rip"]}'
            f'{f" ({sym})" if sym else ""}, {who}')


def scenario_domids(s, serial):
    """Every domid dom0 gave one of the scenario's domUs."""
    return re.findall(MARK + rf'domu {re.escape(s.name)}(?:-ours|-ref)?'
                      r'-a\d+ .*domid=(\d+)', read(serial))


def xen_dmesg(out, serial):
    """Xen's ring as dom0 read it at the end, and its serial console."""
    return read(os.path.join(out, 'xl-dmesg.txt')) + read(serial)


def scenario_faults(s, out, serial, ids=None):
    """{domid: Xen's dump} of the scenario's domUs that triple-faulted.

    @ids: the domids to look at, instead of all the scenario's.
    """
    if ids is None:
        ids = scenario_domids(s, serial)
    dmesg = xen_dmesg(out, serial)
    faults = {d: xen_fault(dmesg, d) for d in dict.fromkeys(filter(None, ids))}
    return {d: f for d, f in faults.items() if f is not None}


def triple_fault(s, out, serial, ids=None):
    """' (Xen: dN triple-faulted ...)' when the scenario's domU did.

    Names whose RIP Xen dumped: its own (the emulator's fault) or the
    guest's, with the symbol from that kernel's System.map.
    @ids: the domids to look at, instead of all the scenario's.
    """
    for d, f in scenario_faults(s, out, serial, ids).items():
        return f' (Xen: {fault_words(s, out, d, f)})'
    return ''


def emulator_stop(s, out, serial, r):
    """@r, a domU scenario's Result, as Xen's triple faults leave it.

    When Xen dumped the emulator's fault (emulator_fault()) for one of
    a failed PVH scenario's domUs, no domU of it triple-faulted in any
    other way and no guest logged an oops, r.emulator holds those words:
    the verdict is then EMULATOR, neither a pass nor a failure of ours.
    A Debian scenario that passed although one of its domUs
    triple-faulted (xl restarts it, and the new boot may answer the
    next steps) does not pass: EMULATOR on the same terms, else FAIL.
    Pair scenarios drop such pairs themselves; a busybox domU's job
    reports the restart (result=triple-fault).
    """
    if r.emulator or s.role not in GUEST_TYPE or s.pairs:
        return r
    faults = scenario_faults(s, out, serial)
    emu = [d for d, f in faults.items()
           if emulator_fault(f, symbol(out, s.kernel, f.get('rip', '')))]
    only_emu = s.role == 'pvh' and emu and len(emu) == len(faults)
    if r.ok and faults and s.debian:
        # xl restarts a domU that triple-faulted, and the restarted one
        # may answer what the scenario asks next: no pass either way.
        # (A busybox domU's job sees the restart itself: result=.)
        words = '; '.join(fault_words(s, out, d, f)
                          for d, f in faults.items())
        r.ok = False
        if only_emu:
            r.emulator = words + ' (xl restarted it)'
        else:
            r.why += f' (but Xen: {words}; xl restarted it)'
        return r
    if r.ok or '(the guest logged:' in r.why:
        return r
    if only_emu:
        r.emulator = '; '.join(fault_words(s, out, d, faults[d])
                               for d in emu)
    return r


def guest_down(s, out, serial, ids, console):
    """What Xen and the guest's console say of a domU that failed a step.

    triple_fault()'s words, then ' (the guest logged: ...)' with the
    first oops or panic line and the RIP that follows it, so that a
    step that failed because the kernel went down (a double fault, say)
    says so rather than only what dom0 saw missing.
    """
    return triple_fault(s, out, serial, ids) + guest_oops(console)


# The kernel's notice that a guarded MSR access faulted: it goes on with
# the access read as 0.  The reference as a PV domU prints one at boot,
# with a call trace, for an AMD MSR that Xen does not give it.  Not an
# oops: left out where a judge looks for one.
MSR_NOTICE_RE = re.compile(r'unchecked MSR access error.*?</TASK>', re.S)


def without_msr_notices(text):
    """@text less the kernel's unchecked MSR access notices."""
    return MSR_NOTICE_RE.sub('', text)


def guest_oops(console):
    """guest_down()'s second half: the console's oops or panic line."""
    text = read(console)
    m = re.search(r'(?:Oops:|Kernel panic|traps: PANIC:|BUG:)[^\n]*', text)
    if not m:
        return ''
    rip = re.search(r'RIP: [^\n]*', text[m.end():])
    what = m.group(0).strip() + (f', {rip.group(0).strip()}' if rip else '')
    return f' (the guest logged: {what})'


def last_attempt(s, out, serial):
    """dom0's last attempt at a busybox domU: (name, rest, console, retries).

    rest is the text of its result line, console its console log, and
    retries the number of earlier attempts that triple-faulted (the
    reference's flake retries), each logged here.  None when dom0 never
    ran it.
    """
    lines = re.findall(MARK + rf'domu ({re.escape(s.name)}-a\d+) (.*)',
                       read(serial))
    if not lines:
        return None
    retries = 0
    for n, rest in lines:
        if parse_fields(rest).get('result') == 'triple-fault':
            retries += 1
            log(f'{s.name}: attempt {n} triple-faulted: known reference '
                f'flake ({s.flake_note}); log '
                f'{os.path.join(out, "console", f"guest-{n}.log")}')
    name, rest = lines[-1]
    return name, rest, os.path.join(out, 'console', f'guest-{name}.log'), \
        retries
