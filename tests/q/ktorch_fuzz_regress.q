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

.t.eq["nothing left";count obj[];0]
.t.done[]
