#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Our subtree as a patch series against the Linux it builds on.

Usage:
  patches.py series REPO PRISTINE CACHE OUTDIR [--overlay TREE]
  patches.py build REPO CACHE [--from N] CONFIG...
  patches.py exempt REPO < CHECKPATCH-OUTPUT

`series` commits the steps described in REPO/scripts/pvops/series/ on top
of a git commit of PRISTINE (made once, kept in CACHE/patches/src/.git),
writes them with `git format-patch` to OUTDIR, runs checkpatch --strict
on every patch, and, given the overlay tree, checks that the last step's
tree is exactly what the overlay builds.

`build` checks every step out in CACHE/patches/src and builds it with the
lean config (the CONFIG fragments, less the options whose code a step does
not have yet), one build directory kept across steps so each step
compiles what it changed.

How a step's tree is made: pristine Linux, less every upstream path of
the manifest (all of them from the first step on), plus our files that
this step and the earlier ones add (series/NN-*: "Add:"), with
  - our Kconfig files keeping only the symbols added so far ("Kconfig:"),
  - our Makefiles keeping only objects whose source is there,
  - a driver's line in a Makefile outside our paths (the glue of
    overlay.sh) kept only from the step that adds the driver,
  - Documentation/virt/index.rst listing xen/index once it is there,
  - MAINTAINERS with each of our sections (scripts/pvops/MAINTAINERS)
    from the first step that adds a file it covers.
"""

import fnmatch
import os
import re
import subprocess
import sys
import time

GIT_ENV_KEEP = ('PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR')


def die(msg):
    print(f'patches: {msg}', file=sys.stderr)
    sys.exit(1)


def git(gitdir, *args, inp=None, env=None, text=True):
    e = {k: v for k, v in os.environ.items() if k in GIT_ENV_KEEP}
    e['GIT_DIR'] = gitdir
    e.update(env or {})
    r = subprocess.run(['git', *args], input=inp, env=e, text=text,
                       capture_output=True)
    if r.returncode:
        die(f'git {" ".join(args[:3])}: {r.stderr.strip()}')
    return r.stdout


# --- what the repository says -------------------------------------------------

def table(path, maxsplit=-1):
    """The fields of each line of PATH that is neither blank nor a comment."""
    with open(path) as f:
        return [ln.split(None, maxsplit) for ln in (x.strip() for x in f)
                if ln and not ln.startswith('#')]


def read_manifest(repo):
    return [(w[0], w[1] if len(w) > 1 else w[0])
            for w in table(os.path.join(repo, 'scripts/pvops/manifest'))]


def our_files(repo, paths):
    """Tracked and untracked, not ignored, files below PATHS."""
    out = subprocess.run(['git', '-C', repo, 'ls-files', '--cached', '--others',
                          '--exclude-standard', '--', *paths],
                         capture_output=True, text=True, check=True).stdout
    return sorted(f for f in out.split('\n')
                  if f and os.path.isfile(os.path.join(repo, f)))


class Step:
    def __init__(self, path):
        self.name = os.path.basename(path)
        self.headers = {}
        with open(path) as f:
            text = f.read()
        head, _, body = text.partition('\n\n')
        for line in head.split('\n'):
            key, _, val = line.partition(':')
            self.headers[key.strip().lower()] = val.split()
        self.subject = ' '.join(self.headers.get('subject', []))
        self.add = self.headers.get('add', [])
        self.kconfig = self.headers.get('kconfig', [])
        self.body = body.strip('\n')
        if not self.subject or not self.body:
            die(f'{path}: needs a Subject: line and a message')


def read_series(repo):
    d = os.path.join(repo, 'scripts/pvops/series')
    names = sorted(n for n in os.listdir(d) if re.match(r'^\d\d-', n))
    return [Step(os.path.join(d, n)) for n in names], \
        open(os.path.join(d, 'cover')).read()


def claim(files, steps):
    """Map each file to the index of the step whose Add: pattern is the
    longest match (a path, a directory, or a glob)."""
    owner = {}
    for f in files:
        best, blen = None, -1
        for i, s in enumerate(steps):
            for p in s.add:
                if f == p or f.startswith(p.rstrip('/') + '/') or fnmatch.fnmatch(f, p):
                    if len(p) > blen:
                        best, blen = i, len(p)
        if best is None:
            die(f'{f}: no step of scripts/pvops/series adds it')
        owner[f] = best
    return owner


# --- Kconfig and Makefile filters ------------------------------------------------

KC_ENTRY = re.compile(r'^(config|menuconfig)\s+(\w+)')
KC_REF = re.compile(r'^\s+(select|imply)\s+(\w+)')


def kconfig_symbols(text):
    return [m.group(2) for m in map(KC_ENTRY.match, text.split('\n')) if m]


def filter_kconfig(text, keep, ours):
    """Drop the entries of symbols not in KEEP (with the comment lines just
    above them) and select/imply lines naming one of OURS not in KEEP."""
    lines = text.split('\n')
    out, pending, skipping = [], [], False
    for line in lines:
        if line.startswith('#'):
            pending.append(line)
            continue
        m = KC_ENTRY.match(line)
        if m:
            skipping = m.group(2) not in keep
            if skipping:
                pending = []
        elif line and not line[0].isspace():
            skipping = False
        if skipping:
            continue
        out.extend(pending)
        pending = []
        r = KC_REF.match(line)
        if r and r.group(2) in ours and r.group(2) not in keep:
            continue
        out.append(line)
    out.extend(pending)
    text = '\n'.join(out)
    return re.sub(r'\n{3,}', '\n\n', text)


def filter_makefile(text, present):
    """Keep the objects whose source PRESENT(token) says is there: NAME.o
    for NAME.c or NAME.S (or a composite with a member left), DIR/ for a
    directory.  A line left with no object goes, and so does an
    ifdef/endif pair left empty; a line that loses nothing keeps its
    layout."""
    logical, cur = [], []
    for line in text.split('\n'):
        cur.append(line)
        if not line.endswith('\\'):
            logical.append(cur)
            cur = []
    if cur:
        logical.append(cur)

    def joined(phys):
        return ' '.join(p.rstrip('\\').strip() if i else p.rstrip('\\').rstrip()
                        for i, p in enumerate(phys))
    comp = {}
    for phys in logical:
        m = re.match(r'^([\w-]+)-(y|objs)\s*[:+]?=\s*(.*)$', joined(phys))
        if m:
            comp.setdefault(m.group(1), []).extend(m.group(3).split())

    def keep_tok(tok):
        if tok.endswith('/'):
            return present(tok)
        if tok.endswith('.o'):
            name = tok[:-2]
            if name in comp:
                return any(keep_tok(t) for t in comp[name])
            return present(name + '.c') or present(name + '.S')
        return True

    out = []
    for phys in logical:
        line = joined(phys)
        m = re.match(r'^([\w$().-]+\s*[:+]?=\s*)(.*)$', line)
        if m and re.search(r'\.o\b|/(\s|$)', m.group(2)):
            toks = m.group(2).split()
            kept = [t for t in toks if keep_tok(t)]
            if not kept:
                continue
            if kept != toks:
                out.append(m.group(1) + ' '.join(kept))
                continue
        out.extend(phys)
    changed = True
    while changed:
        changed = False
        for i in range(len(out) - 1):
            if re.match(r'^if(n?def|n?eq)\b', out[i]) and out[i + 1] == 'endif':
                del out[i:i + 2]
                changed = True
                break
    return '\n'.join(out)


# --- MAINTAINERS ------------------------------------------------------------------

def read_sections(repo, who):
    with open(os.path.join(repo, 'scripts/pvops/MAINTAINERS')) as f:
        text = f.read().replace('@MAINTAINER@', f'{who[0]} <{who[1]}>')
    secs = []
    for block in re.split(r'\n\s*\n', text):
        lines = [ln for ln in block.strip('\n').split('\n') if not ln.startswith('#')]
        if not lines:
            continue
        pats = [ln[2:].strip() for ln in lines if ln.startswith('F:')]
        secs.append((lines[0], '\n'.join(lines) + '\n', pats))
    return secs


def pattern_matches(pat, f):
    if pat.endswith('/'):
        return f.startswith(pat)
    return fnmatch.fnmatch(f, pat) or f == pat


def maintainers_with(pristine_text, sections):
    """Insert each section at its place in the alphabetical list."""
    text = pristine_text
    for name, block, _ in sections:
        start = text.index('\n\n3C59X NETWORK DRIVER\n')
        pos = None
        for m in re.finditer(r'\n\n([A-Z0-9][^\n]*)\n', text[start:]):
            if m.group(1).upper() > name.upper():
                pos = start + m.start() + 2
                break
        if pos is None:
            die('MAINTAINERS: no place for ' + name)
        text = text[:pos] + block + '\n' + text[pos:]
    return text


# --- the trees ----------------------------------------------------------------------

class Series:
    def __init__(self, repo, pristine, who):
        self.repo, self.pristine = repo, pristine
        self.manifest = read_manifest(repo)
        self.steps, self.cover = read_series(repo)
        owned = [o for _, o in self.manifest] + ['Documentation/virt/xen']
        self.files = our_files(repo, owned)
        self.owner = claim(self.files, self.steps)
        self.sections = read_sections(repo, who)
        self.kconfigs = [f for f in self.files if os.path.basename(f) == 'Kconfig']
        self.our_syms = set()
        for f in self.kconfigs:
            self.our_syms.update(kconfig_symbols(self.read(f)))
        claimed = {}
        for i, s in enumerate(self.steps):
            for sym in s.kconfig:
                if sym not in self.our_syms:
                    die(f'{s.name}: Kconfig: {sym} is in none of our Kconfig files')
                if sym in claimed:
                    die(f'{s.name}: Kconfig: {sym} already added by {claimed[sym]}')
                claimed[sym] = s.name
        missing = self.our_syms - set(claimed)
        if missing:
            die('no step adds Kconfig symbol(s) ' + ' '.join(sorted(missing)))

    def read(self, f):
        with open(os.path.join(self.repo, f)) as fh:
            return fh.read()

    def pristine_text(self, f):
        with open(os.path.join(self.pristine, f)) as fh:
            return fh.read()

    def tree(self, k):
        """Step K's changes: (paths deleted from pristine, {path: text})."""
        present = [f for f in self.files if self.owner[f] <= k]
        pset = set(present)
        dirs = set()
        for f in present:
            d = os.path.dirname(f)
            while d:
                dirs.add(d)
                d = os.path.dirname(d)
        keep = set(s for st in self.steps[:k + 1] for s in st.kconfig)
        files = {}
        for f in present:
            text = self.read(f)
            base = os.path.basename(f)
            if base == 'Kconfig':
                text = filter_kconfig(text, keep, self.our_syms)
            elif base in ('Makefile', 'Kbuild'):
                fdir = os.path.dirname(f)

                def there(p, fdir=fdir):
                    isdir = p.endswith('/')
                    p = os.path.normpath(os.path.join(fdir, p))
                    return p in dirs if isdir else p in pset
                text = filter_makefile(text, there)
            files[f] = text
        # Upstream's paths all go with the first step.
        deleted = [up for up, _ in self.manifest]
        # Kbuild glue in Makefiles outside our paths.
        owned_dirs = [o for _, o in self.manifest]
        for up, ours in self.manifest:
            mk = os.path.join(os.path.dirname(up), 'Makefile')
            if any(mk.startswith(o + '/') for o in owned_dirs) or \
                    not os.path.isfile(os.path.join(self.pristine, mk)):
                continue
            name = os.path.basename(up)
            obj = name[:-2] + '.o' if name.endswith('.c') else name + '/'
            text = files.get(mk, self.pristine_text(mk))
            has = any(f == ours or f.startswith(ours + '/') for f in present)
            lines = []
            for line in text.split('\n'):
                if re.search(r'\s' + re.escape(obj) + r'(\s|$)', line):
                    if not has:
                        continue
                    if ours != up:
                        line = re.sub(r'\b' + re.escape(name[:-2]) + r'\.o\b',
                                      os.path.basename(ours) + '/', line)
                lines.append(line)
            new = '\n'.join(lines)
            if new != self.pristine_text(mk):
                files[mk] = new
        # Documentation: the toctree entry.
        if 'Documentation/virt/xen/index.rst' in pset:
            idx = 'Documentation/virt/index.rst'
            text = self.pristine_text(idx)
            files[idx] = text.replace('   hyperv/index\n', '   hyperv/index\n   xen/index\n')
        secs = [s for s in self.sections
                if any(pattern_matches(p, f) for p in s[2] for f in present)]
        if secs:
            files['MAINTAINERS'] = maintainers_with(self.pristine_text('MAINTAINERS'),
                                                    sorted(secs))
        return deleted, files


# --- git -------------------------------------------------------------------------------

def base_commit(gitdir, pristine):
    """A commit of pristine Linux, made once per source version."""
    version = open(os.path.join(pristine, '.pvops-version')).read().strip()
    stamp = os.path.join(gitdir, 'pvops-base')
    if os.path.exists(stamp):
        old = open(stamp).read().split('\n')
        if old[0] == version:
            return old[1]
    t0 = time.time()
    print(f'patches: committing pristine Linux {version} (once; a few minutes)',
          flush=True)
    idx = os.path.join(gitdir, 'index.base')
    if os.path.exists(idx):
        os.unlink(idx)
    env = {'GIT_WORK_TREE': pristine, 'GIT_INDEX_FILE': idx}
    git(gitdir, 'add', '-A', '-f', '--', '.', ':!.pvops-version', env=env)
    tree = git(gitdir, 'write-tree', env=env).strip()
    env = {'GIT_AUTHOR_NAME': 'Linux', 'GIT_AUTHOR_EMAIL': 'linux@localhost',
           'GIT_AUTHOR_DATE': '2024-11-17T14:15:08-0800',
           'GIT_COMMITTER_NAME': 'Linux', 'GIT_COMMITTER_EMAIL': 'linux@localhost',
           'GIT_COMMITTER_DATE': '2024-11-17T14:15:08-0800'}
    commit = git(gitdir, 'commit-tree', tree, '-m', f'Linux {version}', env=env).strip()
    os.unlink(idx)
    with open(stamp, 'w') as f:
        f.write(f'{version}\n{commit}\n')
    print(f'patches: pristine commit {commit[:12]} in {time.time() - t0:.0f} s')
    return commit


def commit_steps(series, gitdir, base, ident, date):
    name, email = ident
    idx = os.path.join(gitdir, 'index.series')
    env = {'GIT_INDEX_FILE': idx}
    parent = base
    commits = []
    for k, st in enumerate(series.steps):
        deleted, files = series.tree(k)
        git(gitdir, 'read-tree', base, env=env)
        git(gitdir, 'rm', '--cached', '-r', '-q', '-f', '--ignore-unmatch', '--', *deleted,
            env=env)
        paths = sorted(files)
        blobs = []
        for p in paths:
            blobs.append(git(gitdir, 'hash-object', '-w', '--stdin', '--path', p,
                             inp=files[p]).strip())
        info = ''.join(f'100644 {b}\t{p}\n' for b, p in zip(blobs, paths))
        git(gitdir, 'update-index', '--add', '--index-info', inp=info, env=env)
        tree = git(gitdir, 'write-tree', env=env).strip()
        msg = f'{st.subject}\n\n{st.body}\n\nSigned-off-by: {name} <{email}>\n'
        cenv = {'GIT_AUTHOR_NAME': name, 'GIT_AUTHOR_EMAIL': email,
                'GIT_AUTHOR_DATE': date, 'GIT_COMMITTER_NAME': name,
                'GIT_COMMITTER_EMAIL': email, 'GIT_COMMITTER_DATE': date}
        parent = git(gitdir, 'commit-tree', tree, '-p', parent, '-F', '-',
                     inp=msg, env=cenv).strip()
        commits.append(parent)
    os.unlink(idx)
    return commits


# --- checkpatch -------------------------------------------------------------------------

def read_exemptions(repo):
    """scripts/pvops/checkpatch-exempt: TYPE FILE-REGEX [MESSAGE-REGEX]."""
    return [(w[0], re.compile(w[1]), re.compile(w[2]) if len(w) > 2 else None)
            for w in table(os.path.join(repo, 'scripts/pvops/checkpatch-exempt'), 2)]


def checkpatch(tree, patch, exemptions):
    """Findings of checkpatch --strict on PATCH, less the exempt ones."""
    r = subprocess.run(['perl', os.path.join(tree, 'scripts/checkpatch.pl'), '--strict',
                        '--no-tree', '--terse', '--showfile', '--show-types',
                        '--no-summary', patch], capture_output=True, text=True)
    return not_exempt(r.stdout + r.stderr, exemptions)


def not_exempt(output, exemptions):
    """The lines of checkpatch --terse --show-types OUTPUT that are not
    exempt."""
    found = []
    for line in output.split('\n'):
        m = re.match(r'^(\S+?):\d+: (?:ERROR|WARNING|CHECK):(\w+): (.*)$', line)
        if not m:
            if line.strip():
                found.append(line)
            continue
        f, typ, msg = m.groups()
        if any(typ == t and fre.search(f) and (mre is None or mre.search(msg))
               for t, fre, mre in exemptions):
            continue
        found.append(line)
    return found


# --- commands -----------------------------------------------------------------------------

def ident(repo):
    def cfg(k):
        return subprocess.run(['git', '-C', repo, 'config', k], capture_output=True,
                              text=True).stdout.strip()
    name, email = cfg('user.name'), cfg('user.email')
    if not name or not email:
        out = subprocess.run(['git', '-C', repo, 'log', '-1', '--format=%an%n%ae'],
                             capture_output=True, text=True).stdout.split('\n')
        name, email = out[0], out[1]
    return name, email


def cmd_series(repo, pristine, cache, outdir, overlay):
    t0 = time.time()
    who = ident(repo)
    series = Series(repo, pristine, who)
    src = os.path.join(cache, 'patches/src')
    gitdir = os.path.join(src, '.git')
    if not os.path.isdir(gitdir):
        os.makedirs(src, exist_ok=True)
        subprocess.run(['git', 'init', '-q', src], check=True)
    base = base_commit(gitdir, pristine)
    date = subprocess.run(['git', '-C', repo, 'log', '-1', '--format=%aI'],
                          capture_output=True, text=True).stdout.strip() or None
    commits = commit_steps(series, gitdir, base, who, date)
    with open(os.path.join(cache, 'patches/steps'), 'w') as f:
        for c, st in zip(commits, series.steps):
            f.write(f'{c} {st.name} {st.subject}\n')
    git(gitdir, 'update-ref', 'refs/heads/pvops', commits[-1])
    git(gitdir, 'update-ref', 'refs/heads/pristine', base)
    os.makedirs(outdir, exist_ok=True)
    for old in os.listdir(outdir):
        if old.endswith('.patch'):
            os.unlink(os.path.join(outdir, old))
    git(gitdir, 'format-patch', '-q', '--cover-letter', '--base', base,
        '-o', outdir, f'{base}..{commits[-1]}')
    patches = sorted(os.path.join(outdir, p) for p in os.listdir(outdir)
                     if p.endswith('.patch'))
    # The cover letter: our text where format-patch leaves blanks.
    subject, _, blurb = series.cover.partition('\n\n')
    with open(patches[0]) as f:
        text = f.read()
    text = text.replace('*** SUBJECT HERE ***', subject.strip())
    text = text.replace('*** BLURB HERE ***', blurb.strip())
    with open(patches[0], 'w') as f:
        f.write(text)
    print(f'patches: {len(patches) - 1} patches and a cover letter in {outdir}')
    for p in patches[1:]:
        print(f'  {os.path.basename(p)}')

    fail = 0
    # The last step is the overlay's tree, file for file.
    if overlay:
        deleted, files = series.tree(len(series.steps) - 1)
        bad = []
        for f, text in files.items():
            if f == 'MAINTAINERS' or f.startswith('Documentation/'):
                continue
            p = os.path.join(overlay, f)
            if not os.path.isfile(p) or open(p).read() != text:
                bad.append(f)
        for up, ours in series.manifest:
            for d in {up, ours}:
                top = os.path.join(overlay, d)
                walk = [(top, [], [])] if os.path.isfile(top) else os.walk(top)
                for dp, _, fs in walk:
                    for n in (fs or [None]):
                        full = os.path.join(dp, n) if n else dp
                        rel = os.path.relpath(full, overlay)
                        if os.path.isfile(full) and rel not in files:
                            bad.append(rel)
        if bad:
            fail = 1
            print('patches: the last step differs from the overlay tree in:')
            for b in sorted(set(bad))[:20]:
                print(f'  {b}')
        else:
            print(f'patches: the last step is the overlay tree ({len(files)} files checked)')

    # checkpatch --strict on every patch.
    exempt = read_exemptions(repo)
    total = 0
    for p in patches[1:]:
        found = checkpatch(pristine, p, exempt)
        total += len(found)
        for line in found:
            print(f'{os.path.basename(p)}: {line}')
    print(f'patches: checkpatch --strict: {len(patches) - 1} patches, {total} finding(s)')
    if total:
        fail = 1
    fail |= htmldocs(cache, gitdir, commits[-1], [o for _, o in series.manifest])
    print(f'patches: {"OK" if not fail else "FAILED"} in {time.time() - t0:.0f} s')
    return fail


def htmldocs(cache, gitdir, commit, owned):
    """make htmldocs of Documentation/virt/ in the last step's tree (a
    worktree of its own, CACHE/patches/final): warnings and errors about
    our pages or the kernel-doc of files in our paths are findings."""
    final = os.path.join(cache, 'patches/final')
    out = os.path.join(cache, 'patches/docs')
    log = os.path.join(out, 'htmldocs.log')
    t0 = time.time()
    if not os.path.isdir(os.path.join(final, 'Documentation')):
        print('patches: checking the series out in ' + final + ' (once)', flush=True)
        subprocess.run(['rm', '-rf', final], check=True)
        git(gitdir, 'worktree', 'prune')
        git(gitdir, 'worktree', 'add', '-q', '--detach', final, commit)
    else:
        subprocess.run(['git', '-C', final, 'checkout', '-q', '-f', '--detach', commit],
                       check=True)
    os.makedirs(out, exist_ok=True)
    with open(log, 'w') as lf:
        r = subprocess.run(['make', '-C', final, f'O={out}', 'SPHINXDIRS=virt', 'SPHINXOPTS=-E',
                            'htmldocs'], stdout=lf, stderr=subprocess.STDOUT)
    ours = re.compile(r'Documentation/virt/xen/|Documentation/virt/index\.rst|' +
                      '|'.join(re.escape(o) for o in owned))
    found = [ln.rstrip() for ln in open(log)
             if re.search(r'\b(warning|error)\b', ln, re.I) and ours.search(ln)]
    for ln in found:
        print('htmldocs: ' + ln)
    page = os.path.join(out, 'Documentation/output/virt/xen/index.html')
    if r.returncode or not os.path.isfile(page):
        print(f'patches: make htmldocs FAILED (log: {log})')
        return 1
    print(f'patches: make SPHINXDIRS=virt htmldocs: {len(found)} finding(s) in our pages '
          f'and kernel-doc, {time.time() - t0:.0f} s (pages: {os.path.dirname(page)})')
    return 1 if found else 0


def cmd_build(repo, cache, frags, first=1):
    """Build every step (from step FIRST on) with the lean config."""
    src = os.path.join(cache, 'patches/src')
    out = os.path.join(cache, 'patches/out')
    logs = os.path.join(cache, 'patches/logs')
    os.makedirs(out, exist_ok=True)
    os.makedirs(logs, exist_ok=True)
    try:
        steps = [ln.split(' ', 2) for ln in open(os.path.join(cache, 'patches/steps'))
                 .read().strip().split('\n')]
    except OSError:
        die('no series yet: run `make patches` first')
    want = {}
    for fr in frags:
        for line in open(fr):
            m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
            if m:
                want[m.group(1)] = m.group(2)
    with open(os.path.join(out, 'fragments.config'), 'w') as f:
        for fr in frags:
            f.write(open(fr).read())
    env = dict(os.environ, CCACHE_DIR=os.path.join(cache, 'ccache'),
               CCACHE_BASEDIR=cache, CCACHE_NOHASHDIR='1')
    jobs = str(os.cpu_count() + 1)
    kmake = ['make', '-C', src, f'O={out}', 'CC=ccache gcc', 'HOSTCC=ccache gcc',
             f'-j{jobs}', 'LOCALVERSION=', 'KBUILD_BUILD_TIMESTAMP=pvops']
    results = []
    t_all = time.time()
    for n, (commit, name, subject) in enumerate(steps, 1):
        if n < first:
            continue
        t0 = time.time()
        log = os.path.join(logs, f'{name}.log')
        print(f'patches-build: [{n}/{len(steps)}] {subject}', flush=True)
        subprocess.run(['git', '-C', src, '-c', 'advice.detachedHead=false', 'checkout',
                        '-q', '-f', commit], check=True)
        with open(log, 'w') as lf:
            r = subprocess.run(kmake + ['KCONFIG_ALLCONFIG=' + os.path.join(out, 'fragments.config'),
                                        'allnoconfig'], stdout=lf, stderr=subprocess.STDOUT,
                               env=env)
        if r.returncode:
            print(f'patches-build: {name}: FAILED to configure (log: {log})')
            return 1
        have = {}
        for line in open(os.path.join(out, '.config')):
            m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
            if m:
                have[m.group(1)] = m.group(2)
        missing = sorted(k for k, v in want.items() if v != 'n' and have.get(k) != v)
        with open(log, 'a') as lf:
            proc = subprocess.Popen(kmake + ['bzImage'], stdout=lf, stderr=subprocess.STDOUT,
                                    env=env, stdin=subprocess.DEVNULL)
            while proc.poll() is None:
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    cc = sum(1 for ln in open(log) if ln.startswith('  CC '))
                    print(f'patches-build:   {cc} objects compiled, '
                          f'{time.time() - t0:.0f} s', flush=True)
        secs = time.time() - t0
        if proc.returncode:
            print(f'patches-build: {name}: FAILED to build in {secs:.0f} s; first errors '
                  f'(full log: {log}):')
            errs = [ln.rstrip() for ln in open(log)
                    if re.search(r'error|Error|undefined reference', ln)]
            print('\n'.join(errs[:30]))
            return 1
        cc = sum(1 for ln in open(log) if ln.startswith('  CC '))
        results.append((name, secs, cc, missing))
        print(f'patches-build: {name}: built in {secs:.0f} s ({cc} objects compiled); '
              f'{len(missing)} option(s) of the lean config not there yet'
              + (f': {" ".join(m[7:] for m in missing)}' if missing else ''), flush=True)
    if results[-1][3]:
        print('patches-build: FAILED: the last step lacks options the lean config asks for')
        return 1
    print(f'patches-build: all {len(results)} steps build with the lean config, '
          f'in {time.time() - t_all:.0f} s')
    return 0


def main(argv):
    if len(argv) >= 5 and argv[1] == 'series':
        overlay = None
        if '--overlay' in argv:
            i = argv.index('--overlay')
            overlay = argv[i + 1]
            argv = argv[:i] + argv[i + 2:]
        return cmd_series(os.path.abspath(argv[2]), os.path.realpath(argv[3]),
                          os.path.abspath(argv[4]), os.path.abspath(argv[5]), overlay)
    if len(argv) == 3 and argv[1] == 'exempt':
        for line in not_exempt(sys.stdin.read(), read_exemptions(argv[2])):
            print(line)
        return 0
    if len(argv) >= 4 and argv[1] == 'build':
        first = 1
        if '--from' in argv:
            i = argv.index('--from')
            first = int(argv[i + 1])
            argv = argv[:i] + argv[i + 2:]
        return cmd_build(os.path.abspath(argv[2]), os.path.abspath(argv[3]), argv[4:], first)
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
