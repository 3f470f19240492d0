/ Forms and values from ktorch's own documentation (the .rst pages replayed by make conformance):
/ help and options of module, loss and optimizer types and objects, module(m;def), gradflag of
/ modules, names/objtype of parameter and buffer dictionaries, ref of modules. Every expected
/ value here is the one ktorch's docs print (file:line of the page beside each check).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];

/ kmodules.rst:58 help of a module type: its row of the module table
.t.eq["help`cat";help`cat;`module`pytorch`forward`result`n`args`options!(`cat;"torch.cat";1b;`tensor;2;`tensor`tensor;(enlist`dim)!enlist 0)]
/ kmodules.rst:1368
.t.eq["help`selfattention";help`selfattention;`module`pytorch`forward`result`n`args`options!(`selfattention;"knn.SelfAttention";1b;`tensor;1;`tensor`tensor`tensor;`dim`heads`dropout`norm!(512;8;0.1;0b))]
/ kmodules.rst:717
h:help`module
.t.eq["rnn, gru, lstm forward";exec args from h where module in `rnn`gru`lstm;(`tensor`tensor;`tensor`tuple;`tensor`tensor)]
.t.eq["rnn, gru, lstm result";exec result from h where module in `rnn`gru`lstm;`tuple`nested`tuple]
.t.eq["every module type has a row";asc exec module from h;asc moduletypes[]]
/ config.rst:359 the example options of conv2d
.t.eq["options`conv2d";options`conv2d;`in`out`size`stride`pad`dilate`groups`bias`padmode!(16;32;3 5;1;0;1;1;1b;`zeros)]

/ loss.rst:54, 67, 119, 335, 423
.t.eq["help`ce";help`ce;`module`pytorch`forward`result`n`args`options!(`ce;"torch.nn.CrossEntropyLoss";1b;`tensor;2;`tensor`tensor;`weight`ignore`smoothing`reduce!(::;-100;0f;`mean))]
.t.eq["options`ce";options`ce;`weight`ignore`smoothing`reduce!(::;-100;0f;`mean)]
.t.eq["options`bcelogits";options`bcelogits;`weight`reduce!(::;`mean)]
h:help`loss
.t.eq["losses with 3-4 tensors";exec module from h where not args~\:2#`tensor;`bce`bcelogits`cosineloss`ctc`margin`triplet]
.t.eq["distance losses' options";exec options from h where module in `pairwise`similar;(`p`eps`keepdim!(2f;1e-06;0b);`dim`eps!(1;1e-08))]
.t.eq["21 loss types";count h;21]
/ loss.rst:144, 159, 219: a loss object's options, all or only non-defaults
l:loss(`ce;.25 .25 .12 .38;`smoothing`reduce!(.1;`mean))
.t.eq["options l";options l;`weight`ignore`smoothing`reduce!(.25 .25 .12 .38;-100;0.1;`mean)]
free l
l:loss(`ce;`smoothing`reduce!(.1;`none))
.t.eq["loss(l;0b)";loss(l;0b);`module`options!(`ce;`smoothing`reduce!(0.1;`none))]
.t.eq["loss l";loss l;`module`options!(`ce;`weight`ignore`smoothing`reduce!(::;-100;0.1;`none))]
.t.eq["help l";(help l)`options;`weight`ignore`smoothing`reduce!(::;-100;0.1;`none)]
free l

/ opt.rst:74, 89, 896
.t.eq["help`adamw";help`adamw;`lr`beta1`beta2`eps`decay`amsgrad!(0.001;0.9;0.999;1e-08;0.01;0b)]
.t.eq["help`lamb";help`lamb;`lr`beta1`beta2`eps`decay`unbiased`globalnorm`trustclip`trustmin`trustmax!(0.001;0.9;0.999;1e-08;0f;1b;1b;1b;0f;1f)]
h:help`optimizer
.t.eq["optimizers";h`optimizer;`adagrad`adam`adamw`lamb`lbfgs`rmsprop`sgd]
.t.eq["adagrad defaults";first h`options;`lr`lrdecay`decay`init`eps!0.01 0 0 0 1e-10]
/ train.rst:348
h:help`backward
.t.eq["backward modes";h`mode;`free`retain`create`createfree]
.t.eq["retain";h`retain;0110b]

/ kmodules.rst:69, 378, 388, 1379: options of modules
m:module`cat
.t.eq["options of cat";options m;(enlist`dim)!enlist 0]
free m
m:module`transpose
.t.eq["transpose defaults";options m;`dim0`dim1!-2 -1]
free m
m:module enlist(`transpose;0;2)
.t.eq["transpose 0 2";options m;`dim0`dim1!0 2]
free m
a:module enlist(`selfattention; 256; 4; .2; 1b)
.t.eq["options of selfattention";options a;`dim`heads`dropout`norm!(256;4;0.2;1b)]
.t.eq["help a";(help a)`module`options;(`selfattention;`dim`heads`dropout`norm!(256;4;0.2;1b))]
free a
/ modules.rst:74 sizes whose elements are equal show as one value
m:module enlist(`conv2d; 16; 32; 3)
.t.eq["conv2d options";(module m)`options;`in`out`size`stride`pad`dilate`groups`bias`padmode!(16;32;3;1;0;1;1;1b;`zeros)]
/ modules.rst:512
.t.eq["ref of a module";ref m;1]
.t.ok["ptr of a module";0<ptr m]
free m

/ dtype and ktype of a module: each parameter's (ktorch.cpp moduleattr)
q:module seq(`sequential; (`linear;`a;2;3); `relu)
.t.eq["dtype of a module";dtype q;`a.weight`a.bias!`float`float]
.t.eq["ktype of a module";ktype q;`a.weight`a.bias!"ee"]
to(q;`double)
.t.eq["dtype after to";dtype q;`a.weight`a.bias!`double`double]
free q

/ freeze.rst:71, 78: gradflag of a module, its parameter names to flags
q:module seq(`sequential; (`conv2d;`a;3;64;3); (`batchnorm2d;`b;64); `relu)
.t.eq["gradflag q";gradflag q;`a.weight`a.bias`b.weight`b.bias!1111b]
freeze(q;`b.weight`b.bias)
.t.eq["gradflag after freeze";gradflag q;`a.weight`a.bias`b.weight`b.bias!1100b]
free q

/ modules.rst:1237-1289: children added with module(m;def); parms/buffers dictionaries
m:module`sequential
module(m; enlist(`linear;`linear1;128;64))
module(m; enlist(`batchnorm2d;`bnorm;128))
module(m; `relu`f1)
module(m; enlist(`linear;`linear2;64;10))
module(m; `relu`f2)
.t.eq["children added";childnames m;`linear1`bnorm`f1`linear2`f2]
p:parms m
.t.eq["class p";class p;`dictionary]
.t.eq["objtype p";objtype p;`parameter]
.t.eq["names p";names p;`linear1.weight`linear1.bias`bnorm.weight`bnorm.bias`linear2.weight`linear2.bias]
b:buffers m
.t.eq["objtype b";objtype b;`buffer]
.t.eq["names b";names b;`bnorm.running_mean`bnorm.running_var`bnorm.num_batches_tracked]
bn:buffers(m;`bnorm)
.t.eq["names bn";names bn;`running_mean`running_var`num_batches_tracked]
free each(p;b;bn;m);

/ train.rst:1123: return of a vector gives its arrays (and frees it)
v:vector(1 2 3e;4 5)
.t.eq["return v";return v;(1 2 3e;4 5)]
.t.eq["vector freed";@[class;v;{x}];"class: stale pointer"]
d:dict(`a`b;(1 2;3e))
.t.eq["return d";return d;`a`b!(1 2;3e)]
/ train.rst:535: clipv answers a float null
x:tensor(1 2 3e;`grad); z:mean y:mul(x;x); backward z
.t.eq["clipv";clipv(x;1.2);0n]
.t.eq["clipped";grad x;0.6666667 1.2 1.2e]
free each(x;y;z);
/ model.rst:272: the module of a model, shared
q:module enlist(`linear;2;1)
m:model(q;loss`mse;opt(`sgd;q))
q:module m
.t.eq["module of a model";class q;`module]
.t.eq["shared by the model and q";ref q;2]
/ model.rst:273: the loss of a model
l:loss m
.t.eq["loss of a model";loss l;`module`options!(`mse;(enlist`reduce)!enlist`mean)]
free each(l;q;m);

/ str in the classes and labels ktorch prints (kmodules.rst:733, 771, 806; knn/*.cpp pretty_print)
q:module(`recur; enlist(`lstm;100;512))
.t.eq["str recur";str q;"knn::Recur(\n  (lstm): torch::nn::LSTM(input_size=100, hidden_size=512, num_layers=1, bias=true, batch_first=false, dropout=0, bidirectional=false)\n)"]
free q
m:module seq(`sequential; `mul; (`cat;0); (`embed;8;12); (`transpose;0;1))
.t.eq["str knn modules";str m;"\n" sv ("torch::nn::Sequential(";"  (0): knn::Mul()";"  (1): knn::Cat(dim=0)";"  (2): torch::nn::Embedding(num_embeddings=8, embedding_dim=12)";"  (3): knn::Transpose(dim0=0, dim1=1)";")")]
free m

.t.done[]
