/ The loss object (loss.rst) and models (model.rst, train.rst): definitions, options, data, and
/ training runs checked against the same steps taken by hand from q.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-5*1|abs e)>abs r-e}
val:{r:tensor x; free x; r}

/ ---- loss objects
l:loss(`mse;`none)
.t.eq["mse none";val loss(l;1 2 3e;0 2 4e);1 0 1e]
.t.eq["definition";loss l;`module`options!(`mse;(enlist`reduce)!enlist`none)]
.t.eq["class, objtype";(class l;objtype l);`loss`mse]
free l
l:loss(`ce;`smoothing`reduce!(.1;`sum))
x:(1 2 3e;3 2 1e); y:2 0
.t.ok["ce object = functional ce";near[val loss(l;x;y);ce(x;y;`smoothing`reduce!(.1;`sum))]]
/ all options with alloptions on (model.rst:78), non-defaults with the flag off (loss.rst:219)
.t.eq["all options shown";(loss l)`options;`weight`ignore`smoothing`reduce!(::;-100;.1;`sum)]
.t.eq["non-default options shown";(loss(l;0b))`options;`smoothing`reduce!(.1;`sum)]
t:tensor(x;`grad)
z:loss(l;t;y)
backward z
.t.ok["gradient through a loss object";0<sum abs raze grad t]
free(l;t;z)
.t.eq["unknown loss";err[loss;`nope];"loss: unrecognized loss: `nope"]
.t.eq["bad option";err[loss;(`mse;`foo)];"loss: mse: reduce: `foo is not one of none,mean,sum"]
l:loss`mse
.t.eq["wrong inputs";err[loss;(l;1 2e)];"loss: mse: expected 2 inputs, given 1"]
free l

/ ---- models: parts move in
q:module seq(`sequential;(`linear;2;8);`relu;(`linear;8;3))
l:loss`ce
o:opt(`sgd;q;.1)
m:model(q;l;o)
.t.eq["class";class m;`model]
.t.eq["parts are taken";(err[class;q];err[class;l];err[class;o]);3#enlist"class: stale pointer"]
d:model m
.t.eq["definition keys";key d;`module`loss`optimizer`train`test]
.t.eq["loss part";d`loss;`module`options!(`ce;`weight`ignore`smoothing`reduce!(::;-100;0f;`mean))]
/ kmodel.cpp getoption: every option, in its order, with TrainOptions/TestOptions defaults (ktorch.h)
.t.eq["train options";train m;`batchsize`task`tasks`droplast`hidden`shuffle`shufflecuda`shuffleseed`sync`clipgroup`clipnorm`clipvalue`tensor`dictionary`metrics!(32;0;1;0b;0b;0b;0b;0;0b;0b;::;::;0b;0b;enlist`loss)]
.t.eq["test options";test m;`batchsize`task`tasks`droplast`hidden`tensor`dictionary`metrics!(100;0;1;0b;0b;0b;0b;enlist`loss)]
train(m;`batchsize`shuffle;(10;1b))
.t.eq["set by names and values";train(m;`batchsize`shuffle);`batchsize`shuffle!(10;1b)]
train(m;`droplast`metrics!(1b;`loss`accuracy))
.t.eq["set by dictionary";train(m;`droplast`metrics);`droplast`metrics!(1b;`loss`accuracy)]
.t.eq["one option";train(m;`batchsize);10]
train(m;`clipnorm;2)
.t.eq["clipnorm order defaults to 2";train(m;`clipnorm);2 2f]
train(m;`clipnorm;())
.t.eq["clipnorm unset";train(m;`clipnorm);(::)]
.t.eq["bad option";err[train;(m;`nope;1)];"train: unrecognized training option: `nope"]
.t.eq["bad metric";err[train;(m;`metrics;`foo)];"train: metrics: unrecognized metric `foo, expected one of `loss`batchloss`accuracy`matches`predict`output`hidden`hiddencell"]
.t.eq["bad batch size";err[train;(m;`batchsize;0)];"train: batchsize: must be positive, given 0"]
.t.eq["shuffle is training only";err[test;(m;`shuffle;1b)];"test: unrecognized test option: `shuffle"]
.t.eq["no data";err[run;m];"run: no training data defined"]
X:"e"$(25 2#1 2 -1 0.5 3 -2 0 1 1 1); Y:25#0 1 2 1 0
.t.eq["batches (droplast)";train(m;X;Y);2]
.t.eq["datasize";(datasize m;testsize m);25 0]
.t.eq["inputs and targets must agree";err[train;(m;X;24#Y)];"train: tensor size mismatch, 25 vs 24"]
r:run m
.t.eq["loss and accuracy";type each r;-8 -9h]
.t.ok["accuracy is a percentage";r[1] within 0 100]
train(m;`metrics`dictionary`tensor;(`batchloss`predict;1b;1b))
r:run m
.t.eq["dictionary of tensors";(key r;class each value r);(`batchloss`predict;`tensor`tensor)]
.t.eq["two batch losses, 20 predictions";size each value r;(enlist 2;enlist 20)]
free value r
test(m;X;Y)
test(m;`metrics`dictionary!(`loss`accuracy`output;1b))
r:testrun m
.t.eq["test outputs";count r`output;25]
.t.ok["test accuracy = accuracy of its outputs";near[r`accuracy;100*avg Y=r[`output]?'max each r`output]]
free m
.t.eq["freeing a model frees its parts";count obj[];0]

/ ---- one full-batch epoch equals the steps taken by hand
q1:module seq(`sequential;(`linear;2;4);`tanh;(`linear;4;3))
q2:module state q1
m:model(q1;loss`ce;opt(`sgd;q1;.5;.9))
train(m;`batchsize`metrics;(25;`loss))
train(m;X;Y)
o2:opt(`sgd;q2;.5;.9)
hand:{[i] zerograd o2; y:forward(q2;X); z:ce(y;Y); backward z; r:tensor z; step o2; free(y;z); r}
r1:{run m} each til 3
r2:hand each til 3
.t.ok["epoch losses = hand-made losses";near[r1;r2]]
.t.eq["parameter names of a model";parmnames m;parmnames q2]
p1:parms m; p2:parms q2
.t.ok["parameters agree after 3 epochs";near[dict p1;dict p2]]
free(p1;p2)
free(m;q2;o2)
/ ---- steps one at a time: backward, step, backstep, clip, clipv
q1:module seq(`sequential;(`linear;2;4);`tanh;(`linear;4;3))
q2:module state q1
m:model(q1;loss`ce;opt(`sgd;q1;.5))
o2:opt(`sgd;q2;.5)
l1:backward(m;X;Y)
y:forward(q2;X); z:ce(y;Y); backward z; l2:tensor z; free(y;z)
.t.ok["backward(m;x;y) = forward, loss, backward by hand";near[l1;l2]]
p1:parms m; p2:parms q2
g:{[p;k] t:tensor(p;k); r:grad t; free t; r}
.t.ok["same gradients";near[g[p1] each parmnames m;g[p2] each parmnames q2]]
step m; step o2
.t.ok["step m = step of its optimizer";near[dict p1;dict p2]]
zerograd o2
l3:backstep(m;X;Y)
y:forward(q2;X); z:ce(y;Y); backward z; l4:tensor z; step o2; free(y;z)
.t.ok["backstep = zero, backward, step";near[l3;l4] and near[dict p1;dict p2]]
/ clip: PyTorch's clip_grad_norm_ (total 2-norm, scale by max/(norm+1e-6) when above)
n0:sqrt sum {x wsum x} each raze each g[p2] each parmnames q2
r:clip(o2;0.1)
.t.ok["clip returns the norm before";near[r;n0]]
n1:sqrt sum {x wsum x} each raze each g[p2] each parmnames q2
.t.ok["clipped to the max norm";near[n1;0.1]]
clipv(o2;0.01)
.t.ok["clipv bounds every gradient";all 0.01>=abs raze over g[p2] each parmnames q2]
.t.eq["clip by group: one norm per group";count clip(o2;1;1b);1]
.t.eq["clip bad arg";err[clip;(o2;`x)];"clip: max norm: expected a number, given symbol scalar"]
free(p1;p2;m;q2;o2)
.t.eq["nothing left";count obj[];0]
.t.done[]
