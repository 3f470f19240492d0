#!/usr/bin/env python3
"""The failures of a docs replay (results.json of `make conformance`) sorted by cause, as the
markdown list in docs/conformance.md. usage: conformance-causes.py RESULTS.json

Each failure gets the first cause whose rule matches: a rule is a set of doc:line places (causes
judged input by input, the judgement written beside the cause) or a test on the replay's own
classification (class 4 is qhost's, class-3 display differences are qhost's console, ...).
A failure no rule explains is listed under "unexplained": docs/conformance.md must have none.
"""
import json, sys
from collections import OrderedDict

def places(s):
    out = set()
    for tok in s.split():
        doc, lines = tok.split(':')
        for l in lines.split(','):
            out.add((doc + '.rst', int(l)))
    return out

# (key, title, explanation, rule): rule is a set of places or a function of the record
CAUSES = [
 ('older', "The doc shows an older ktorch than its own source",
  "ktorch's C++ source at the docs' commit (66deaac) gives what we give; the page was printed by an "
  "earlier version: `help` of a module type gives the type's whole row (module, pytorch, forward, result, "
  "n, args, options; `options` of the name gives the options alone, which the page shows), ktorch's own "
  "modules print as `knn::Residual`, `knn::SeqJoin`, `knn::Transform((`, an optimizer's options are a "
  "table (one row per group), `input m` answers a tensor handle (kmodel.cpp `modelinput` -> `kin` -> "
  "`kten`), `` help`module `` has the forward/result/n/args columns, `dtype` of a module gives each "
  "parameter's data type (ktorch.cpp `moduleattr`; the page shows an error), `names` and "
  "`parmnames` leave out the module's own name (kmodel.cpp: `named_modules(\"\",false)`; the page shows "
  "`seq.block1`), an optimizer's options are a table (the page shows a list of one dictionary; "
  "opt.rst:262 shows the table; kopt.cpp `optget` -> `optsettings` -> `maketable`), `str` of a "
  "transform prints `knn::Transform((` and `knn::RandomFlip(..)` (knn/transform.cpp; the page shows "
  "`Transform((`, `RandomFlip(`), `help`onehot` is the whole row and leaves out `dtype` when unset "
  "(knn/onehot.cpp `onehot`: only `if(o.dtype())`), `train m` lists `task` and `tasks` after "
  "`batchsize` and `shufflecuda`/`shuffleseed` after `shuffle` (kmodel.cpp `getoption`; the page "
  "predates them).",
  places('config:359 kmodules:90,173,207,248,269,294,412,448,480,515,771,806,847,875 '
         'modules:57,428,437,558,571,576 opt:43,56 train:770,896,905,931,1281,1310,1316 pointers:298 '
         'model:149')),
 ('session', "State left by an earlier block of the same page",
  "The replay runs each page as one q session; the docs ran many. A setting or variable changed "
  "earlier on the page changes the later result: `` setting`complexfirst,0b `` (math-spectral.rst:108) "
  "flips the (real;imag) layout of every later transform; `` dtype`double `` (tensors.rst:81) makes "
  "later empty tensors double; `q` redefined by a later block printed before (model.rst:119); "
  "objects from earlier blocks still listed by `obj[]` (pointers.rst:99/106: the page's `obj[]` "
  "lists the block's vector and tensor only; ours lists them after the objects of the blocks "
  "above, with handles (ids) in `ptr`, see \"handles are ids\"; the vector's blank dtype and "
  "its count `2` as size are ktorch.cpp kobj's, as ours since issue 35).",
  places('math-spectral:131,135,153,163,190,211,215,261,265,269 tensors:172,183,274,277 '
         'model:130,159 modules:728 pointers:99,106')),
 ('ids', "Deliberate: handles are ids, not addresses",
  "q holds registry ids (README: a freed or forged handle is an error, never a crash), so `obj[]`'s "
  "first column is `id` (ktorch: `ptr`, the address) and rows follow creation order; `modules m` "
  "maps names to handles (ids). An optimizer's `pointer` column is the parameter's address in this "
  "process, which no page can show (the pages' 8-digit addresses come from q's own heap).",
  places('pointers:71 start:31,39,89 modules:1075 opt:201,262,432,618')),
 ('pybuffers', "Deliberate: an optimizer's buffers are PyTorch's",
  "The update rules follow torch.optim (optim.md): `step` is a float tensor as PyTorch keeps it "
  "(ktorch's libtorch C++ states hold an int64), and `max_exp_avg_sq` exists only with `amsgrad` "
  "(ktorch lists it as `::`); the pages also show pointers (addresses) and, at opt.rst:523, values "
  "from random weights. `tensorcount`, `elements` and `bytes` count `step` as ktorch does.",
  places('opt:515,523,637')),
 ('docerr', "The page contradicts itself",
  "tensorop.rst:777/799 show `MeanBackward0` for `y:mul(x;x)` and, a few lines on, `MulBackward0` for "
  "the same `y`; PyTorch gives `MulBackward0` (`(x*x).grad_fn`), as we do. math-reduce.rst:406 makes "
  "`y:mean(x;0;0b;`float)` of a q array `x`, which ktorch answers as a q array (kmath.cpp: k in, k "
  "out), then shows `tensor y` as values: `tensor` of a q array makes a new tensor and answers its "
  "handle (ktensor.cpp `tensor`), and the output-tensor forms after it (`nanmean(x;0;`float;y)`, "
  "`use[y]..`) need `y` to be a tensor: the page's own inputs cannot give what it prints.",
  places('tensorop:777,799 math-reduce:407,410,411,414,415')),
 ('oursdeliberate', "Deliberate: ours differs from ktorch, documented",
  "`batch(t;3;4)` of 10 rows: ktorch's error says the valid range is 0-2 (it counts batches "
  "dropping the last partial one) though batch 3 (`,9`) is valid, as the page's own loop shows; ours "
  "says 0-3 (tensor.md). `eforward m` of a model without test data: ktorch runs the module on "
  "nothing (`identity: forward(tensor) not implemented given empty`), ours says the model has no "
  "test inputs (model.md).",
  places('tensorop:176 train:272')),
 ('prefix', "Deliberate: errors start with the function's name",
  "Every ktorch error is `'fn: message` (ktorch mostly gives libtorch's message bare), sometimes "
  "with more words about the arguments; the message itself is libtorch's or ktorch's.",
  lambda r: 'fn:' in r['why'] or 'one message contains the other' in r['why']),
 ('warn', "Deliberate: libtorch's warnings go through ktorch's log",
  "libtorch's `[W file:line] Warning:` lines are routed into the log (docs/log.md) and printed as "
  "`ktorch warn: ...`; libtorch 2.11 warns about a resized output once per process, so the second "
  "call shows none.",
  lambda r: 'warning' in r['why']),
 ('bfloat', "Deliberate: bfloat16 is a data type here",
  "ktorch 2.3 has no bfloat16; `` help`dtype `` lists it last.",
  places('types:115')),
 ('libtorch', "libtorch 2.11 differs from the 1.x/2.0 builds the docs were printed with",
  "Same call, libtorch's newer answer: matrix products check the dtypes before the shapes (`mat1 and "
  "mat2 must have the same dtype`), `linalg.cholesky_ex` names itself without `torch.`, binary cross "
  "entropy checks its targets lie in [0,1] (loss.rst:400/416 give a target of 2), `max` with an out "
  "tensor of another dtype casts instead of failing, uninitialized memory (tensorop.rst:257, an "
  "`empty` complex tensor at complex.rst:104) holds whatever was there.",
  places('config:324,331 math-linalg:232 loss:400,408,409,416 math-reduce:339,347 tensorop:257 complex:104')),
 ('cuda', "Needs CUDA, not marked as such by the replay",
  "These inputs read devices from an earlier CUDA input (`cuda:1`); on the GPU machine they run. "
  "modules.rst:677-693 run a module moved by `to(m;`cuda)` (the device's errors and values); "
  "pointers.rst:131 counts the tensors a CUDA loop made before running out of GPU memory.",
  places('devices:79,198 modules:758,677,679,684,688,693 pointers:131')),
 ('random', "Random values the replay does not mark as random",
  "The values come from `randn`/`rand` or from initial weights (drawn at random), or from training "
  "on random data; they cannot match. modules.rst:660-669 and 698 run an `m` the page never defines "
  "(a 3-input module with random weights; the replay's `m` is the page's last one, a linear 784x10).",
  places('init:76 math-other:367 train:174,467,483,499,554,1413,1419 swa:47 modules:1182,1186 '
         'math-reduce:475,523 modules:660,661,667,669,698')),
 ('external', "Needs files and functions from outside the doc",
  "swa.rst loads `examples/mnist/mnist.q` and the MNIST files (`\\l`), which the replay does not "
  "have: runner.py runs every page in a new scratch directory (`tempfile.mkdtemp`) and `\\l` reads "
  "relative to it, so `make conformance` cannot give them without changing the shared replay; and "
  "the page's values come from the 60,000 MNIST images, not the 5,000-image subset scripts/mnist.sh "
  "writes. Everything after uses the data.",
  lambda r: r['doc'] == 'swa.rst'),
 ('todo', "ktorch behaviour not done yet (ours)",
  "Open: none. Issue 20's and issue 35's items of ktorch's own are done (docs/conformance.md, 'Fixed "
  "for issue 20', 'Issue 35'); what remains above and below is explained by its cause, each with "
  "the source (ktorch's file and function, libtorch, or the page itself) that shows it.",
  set()),
 ('precision', "The docs' session printed floats at `\\P 4`/`\\P 5`, set where the page does not show it",
  "The same values, printed by q at the default `\\P 7` here: rounded to the page's 4 (kmodules.rst, "
  "train.rst) or 5 (opt.rst:857) significant digits they are the page's digits (0.1114671 is 0.1115, "
  "6.350748e-05 is 6.3507e-05). loss.rst:472 shows the page's own `\\P 4`; these pages set it off-page.",
  places('kmodules:1249,1263 opt:857 train:666')),
 ('addresses', "Memory addresses: a parameter's `pointer` is where libtorch put its data",
  "`opt[o]`parms` and an optimizer's state list each parameter's data pointer, an address that "
  "differs from run to run and machine to machine (the page's 83362896 is our 140005274732160).",
  places('opt:220,229,275,495')),
 ('qhost', "qhost, not ktorch",
  "q that qhost lacks (class 4) or a qhost crash; none is left after issue 19's work.",
  lambda r: r['cls'] in ('4-qhost', 'crash')),
]

def cause_of(r):
    key = (r['doc'], r['line'])
    for c in CAUSES:
        rule = c[3]
        if (isinstance(rule, set) and key in rule) or (callable(rule) and rule(r)):
            return c[0]
    return 'unexplained'

def main():
    res = json.load(open(sys.argv[1]))['results']
    fails = [r for r in res if r['verdict'] not in ('match', 'unverifiable')]
    passed = sum(r['verdict'] == 'match' for r in res)
    groups = OrderedDict((c[0], []) for c in CAUSES)
    groups['unexplained'] = []
    for r in fails:
        groups[cause_of(r)].append(r)
    print('%d of %d checkable inputs match (%.1f%%); %d fail:\n' %
          (passed, passed + len(fails), 100.0 * passed / (passed + len(fails)), len(fails)))
    print('| cause | failures |\n|---|---|')
    titles = {c[0]: c[1] for c in CAUSES}
    titles['unexplained'] = 'Unexplained'
    for k, v in groups.items():
        print('| %s | %d |' % (titles[k], len(v)))
    for c in CAUSES + [('unexplained', 'Unexplained', 'No rule above explains these.', None)]:
        v = groups[c[0]]
        if not v:
            continue
        print('\n### %s (%d)\n\n%s\n' % (c[1], len(v), c[2]))
        print(', '.join('`%s:%d`' % (r['doc'], r['line']) for r in v))
    return 1 if groups['unexplained'] else 0

if __name__ == '__main__':
    sys.exit(main())
