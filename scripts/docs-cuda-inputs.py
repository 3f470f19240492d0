#!/usr/bin/env python3
"""The CUDA inputs of a docs replay run on a GPU machine (docs/examples.md, "docs replay with CUDA").

The replay (shared/conformance/ktorch-docs, compare.py) marks an input `cuda` when it says cuda
or uses a variable made with cuda, and calls such an input unverifiable unless it matches. This
prints the verdicts of those inputs, then compares the unverifiable ones as any other input
(compare.py's own rules with only the cuda rule switched off) and lists the failures by class.
Usage: scripts/docs-cuda-inputs.py results.json [replay dir, default $KTORCH_SHARED/conformance/ktorch-docs, else ../shared beside the clone]
"""
import collections, copy, itertools, json, os, sys, types

here = os.path.dirname(os.path.abspath(__file__))
replay = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.environ.get('KTORCH_SHARED', os.path.join(here, '..', '..', 'shared')), 'conformance', 'ktorch-docs')
src = open(os.path.join(replay, 'compare.py')).read()
rule = "        is_cuda = 'cuda' in src or bool(ids & cuda_vars)"
if rule not in src:
    sys.exit('compare.py changed: its cuda rule was not found')
src = src.replace(rule, rule + "\n        is_cuda = False")
C = types.ModuleType('compare_nocuda')
exec(compile(src, 'compare_nocuda', 'exec'), C.__dict__)

R = json.load(open(sys.argv[1]))
fns, documented, res = set(R['fns']), set(R['documented']), R['results']
cuda = [r for r in res if r['cuda']]
print('inputs marked cuda:', len(cuda), dict(collections.Counter(r['verdict'] for r in cuda)))
again = copy.deepcopy(res)
for _, rs in itertools.groupby(again, key=lambda r: r['doc']):
    C.classify_doc(list(rs), fns, documented)
out, why, rows = collections.Counter(), collections.Counter(), []
for a, b in zip(res, again):
    if not a['cuda']:
        continue
    out[b['verdict']] += 1
    if b['verdict'] == 'fail':
        why[(b['cls'], b['why'][:90])] += 1
        rows.append((a['doc'], a['line'], a['input'][:80], b['cls'], b['why'][:80],
                     ' | '.join(a['actual'])[:120], ' | '.join(a['expected'])[:120]))
    elif b['verdict'] == 'unverifiable':
        why[('unverifiable', b['why'][:60])] += 1
print('the same inputs compared without the cuda rule:', dict(out))
for k, v in why.most_common():
    print(v, k)
print('\nfailures: (doc, line, input, class, why, ours, the doc\'s)')
for r in rows:
    print(r)
