/ Calls that ktorch-fuzz (make fuzz) found crashing, hanging, leaking or answering a panic's
/ text, kept as regression checks: each must answer a value or a clear q error, and the script
/ runs under qhost's leak check (a K object left live fails it).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
err:{[f;a] @[{x y;""}[f];a;{x}]}

/ xnormal(dict;future) hung: reading the dictionary's picks held the object registry and the
/ error message asked it again for the future's class (a deadlock); now the message is made
/ without asking
d:dict `a`b!(1 2e;3 4)
fq:module enlist(`linear;2;3)
f:async(`forward;fq;(1 2e;3 4e))
.t.eq["xnormal(dict;future)";err[xnormal;(d;f)];"xnormal: unable to get dictionary key(s) given ktorch object"]
.t.eq["xuniform(dict;future)";err[xuniform;(d;f)];"xuniform: unable to get dictionary key(s) given ktorch object"]
r:await f
.t.eq["the future still awaits";size r;2 3]
free(d;r;fq)

/ dist and normalize answered "called `Result::unwrap()` on an `Err` value: Torch(..": tch
/ panics with that text when a call taking a scalar fails; the guard now answers libtorch's words
.t.eq["dist of longs, p 4";err[dist;2 -0W 4];"dist: norm(): input dtype should be either floating point or complex. Got Long instead."]
.t.eq["normalize longs";err[normalize;3 1];"normalize: norm(): input dtype should be either floating point or complex. Got Long instead."]

/ normal/geometric/random of `enlist h` indexed past the one-item list (a caught panic)
t:tensor 1 2 3e
.t.eq["normal enlist h";normal enlist t;::]
.t.eq["random enlist h";random enlist t;::]
.t.eq["geometric enlist h";err[geometric;enlist t];"geometric: requires a single probability argument, 0 args supplied"]
free t
.t.eq["normal enlist freed";err[normal;enlist t];"normal: stale pointer"]

/ logto`$"cuda:99" evaluated the name as q text (assigning a global `cuda`); only names are
/ looked up now
.t.eq["logto of q text";err[logto;`$"cuda:99"];"logto: `cuda:99 is not a q function name"]
.t.eq["nothing assigned";@[get;`cuda;{`none}];`none]
.t.eq["logto still routes";logto[];`stderr]

/ model enlist m (a model and no parts to replace) left a null K object live
q:module enlist(`linear;2;1)
m:model(q;loss`mse;opt(`sgd;q))
.t.eq["model enlist m";model enlist m;::]
free m

/ tensordot(x;y;1e12) built its dimension lists before any check: a terabyte allocation, and
/ Rust aborts on allocation failure (ktorch-fuzz --calls 2000 --seed 11 found it)
.t.eq["tensordot huge dim";err[tensordot;(`multimargin;`fftshift;1000000000000)];"tensordot: dim 1000000000000 out of range: contracts 0 to 64 dimensions"]
.t.eq["tensordot negative dim";err[tensordot;(1 2f;1 2f;-1)];"tensordot: dim -1 out of range: contracts 0 to 64 dimensions"]
a:tensor 2 3#til 6
.t.eq["tensordot still works";tensor r:tensordot(a;a;2);55]
free(a;r)

/ transpose of a general list holding only a flag indexed an empty list (a caught panic)
.t.eq["transpose of a lone flag";err[transpose;1_(::;1b)];"transpose: expected tensor, (tensor;inplace), (tensor;dim1;dim2) or (tensor;dim1;dim2;inplace), given only a flag"]

/ Found by the docs-seeded calls (ktorch-fuzz --calls 100 --seed 7): lu_unpack and lu_solve
/ index rows by the pivots unchecked, and a short pivot list was a segfault
x:(3 -7 -2 2.0;-3 5 1 0.0;6 -4 0 -5.0;-9 5 -5 12.0)
v:lu x
.t.eq["lun empty pivots";err[lun;(v 0;`int$())];"lun: pivots of size [0] do not fit an LU matrix of size [4, 4]: expected size [4]"]
.t.eq["lun pivot past the rows";err[lun;(v 0;4 4 3 5i)];"lun: pivots must be in 1..4, given values from 3 to 5"]
.t.eq["lun pivot 0";err[lun;(v 0;4 4 3 0i)];"lun: pivots must be in 1..4, given values from 0 to 4"]
.t.eq["lun long pivots";err[lun;(v 0;4 4 3 4)];"lun: pivots must be int, as lu makes them, given long"]
.t.eq["lusolve pivot past the rows";err[lusolve;(4 1#1f;v 0;4 4 3 9i)];"lusolve: pivots must be in 1..4, given values from 3 to 9"]
.t.eq["lusolve short pivots";err[lusolve;(4 1#1f;v 0;4 4i)];"lusolve: pivots of size [2] do not fit an LU matrix of size [4, 4]: expected size [4]"]
.t.eq["lusolve still works";lusolve(4 1#1f;v);4 1#48 23 30 39f]
.t.eq["lun still works";first lun v;(0 1 0 0f;0 0 0 1f;0 0 1 0f;1 0 0 0f)]
/ matrix_power negates a negative n: -0N overflows and its loop never ended
.t.eq["power 0N";err[power;((2 0f;0 4f);0N)];"power: n-th power: n is null (0N)"]
.t.eq["power still works";power((2 0f;0 4f);3);(8 0f;0 64f)]
/ a pooling kernel of 0W: libtorch's output-size arithmetic overflowed and its loop never ended
.t.eq["maxpool1d kernel 0W";err[maxpool1d;((1 5 2 0 3 4f;0 1 2 3 4 5f);0W;1)];"maxpool1d: maxpool1d size: size 9223372036854775807 out of range (at most 2147483647 either side of 0)"]
.t.eq["pooling layer kernel 0W";err[module;enlist(`avgpool2d;0W)];"module: avgpool2d size: size 9223372036854775807 out of range (at most 2147483647 either side of 0)"]
.t.eq["maxpool1d still works";maxpool1d((1 5 2 0 3 4f;0 1 2 3 4 5f);3;1);(5 5 3 4f;2 3 4 5f)]

/ an atom where a list of option values goes: its header's bytes (a symbol's pointer) were read
/ as a count, a 700 TB allocation that Rust aborts on (ktorch-fuzz --calls 2000 --seed 11)
q:module enlist(`linear;2;1)
m:model(q;loss`mse;opt(`sgd;q))
.t.eq["train names and an atom";err[train;(m;`batchsize`metrics;`norm.weight)];"train: 2 option name(s) but 1 value(s)"]
.t.eq["train names and a table";err[train;(m;`batchsize`metrics;([]a:1 2))];"train: 2 option name(s) but 1 value(s)"]
.t.eq["train names and values";train(m;`batchsize`shuffle;(7;1b));::]
.t.eq["train setting kept";train(m;`batchsize);7]
free m

/ libtorch's CPU ctc_loss reads log-probabilities at each target class unchecked: a target of
/ 999999 was a segfault (ktorch-fuzz --calls 2000 --seed 11, a doc example changed in one part)
lp:{x-log sum exp x}each'(2 1 3#.1 .5 .2 .3 .2 .9)
.t.eq["ctc target past the classes";err[ctc;(lp;enlist enlist 999999;enlist 2;enlist 1;`none)];"ctc: target 999999 is not a class index in 0..2 other than blank (0)"]
.t.eq["ctc target blank";err[ctc;(lp;enlist enlist 0;enlist 2;enlist 1;`none)];"ctc: target 0 is not a class index in 0..2 other than blank (0)"]
.t.eq["ctc input length past the steps";err[ctc;(lp;enlist enlist 1;enlist 3;enlist 1;`none)];"ctc: input length 3 out of range 0..2"]
.t.eq["ctc target length past the row";err[ctc;(lp;enlist enlist 1;enlist 2;enlist 2;`none)];"ctc: target length 2 out of range 0..1"]
.t.eq["ctc target lengths past the list";err[ctc;(lp;enlist 1;enlist 2;enlist 2;`none)];"ctc: target lengths sum to 2, but 1 targets given"]
.t.eq["ctc blank past the classes";err[ctc;(lp;enlist enlist 1;enlist 2;enlist 1;5;`none)];"ctc: blank 5 out of range 0..2"]
.t.eq["ctc still works";ctc(lp;enlist enlist 1;enlist 2;enlist 1;`none);ctc(lp;enlist 1;enlist 2;enlist 1;`none)]

/ linalg_eigvals does not check for NaN (linalg_eig does): MKL rejected its balancing step's
/ input and went on to a segfault (ktorch-fuzz --cuda on the GPU machine); lstsq's drivers too
.t.eq["eigvals of NaN";err[eigvals;(7 1 1f;3 1 2f;1 3 0n)];"eigvals: input tensor should not contain infs or NaNs"]
.t.eq["eigvals of inf";err[eigvals;(7 1 1f;3 1 2f;1 3 0w)];"eigvals: input tensor should not contain infs or NaNs"]
.t.eq["eigvals still works";eigvals(2 0f;0 3f);(2 3f;0 0f)]
.t.eq["lstsq of NaN";err[lstsq;((7 1 1f;3 1 2f;1 3 0n);3 1#1f)];"lstsq: input tensors should not contain infs or NaNs"]
.t.eq["lstsq still works";first lstsq((1 0f;0 2f);2 1#2f);(enlist 2f;enlist 1f)]

/ train(m;names) with a name that is no setting: the values read before it were never freed
/ (a K leak per call; ktorch-fuzz --calls 2000 --seed 12); qhost's leak check fails this script
/ if one is left
q:module enlist(`linear;2;1)
m:model(q;loss`mse;opt(`sgd;q))
.t.eq["train with an unknown name";err[train;(m;`batchsize`real)];"train: unrecognized option: `real"]
.t.eq["test with an unknown name";err[test;(m;`batchsize`real)];"test: unrecognized option: `real"]
.t.eq["train names";train(m;`batchsize`shuffle);`batchsize`shuffle!(32;0b)]
free m

/ seed goes through a guarded call now (tch's let a broken CUDA context's C++ exception reach
/ Rust: an abort); it still seeds
seed 42
a:tensor(`randn;3)
seed 42
b:tensor(`randn;3)
.t.eq["seed repeats";tensor a;tensor b]
free(a;b)

/ tch panics with libtorch's error from some f_ methods taking a Scalar (normalize's p): the
/ option values read for the call were left unfreed (a K leak per call, ktorch-fuzz --cuda
/ seed 2); qhost's leak check fails this script if one is left
.t.eq["normalize error, options given";err[normalize;(1 2e;`dim`p!(5;2))];"normalize: Dimension out of range (expected to be in range of [-1, 0], but got 5)"]
.t.eq["normalize error, empty options";err[normalize;(1 2e;`symbol$())];"normalize: Dimension out of range (expected to be in range of [-1, 0], but got 1)"]
.t.eq["normalize still works";normalize(3 4e;2;0);0.6 0.8e]

/ backstep(m;x;v) with an empty vector for targets: the loss indexed a target that was not there
/ (a caught panic, ktorch-fuzz --cuda seed 2)
q:module enlist(`linear;2;1)
m:model(q;loss`mse;opt(`sgd;q))
v:vector()
.t.eq["backstep without targets";err[backstep;(m;(1 2e;2 1e;0 1e);v)];"backstep: mse: expects the output and 1 target tensor(s), given 0"]
.t.ok["backstep with targets";0<=backstep(m;(1 2e;2 1e;0 1e);3 1#1 2 3e)]
free(m;v)

/ resize of q data to 0W 0: an empty tensor whose 0W rows no q list can hold (a caught panic,
/ `capacity overflow`, ktorch-fuzz --seed 27112043); 1e11 rows would have ended the process in
/ the allocator. The tensor itself is fine: its size reads, its values are the error
.t.eq["resize to 0W 0";err[resize;(0 1 2 3 4 5;0W 0)];"resize: tensor of size [9223372036854775807, 0] makes more q lists than memory holds"]
.t.eq["resize to 1e11 0";err[resize;(0 1 2 3 4 5;100000000000 0)];"resize: tensor of size [100000000000, 0] makes more q lists than memory holds"]
t:tensor 0 1 2; resize(t;0W 0)
.t.eq["its size";size t;0W 0]
.t.eq["its values";err[tensor;t];"tensor: tensor of size [9223372036854775807, 0] makes more q lists than memory holds"]
.t.eq["3 rows of none as q";resize(0 1 2 3 4 5;3 0);3#enlist`long$()]
free t

.t.eq["nothing left";count obj[];0]
.t.done[]
