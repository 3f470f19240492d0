/ A model's data and batches (train.rst "Data", "Batching data", "Shuffling data"), batches of
/ tensors, vectors and dictionaries, and copies and averages of parameters (swa.rst): every value
/ checked against the same data cut, permuted or averaged in q.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-5*1|abs e)>abs r-e}
val:{r:tensor x; free x; r}
ident:{model(module`identity;loss`mse;opt`sgd)}

/ ---- data, input, target, batches
m:ident[]
.t.eq["no data: batchinit";batchinit m;-1]
.t.eq["no data: datasize";datasize m;0]
.t.eq["no data: data";data m;(::;::)]
train(m;`batchsize;3)
x:10+til 10; y:100+til 10
.t.eq["train(m;x;y): batches";train(m;x;y);4]
.t.eq["data m";data m;(x;y)]
b:(); while[batch m; b,:enlist(datasize m;data m)]
.t.eq["batches: sizes";b[;0];3 3 3 1]
.t.eq["batches: inputs are 3 cut x";b[;1;0];3 cut x]
.t.eq["batches: targets are 3 cut y";b[;1;1];3 cut y]
.t.eq["full size after the last batch";data m;(x;y)]
train(m;`droplast;1b)
b:(); while[batch m; b,:enlist first data m]
.t.eq["droplast: the short batch left out";b;3#3 cut x]
train(m;`droplast;0b)
/ a handle from input m shares the model's tensor: it shows the batch
a:input m; t:target m
batch m; batch m
.t.eq["input handle shows batch 1";tensor a;x 3 4 5]
.t.eq["target handle shows batch 1";tensor t;y 3 4 5]
.t.eq["restore m: the size";restore m;10]
.t.eq["restore m: full size again";tensor a;x]
batch m
.t.eq["batchinit: the number of batches";batchinit m;4]
.t.eq["batchinit: full size";tensor a;x]
free(a;t)
/ loss(m;x;y) uses the model's loss
l:loss(m;1 2 3e;1 2 5e)
.t.ok["loss(m;x;y): mse";near[val l;avg {x*x}(1 2 3e)-1 2 5e]]
/ forward m on the training inputs, evaluate m on the test inputs
.t.eq["forward m";val forward m;x]
.t.eq["evaluate m without test data";err[evaluate;m];"evaluate: model has no test inputs"]
test(m;`batchsize;4)
.t.eq["test(m;x;y)";test(m;til 9;9#0);3]
b:(); while[testbatch m; b,:enlist evaluate m]
.t.eq["testbatch and evaluate m";b;4 cut til 9]
testbatch m
.t.eq["testrestore";testrestore m;9]
.t.eq["testsize";testsize m;9]
.t.eq["testinit";testinit m;3]
.t.eq["testdata";testdata m;(til 9;9#0)]
.t.eq["testinput m";val testinput m;til 9]
.t.eq["testtarget(m;y)";testtarget(m;9#1);3]
.t.eq["testtarget m";val testtarget m;9#1]
/ one side at a time, sizes checked against the other
.t.eq["input(m;x)";input(m;20+til 10);4]
.t.eq["target(m;y) of another size";err[target;(m;til 5)];"target: tensor size mismatch, 10 vs 5"]
.t.eq["data(m;x;y) sizes";err[data;(m;til 5;til 6)];"data: tensor size mismatch, 5 vs 6"]
.t.eq["data after input(m;x)";data m;(20+til 10;y)]
/ several inputs: a vector handle
free m; m:ident[]
x1:tensor 2 5#til 10; x2:tensor 2 3#1f
.t.eq["input(m;x1;x2)";input(m;x1;x2);1]
v:input m
.t.eq["several inputs: a vector";(class v;size v);(`vector;(2 5;2 3))]
.t.eq["several inputs as q data";first data m;(2 5#til 10;2 3#1f)]
free(v;x1;x2)
.t.eq["general list of arrays";data(m;(1 2 3;3 2#til 6);1 2 3);1]
.t.eq["general list: two inputs";first data m;(1 2 3;3 2#til 6)]
free m

/ ---- shuffling a model's data keeps inputs and targets together; unshuffle undoes it
m:ident[]
x:"e"$x; y:"e"$y
train(m;x;y)
shuffle m; shuffle m
d:data m
.t.eq["shuffle m: a permutation";asc d 0;x]
.t.eq["shuffle m: inputs and targets together";d 1;90e+d 0]
unshuffle m
.t.eq["unshuffle m";data m;(x;y)]
/ with the shuffle setting a pass (run m, or a batch loop) shuffles at its start
train(m;`shuffle`batchsize;(1b;4))
k:0; while[batch m; k+:1]
d:data m
.t.eq["a pass with shuffle: full size, together";(k;count d 0;d 1);(3;10;90e+d 0)]
.t.eq["batchinit shuffles too";batchinit m;3]
.t.eq["batchinit: still together";(data m)1;90e+(data m)0]
unshuffle m
.t.eq["unshuffle after runs";data m;(x;y)]
.t.eq["restore(m;1)";err[restore;(m;1)];"restore: model data is only batched on dimension 0, but given dimension 1"]
.t.eq["unshuffle of a tensor";err[unshuffle;t:tensor 1 2 3];"unshuffle: requires model argument, given tensor"]
free(m;t)

/ ---- batches of tensors, vectors, dictionaries
t:tensor til 7
b:(); while[batch(t;3); b,:enlist tensor t]
.t.eq["batch(t;3)";b;3 cut til 7]
.t.eq["full size after";tensor t;til 7]
batch(t;3;2)
.t.eq["batch(t;3;2)";tensor t;enlist 6]
.t.eq["restore t";restore t;7]
.t.eq["restored";tensor t;til 7]
.t.eq["batch size too big";err[batch;(t;7)];"batch: size 7 not in the range 1-6 (tensor size is 7 for dimension 0)"]
.t.eq["batch index out of range";err[batch;(t;3;3)];"batch: batch[3] invalid, valid range is from 0-2"]
free t
m:3 5#til 15
t:tensor m
b:(); while[batch(t;2 1); b,:enlist tensor t]
.t.eq["batch along dim 1";b;flip each 2 cut flip m]
batch(t;2 1;1)
.t.eq["restore(t;1)";restore(t;1);5]
.t.eq["restored along dim 1";tensor t;m]
shuffle(t;1)
r:tensor t
.t.eq["shuffle(t;1): columns permuted";(asc flip r;r[0]+/:0 5 10);(flip m;r)]
free t
t:tensor 5
.t.eq["batch of a scalar";err[batch;(t;1)];"batch: tensor has no dimensions"]
free t
v:vector(til 6;10+til 6)
b:(); while[batch(v;4); b,:enlist vector v]
.t.eq["vector batches together";b;((til 4;10+til 4);(4 5;14 15))]
shuffle v
r:vector v
.t.eq["vector shuffled together";(asc r 0;r 1);(til 6;10+r 0)]
free v
v:vector(til 6;til 5)
.t.eq["vector of different sizes";err[batch;(v;2)];"batch: tensor[1] size=5, but previous tensor(s) have size=6 for dim 0"]
free v
/ a dictionary names the key (ktensor.cpp maxsize, tensorop.rst:196)
d:dict`x`y!(.1+til 10;til 9)
.t.eq["dictionary of different sizes";err[batch;(d;4)];"batch: dictionary[y] size=9, but previous tensor(s) have size=10 for dim 0"]
free d
d:dict`a`b!(3 4#til 12;1 2 3)
shuffle d
r:dict d
.t.eq["dictionary shuffled together";r`a;(3 4#til 12) r[`b]-1]
batch(d;2;1)
.t.eq["dictionary batch 1";dict d;`a`b!(enlist(3 4#til 12) r[`b;2]-1;enlist r[`b;2])]
free d

/ ---- clone
t:tensor 1 2 3f
c:clone t
use[t;4 5 6f]
.t.eq["clone t: a copy";tensor c;1 2 3f]
free(t;c)
q:module enlist(`linear;3;2)
c:clone q
.t.eq["clone q: same state";state c;state q]
parm(c;`weight;0)
.t.ok["clone q: independent";0<sum sum abs val parm(q;`weight)]
free c
sq:(state q)`parms
m:model(q;loss`mse;opt`sgd)
c:clone m
.t.eq["clone of a model: its module";(class c;(state c)`parms);(`module;sq)]
free(c;m)
.t.eq["clone of a loss";err[clone;l:loss`mse];"clone: expected tensor, module or model, not implemented for loss"]
free l

/ ---- copyparms, avgparms
q:module enlist(`linear;3;2)
p:copyparms q
.t.eq["copyparms q: names";dict[p]~(state q)`parms;1b]
parm(q;`bias;0)
.t.ok["copyparms: detached copies";not (dict(p;`bias))~0 0e]
.t.eq["copyparms(q;d)";copyparms(q;p);`weight`bias!11b]
.t.eq["copied back";(state q)`parms;dict p]
free p
p:dict`weight`other!(1;2)
.t.eq["copyparms: found names";copyparms(q;p);`weight`bias!10b]
.t.eq["scalar broadcast";val parm(q;`weight);2 3#1e]
dict(p;`weight;2 2#1)
.t.ok["shapes that don't broadcast";err[copyparms;(q;p)] like "copyparms: weight: *"]
.t.eq["2nd arg not a dictionary";err[copyparms;(q;t:tensor 1)];"copyparms: expected dictionary of parameters for 2nd arg, given tensor"]
free(p;t)
/ a running average over four parameter settings against q's avg
w:(2 3#1e;2 3#til 6;2 3#-3e;2 3#0.5e)
parm(q;`weight;w 0)
p:copyparms q
n:{[q;p;w] parm(q;`weight;w); avgparms(q;p)}[q;p] each 1_w
.t.eq["avgparms: counts";n;2 3 4]
.t.ok["avgparms: the average";near[dict(p;`weight);avg w]]
.t.eq["avgparms: .n";dict(p;`.n);4f]
free p
p:dict enlist[`weight]!enlist 2 3#0e
.t.eq["avgparms: missing parameter";err[avgparms;(q;p)];"avgparms: parameter bias not found, unable to compute average"]
.t.eq["avgparms: one arg";err[avgparms;q];"avgparms: expected 2 args, model/module/optimizer & dictionary of parameters w'averaged weights"]
free(p;q)

/ ---- batchnorm: statistics made again as the plain average of the batches' statistics
q:module seq(`sequential;(`linear;`a;3;4);(`batchnorm1d;`b;4;1e-5;.3);`relu)
X:"e"$0.1*6 3#(7 1 4 2 8 5 3 9 6 1 1 2 9 4 4 0 3 7)
b:buffers(q;`b)
m:model(addref q;loss`mse;opt(`sgd;q))
train(m;`batchsize;2)
train(m;X;"e"$6 4#0)
run m
h:evaluate(q;`a;X)
.t.eq["batchnorm m: names and momentum";batchnorm m;(enlist`b)!enlist .3]
s:dict b
.t.ok["running mean: average of batch means";near[s`running_mean;avg avg each 2 cut h]]
uvar:{(sum {x*x} x-\:avg x)%count[x]-1}
.t.ok["running var: average of unbiased batch variances";near[s`running_var;avg uvar each 2 cut h]]
.t.eq["batches tracked";s`num_batches_tracked;3]
/ a module: reset, momentum off until restored
.t.eq["batchnorm q";r:batchnorm q;(enlist`b)!enlist .3]
s:dict b
.t.eq["reset: mean 0, var 1, no batches";(s`running_mean;s`running_var;s`num_batches_tracked);(4#0e;4#1e;0)]
free nforward(q;X 0 1 2)
free nforward(q;X 3 4 5)
.t.ok["cumulative: the average of two batches";near[(dict b)`running_mean;avg avg each 3 cut h]]
.t.eq["momentum shown as None while cumulative";batchnorm q;(enlist`b)!enlist 0n]
batchnorm(q;r)
.t.eq["batchnorm(q;r): momentum back";batchnorm q;(enlist`b)!enlist .3]
.t.eq["unknown layer";err[batchnorm;(q;(enlist`z)!enlist .1)];"batchnorm: unable to locate batch norm module 'z' to restore momentum"]
free(b;q;m)
m:ident[]
.t.eq["batchnorm without data";batchnorm m;(`symbol$())!`float$()]
free m
q:module seq(`sequential;(`batchnorm1d;`b;2))
m:model(q;loss`mse;opt`sgd)
.t.eq["model without data";err[batchnorm;m];"batchnorm: no training data loaded for the model"]
free m

/ ---- state m rebuilds each part; training goes on exactly where it stopped
seed 3
q:module seq(`sequential;(`linear;3;4);`relu;(`linear;4;2))
m:model(q;loss(`ce;`smoothing,.1);opt(`adam;q;.01))
X:"e"$0.1*20 3#til 60; Y:20#0 1
train(m;`batchsize`shuffle;(5;0b)); train(m;X;Y)
run m; run m
s:state m
.t.eq["state m: parts";key s;`module`loss`optimizer`train`test]
q2:module s`module
m2:model(q2;loss s`loss;opt(s`optimizer;q2))
train(m2;s`train); train(m2;X;Y)
f:{(x`optimizer;x`options;x[`parms]`name;x[`parms]`buffers)}
.t.eq["rebuilt optimizer: same options and buffers";f state[m2]`optimizer;f s`optimizer]
.t.eq["the next epoch: same loss";run m2;run m]
.t.eq["the next epoch: same parameters";state[m2]`module;state[m]`module]
o:s`optimizer
q3:module enlist(`linear;3;4)
.t.eq["rebuild onto other parameters";err[opt;(o;q3)];"opt: parameter `0.weight not found in the module"]
free q3
q3:module seq(`sequential;(`linear;3;5);`relu;(`linear;5;2))
.t.eq["rebuild onto other sizes";err[opt;(o;q3)];"opt: parameter `0.weight: size [4, 3] in the state, [5, 3] in the module"]
free(q3;m;m2)

.t.eq["all freed";count obj[];0]
/ train.rst:916-928: a dictionary with key(s) gives those tensors as inputs, in the keys' order
q:module seq(`sequential;(`linear;2;1))
md:model(q;loss`mse;opt(`sgd;q))
d:dict `a`b!(10?1.0;10+10?1.0)
y:10 1#10?1.0
train(md;(d;`b`a);y)
.t.eq["(dictionary;keys): the tensors of the keys";vector i:input md;(dict d)`b`a]
free i
train(md;((d;`a);(d;`b));y)
.t.eq["((dictionary;key);(dictionary;key))";vector i:input md;(dict d)`a`b]
free i
.t.eq["a key not there";err[train;(md;(d;`c);y)];"train: inputs: dictionary[`c] not found"]
free(md;d)
/ pointers.rst:315-326: addref of a loss and an optimizer, for a model made of them
t:tensor(`randn;64 128)
q:module(`sequential;enlist(`linear;128;10);`relu)
l:loss`ce
o:opt(`adam;q)
md:model addref each(q;l;o)
.t.eq["addref each: all still mapped";mapped each(q;l;o);111b]
.t.eq["size each (pointers.rst:321)";size each(t;q;l;o;md);(64 128;2;0;2;2)]
free(t;q;l;o;md)
.t.done[]
