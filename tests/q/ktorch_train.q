/ Training beside PyTorch (tests/q/gen/train.py writes tests/q/data/train_expected.q): the same
/ weights, data and settings, the loss of each step and the parameters after the last compared.
/ The encoder, decoder and transformer containers train (their layer copies are leaves); an
/ optimizer group added with some options takes the others from the optimizer's defaults; a
/ model's learning rate is read and set with `lr`; modules giving several tensors (lstm, recur)
/ train on their first output, recur with the `hidden` setting; the loss modules bcelogits,
/ pairwise and similar.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/train_expected.q

/ r and e agree within 1e-4 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-4*1|abs e)>abs r-e}
f32:{"e"$x}
/ module of definition d given PyTorch's parameters p by full name
mk:{[d;p] m:module d; {[m;k;v] parm(m;k;"e"$v)}[m]'[key p;value p]; m}
/ the parameters of model m as a dictionary of q values, compared with e (names and values)
parmsnear:{[m;e] p:parms m; d:dict p; free p; $[key[d]~key e; near[value d;value e]; 0b]}
/ n steps of backstep on inputs x and targets y: the losses
steps:{[m;x;y;n] {[m;x;y;i] backstep(m;x;y)}[m;x;y]'[til n]}

/ ---------------------------------------------------------------------------------------------
/ encoder, decoder, transformer
q:mk[((`encoder;2);enlist(`encoderlayer;4;2;8;0.0);enlist(`layernorm;4));.p.enc]
m:model(q;loss`mse;opt(`sgd;q;.1))
.t.ok["encoder trains as PyTorch's";near[steps[m;f32 .i.src;f32 .i.y;3];.e.enc]]
.t.ok["encoder parameters after 3 steps";parmsnear[m;.e.encP]]
free m
q:mk[((`decoder;2);enlist(`decoderlayer;4;2;8;0.0));.p.dec]
m:model(q;loss`mse;opt(`sgd;q;.1))
.t.ok["decoder trains as PyTorch's";near[steps[m;f32(.i.tgt;.i.src);f32 .i.yt;3];.e.dec]]
.t.ok["decoder parameters after 3 steps";parmsnear[m;.e.decP]]
free m
q:mk[enlist(`transformer;4;2;1;1;8;0.0);.p.tfm]
m:model(q;loss`mse;opt(`sgd;q;.1;.9))
.t.ok["transformer trains as PyTorch's (momentum)";near[steps[m;f32(.i.src;.i.tgt);f32 .i.yt;3];.e.tfm]]
.t.ok["transformer parameters after 3 steps";parmsnear[m;.e.tfmP]]
free m
/ a copy made by clone is a set of leaves too
q:module((`encoder;1);enlist(`encoderlayer;4;2;8;0.0))
c:clone q
/ a weighted mean: the plain mean of a layer-normed output has no gradient but rounding
y:forward(c;tensor(f32 .i.src;`grad)); w:mul(y;1 -2 3 -4e); l:mean w; backward l
t:parm(c;`layers.0.linear1.bias)
.t.ok["cloned encoder: parameter is a leaf";leaf t]
g:grad t
.t.ok["cloned encoder: gradient of a parameter";(8=count g) and any 0<>g]
free(q;c;y;w;l;t)

/ ---------------------------------------------------------------------------------------------
/ optimizer groups: a group added with some options takes the others from the defaults
q:mk[seq(`sequential;(`linear;`a;3;4);(`relu;`r);(`linear;`b;4;2));.p.grp]
o:opt(`sgd;(q;`a);.1;.9;.1)
opt(o;1;(q;`b.weight);`lr,.01)
opt(o;2;(q;`b.bias);`lr`momentum!.05 .5)
.t.ok["group options as PyTorch's param_groups";near[flip (opt o)[`options][`lr`momentum`dampening];.e.grpopt]]
.t.eq["group parameters by module and name";(opt o)[`parms][`parmgroup`name];(0 0 1 2;`a.weight`a.bias`b.weight`b.bias)]
m:model(q;loss`mse;o)
.t.ok["groups train as PyTorch's";near[steps[m;f32 .i.gx;f32 .i.gy;3];.e.grp]]
.t.ok["group parameters after 3 steps";parmsnear[m;.e.grpP]]
free m
/ an existing group keeps its options but those given
q:module seq(`sequential;(`linear;`a;3;4);(`linear;`b;4;2))
o:opt(`sgd;(q;`a);.1;.9)
opt(o;0;(q;`b);`lr,.2)
.t.eq["existing group: options given replace, others kept";first each (opt o)[`options][`lr`momentum];.2 .9]
.t.eq["module names select parameters";(opt o)[`parms][`name];`a.weight`a.bias`b.weight`b.bias]
.t.eq["no such module or parameter";@[opt;(o;1;(q;`c));{x}];"opt: no module or parameter named `c"]
free(o;q)

/ ---------------------------------------------------------------------------------------------
/ lr on a model: 2 steps at .1, then 2 at .02 (adam)
q:mk[seq(`sequential;(`linear;`a;3;4);(`relu;`r);(`linear;`b;4;2));.p.lr]
m:model(q;loss`mse;opt(`adam;q;.1))
.t.eq["lr of a model";lr m;enlist .1]
l1:steps[m;f32 .i.gx;f32 .i.gy;2]
lr(m;.02)
.t.eq["lr of a model after setting";lr m;enlist .02]
l2:steps[m;f32 .i.gx;f32 .i.gy;2]
.t.ok["learning rate set between steps as PyTorch's";near[l1,l2;.e.lr]]
.t.ok["parameters after the 4 steps";parmsnear[m;.e.lrP]]
.t.eq["lr of a model, rates per group";@[lr;(m;1 2f);{x}];"lr: 2 learning rate(s) given for 1 parameter group(s)"]
free m

/ ---------------------------------------------------------------------------------------------
/ lstm: (output;hidden;cell), trained on the output
q:mk[enlist(`lstm;3;4;2);.p.lstm]
m:model(q;loss`mse;opt(`sgd;q;.1))
.t.ok["lstm trains on its output";near[steps[m;f32 .i.lx;f32 .i.ly;3];.e.lstm]]
.t.ok["lstm parameters after 3 steps";parmsnear[m;.e.lstmP]]
free m
/ recur, hidden setting: each batch after the first starts from the previous hidden state
q:mk[(`recur;enlist(`lstm;3;4));.p.recur]
.t.eq["recur detach option";(module q)[`options]0;(enlist`detach)!enlist 1b]
m:model(q;loss`mse;opt(`sgd;q;.1))
train(m;`batchsize`hidden;(2;1b))
.t.eq["hidden setting";train(m;`hidden);1b]
train(m;f32 .i.lx;f32 .i.ly)
.t.ok["recur with hidden state, 1st epoch";near[run m;.e.recur0]]
.t.ok["recur with hidden state, 2nd epoch";near[run m;.e.recur1]]
.t.ok["recur parameters after 2 epochs";parmsnear[m;.e.recurP]]
free m
.t.eq["sync setting";{m:model(module enlist(`linear;3;4);loss`mse;opt`sgd); train(m;`sync;1b); r:train(m;`sync); free m; r}[];1b]

/ ---------------------------------------------------------------------------------------------
/ nbeats built as ktorch's time/nbeats.q builds it (smaller), trained with `run`: AdamW with
/ decay .1, batches of 10 in order, the learning rate times .95 after each epoch (lr on a model)
generic:{[u;b;f;t]
 a:`relu; m:`linear,'((`theta;u;t;0b); (`backcast;t;b); (`forecast;t;f));
 enlist(`fork;seq(`sequential`bc;m 0;a;m 1);seq(`sequential`fc;m 0;a;m 2))}
block:{[u;n;b;f;t]
 r:(`sequential; (`linear;b;u); `relu);
 r,:(2*n-1)#((`linear;u;u); `relu);
 seq[r],generic[u;b;f;t]}
q:mk[`nbeats,raze block[8;2;6;2]''[2#'3 4];.p.nbeats]
m:model(q;loss`mse;opt(`adamw;q;`decay,.1))
train(m;`batchsize`metrics;(10;`batchloss)); test(m;`batchsize;10)
train(m;f32 .i.nbx;f32 .i.nby); test(m;f32 .i.nbX;f32 .i.nbY)
ep:{[m] r:run m; lr(m;.95*lr m); r}
L:{[m;i] ep m}[m] each til 3  / epochs in order (a list's items evaluate right to left)
.t.ok["nbeats: batch losses of 3 epochs as PyTorch's";near[L;(.e.nb0;.e.nb1;.e.nb2)]]
.t.ok["nbeats: test loss";near[testrun m;.e.nbtest]]
.t.ok["nbeats parameters after 3 epochs";parmsnear[m;.e.nbeatsP]]
free m

/ ---------------------------------------------------------------------------------------------
/ loss modules
lv:{[l;x] r:loss(enlist[l],x); v:tensor r; free(l;r); v}
.t.ok["bcelogits";near[lv[loss`bcelogits;f32(.i.la;.i.lt)];.e.bcelogits]]
.t.ok["bcelogits, pos weight, sum";near[lv[loss(`bcelogits;f32 .i.lw;`sum);f32(.i.la;.i.lt)];.e.bcelogitsw]]
.t.ok["bcelogits, batch weights";near[lv[loss`bcelogits;f32(.i.la;.i.lt;.i.lbw)];.e.bcelogitsb]]
.t.ok["pairwise";near[lv[loss`pairwise;f32(.i.la;.i.lb)];.e.pairwise]]
.t.ok["pairwise p eps keepdim";near[lv[loss(`pairwise;3;1e-3;1b);f32(.i.la;.i.lb)];.e.pairwise3]]
.t.ok["similar";near[lv[loss`similar;f32(.i.la;.i.lb)];.e.similar]]
.t.ok["similar dim eps";near[lv[loss(`similar;`dim`eps!(0;1e-4));f32(.i.la;.i.lb)];.e.similar0]]
l:loss(`pairwise;3)
.t.eq["pairwise definition: all options (PyTorch's defaults), no reduce";loss l;`module`options!(`pairwise;`p`eps`keepdim!(3f;1e-06;0b))]
free l
.t.eq["similar: no reduction";@[loss;(`similar;`sum);{x}];"loss: similar: reduce: no reduction for this loss, given `sum"]

.t.done[]
