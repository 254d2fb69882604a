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


def domu_steps(text, name, what):
    """The fields of every 'domu NAME WHAT ...' line of @text, merged."""
    steps = Steps()
    for rest in re.findall(MARK + rf'domu {re.escape(name)} {what} (.*)',
                           text):
        fields = parse_fields(rest)
        steps.update(fields)
        steps.lines.update(dict.fromkeys(fields, rest.strip()))
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


def triple_fault(s, out, serial, ids=None):
    """' (Xen saw dN triple-fault ...)' when the scenario's domU did.

    @ids: the domids to look at, instead of all the scenario's.
    """
    if ids is None:
        ids = re.findall(MARK + rf'domu {re.escape(s.name)}(?:-ours|-ref)?'
                         r'-a\d+ .*domid=(\d+)', read(serial))
    # Xen's ring as dom0 read it at the end, and its serial console
    # (the ring keeps only the last 16 KB).
    dmesg = read(os.path.join(out, 'xl-dmesg.txt')) + read(serial)
    for d in filter(None, ids):
        if re.search(rf'\bd{d}v\d+ Triple fault', dmesg):
            return (f' (Xen: d{d} triple-faulted, the emulator flake the '
                    'README describes)')
    return ''


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
