#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check our Xen ABI headers against Xen 4.17's public headers (libxen-dev).

Usage: abi_check.py REPO            check the repository's headers
       abi_check.py --selftest REPO plant mismatches; they must be caught

Our ABI headers (every file under include/xen/interface/ and the x86 ones
in COUNTERPARTS) are compiled in one userspace translation unit, Xen's
counterparts in another, both with full debug info.  From the DWARF of the
two objects it compares, for every struct, union and typedef we define:
the size, and the offset and size of every member at every depth (Xen's
direct members must all be ours too).  Every integer constant we #define
is evaluated on both sides and must have the same value.  A constant or
type that Xen does not define is an error: these headers are the ABI and
nothing else.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from elftools.elf.elffile import ELFFile

XEN_INCLUDE = '/usr/include'
# Headers whose Xen counterpart is not xen/<path below interface/>: the
# x86 ones, and those Xen keeps under arch-x86/.
COUNTERPARTS = {
    'arch/x86/include/asm/xen/interface.h': 'xen/xen.h',
    'arch/x86/include/asm/xen/cpuid.h': 'xen/arch-x86/cpuid.h',
    'include/xen/interface/hvm/start_info.h': 'xen/arch-x86/hvm/start_info.h',
}
SHIM_TYPES = '''#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef uint8_t u8; typedef uint16_t u16; typedef uint32_t u32;
typedef uint64_t u64; typedef int8_t s8; typedef int16_t s16;
typedef int32_t s32; typedef int64_t s64;
'''
# Xen's headers give guests that name no version the legacy interface;
# ours is the latest that Xen 4.17 offers.
XEN_PRELUDE = '#include <stdint.h>\n#include <stddef.h>\n#include <string.h>\n#define __XEN_INTERFACE_VERSION__ 0x00040e00\n'
SHIM_BITS = '''#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK(h, l) ((~0UL << (l)) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l) ((~0ULL << (l)) & (~0ULL >> (63 - (h))))
'''
# Constants Xen 4.17's headers do not give us: the value they must have,
# and why.  Some come from a newer ABI, some Xen gives only to a kernel
# (#ifdef __KERNEL__).
KERNEL_ONLY = 'Xen defines it for kernels only (__KERNEL__)'
EXPECTED = {
    'XEN_ELFNOTE_PHYS32_RELOC': (19, 'Xen 4.19 ELF note; emitted by '
                                 "Linux's PVH entry, ignored by 4.17"),
    'XENFB_WIDTH': (800, KERNEL_ONLY),
    'XENFB_HEIGHT': (600, KERNEL_ONLY),
    'XENFB_DEPTH': (32, KERNEL_ONLY),
}
# Types Linux's drivers know under names of their own: our name, Xen's,
# and for an enum, the prefix of its members here and there.  They are
# compared under Xen's name.
LINUX_NAMES = {
    'struct vtpm_shared_page': ('struct tpmif_shared_page', None),
    'enum vtpm_shared_page_state': ('enum tpmif_state',
                                    ('VTPM_STATE_', 'TPMIF_STATE_')),
    'enum xenusb_spec_version': ('enum usb_spec_version',
                                 ('XENUSB_VER_', 'USB_VER_')),
}
# Members Linux groups where Xen does not: our member's path, Xen's (None:
# a group of Xen's members, compared member by member).
MEMBER_ALIASES = {
    'struct shared_info': {'wc': None, 'wc.version': 'wc_version',
                           'wc.sec': 'wc_sec', 'wc.nsec': 'wc_nsec'},
}
# Constants Linux's code knows under names of their own: ours, Xen's.
CONST_ALIASES = {
    'MAX_VIRT_CPUS': 'XEN_LEGACY_MAX_VCPUS',
    'XENUSB_URB_RING_SIZE': 'USB_URB_RING_SIZE',
    'XENUSB_CONN_RING_SIZE': 'USB_CONN_RING_SIZE',
}
# Whole protocols Linux names otherwise: the prefix of our types (after
# struct/union/typedef) and constants, and Xen's.
TYPE_PREFIXES = [('xenusb_', 'usbif_')]
CONST_PREFIXES = [('XENUSB_', 'USBIF_')]


def xen_type(key):
    """Xen's name of one of our types, and its enum members' renaming."""
    if key in LINUX_NAMES:
        return LINUX_NAMES[key]
    kind, _, name = key.partition(' ')
    for ours, xen in TYPE_PREFIXES:
        if name.startswith(ours):
            return f'{kind} {xen}{name[len(ours):]}', None
    return key, None


def xen_const(name):
    """Xen's name of one of our constants."""
    if name in CONST_ALIASES:
        return CONST_ALIASES[name]
    for ours, xen in CONST_PREFIXES:
        if name.startswith(ours):
            return xen + name[len(ours):]
    return name
DEFINE_RE = re.compile(r'^\s*#\s*define\s+([A-Za-z_]\w*)(?!\()\s+(\S.*)$')


def our_headers(repo):
    """Map each of our ABI headers (repo-relative) to Xen's counterpart."""
    pairs = {h: x for h, x in COUNTERPARTS.items() if h.startswith('arch/')}
    top = os.path.join(repo, 'include/xen/interface')
    for d, _, names in sorted(os.walk(top)):
        for n in sorted(names):
            if n.endswith('.h'):
                rel = os.path.relpath(os.path.join(d, n), top)
                ours = f'include/xen/interface/{rel}'
                pairs[ours] = COUNTERPARTS.get(ours, f'xen/{rel}')
    return pairs


def include_name(rel):
    for pre in ('include/', 'arch/x86/include/'):
        if rel.startswith(pre):
            return rel[len(pre):]
    raise ValueError(rel)


def constants(repo, headers):
    """Object-like macros our headers define with a value, in order:
    (integer ones, string ones: xenstore node names)."""
    names, strings = [], []
    for rel in headers:
        with open(os.path.join(repo, rel)) as f:
            for line in f:
                m = DEFINE_RE.match(line)
                if not m or m.group(1) in names + strings:
                    continue
                val = m.group(2).strip()
                (strings if val.startswith('"') or val in strings else
                 names).append(m.group(1))
    return names, strings


def string_values(includes_src, names, incdirs, work, tag):
    """Each string macro's text: {name: text, or None (missing)}."""
    lines = [includes_src, '#include <stdio.h>', 'int main(void)', '{']
    for n in names:
        lines += [f'#ifdef {n}', f'\tprintf("%s=%s\\n", "{n}", {n});',
                  '#else', f'\tprintf("%s\\n", "{n}");', '#endif']
    lines += ['\treturn 0;', '}', '']
    exe = os.path.join(work, f'strings-{tag}')
    r = compile_c('\n'.join(lines), exe, incdirs, work)
    if r.returncode:
        raise RuntimeError(f'cannot build the {tag} string table:\n'
                           + r.stderr[-3000:])
    out = subprocess.run([exe], capture_output=True, text=True,
                         check=True).stdout
    vals = {}
    for line in out.splitlines():
        n, eq, v = line.partition('=')
        vals[n] = v if eq else None
    return vals


def compile_c(src, obj, includes, work, extra=()):
    path = os.path.join(work, os.path.basename(obj) + '.c')
    with open(path, 'w') as f:
        f.write(src)
    cmd = ['gcc', '-std=gnu11', '-g', '-gdwarf-4',
           '-fno-eliminate-unused-debug-types', '-O0', '-o', obj,
           *extra] + [f'-I{i}' for i in includes] + [path]
    return subprocess.run(cmd, capture_output=True, text=True)


def values(includes_src, names, incdirs, work, tag, direct=False):
    """Evaluate each macro as a long long: {name: value or None (missing)}.

    A macro whose expansion is not an integer constant is reported and left
    out of the comparison (the compiler says which one).  With direct, the
    names are evaluated without asking the preprocessor first, so that
    enumeration constants (Xen's XS_* message types) count too.
    """
    skipped = {}
    while True:
        lines = [includes_src, '#include <stdio.h>', 'int main(void)', '{']
        where = {}
        for n in names:
            if n in skipped:
                continue
            if not direct:
                lines.append(f'#ifdef {n}')
            # The line the printf lands on (includes_src spans many).
            where[sum(x.count('\n') + 1 for x in lines) + 1] = n
            lines.append(f'\tprintf("%s %lld\\n", "{n}", (long long)({n}));')
            if not direct:
                lines.append('#else')
                lines.append(f'\tprintf("%s MISSING\\n", "{n}");')
                lines.append('#endif')
        lines += ['\treturn 0;', '}', '']
        exe = os.path.join(work, f'values-{tag}')
        r = compile_c('\n'.join(lines), exe, incdirs, work,
                      ('-Werror=int-conversion', '-Werror=pointer-to-int-cast'))
        if r.returncode == 0:
            break
        bad = set()
        for m in re.finditer(r'values-\w+\.c:(\d+):\d+: error', r.stderr):
            if int(m.group(1)) in where:
                bad.add(where[int(m.group(1))])
        if not bad:
            raise RuntimeError(f'cannot build the {tag} value table:\n'
                               + r.stderr[-3000:])
        for n in bad:
            skipped[n] = 'not an integer constant'
    out = subprocess.run([exe], capture_output=True, text=True,
                         check=True).stdout
    vals = {}
    for line in out.splitlines():
        n, v = line.split()
        vals[n] = None if v == 'MISSING' else int(v)
    return vals, skipped


# --- DWARF ------------------------------------------------------------------

def strip(die):
    while die.tag in ('DW_TAG_typedef', 'DW_TAG_const_type',
                      'DW_TAG_volatile_type', 'DW_TAG_restrict_type'):
        if 'DW_AT_type' not in die.attributes:
            return None
        die = die.get_DIE_from_attribute('DW_AT_type')
    return die


def size_of(die):
    die = strip(die)
    if die is None:
        return 0
    if die.tag == 'DW_TAG_array_type':
        n = 1
        for sub in die.iter_children():
            if sub.tag != 'DW_TAG_subrange_type':
                continue
            a = sub.attributes
            if 'DW_AT_count' in a:
                n *= a['DW_AT_count'].value
            elif 'DW_AT_upper_bound' in a:
                n *= a['DW_AT_upper_bound'].value + 1
            else:
                n = 0       # flexible array member
        return n * size_of(die.get_DIE_from_attribute('DW_AT_type'))
    a = die.attributes
    return a['DW_AT_byte_size'].value if 'DW_AT_byte_size' in a else 0


def members(die, prefix='', base=0, out=None):
    """Flatten a struct/union: {path: (byte offset, size, bit size, bit off)}."""
    out = {} if out is None else out
    for m in die.iter_children():
        if m.tag != 'DW_TAG_member':
            continue
        a = m.attributes
        off = base + (a['DW_AT_data_member_location'].value
                      if 'DW_AT_data_member_location' in a else 0)
        t = m.get_DIE_from_attribute('DW_AT_type')
        bits = (a['DW_AT_bit_size'].value if 'DW_AT_bit_size' in a else 0,
                a['DW_AT_data_bit_offset'].value
                if 'DW_AT_data_bit_offset' in a else 0)
        st = strip(t)
        agg = st is not None and st.tag in ('DW_TAG_structure_type',
                                            'DW_TAG_union_type')
        if 'DW_AT_name' in a:
            path = prefix + a['DW_AT_name'].value.decode()
            out[path] = (off, size_of(t)) + bits
            if agg:
                members(st, path + '.', off, out)
        elif agg:
            members(st, prefix, off, out)
    return out


def enumerators(die):
    """An enum's constants: {name: (value,)}, compared like members."""
    return {e.attributes['DW_AT_name'].value.decode():
            (e.attributes['DW_AT_const_value'].value,)
            for e in die.iter_children() if e.tag == 'DW_TAG_enumerator'}


def types(obj, only_files=None):
    """Named structs, unions, enums and typedefs in @obj's DWARF.

    Returns {key: (size, members, file)} with keys like 'struct x',
    'union y', 'enum e', 'typedef z'; an enum's members are its
    constants.  With @only_files, keep those declared there.
    """
    found = {}
    with open(obj, 'rb') as f:
        dwarf = ELFFile(f).get_dwarf_info()
        for cu in dwarf.iter_CUs():
            lp = dwarf.line_program_for_CU(cu)
            files = [e.name.decode() for e in lp['file_entry']]
            dirs = [d.decode() for d in lp['include_directory']]
            entries = lp['file_entry']
            for die in cu.iter_DIEs():
                kind = {'DW_TAG_structure_type': 'struct',
                        'DW_TAG_union_type': 'union',
                        'DW_TAG_enumeration_type': 'enum',
                        'DW_TAG_typedef': 'typedef'}.get(die.tag)
                a = die.attributes
                if not kind or 'DW_AT_name' not in a or \
                   'DW_AT_declaration' in a:
                    continue
                fi = a['DW_AT_decl_file'].value if 'DW_AT_decl_file' in a else 0
                path = ''
                if 0 < fi <= len(files):
                    e = entries[fi - 1]
                    d = dirs[e.dir_index - 1] if e.dir_index else ''
                    path = os.path.normpath(os.path.join(d, files[fi - 1]))
                if only_files is not None and path not in only_files:
                    continue
                key = f'{kind} {a["DW_AT_name"].value.decode()}'
                if kind == 'enum':
                    mem = enumerators(die)
                else:
                    mem = members(die) if kind != 'typedef' else {}
                found[key] = (size_of(die), mem, path)
    return found


# --- the check ----------------------------------------------------------------

def check(repo, work):
    """Compare; returns (list of error strings, summary line)."""
    pairs = our_headers(repo)
    shim = os.path.join(work, 'shim')
    os.makedirs(os.path.join(shim, 'linux'), exist_ok=True)
    with open(os.path.join(shim, 'linux/types.h'), 'w') as f:
        f.write(SHIM_TYPES)
    with open(os.path.join(shim, 'linux/bits.h'), 'w') as f:
        f.write(SHIM_BITS)
    # The wall clock in shared_info is Linux's pvclock record.
    os.makedirs(os.path.join(shim, 'asm'), exist_ok=True)
    with open(os.path.join(shim, 'asm/pvclock-abi.h'), 'w') as f:
        f.write('#include <linux/types.h>\nstruct pvclock_wall_clock { u32 version; u32 sec; '
                'u32 nsec; } __attribute__((__packed__));\n')
    # ring.h's byte rings copy with memcpy.
    with open(os.path.join(shim, 'linux/string.h'), 'w') as f:
        f.write('#include <string.h>\n')
    with open(os.path.join(shim, 'linux/stddef.h'), 'w') as f:
        f.write('#include <stddef.h>\n')
    ours_inc = [shim, os.path.join(repo, 'include'),
                os.path.join(repo, 'arch/x86/include')]
    ours_src = ''.join(f'#include <{include_name(h)}>\n' for h in pairs)
    xen_src = XEN_PRELUDE + ''.join(f'#include <{x}>\n'
                      for x in dict.fromkeys(pairs.values()))
    errors = []

    for tag, src, inc in (('ours', ours_src, ours_inc),
                          ('xen', xen_src, [XEN_INCLUDE])):
        r = compile_c(src + 'int main(void) { return 0; }\n',
                      os.path.join(work, f'types-{tag}.o'), inc, work, ('-c',))
        if r.returncode:
            errors.append(f'{tag} headers do not compile:\n{r.stderr[-3000:]}')
    if errors:
        return errors, 'abi: headers did not compile'

    mine = {os.path.normpath(os.path.join(repo, h)) for h in pairs}
    ours_t = types(os.path.join(work, 'types-ours.o'), mine)
    xen_t = types(os.path.join(work, 'types-xen.o'))
    nmem = 0
    for key, (size, mem, path) in sorted(ours_t.items()):
        where = os.path.relpath(path, repo)
        # Linux names a struct's guest handle after the struct, Xen after
        # its typedef: __guest_handle_foo here is __guest_handle_foo_t there.
        rename = None
        if key.startswith('typedef __guest_handle_') and key not in xen_t:
            key_x = key + '_t'
        else:
            key_x, rename = xen_type(key)
            if rename:
                mem = {p.replace(rename[0], rename[1], 1): v
                       for p, v in mem.items()}
        if key in MEMBER_ALIASES:
            alias = MEMBER_ALIASES[key]
            mem = {alias.get(p, p): v for p, v in mem.items()
                   if alias.get(p, p) is not None}
        if key_x not in xen_t:
            errors.append(f'{where}: {key}: not defined by Xen')
            continue
        xsize, xmem, _ = xen_t[key_x]
        if size != xsize:
            errors.append(f'{where}: {key}: size {size}, Xen: {xsize}')
        for p, v in mem.items():
            nmem += 1
            if p not in xmem:
                errors.append(f'{where}: {key}.{p}: no such member in Xen')
            elif v != xmem[p] and key.startswith('enum '):
                errors.append(f'{where}: {key}: {p} = {v[0]}, Xen: '
                              f'{xmem[p][0]}')
            elif v != xmem[p]:
                errors.append(f'{where}: {key}.{p}: (offset, size) '
                              f'{v[:2]}, Xen: {xmem[p][:2]}'
                              + (f' bits {v[2:]} vs {xmem[p][2:]}'
                                 if v[2:] != xmem[p][2:] else ''))
        for p in xmem:
            if '.' not in p and p not in mem:
                errors.append(f'{where}: {key}: lacks Xen member {p}')

    names, strings = constants(repo, pairs)
    ours_s = string_values(ours_src, strings, ours_inc, work, 'ours')
    xen_s = string_values(xen_src, strings, [XEN_INCLUDE], work, 'xen')
    for n in strings:
        if xen_s[n] is None:
            errors.append(f'constant {n}: not defined by Xen')
        elif ours_s[n] != xen_s[n]:
            errors.append(f'constant {n}: "{ours_s[n]}", Xen: "{xen_s[n]}"')
    ours_v, skipped = values(ours_src, names, ours_inc, work, 'ours')
    xname = {n: xen_const(n) for n in names if n not in skipped}
    raw, _ = values(xen_src, list(dict.fromkeys(xname.values())),
                    [XEN_INCLUDE], work, 'xen')
    # Not a macro in Xen's headers: perhaps an enumeration constant.
    enums = [n for n, v in raw.items() if v is None]
    if enums:
        xen_e, _ = values(xen_src, enums, [XEN_INCLUDE], work, 'xenenum',
                          direct=True)
        raw.update(xen_e)
    xen_v = {n: raw.get(x) for n, x in xname.items()}
    for n in names:
        if n in skipped:
            print(f'abi: not compared: {n} ({skipped[n]})')
            continue
        if xen_v.get(n) is None and n in EXPECTED:
            want, why = EXPECTED[n]
            if ours_v[n] != want:
                errors.append(f'constant {n}: {ours_v[n]:#x}, expected '
                              f'{want:#x} ({why})')
        elif xen_v.get(n) is None:
            errors.append(f'constant {n}: not defined by Xen')
        elif ours_v[n] != xen_v[n]:
            errors.append(f'constant {n}: {ours_v[n]:#x}, Xen: {xen_v[n]:#x}')
    summary = (f'abi: {len(pairs)} headers, {len(ours_t)} types with {nmem} '
               f'members, {len(names) - len(skipped)} constants and '
               f'{len(strings)} strings compared '
               'with Xen 4.17')
    return errors, summary


def selftest(repo):
    """Plant wrong constants, layouts and enum values, and unknown names."""
    plants = [
        ('include/xen/interface/xen.h', '#define __HYPERVISOR_mmu_update\t\t\t\t1',
         '#define __HYPERVISOR_mmu_update\t\t\t\t2',
         'constant __HYPERVISOR_mmu_update: 0x2, Xen: 0x1'),
        ('include/xen/interface/xen.h', '\tu64 ptr;\n\tu64 val;',
         '\tu64 val;\n\tu64 ptr;', 'struct mmu_update.ptr: (offset, size) (8, 8)'),
        ('arch/x86/include/asm/xen/interface.h', '\tunsigned long pad;\n',
         '\tunsigned int pad;\n', 'struct arch_vcpu_info.pad: (offset, size) (8, 4)'),
        ('include/xen/interface/features.h', '#define XENFEAT_NR_SUBMAPS',
         '#define XENFEAT_made_up\t\t\t\t99\n#define XENFEAT_NR_SUBMAPS',
         'constant XENFEAT_made_up: not defined by Xen'),
        ('include/xen/interface/io/xenbus.h', 'XenbusStateClosed = 6',
         'XenbusStateClosed = 7',
         'enum xenbus_state: XenbusStateClosed = 7, Xen: 6'),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, 'work')
        os.makedirs(work)
        errs, _ = check(repo, work)
        if errs:
            print('abi selftest: FAIL: the unmodified headers do not pass')
            return 1
        copy = os.path.join(tmp, 'repo')
        for sub in ('include/xen/interface', 'arch/x86/include/asm/xen'):
            shutil.copytree(os.path.join(repo, sub), os.path.join(copy, sub))
        for rel, old, new, _ in plants:
            p = os.path.join(copy, rel)
            text = open(p).read()
            if old not in text:
                print(f'abi selftest: FAIL: cannot plant in {rel}: {old!r}')
                return 1
            with open(p, 'w') as f:
                f.write(text.replace(old, new, 1))
        work2 = os.path.join(tmp, 'work2')
        os.makedirs(work2)
        errs, _ = check(copy, work2)
    missed = [want for *_, want in plants
              if not any(want in e for e in errs)]
    for want in missed:
        print(f'abi selftest: FAIL: planted mismatch not caught: {want}')
    if missed:
        return 1
    print(f'abi selftest: OK: all {len(plants)} planted mismatches caught '
          f'({len(errs)} findings)')
    return 0


def main():
    args = sys.argv[1:]
    if args[:1] == ['--selftest']:
        return selftest(os.path.abspath(args[1]))
    if len(args) != 1:
        sys.exit(__doc__)
    repo = os.path.abspath(args[0])
    with tempfile.TemporaryDirectory() as work:
        errors, summary = check(repo, work)
    for e in errors:
        print(f'abi: FAIL: {e}')
    print(summary + (f': {len(errors)} mismatch(es)' if errors else ': OK'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
