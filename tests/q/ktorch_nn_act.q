/ Activations, normalization, dropout and distances (ktorch's knn/act.cpp, norm.cpp, drop.cpp,
/ distance.cpp and their functional forms in knn.cpp), against PyTorch: modules with weights or
/ running statistics are made from a state holding PyTorch's (tests/q/gen/nn_act.py).
\l tests/q/lib/assert.q
\l tests/q/data/nn_act_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];

/ r and e agree within 1e-5 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
/ the error (a string) from f applied to argument a, "" when none
err:{[f;a] @[{x y;""}[f];a;{x}]}
/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
/ a module made from its own state has the same state
rt:{s:state x; m:module s; r:s~state m; free m; r}
/ a module of definition d with parameters p and buffers b (dictionaries, or :: to keep) from q
made:{[d;p;b] m:module d; s:state m; free m; if[99h=type p;s[`parms]:p]; if[99h=type b;s[`buffers]:b]; module s}
/ an expected value by name
ex:{get` sv`.e,x}
none:(`symbol$())!()

/ ---------------------------------------------------------------------------------------------
/ activations: default options, then ktorch definitions with options (.d)
def:{get` sv`.d,x}
{m:module def x; .t.ok["evaluate ",string x;near[evaluate(m;.i.x);ex x]]; .t.ok["state ",string x;rt m]; free m} each .n.acts,`$string[.n.acts2],\:"2";
.t.eq["elu options";(module(m:module .d.elu2;0b))`options;(enlist`alpha)!enlist 0.5]
.t.eq["elu all options";(module m)`options;`alpha`inplace!(0.5;0b)]
free m
m:module enlist(`hardtanh;`max`min!2 -0.5)
.t.ok["hardtanh options by name";near[evaluate(m;.i.x);.e.hardtanh2]]
free m
m:module .d.threshold2
.t.eq["threshold options";(module(m;0b))`options;`threshold`value!0.1 20]
free m
/ the C++ shim's activations and crossmap2d keep autograd's graph
t:tensor(-1 2e;`grad)
r:forward(m:module enlist(`elu;0.5);t)
.t.eq["elu gradient";gradfn r;`EluBackward0]
free(r;m;t)
m:module`softmax2d
.t.ok["softmax2d";near[evaluate(m;.i.x3);.e.softmax2d]]
.t.eq["softmax2d on 2 dimensions";err[evaluate;(m;.i.x)];"evaluate: softmax2d: expected input to be 3D or 4D, got 2D instead"]
free m
/ prelu: one slope (0.25), or one per channel set from PyTorch's
m:module`prelu
.t.eq["prelu weight";state[m]`parms;(enlist`weight)!enlist enlist 0.25e]
.t.ok["prelu default";near[evaluate(m;.i.xf);.e.prelu1]]
free m
m:made[enlist(`prelu;4);(enlist`weight)!enlist .w.prelu_weight;::]
.t.ok["prelu of 4 from state";near[evaluate(m;.i.xf);.e.prelu]]
.t.ok["prelu state";rt m]
r:forward(m;.i.xf)
.t.eq["prelu forward tracks gradients";gradfn r;`PreluKernelBackward0]
free(r;m)
/ rrelu: evaluation uses the mean slope (above); training draws slopes on (lower, upper)
m:module enlist(`rrelu;0.1;0.3)
v:val forward(m;1000#-1f)
.t.ok["rrelu training: slopes within bounds";all(v>=-0.3)&v<=-0.1]
.t.ok["rrelu training: slopes vary";1<count distinct v]
.t.eq["rrelu training: positive inputs kept";val forward(m;1 2 3f);1 2 3f]
free m

/ functional forms: options as the modules' (positional, by name), q data or tensors
fns:`celu`elu`glu`hardshrink`hardtanh`leakyrelu`logsigmoid`relu6`rrelu`selu`softmin`softplus`softshrink`softsign`tanhshrink
{.t.ok["functional ",string x;near[(get x) .i.x;ex x]]} each fns;
{.t.ok["functional ",string[x]," with options";near[(get x)(enlist .i.x),1_ first def y;ex y]]}'[f;`$string[f:fns inter .n.acts2],\:"2"];
.t.ok["threshold(x;th;v)";near[threshold(.i.x;0.5;-1);.e.threshold]]
.t.ok["elu by name";near[elu(.i.x;`alpha,0.5);.e.elu2]]
.t.ok["softmin(x;dim;type)";near[softmin(.i.x;0;`double);.e.softmin2]]
t:tensor .i.x
.t.ok["celu of a tensor";near[val celu(t;0.5);.e.celu2]]
.t.eq["elu in place";elu(t;0.5;1b);(::)]
.t.ok["elu in place values";near[tensor t;.e.elu2]]
free t
t:tensor .i.x
.t.eq["hardtanh in place";hardtanh(t;-0.5;2.0;1b);(::)]
.t.ok["hardtanh in place values";near[tensor t;.e.hardtanh2]]
free t
.t.ok["prelu(x;w)";near[prelu(.i.xf;.w.prelu_weight);.e.prelu]]
w:tensor .w.prelu_weight
r:prelu(.i.xf;w)
.t.eq["prelu with a tensor weight: a tensor";class r;`tensor]
.t.ok["prelu tensor values";near[val r;.e.prelu]]
free w

/ ---------------------------------------------------------------------------------------------
/ batch norm: PyTorch's weights and running statistics; evaluate uses the running statistics,
/ forward (training) the batch's and updates the running ones
bn:`weight`bias!(.w.bn_weight;.w.bn_bias)
bs:`running_mean`running_var`num_batches_tracked!(.w.bn_running_mean;.w.bn_running_var;5)
m:made[enlist(`batchnorm1d;3);bn;bs]
.t.eq["batchnorm options";module(m;0b);`depth`module`name`options!(0;`batchnorm1d;`;(enlist`in)!enlist 3)]
.t.eq["batchnorm buffers";key state[m]`buffers;`running_mean`running_var`num_batches_tracked]
.t.ok["batchnorm1d evaluate: running statistics";near[evaluate(m;.i.X);.e.bn_eval]]
.t.eq["evaluate leaves the statistics";state[m]`buffers;bs]
.t.ok["batchnorm1d forward: batch statistics";near[val forward(m;.i.X);.e.bn_train]]
b:state[m]`buffers
.t.ok["running mean updated";near[b`running_mean;.e.bn_mean]]
.t.ok["running var updated";near[b`running_var;.e.bn_var]]
.t.eq["batches counted";b`num_batches_tracked;6]
.t.ok["batchnorm state";rt m]
free m
/ null momentum: cumulative average
m:made[enlist(`batchnorm1d;3;1e-5;0n);bn;bs]
.t.ok["cumulative: forward";near[val forward(m;.i.X);.e.bncum_train]]
b:state[m]`buffers
.t.ok["cumulative: mean";near[b`running_mean;.e.bncum_mean]]
.t.ok["cumulative: var";near[b`running_var;.e.bncum_var]]
.t.ok["cumulative: state";rt m]
free m
/ no affine weights, no running statistics: batch statistics in evaluation too
m:module enlist(`batchnorm1d;`in`affine`track!(3;0b;0b))
.t.eq["no weights, no buffers";state[m]`parms`buffers;(none;none)]
.t.ok["no running statistics: batch's in evaluation";near[evaluate(m;.i.X);.e.bnbatch]]
free m
m:module enlist(`batchnorm2d;3;1e-5;0.5)
.t.ok["batchnorm2d forward";near[val forward(m;.i.X4);.e.bn2d_train]]
b:state[m]`buffers
.t.ok["batchnorm2d running mean";near[b`running_mean;.e.bn2d_mean]]
.t.ok["batchnorm2d running var";near[b`running_var;.e.bn2d_var]]
.t.ok["batchnorm2d evaluate";near[evaluate(m;.i.X4);.e.bn2d_eval]]
.t.eq["batchnorm2d wrong dimensions";err[evaluate;(m;.i.X)];"evaluate: batchnorm2d: expected 4D input (got 2D input)"]
free m
m:module enlist(`batchnorm3d;2)
.t.ok["batchnorm3d forward";near[val forward(m;.i.X5);.e.bn3d_train]]
free m

/ instance norm
m:module enlist(`instancenorm1d;3)
.t.eq["instancenorm: no weights or buffers by default";state[m]`parms`buffers;(none;none)]
.t.ok["instancenorm1d";near[evaluate(m;.i.X3);.e.in1d]]
.t.ok["instancenorm1d of one sample";near[evaluate(m;.i.X3 0);.e.in1d_single]]
free m
ib:`running_mean`running_var`num_batches_tracked!(.w.in_running_mean;.w.in_running_var;0)
m:made[enlist(`instancenorm1d;3;1e-5;0.1;1b;1b);`weight`bias!(.w.in_weight;.w.in_bias);ib]
.t.ok["instancenorm1d evaluate: running statistics";near[evaluate(m;.i.X3);.e.in_eval]]
.t.ok["instancenorm1d forward";near[val forward(m;.i.X3);.e.in_train]]
b:state[m]`buffers
.t.ok["instancenorm running mean";near[b`running_mean;.e.in_mean]]
.t.ok["instancenorm running var";near[b`running_var;.e.in_var]]
.t.ok["instancenorm state";rt m]
free m
m:module enlist(`instancenorm2d;3)
.t.ok["instancenorm2d";near[evaluate(m;.i.X4);.e.in2d]]
free m
m:module enlist(`instancenorm3d;2)
.t.ok["instancenorm3d";near[evaluate(m;.i.X5);.e.in3d]]
free m

/ group norm, layer norm
m:made[enlist(`groupnorm;2;4);`weight`bias!(.w.gn_weight;.w.gn_bias);::]
.t.ok["groupnorm";near[evaluate(m;.i.G);.e.gn]]
.t.ok["groupnorm state";rt m]
free m
m:module enlist(`groupnorm;4;4;0.001;0b)
.t.eq["groupnorm options";(module m)`options;`groups`channels`eps`affine!(4;4;0.001;0b)]
.t.ok["groupnorm without weights";near[evaluate(m;.i.G);.e.gn_plain]]
free m
m:made[enlist(`layernorm;3);`weight`bias!(.w.ln_weight;.w.ln_bias);::]
.t.eq["layernorm options";(module(m;0b))`options;(enlist`shape)!enlist enlist 3]
.t.ok["layernorm";near[evaluate(m;.i.G);.e.ln]]
.t.ok["layernorm state";rt m]
free m
m:module enlist(`layernorm;4 3;1e-5;0b)
.t.ok["layernorm of two dimensions";near[evaluate(m;.i.G);.e.ln2]]
free m

/ local response norms, normalize
m:module enlist(`localnorm;2)
.t.ok["localnorm";near[evaluate(m;.i.G);.e.lrn]]
free m
m:module enlist(`localnorm;3;0.01;0.5;2.0)
.t.ok["localnorm with options";near[evaluate(m;.i.G);.e.lrn2]]
free m
m:module enlist(`crossmap2d;3;0.01)
.t.eq["crossmap2d options";(module(m;1b))`options;`size`alpha`beta`k!(3;0.01;0.75;1)]
.t.ok["crossmap2d";near[evaluate(m;.i.C);.e.crossmap]]
t:tensor(.i.C;`grad)
r:forward(m;t)
.t.ok["crossmap2d gradient";not null gradfn r]
free(r;t)
free m
m:module`normalize
.t.ok["normalize module";near[evaluate(m;.i.x);.e.normalize]]
free m
.t.ok["normalize x";near[normalize .i.x;.e.normalize]]
.t.ok["normalize(x;p;dim)";near[normalize(.i.x;1;0);.e.normalize2]]
.t.ok["normalize by name";near[normalize(.i.x;`dim`p!(0;1f));.e.normalize2]]

/ ---------------------------------------------------------------------------------------------
/ dropout: the identity in evaluation; in training, zeros of about p and kept values scaled
/ by 1/(1-p) exactly, whole channels (drop2d, drop3d) or samples (droppath) at once
chan:{raze each raze x}                        / channels of a 4-d array as vectors
same:{all{all x=first x}each x}
X2:20 10 3 3#1e
m:module enlist(`drop2d;0.25)
.t.eq["drop2d evaluate";evaluate(m;X2);X2]
v:chan val forward(m;X2)
.t.ok["drop2d whole channels";same v]
.t.ok["drop2d kept values scaled";all{(x=0)|1e-6>abs x-1%0.75}raze v]
.t.ok["drop2d zeros about p";(0.1<z)&0.4>z:avg 0=first each v]
.t.ok["drop2d state";rt m]
free m
X3d:40 10 2 2 2#1e
m:module enlist(`drop3d;0.5)
v:raze each chan val forward(m;X3d)
.t.ok["drop3d whole channels";same v]
.t.ok["drop3d kept values scaled";all raze[v]in 0 2e]
.t.ok["drop3d zeros about p";(0.35<z)&0.65>z:avg 0=first each v]
.t.eq["drop3d evaluate";evaluate(m;X3d);X3d]
free m
/ alpha dropout of ones: kept a+αap, dropped αa(p-1), a=1/√((α²p+1)(1-p)), α=1.7580993408473766
al:1.7580993408473766
ad:{[p] a:1%sqrt(1+p*al*al)*1-p; (a+al*a*p;al*a*p-1)}
m:module`adrop
v:val forward(m;1000#1f)
.t.ok["adrop two values";near[asc distinct v;asc ad 0.5]]
.t.ok["adrop dropped about p";(0.4<z)&0.6>z:avg v<0]
.t.eq["adrop evaluate";evaluate(m;1 2 3f);1 2 3f]
free m
m:module enlist(`fadrop;0.5)
v:chan val forward(m;X2)
.t.ok["fadrop whole channels";same v]
.t.ok["fadrop values";near[asc distinct raze v;asc"e"$ad 0.5]]
free m
m:module enlist(`droppath;0.25)
.t.eq["droppath options";(module(m;0b))`options;(enlist`p)!enlist 0.25]
v:val forward(m;100 3#1f)
.t.ok["droppath whole samples";same v]
.t.ok["droppath kept values scaled";all raze[v]in 0f,1%0.75]
.t.ok["droppath zeros about p";(0.1<z)&0.45>z:avg 0=first each v]
.t.eq["droppath evaluate";evaluate(m;100 3#1f);100 3#1f]
free m

/ ---------------------------------------------------------------------------------------------
/ distances: modules of two inputs and functional forms
m:module`pairwise
.t.ok["pairwise";near[evaluate(m;.i.x;.i.y);.e.pairwise]]
free m
m:module enlist(`pairwise;1;0;1b)
.t.ok["pairwise with options";near[evaluate(m;.i.x;.i.y);.e.pairwise2]]
.t.eq["pairwise one input";err[evaluate;(m;.i.x)];"evaluate: pairwise: forward expects 2 inputs, given 1"]
free m
m:module`similar
.t.ok["similar";near[evaluate(m;.i.x;.i.y);.e.similar]]
.t.ok["similar state";rt m]
free m
.t.ok["pairwise(x;y)";near[pairwise(.i.x;.i.y);.e.pairwise]]
.t.ok["pairwise(x;y;p;eps;keepdim)";near[pairwise(.i.x;.i.y;1;0;1b);.e.pairwise2]]
.t.ok["similar(x;y;dim)";near[similar(.i.x;.i.y;0);.e.similar2]]
.t.ok["similar by name";near[similar(.i.x;.i.y;`dim,0);.e.similar2]]
t:tensor .i.y
r:similar(.i.x;t)
.t.eq["similar with a tensor: a tensor";class r;`tensor]
.t.ok["similar tensor values";near[val r;.e.similar]]
free t
.t.ok["pdist x";near[pdist .i.x;.e.pdist]]
.t.ok["pdist(x;p)";near[pdist(.i.x;1);.e.pdist1]]

/ ---------------------------------------------------------------------------------------------
/ bad options
.t.eq["option type";err[module;enlist(`elu;0.5;`a)];"module: elu inplace: expected boolean scalar, given symbol scalar"]
.t.eq["threshold needs values";err[module;`threshold];"module: threshold: no value given for option `threshold"]
.t.eq["hardtanh bounds";err[module;enlist(`hardtanh;1;0)];"module: hardtanh: max value (0) must be greater than min value (1)"]
.t.eq["rrelu bounds";err[module;enlist(`rrelu;0.5;0.1)];"module: rrelu: lower bound (0.5) must not exceed upper bound (0.1)"]
.t.eq["prelu count";err[module;enlist(`prelu;0)];"module: prelu: number of parameters must be positive, given 0"]
.t.eq["batchnorm features";err[module;enlist(`batchnorm1d;-3)];"module: batchnorm1d: number of input features must be positive, given -3"]
.t.eq["batchnorm needs features";err[module;`batchnorm2d];"module: batchnorm2d: no value given for option `in"]
.t.eq["groupnorm divisible";err[module;enlist(`groupnorm;3;4)];"module: groupnorm: number of channels (4) must be divisible by number of groups (3)"]
.t.eq["layernorm shape";err[module;enlist(`layernorm;3 0)];"module: layernorm: normalized shape must be one or more positive sizes, given [3, 0]"]
.t.eq["localnorm size";err[module;enlist(`localnorm;0)];"module: localnorm: size (the number of neighbouring channels) must be positive, given 0"]
.t.eq["drop2d p";err[module;enlist(`drop2d;1.5)];"module: drop2d: dropout probability has to be between 0 and 1, but got 1.5"]
.t.eq["droppath p";err[module;enlist(`droppath;1)];"module: droppath: probability has to be at least 0 and less than 1, but got 1"]
.t.eq["functional: bad option";err[elu;(.i.x;`a)];"elu: elu alpha: expected double, given symbol scalar"]
.t.eq["functional: too many";err[logsigmoid;(.i.x;1)];"logsigmoid: no arguments expected"]
.t.eq["prelu args";err[prelu;enlist .i.x];"prelu: expected (input;weight), given 1 argument"]
.t.eq["pairwise args";err[pairwise;enlist .i.x] like "pairwise: expected (x;y) or (x;y;options..), given *";1b]
m:module enlist(`batchnorm1d;3)
.t.eq["batchnorm input dimensions";err[evaluate;(m;1 2 3e)];"evaluate: batchnorm1d: expected 2D or 3D input (got 1D input)"]
free m
.t.eq["nothing left";count obj[];0]
.t.done[]
