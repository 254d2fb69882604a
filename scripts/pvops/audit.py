#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Audit an overlaid kernel tree: no upstream Xen file in our scope survives.

Usage: audit.py MANIFEST PRISTINE TREE [REPO]

Fails (exit 1, one line per finding) when
  - a path of the manifest is missing from the pristine tree (manifest rot);
  - any file anywhere in TREE has the content of an upstream file from the
    manifest's paths (left in place, put back, or copied elsewhere);
  - with REPO: a manifest path in TREE holds a file that is not ours, or a
    copy of ours that differs from the repository's;
  - the kbuild glue still names the object of a file we replaced by a
    directory.
"""
import hashlib
import os
import re
import sys

# Files this small (a one-line Makefile, a blank header) say nothing about
# where code came from; they are not compared by content.
MIN_SIZE = 64


def read_manifest(path):
    pairs = []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if line:
                pairs.append((line[0], line[1] if len(line) > 1 else line[0]))
    return pairs


def files_below(root, rel):
    top = os.path.join(root, rel)
    if os.path.isfile(top):
        yield rel
        return
    for d, _, names in os.walk(top):
        for n in names:
            yield os.path.relpath(os.path.join(d, n), root)


def digest(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    manifest, pristine, tree = sys.argv[1:4]
    repo = sys.argv[4] if len(sys.argv) == 5 else None
    pairs = read_manifest(manifest)
    errors = []

    # Fingerprints of every upstream file in scope, indexed by size first so
    # that only files of a matching size are hashed in the tree.
    upstream = {}
    for up, _ in pairs:
        if not os.path.exists(os.path.join(pristine, up)):
            errors.append(f'manifest: {up} is not in the pristine tree')
            continue
        for rel in files_below(pristine, up):
            p = os.path.join(pristine, rel)
            size = os.path.getsize(p)
            if size >= MIN_SIZE:
                upstream.setdefault(size, {})[digest(p)] = rel

    scanned = 0
    for d, dirs, names in os.walk(tree):
        dirs[:] = [x for x in dirs if x != '.git']
        for n in names:
            p = os.path.join(d, n)
            if os.path.islink(p):
                continue
            scanned += 1
            by_hash = upstream.get(os.path.getsize(p))
            if by_hash:
                rel = by_hash.get(digest(p))
                if rel:
                    errors.append('upstream Xen file survives: '
                                  f'{os.path.relpath(p, tree)} '
                                  f'(identical to upstream {rel})')

    for up, ours in pairs:
        if repo:
            want = set(files_below(repo, ours)) \
                if os.path.exists(os.path.join(repo, ours)) else set()
            have = set(files_below(tree, ours)) \
                if os.path.exists(os.path.join(tree, ours)) else set()
            for rel in sorted(have - want):
                errors.append(f'not ours: {rel}')
            for rel in sorted(have & want):
                if digest(os.path.join(tree, rel)) != \
                   digest(os.path.join(repo, rel)):
                    errors.append(f'differs from the repository: {rel}')
        if ours != up:
            mk = os.path.join(os.path.dirname(up), 'Makefile')
            obj = os.path.basename(up)[:-2] + '.o'
            with open(os.path.join(tree, mk)) as f:
                if re.search(r'\b' + re.escape(obj) + r'\b', f.read()):
                    errors.append(f'glue: {mk} still builds {obj}')

    for e in errors:
        print('audit: FAIL: ' + e)
    if errors:
        print(f'audit: {len(errors)} finding(s); the tree is not clean')
        return 1
    nup = sum(len(v) for v in upstream.values())
    print(f'audit: OK: {scanned} files scanned, none of {nup} upstream '
          f'Xen files in scope survives')
    return 0


if __name__ == '__main__':
    sys.exit(main())
