#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that our code changes memory it shares with Xen only with
operations that stay locked on a kernel booted with one CPU.

x86 Linux records each LOCK prefix of the atomic_ and plain bitops in
the section .smp_locks, and a kernel that boots with one present CPU
(a dom0 with dom0_max_vcpus=1) patches them all out.  Memory Xen writes
from another physical CPU at the same time (FIFO event words, grant
flags) must be changed with the sync_ operations, whose LOCK is not
recorded there.  An unlocked compare-and-exchange on an event word once
orphaned dom0's whole FIFO queue (README).

Each SPEC is OBJECT (no recorded LOCK anywhere in it) or OBJECT:FUNCTION
(none in that function).  Usage: shared-locks.py OUT SPEC...
"""
import subprocess
import sys


def readelf(args, obj):
    return subprocess.run(['readelf', '-W'] + args + [obj], check=True,
                          capture_output=True, text=True).stdout


def lock_sites(obj):
    """(section, offset) of each LOCK prefix recorded in .smp_locks."""
    sites, inside = [], False
    for line in readelf(['-r'], obj).splitlines():
        if line.startswith('Relocation section'):
            inside = "'.rela.smp_locks'" in line
            continue
        f = line.split()
        if inside and len(f) >= 7 and f[4].startswith('.'):
            # Offset Info Type Sym.Value Sym.Name + Addend
            sites.append((f[4], int(f[6], 16)))
    return sites


def functions(obj):
    """name -> (section name, start, end) of each function symbol."""
    secs = {}
    for line in readelf(['-S'], obj).splitlines():
        f = line.replace('[ ', '[').split()
        if f and f[0].startswith('[') and f[0].endswith(']') and len(f) > 1:
            secs[f[0][1:-1]] = f[1]
    funcs = {}
    for line in readelf(['-s'], obj).splitlines():
        f = line.split()
        if len(f) == 8 and f[3] == 'FUNC' and f[6].isdigit():
            start = int(f[1], 16)
            funcs[f[7]] = (secs.get(f[6]), start, start + int(f[2]))
    return funcs


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    bad = 0
    for spec in specs:
        obj, _, fn = spec.partition(':')
        path = f'{out}/{obj}'
        sites = lock_sites(path)
        funcs = functions(path)
        if fn:
            where = funcs.get(fn)
            if where is None:
                print(f'shared-locks: {spec}: no such function in {path}')
                bad += 1
                continue
            sec, start, end = where
            sites = [s for s in sites if s[0] == sec and start <= s[1] < end]
        for sec, off in sites:
            name = next((f'{n}+{off - a:#x}' for n, (fs, a, b)
                         in funcs.items() if fs == sec and a <= off < b),
                        f'{sec}+{off:#x}')
            print(f'shared-locks: {obj}: {name}: a LOCK that a one-CPU '
                  f'kernel patches out; memory shared with Xen takes '
                  f'sync_ operations')
        bad += len(sites)
    print(f'lint: shared-memory atomics: {len(specs)} object(s) or '
          f'function(s), {bad} finding(s)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
