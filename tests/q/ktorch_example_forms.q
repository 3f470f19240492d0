/ The forms ktorch's example scripts use (github ktorch/examples), checked against the values
/ ktorch's documentation gives or against the same calculation done in q: parmtypes reporting the
/ leaf module of every parameter (modules.rst), dict(), vector of atoms and simple lists
/ (ktensor.cpp's vec), use on vectors and dictionaries, module(parent;depth;module), a
/ sequential passing two inputs to a seqjoin (mnist/cgan.q), lists of handles as several inputs.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
err:{[f;a] @[{x y;""}[f];a;{x}]}

/ ---------------------------------------------------------------------------------------------
/ parmtypes: modules.rst's example, then the leaf types of parameters held flat
q:module seq(`sequential; (`conv2d;`a;3;64;3); (`batchnorm2d;`b;64); (`relu;`c))
.t.eq["parmtypes, modules.rst";parmtypes q;`a.weight`a.bias`b.weight`b.bias!`conv2d`conv2d`batchnorm2d`batchnorm2d]
free q
q:module seq(`sequential;(`embedseq;10;4;5);(`selfattention;4;2;0.0;1b);(`encoderlayer;4;2;8))
p:parmtypes q
.t.eq["embedseq: token and position embeddings";p`0.tok.weight`0.pos.pos;`embed`embedpos]
.t.eq["selfattention: norm and linear layers";p`1.norm.weight`1.in.weight`1.out.bias;`layernorm`linear`linear]
.t.eq["encoderlayer: attention, its out_proj, linear, norm";p`2.self_attn.in_proj_weight`2.self_attn.out_proj.weight`2.linear1.weight`2.norm2.bias;`attention`linear`linear`layernorm]
.t.eq["parmtypes keys are parmnames";key p;parmnames q]
o:opt(`adamw;q)
.t.eq["optimizer table: leaf types";exec module from (opt o)`parms where name in`0.tok.weight`1.out.bias;`embed`linear]
.t.eq["parmtypes of an optimizer";parmtypes o;p]
free o
/ gpt/char.q's weight decay groups: names of parameters of norm and embedding layers and biases
b:{x where (x in y)|x like"*.bias"}[key p;where p in`layernorm`embed`embedpos]
o:opt(`adamw;();.0006;.9;.95)
opt(o;0;(q;b);`decay,0.0)
opt(o;1;(q;key[p] except b);`decay,0.1)
.t.eq["weight decay groups by parameter name";count each group (opt o)[`parms]`parmgroup;0 1!(count b;count[p]-count b)]
.t.eq["groups keep the optimizer's betas";(opt o)[`options][`beta1`beta2`decay];(.9 .9;.95 .95;0 .1)]
m:model(q;loss`ce;o)
.t.eq["parmtypes of a model";parmtypes m;p]
free m

/ ---------------------------------------------------------------------------------------------
/ dict(), vector of atoms and simple lists, use
d:dict()
.t.eq["dict(): empty dictionary";(class d;dict d);(`dictionary;(`symbol$())!())]
use[d](`a`b!(1 2e;3 4 5))
.t.eq["use on a dictionary, q data";dict d;`a`b!(1 2e;3 4 5)]
e:dict`c`d!(1f;2 3)
use[d]e
.t.eq["use on a dictionary, a dictionary (freed)";(dict d;err[dict;e]);(`c`d!(1f;2 3);"dict: stale pointer")]
v:vector 0e
.t.eq["vector of an atom: one scalar tensor";(count vector v;first vector v;size vector(v;0));(1;0e;0#0)]
w:vector 1 2 3e
.t.eq["vector of a simple list: a scalar tensor per row";(type vector w;raze vector w;size each vector w);(0h;1 2 3e;3#enlist 0#0)]
x:vector(2 3#til 6)
.t.eq["vector of a matrix: a tensor per row";vector x;(0 1 2;3 4 5)]
use[v]w
.t.eq["use on a vector, a vector (freed)";(raze vector v;err[vector;w]);(1 2 3e;"vector: stale pointer")]
use[v](1 2e;3 4 5)
.t.eq["use on a vector, q data";vector v;(1 2e;3 4 5)]
t:tensor 7 8f
use[v]t
.t.eq["use on a vector, a tensor (freed)";(vector v;err[tensor;t]);(enlist 7 8f;"tensor: stale pointer")]
use[v]v
.t.eq["use of itself: nothing changes";vector v;enlist 7 8f]
.t.eq["use: vector given a dictionary";err[use[v];d];"use: cannot re-assign vector to dictionary"]
free(d;v;x)

/ ---------------------------------------------------------------------------------------------
/ module(parent;depth;module): the module given moves in, its handle freed
q:module`sequential
a:module enlist(`linear;`a;3;4)
module(q;1;a)
/ a seqnest: a sequential cannot be a sequential's child (knn.cpp anymodule)
module(q;1;module seq(`seqnest;(`relu;`r);(`linear;`b;4;2)))
.t.eq["module(parent;depth;module)";names q;`a`1`1.r`1.b]
.t.eq["module given is freed";err[module;a];"module: expected a module, given stale pointer"]
c:module enlist(`linear;2;2)
c2:addref c
.t.eq["module shared with another handle";err[module;(q;1;c)];"module: module to add is shared with other handles or is part of another module, free those first"]
free(c;c2)
.t.eq["module added to a non-container";err[module;(q;3;module`relu)];"module: unable to add a module as a child of a linear module"]
free q

/ ---------------------------------------------------------------------------------------------
/ a sequential passing its two inputs to a seqjoin (mnist/cgan.q's generator): the same as
/ the embedding rows looked up in q and joined to the first input
g:module((0;`sequential);(1;`seqjoin);(2;`sequential);(2;`sequential);(3;(`embed;10;3));(2;(`cat;1));(1;`relu))
x:2 3#-1 2 3 4 -5 6e; y:7 2
E:{r:tensor p:parm(x;`0.qy.0.weight); free p; r}g
want:0e|x,'E y
a:tensor x; b:tensor y
r:forward(g;a;b)
.t.eq["sequential into seqjoin, two tensors";tensor r;want]
.t.eq["sequential into seqjoin, a list of handles";evaluate(g;(a;b));want]
v:vector(x;y)
.t.eq["sequential into seqjoin, a vector";evaluate(g;v);want]
.t.eq["sequential into seqjoin, two arrays";evaluate(g;x;y);want]
m:model(g;loss`mse;opt`sgd)
.t.ok["model backward with a list of handles as inputs";0<backward(m;(a;b);tensor(2 6#0e))]
free(a;b;r;v;m)

/ ---------------------------------------------------------------------------------------------
/ testrun of a model whose test data has inputs only and whose metrics need no loss (mnist/gan.q:
/ test(g; `batchsize`metrics; w,`output); test(g; Z); ... testrun g): kmodel.cpp's testloop
/ computes the loss only when `loss or `batchloss is asked for. The output is the linear layer's
/ x mmu flip w, plus b, worked out in q from its parameters, batch after batch.
q:module enlist(`linear;3;2)
W:{r:tensor p:parm(x;y); free p; r}[q]'[`weight`bias]
m:model(q;loss`bce;opt`sgd)
x:5 3#.1*-7+til 15
test(m;`batchsize`metrics;(2;`output)); test(m;"e"$x)
r:testrun m
.t.eq["testrun: inputs only, metric output: 5 rows of 2";(type r;count each r);(0h;5#2)]
.t.ok["testrun: inputs only, metric output: the layer's values";all 1e-6>abs raze r-W[1]+/:x mmu flip "f"$W 0]
test(m;`metrics;`output`loss)
.t.eq["testrun: a loss metric needs targets";err[testrun;m];"testrun: bce: expects the output and 1-2 target tensor(s), given 0"]
free m

/ ---------------------------------------------------------------------------------------------
/ embedpos given an input whose last size exceeds its rows (mnist/cct.q: 49 positions added to
/ tokens of shape (batch, 49, 128)): knn/embed.cpp slices pos[:, :x.size(-1), :], a slice that
/ stops at the last row, so all rows come back, and the residual adds them to each batch row.
q:module enlist(`embedpos;3;4)
normal(q;`pos;0;1)
P:first {r:tensor p:parm(x;`pos); free p; r}q
.t.eq["embedpos, last size 4 over 3 rows: all rows";evaluate(q;2 3 4#0e);enlist P]
.t.eq["embedpos, last size 2 of 3 rows: the first 2";evaluate(q;2 2#0e);enlist 2#P]
free q
q:module(`residual`position;(`sequential;enlist(`embedpos;`emb;3;4)))  / cct.q's pos
normal(q;`q1.emb.pos;0;1)
P:first {r:tensor p:parm(x;`q1.emb.pos); free p; r}q
x:2 3 4#.1*til 24
y:evaluate(q;"e"$x)
.t.ok["cct's position residual: tokens plus positions";all 1e-6>abs raze raze y-x+\:P]
free q

.t.done[]
