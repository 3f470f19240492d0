#!/usr/bin/env python3
"""Rewrite known_different.txt from a KXDOCS_REPORT file: every different value or crash that is
not a listed page error (the list of qhost's own open differences, to burn down)."""
import sys, os
here = os.path.dirname(os.path.abspath(__file__))
pe = {l.split('\t')[0] for l in open(os.path.join(here, 'page_errors.txt')) if not l.startswith('#') and l.strip()}
head = [l for l in open(os.path.join(here, 'known_different.txt')) if l.startswith('#')]
out = []
for l in open(sys.argv[1]):
    f = l.rstrip('\n').split('\t')
    if len(f) >= 5 and f[1] in ('Different', 'Crash') and f[0] not in pe:
        out.append('%s\t%s\t%s %s\n' % (f[0], f[2], f[1].lower(), '\t'.join(f[3:-1])))
open(os.path.join(here, 'known_different.txt'), 'w').write(''.join(head + out))
print(len(out), 'known differences listed')
