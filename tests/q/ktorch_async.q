/ Asynchronous calls (issue #9): async(`forward;m;x) and the like run on a worker thread and
/ answer a future; await gives what the sync call gives (checked against the sync call and
/ against PyTorch, tests/q/gen/async.py), errors surface at await, the module or model is busy
/ while the call runs, free waits for a running call. Runs on the default device.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/async_expected.q
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-5*1|abs e)>abs r-e}
val:{r:tensor x; free x; r}
busy:{x," busy: an async call is running on it (await it first)"}
/ modules run on cuda where there is one (q inputs follow the module's device)
ondev:$[version`cuda;`cuda;`cpu]
/ the test network with PyTorch's parameters
net:{q:module seq(`sequential;(`linear;4;8);`relu;(`linear;8;3)); {parm(x;y;z)}[q]'[.a.names;.a.parms]; to(q;ondev); q}
pv:{[m;n] val parm(m;n)}

/ ---- forward forms: the sync call's result, and PyTorch's
q:net[]
f:async(`evaluate;q;.a.X)
.t.eq["a future";class f;`future]
.t.eq["ready is a boolean";type ready f;-1h]
r:await f
.t.ok["evaluate: PyTorch's output";near[r;.a.out]]
.t.eq["evaluate: as the sync call";r;evaluate(q;.a.X)]
.t.eq["stale after await";err[await;f];"await: stale pointer"]
t:await async(`forward;q;.a.X)
.t.eq["forward: a tensor";class t;`tensor]
.t.eq["forward: on the module's device";device[t] like string[ondev],"*";1b]
.t.eq["forward: with gradients";gradflag t;1b]
.t.ok["forward: values";near[tensor t;.a.out]]
free t
t:await async(`nforward;q;.a.X)
.t.eq["nforward: no gradients";gradflag t;0b]
.t.ok["nforward: values";near[tensor t;.a.out]]
free t
t:await async(`eforward;q;.a.X)
.t.eq["eforward: as the sync call";val t;evaluate(q;.a.X)]
.t.eq["a child";val await async(`eforward;q;`0;.a.X);evaluate(q;`0;.a.X)]
x:tensor .a.X
.t.eq["a tensor input";await async(`evaluate;q;x);evaluate(q;x)]
.t.eq["the input is untouched";tensor x;.a.X]
free x

/ ---- several at once, ready once finished
q2:net[]
q3:module seq(`sequential;(`linear;4;2)); to(q3;ondev)
fs:(async(`evaluate;q;.a.X);async(`evaluate;q2;2#.a.X);async(`evaluate;q3;.a.X))
.t.eq["three futures";count select from obj[] where class=`future;3]
wait:{while[not ready x;];ready x}
.t.eq["ready when finished";wait each fs;111b]
r:await each fs
.t.ok["first";near[r 0;.a.out]]
.t.ok["second";near[r 1;2#.a.out]]
.t.eq["third";r 2;evaluate(q3;.a.X)]
free(q2;q3)

/ ---- busy while running: the module and every handle sharing its tree, until await
qa:addref q
f:async(`evaluate;q;.a.X)
.t.eq["obj[] lists the future and the lent module";exec class from obj[] where (first each ptr) in first each(q;qa;f);`module`module`future]
.t.eq["use while busy";err[parm;(q;`0.bias)];"parm: ",busy"module"]
.t.eq["a shared handle is busy";err[evaluate;(qa;.a.X)];"evaluate: ",busy"module"]
.t.eq["free while busy";err[free;q];"free: ",busy"module"]
.t.eq["free in a list while busy";err[free;(qa;q)];"free: ",busy["module"],", element[0] of given list"]
.t.eq["a second async call";err[async;(`forward;q;.a.X)];"async: ",busy"module"]
.t.eq["mapped while busy";mapped q;1b]
.t.ok["await";near[await f;.a.out]]
.t.eq["usable after await";class each(q;qa);`module`module]
free qa
/ a model made from a second handle to the tree: busy while the module runs, and the other way
m:model(addref q;loss`ce;opt(`sgd;q;.1))
f:async(`evaluate;q;.a.X)
.t.eq["a model sharing the tree is busy";err[train;m];"train: ",busy"model"]
r:await f
.t.eq["await";r;evaluate(q;.a.X)]
f:async(`nforward;m;.a.X)
.t.eq["the module of a running model is busy";err[evaluate;(q;.a.X)];"evaluate: ",busy"module"]
free f
.t.eq["both given back";class each(q;m);`module`model]
free m

/ ---- errors: at await, with the module given back
f:async(`forward;q;2 3#0e)
.t.eq["error at await";err[await;f];"await: forward: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x8)"]
.t.eq["the sync call's error";err[forward;(q;2 3#0e)];"forward: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x8)"]
.t.eq["the future is freed";err[await;f];"await: stale pointer"]
.t.eq["the module is given back";class q;`module]
.t.eq["unknown name";err[async;(`backward;q)];"async: expecting (name;args..), name one of forward, nforward, eforward, evaluate, run, given `backward"]
.t.eq["no arguments";err[async;`forward];"async: expecting (name;args..), name one of forward, nforward, eforward, evaluate, run, given `forward"]
.t.eq["bad arguments: at async";err[async;(`forward;q)];"async: requires a module and at least one input"]
.t.eq["await of a module";err[await;q];"await: expected a future, given module"]
.t.eq["ready of a module";err[ready;q];"ready: expected a future, given module"]
cb:module enlist(`callback;`cb;`f)
.t.eq["callbacks refused";err[async;(`evaluate;cb;1 2e)];"async: module has a callback layer, which calls q: it cannot run asynchronously"]
free cb

/ ---- free of a running future: waits, gives back
f:async(`forward;q;.a.X)
free f
.t.eq["freed";err[ready;f];"ready: stale pointer"]
.t.eq["module usable";class q;`module]
free q

/ ---- run: a training pass, as the sync run and PyTorch's step
mk:{q:net[]; m:model(q;loss`ce;opt(`sgd;q;.1)); train(m;`batchsize;6); train(m;.a.X;.a.Y); m}
m1:mk[]; m2:mk[]
f:async(`run;m1)
.t.eq["model busy";err[train;m1];"train: ",busy"model"]
l:await f
.t.ok["run: PyTorch's loss";near[l;.a.loss]]
.t.eq["run: the sync run's loss";l;run m2]
.t.ok["run: PyTorch's parameters after the step";near[pv[m1] each .a.names;.a.after]]
.t.eq["run: the sync run's parameters";pv[m1] each .a.names;pv[m2] each .a.names]
.t.eq["run with data";await async(`run;m1;.a.X;.a.Y);run(m2;.a.X;.a.Y)]
.t.eq["forward of a model";val await async(`nforward;m1);val nforward m2]
/ float targets for ce: caught before any kernel runs, on every device
/ libtorch words this error per device (CPU: expected scalar type Long..., CUDA: not implemented
/ for 'Float'): the await's error is the sync run's, whatever its words
e:err[run;(m2;.a.X;6#1.5e)]
.t.ok["run: the sync run's error";e like "run: *Float*"]
.t.eq["run: error at await, as the sync run's";err[await;async(`run;m1;.a.X;6#1.5e)];"await: ",e]
.t.eq["run: bad model";err[async;(`run;1 2)];"async: expected model, or (model;inputs;targets), given long list"]
f:async(`run;m1)
free f
.t.eq["model usable after free";class m1;`model]

/ ---- free[] with calls running waits for them
f:async(`run;m1); g:async(`evaluate;m2;`0;.a.X)
free[]
.t.eq["all freed";count obj[];0]
.t.done[]
