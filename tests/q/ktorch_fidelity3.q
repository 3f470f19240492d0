/ Issue 35: what ktorch's C++ source (github.com/ktorch/ktorch at 66deaac) does, checked against
/ that source or its documentation (the file and function, or the page, named at each check).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ ---------------------------------------------------------------------------------------------
/ obj[] (ktorch.cpp kobj): ptr is each object's handle (knk(1,kj(j)): a one-item list, what q
/ holds), dtype only for tensors (nullsym otherwise), size a tensor's sizes (tensorsize) or a
/ count (objsize: kj of a vector's or dictionary's size, a module's parameters, an optimizer's
/ parameters, osize), device a tensor's, a module's first parameter's, an optimizer's first
/ group parameter's (objdevice); pointers.rst:71 shows `dict cpu <blank> 2`, `vector cpu <blank> 2`
t:tensor 1 2 3.0; v:vector(1 2;3 4 5e); d:dict `a`b!(0101b;3 4#til 12)
q:module enlist(`linear;2;1); o:opt(`sgd;q); e:opt`adam; s:tensor 1
r:obj[]
.t.eq["obj columns (kobj)";cols r;`ptr`class`device`dtype`size`elements`bytes]
.t.eq["ptr: the handles q holds";r`ptr;(t;v;d;q;o;e;s)]
.t.eq["class";r`class;`tensor`vector`dictionary`module`optimizer`optimizer`tensor]
.t.eq["dtype: tensors only";r`dtype;`double``````long]
.t.eq["size: tensor sizes, else a count";r`size;(enlist 3;2;2;2;2;0;`long$())]
.t.eq["device: an optimizer's is its parameters' (objdevice), none without parameters";r`device;`cpu`cpu`cpu`cpu`cpu``cpu]
.t.eq["elements";r`elements;3 5 16 3 0 0 1]
/ ktorch's scripts free everything this way (pointers.rst's free section, examples' cleanup)
free each exec ptr from obj[];
.t.eq["free each exec ptr from obj[]";count obj[];0]
.t.eq["obj: empty arg expected (kobj's TORCH_CHECK)";.t.catch[{obj 1}];"obj: empty arg expected, given long scalar"]

/ ---------------------------------------------------------------------------------------------
/ optimizers: help/options of an optimizer object are its options table (ktorch.cpp khelp:
/ `case Class::optimizer: return optsettings(a,g->c,g->opt())`, for help and options alike)
o:opt`sgd
sgd:([]lr:enlist 0.01;momentum:enlist 0f;dampening:enlist 0f;decay:enlist 0f;nesterov:enlist 0b)
.t.eq["options o: optsettings (one group, defaults)";options o;sgd]
.t.eq["help o: optsettings";help o;sgd]
/ an optimizer made with no parameters has one group (kopt.cpp optinit: ParamGroup g({}) given
/ to the constructor); opt.rst:43 shows its one row of options
.t.eq["opt`sgd has a group";count (opt o)`options;1]
.t.eq["its parameters: none";count (opt o)`parms;0]
v:vector(1 2 3e;4 5e); gradflag(v;1b)
opt(o;v;.1)
.t.eq["opt(o;parms) fills group 0";exec parmgroup from (opt o)`parms;0 0]
.t.eq["with the options given";exec lr from (opt o)`options;enlist 0.1]
opt(o;1;();.2)
.t.eq["a second group";exec lr from options o;0.1 0.2]
.t.eq["help o follows the groups";help o;options o]
free(o;v)
/ help`lbfgs: kopt.cpp optdefaults, LBFGSOptions().line_search_fn(..) with lbfgs(true,..):
/ eval kj(nj) (0N), search shown (ktorch's `strong_wolf, a typo libtorch refuses: ours `strong_wolfe)
h:help`lbfgs
.t.eq["help`lbfgs keys";key h;`lr`iter`eval`gradtol`changetol`history`search]
.t.eq["eval: a long null";h`eval;0N]
.t.eq["search: the line search";h`search;`strong_wolfe]
.t.eq["help`optimizer row";first exec options from help`optimizer where optimizer=`lbfgs;h]
/ an LBFGS optimizer stores max_eval = max_iter*5/4 when none is given (libtorch's LBFGS
/ constructor; torch.optim.LBFGS: param_groups[0]['max_eval'] is 25, with max_iter=8 it is 10);
/ no line search: no `search column (kopt.cpp lbfgs adds it only if line_search_fn has a value)
q:module enlist(`linear;2;1)
l:opt(`lbfgs;q)
.t.eq["lbfgs eval 25";exec eval from options l;enlist 25]
.t.eq["lbfgs: no search column";cols options l;`lr`iter`eval`gradtol`changetol`history]
free l
l:opt(`lbfgs;q;1;8)
.t.eq["lbfgs iter 8: eval 10";exec eval from options l;enlist 10]
free l
l:opt(`lbfgs;q;(`search;`strong_wolfe))
.t.eq["lbfgs with a line search";exec search from options l;enlist`strong_wolfe]
free(l;q)

/ ---------------------------------------------------------------------------------------------
/ training options task, tasks, shufflecuda, shuffleseed (train.rst:750-753; ktorch.h
/ TrainOptions defaults 0 1 false 0, TestOptions task/tasks; kmodel.cpp getoption's order)
m:model(module enlist(`linear;1;1);loss`mse;opt`sgd)
.t.eq["train m keys (kmodel.cpp getoption)";key train m;`batchsize`task`tasks`droplast`hidden`shuffle`shufflecuda`shuffleseed`sync`clipgroup`clipnorm`clipvalue`tensor`dictionary`metrics]
.t.eq["test m keys";key test m;`batchsize`task`tasks`droplast`hidden`tensor`dictionary`metrics]
.t.eq["defaults (TrainOptions)";train(m;`task`tasks`shufflecuda`shuffleseed);`task`tasks`shufflecuda`shuffleseed!(0;1;0b;0)]
.t.eq["test defaults (TestOptions)";test(m;`task`tasks);`task`tasks!0 1]
/ kmodel.cpp setoption/checkopt wording
.t.eq["task < tasks (checkopt)";.t.catch[{train(m;`task;1)}];"train: task 1 implies at least 2 tasks, but only 1 defined"]
.t.eq["a failed set changes nothing";train(m;`task);0]
.t.eq["tasks at least one";.t.catch[{train(m;`tasks;0)}];"train: tasks: cannot be less than one, given 0"]
.t.eq["task not negative";.t.catch[{train(m;`task;-1)}];"train: task: cannot be less than zero, given -1"]
.t.eq["task a long";.t.catch[{train(m;`task;1.5)}];"train: task: expected one long integer, given float scalar"]
.t.eq["shufflecuda a boolean";.t.catch[{train(m;`shufflecuda;1)}];"train: shufflecuda: expected boolean, given long scalar"]
.t.eq["shuffleseed training only";.t.catch[{test(m;`shuffleseed;1)}];"test: unrecognized test option: `shuffleseed"]
/ a dictionary with every training option, as real ktorch saves it (kmodel.cpp getoption)
d:train m
train(m;d,`batchsize`task`tasks`shuffleseed!2 1 2 7)
.t.eq["train(m;dictionary) with ktorch's keys";train(m;`batchsize`task`tasks`shuffleseed);`batchsize`task`tasks`shuffleseed!2 1 2 7]
/ nextbatch: i=task, then i+tasks: task 1 of 2 over 5 batches of 2 takes batches 1 and 3
train(m;"e"$10 1#til 10;"e"$10 1#til 10)
b:{r:(); while[batch x; t:target x; r,:enlist raze tensor t; free t]; r}
.t.eq["task 1 of 2: batches 1 3";b m;(2 3e;6 7e)]
train(m;`task;0)
.t.eq["task 0 of 2: batches 0 2 4";b m;(0 1e;4 5e;8 9e)]
/ reshuffle with tasks>1: a generator seeded with shuffleseed, the same permutations for every
/ task; PyTorch: g=torch.Generator().manual_seed(7); torch.randperm(10,generator=g) twice gives
/ 5 0 3 4 1 7 9 6 8 2, then 1 8 9 5 7 4 0 3 6 2 (applied to the data as it stands, kmodel.cpp reindex)
train(m;`task`shuffle!(1;1b))
p1:5 0 3 4 1 7 9 6 8 2; p2:1 8 9 5 7 4 0 3 6 2
.t.eq["epoch 1: task 1's batches of the seeded order";b m;"e"$(p1 2 3;p1 6 7)]
.t.eq["epoch 2: the generator goes on";b m;"e"$(p1[p2] 2 3;p1[p2] 6 7)]
unshuffle m
train(m;"e"$10 1#til 10;"e"$10 1#til 10)
train(m;`task;0)
.t.eq["new data: the seed again; task 0";b m;"e"$(p1 0 1;p1 4 5;p1 8 9)]
/ the loss metric of a task: its batch losses summed over all the pass's batches (getmetrics:
/ v[i].sum()/d.batches())
train(m;`shuffle`metrics!(0b;`batchloss`loss))
r:run m
.t.ok["loss: batch losses over all batches";1e-5>abs(r[1]%(sum"f"$r 0)%5)-1]
free m

/ ---------------------------------------------------------------------------------------------
/ metrics matches, hidden, hiddencell (ktorch.h metric table; kmodel.cpp metrics/getmetrics)
m:model(module enlist(`linear;2;3);loss`ce;opt`sgd)
x:"e"$6 2#1 0 0 1 1 1 0 0 2 1 1 2; y:0 1 2 0 1 2
train(m;x;y); test(m;x;y)
train(m;`batchsize`metrics!(4;`accuracy`matches`predict))
test(m;`batchsize`metrics!(4;`accuracy`matches`predict))
r:testrun m
/ matches: (correct;targets compared) summed over batches; accuracy 100*correct%count
.t.eq["matches: correct and compared";r 1;("j"$sum r[2]=y),6]
.t.eq["accuracy from matches";r 0;100*r[1;0]%r[1;1]]
.t.eq["run m: matches";count (run m)1;2]
free m
/ hidden/hiddencell: an lstm's second and third outputs (kmodel.cpp hidden: Nested -> h, c),
/ each batch's joined along dim 0 (getmetrics: torch::cat)
m:model(module enlist(`lstm;2;3;1;1b;1b);loss`mse;opt`sgd)
x:"e"$4 5 2#til 40; y:"e"$4 5 3#0
test(m;x;y)
test(m;`batchsize`metrics!(4;`hidden`hiddencell))
r:testrun m; e:evaluate(m;x)
.t.eq["hidden: the second output";r 0;e 1]
.t.eq["hiddencell: the third output";r 1;e 2]
test(m;`batchsize;2)
r:testrun m
.t.eq["two batches joined on dim 0";r 0;raze((evaluate(m;2#x))1;(evaluate(m;2_x))1)]
free m
m:model(module enlist(`linear;2;3);loss`ce;opt`sgd)
test(m;"e"$4 2#til 8;0 1 2 0)
test(m;`metrics;`hidden)
.t.eq["hidden of one output";.t.catch[{testrun m}];"testrun: metric: unable to retrieve hidden from vector of tensors with 1 element(s)"]
.t.eq["unknown metric";.t.catch[{test(m;`metrics;`nope)}];"test: metrics: unrecognized metric `nope, expected one of `loss`batchloss`accuracy`matches`predict`output`hidden`hiddencell"]
free m

/ ---------------------------------------------------------------------------------------------
/ str of libtorch's layers in libtorch's own format: tests/data/libtorch_pretty_print.txt is what
/ libtorch 2.11 itself prints (tests/gen/pretty_print.cpp: each module made in C++ with the
/ options of ktorch's help examples, then with options away from their defaults)
lib:{(`$x[;0])!"\n"vs/:ssr[;"\\n";"\n"]each x[;1]}"\t"vs/:read0`:tests/data/libtorch_pretty_print.txt
strof:{m:module enlist x; r:"\n"vs str m; free m; r}
h:help`module
ex:exec module!{x,value y}'[module;options] from h
base:key[lib] except`upsample`encoder`decoder`transformer`attention`layernorm`linear`embed`lstm`gru`rnn
base:base where not"+"=last each string base
bad:base where not {strof[ex x]~lib x} each base
.t.eq["str as libtorch prints each layer (help`module's examples)";bad;`symbol$()]
L:(
 (`$"adrop+";(`adrop;0.25;1b));
 (`$"avgpool2d+";(`avgpool2d;`size`stride`pad`ceiling`countpad`divisor!(3 2;1;1;1b;0b;2)));
 (`$"batchnorm2d+";(`batchnorm2d;`in`eps`momentum`affine`track!(8;0.01;0.2;0b;0b)));
 (`$"bilinear+";(`bilinear;2;3;4;0b));
 (`$"celu+";(`celu;2f;1b));
 (`$"conv2d+";(`conv2d;`in`out`size`stride`pad`dilate`groups`bias`padmode!(16;32;3 5;2;1;2;2;0b;`reflect)));
 (`$"convtranspose2d+";(`convtranspose2d;`in`out`size`stride`pad`outpad`groups`bias`dilate!(4;8;3;2;1;1;2;0b;2)));
 (`$"drop+";(`drop;0.25;1b));
 (`$"elu+";(`elu;2f;1b));
 (`$"embedbag+";(`embedbag;`rows`cols`maxnorm`p`scale`mode`sparse`padindex`lastoffset!(10;4;2f;1f;1b;`sum;1b;1;1b)));
 (`$"flatten+";(`flatten;0;2));
 (`$"fmaxpool2d+";(`fmaxpool2d;`size`ratio!(2;0.5 0.5)));
 (`$"fold+";(`fold;`out`size`dilate`pad`stride!(4 6;2 3;2;1;2)));
 (`$"groupnorm+";(`groupnorm;`groups`channels`eps`affine!(3;6;0.01;0b)));
 (`$"hardshrink+";(`hardshrink;0.25));
 (`$"hardtanh+";(`hardtanh;-2f;3f;1b));
 (`$"instancenorm2d+";(`instancenorm2d;`in`eps`momentum`affine`track!(8;0.01;0.2;1b;1b)));
 (`$"leakyrelu+";(`leakyrelu;0.2;1b));
 (`$"localnorm+";(`localnorm;`size`alpha`beta`k!(3;0.1;0.5;2f)));
 (`$"lppool2d+";(`lppool2d;`p`size`stride`ceiling!(2f;2 3;1;1b)));
 (`$"maxpool2d+";(`maxpool2d;`size`stride`pad`dilate`ceiling!(3 2;1;1;2;1b)));
 (`$"pairwise+";(`pairwise;`p`eps`keepdim!(1f;0.1;1b)));
 (`$"prelu+";(`prelu;`in`init!(3;0.1)));
 (`$"relu+";(`relu;1b));
 (`$"relu6+";(`relu6;1b));
 (`$"rrelu+";(`rrelu;0.1;0.2;1b));
 (`$"selu+";(`selu;1b));
 (`$"similar+";(`similar;`dim`eps!(0;0.1)));
 (`$"softplus+";(`softplus;`beta`threshold!2 10f));
 (`$"threshold+";(`threshold;0.1;2f;1b));
 (`$"upsample+";(`upsample;`size`mode`align!(4 6;`bilinear;1b)));
 (`$"upsample++";(`upsample;(enlist`scale)!enlist 2 3f));
 (`upsample;(`upsample;(enlist`size)!enlist enlist 4));
 (`layernorm;(`layernorm;32 10));
 (`linear;(`linear;784;10));
 (`attention;(`attention;16;2));
 (`embed;(`embed;1000;64));
 (`$"embed+";(`embed;`rows`cols`padindex`maxnorm`p`scale`sparse!(10;4;1;2f;1f;1b;1b)));
 (`lstm;(`lstm;10;20));(`gru;(`gru;10;20));(`rnn;(`rnn;10;20));
 (`$"lstm+";(`lstm;`in`hidden`layers`bias`batchfirst`dropout`bi!(4;3;2;0b;1b;0.5;1b))))
plus:(first each L)!last each L
bad:key[plus] where not {strof[plus x]~lib x} each key plus
.t.eq["str as libtorch prints layers with other options";bad;`symbol$()]
/ the transformer modules have no pretty_print of their own: libtorch prints their C++ type
.t.eq["transformer's first lines (TransformerImpl, TransformerEncoderImpl)";2#strof ex`transformer;2#lib`transformer]
/ ktorch's own: knn/transform.cpp ZscoreImpl::pretty_print (print_tensor: 3 values, commas, ..),
/ TransformImpl::pretty_print ("knn::Transform(", then libtorch's "(" before the children),
/ knn/select.cpp SelectImpl/IndexSelectImpl (no space after the comma), knn/pad.cpp PadImpl
.t.eq["zscore";strof ex`zscore;enlist"knn::Zscore(mean=0.51,0.49,0.47, stddev=0.25,0.25,0.21, inplace=false)"]
.t.eq["zscore of more than 3 values";strof(`zscore;1 2 3 4e;5 6 7 8e);enlist"knn::Zscore(mean=1,2,3.., stddev=5,6,7.., inplace=false)"]
.t.eq["zscore of one value";strof(`zscore;0.5;0.25);enlist"knn::Zscore(mean=0.5, stddev=0.25, inplace=false)"]
.t.eq["select";strof ex`select;enlist"knn::Select(dim=1,ind=-1)"]
.t.eq["indexselect";strof ex`indexselect;enlist"knn::IndexSelect(dim=1,ind=0,1,2)"]
.t.eq["pad";strof ex`pad;enlist"knn::Pad(pad=[1, 2, 2, 1, 1, 2], mode=kConstant, value=0)"]
q:module`transform
module(q;1;`sequential); module(q;2;`randomflip)
module(q;1;`sequential); module(q;2;(`zscore;.5;.25))
.t.eq["transform: knn::Transform((";"\n"vs str q;("knn::Transform((";"  (train): torch::nn::Sequential(";"    (0): knn::RandomFlip(p=0.5, dim=-1)";"  )";"  (eval): torch::nn::Sequential(";"    (0): knn::Zscore(mean=0.5, stddev=0.25, inplace=false)";"  )";enlist")")]
free q
/ knn/squeeze.cpp prints inplace without std::boolalpha: 0/1 in a fresh stream, true/false once
/ a module printed before it (here libtorch's Linear, which sets std::boolalpha) has set it
.t.eq["squeeze alone: inplace=0";strof(`squeeze;1);enlist"knn::Squeeze(dim=1, inplace=0)"]
.t.eq["squeeze without a dim: None";strof`squeeze;enlist"knn::Squeeze(dim=None, inplace=0)"]
q:module seq(`sequential;(`linear;2;2);(`squeeze;1))
.t.eq["squeeze after a linear: inplace=false";("\n"vs str q)2;"  (1): knn::Squeeze(dim=1, inplace=false)"]
free q
.t.eq["residual: its class alone (knn/residual.cpp)";strof`residual;enlist"knn::Residual"]
.t.eq["sequential: its class alone (sequential.h)";strof`sequential;enlist"torch::nn::Sequential"]

/ ---------------------------------------------------------------------------------------------
/ one argument type as a symbol atom (ktorch.cpp arglist: ks for one, a list for several;
/ kmodules.rst:1071 shows callbacks()' in as `tensor)
.t.eq["help`linear args: an atom";(help`linear)`args;`tensor]
.t.eq["help`mul args: a list";(help`mul)`args;`tensor`tensor]
.t.eq["help`module args column";first exec args from help`module where module=`linear;`tensor]
.t.eq["help`mse args (a loss)";(help`mse)`args;`tensor`tensor]
.t.eq["callbacks() in";(callbacks[])`in;(`tensor;`tensor`tensor;`tensor`tensor`tensor)]
/ help`onehot: knn/onehot.cpp onehot() adds dtype only if set; squeeze's dim likewise (knn/squeeze.cpp)
.t.eq["help`onehot options: classes only";(help`onehot)`options;(enlist`classes)!enlist 10]
q:module enlist(`onehot;10;`double)
.t.eq["onehot with a dtype shows it";options q;`classes`dtype!(10;`double)]
free q
q:module`squeeze
.t.eq["squeeze without a dim";options q;(enlist`inplace)!enlist 0b]
free q

.t.done[]
