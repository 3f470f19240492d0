/ k api modules (kmodules.rst): shape and function modules, image transforms, containers.
/ Results are those of kmodules.rst's examples where it shows them, else computed in q;
/ residual and fork around linear layers are checked against PyTorch (tests/q/gen/nn_shape.py).
\l tests/q/lib/assert.q
\l tests/q/data/nn_shape_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
val:{r:tensor x; free x; r}
/ a module rebuilt from its state has the same state
same:{[m] s:state m; m2:module s; r:s~state m2; free m2; r}
/ forward result values, freeing the result and the module
fwd:{[m;x] r:val forward(m;x); free m; r}

/ ---------------------------------------------------------------------------------------------
/ function modules
m:module`cat
.t.eq["cat options";(module m)`options;enlist[`dim]!enlist 0]
.t.eq["cat evaluate";evaluate(m;2 3#til 6;1 3#6 7 8);3 3#til 9]
.t.eq["cat forward";val forward(m;1 2 3;4 5 6);1 2 3 4 5 6]
.t.ok["cat state";same m]
free m
m:module enlist(`cat;1)
.t.eq["cat dim 1";evaluate(m;2 2#til 4;2 1#9);(0 1 9;2 3 9)]
free m
m:module enlist(`expand;-1 3)
.t.eq["expand";val forward(m;4 1#til 4);4 3#0 0 0 1 1 1 2 2 2 3 3 3]
.t.eq["expand options";(module m)`options;enlist[`size]!enlist -1 3]
.t.ok["expand state";same m]
free m
x:(1 2 3.0;4 5 6.0)
m:module`matmul
.t.eq["matmul";evaluate(m;x;flip x);(14 32f;32 77f)]
z:evaluate(m;3#enlist x;flip x)
.t.eq["matmul batch";(count z;z 2);(3;(14 32f;32 77f))]
free m
m:module`mul
.t.eq["mul broadcast";val forward(m;1 2 3;10);10 20 30]
.t.eq["mul rows";val forward(m;4 3#til 12;1 3#1 10 100);(0 10 200;3 40 500;6 70 800;9 100 1100)]
.t.eq["mul outer";val forward(m;4 1#til 4;1 4#til 4);4 4#0 0 0 0 0 1 2 3 0 2 4 6 0 3 6 9]
.t.eq["mul two inputs";err[evaluate;(m;1 2)];"evaluate: mul: forward expects 2 inputs, given 1"]
free m
m:module enlist(`onehot;5)
.t.eq["onehot";val forward(m;4 1 2 0);"e"$(0 0 0 0 1;0 1 0 0 0;0 0 1 0 0;1 0 0 0 0)]
r:forward(m;2 3#4 1 2 0)
.t.eq["onehot size";size r;2 3 5]
.t.eq["onehot first";first tensor r;"e"$(0 0 0 0 1;0 1 0 0 0;0 0 1 0 0)]
free(m;r)
m:module enlist(`onehot;`classes`dtype!(3;`long))
.t.eq["onehot long";evaluate(m;0 2);(1 0 0;0 0 1)]
.t.ok["onehot state";same m]
free m
.t.eq["onehot functional";onehot 1 0;"e"$(0 1;1 0)]
.t.eq["onehot functional classes";onehot(1 0;3);"e"$(0 1 0;1 0 0)]
.t.eq["onehot functional dtype";onehot(1 0;3;`bool);(010b;100b)]
t:tensor 2 0
r:onehot(t;3)
.t.eq["onehot functional tensor";(class r;tensor r);(`tensor;"e"$(0 0 1;1 0 0))]
free(r;t)
.t.eq["reshape";fwd[module enlist(`reshape;-1 3);til 6];(0 1 2;3 4 5)]
.t.eq["permute";size each fwd[module enlist(`permute;2 0 1);2 3 4#til 24];4#enlist 2 3]
m:module enlist(`select;1;-1)
.t.eq["select last column";val forward(m;3 4#til 12);3 7 11]
.t.eq["select options";(module m)`options;`dim`ind!1 -1]
.t.ok["select state";same m]
free m
m:module enlist(`indexselect;0;0 2)
.t.eq["indexselect";val forward(m;3 4#til 12);(0 1 2 3;8 9 10 11)]
.t.eq["indexselect buffer";state[m]`buffers;enlist[`ind]!enlist 0 2]
.t.ok["indexselect state";same m]
free m
t:tensor 1 3 1#1 2 3
m:module`squeeze
s:forward(m;t)
.t.eq["squeeze all";(size s;tensor s);(enlist 3;1 2 3)]
free(m;s)
m:module enlist(`squeeze;0)
s:forward(m;t)
.t.eq["squeeze dim 0";(size s;tensor s);(3 1;enlist each 1 2 3)]
.t.ok["squeeze state";same m]
free(m;s)
m:module enlist(`unsqueeze;0)
u:forward(m;t2:tensor 1 2 3)
.t.eq["unsqueeze 0";size u;1 3]
free(m;u)
m:module enlist(`unsqueeze;1)
u:forward(m;t2)
.t.eq["unsqueeze 1";(size u;tensor u);(3 1;enlist each 1 2 3)]
free(m;u;t;t2)
m:module`transpose
.t.eq["transpose options";(module m)`options;`dim0`dim1!-2 -1]
.t.eq["transpose flip";evaluate(m;(1 2 3;4 5 6));(1 4;2 5;3 6)]
free m
m:module enlist(`transpose;0;2)
.t.eq["transpose 0 2";size r:forward(m;1 2 3#0);3 2 1]
free(m;r)

/ ---------------------------------------------------------------------------------------------
/ transforms
m:module enlist(`randomcrop;5;1)
.t.eq["randomcrop options";(module m)`options;`size`pad`padmode`value!(5;1;`constant;0f)]  / as ktorch shows them (kmodules.rst:412)
r:val forward(m;5 5#1)
.t.eq["randomcrop size";(count r;count each r);(5;5#5)]
P:(7#0;0,(5#1),0;0,(5#1),0;0,(5#1),0;0,(5#1),0;0,(5#1),0;7#0)
crop:{[p;ij] 5#ij[0]_{5#y _ x}[;ij 1] each p}
.t.ok["randomcrop: one of the 9 crops of the padded image";any r~/:crop[P] each til[3] cross til 3]
.t.ok["randomcrop state";same m]
free m
m:module enlist(`randomcrop;7;1)
.t.eq["randomcrop to padded size";val forward(m;5 5#1);P]
free m
m:module enlist(`randomcrop;2 3;0)
b:4 1 3 4#til 48
r:val forward(m;b)
.t.eq["randomcrop batch size";(count r;count r 0;count r[0;0];count r[0;0;0]);4 1 2 3]
.t.ok["randomcrop batch from each image";all {[x;y]y[0;0;0] in raze over x}'[b;r]]
free m
.t.eq["randomcrop reflect, 3 x 3 of a padded 5 x 5";count each first randomcrop(1 3 3#"e"$til 9;3;1;`reflect);3#3]
m:module enlist(`randomflip;1.0;-1)
.t.eq["randomflip horizontal";val forward(m;4 4#til 16);reverse each 4 4#til 16]
.t.ok["randomflip state";same m]
free m
v:module enlist(`randomflip;1.0;-2)
r:val forward(v;64 3 4 4#til 3072)
.t.eq["randomflip vertical";r[0;0];reverse 4 4#til 16]
.t.eq["randomflip every image";r[63;2];reverse 4 4#3056+til 16]
free v
.t.eq["randomflip never";randomflip(4 4#til 16;0.0;-1);4 4#til 16]
.t.eq["randomflip functional";randomflip(2 2#til 4;1.0);(1 0;3 2)]
x:1000?100.0
m:module enlist(`zscore;avg x;sdev x)
r:val forward(m;x)
.t.ok["zscore mean 0, sdev 1";(1e-6>abs avg r) and 1e-6>abs 1-sdev r]
.t.eq["zscore buffers";key state[m]`buffers;`mean`stddev]
.t.ok["zscore state";same m]
free m
.t.eq["zscore functional";zscore(1 2 3e;2;4);-0.25 0 0.25e]
img:2 2 2#1 2 3 4 10 20 30 40e
.t.eq["zscore per channel";zscore(img;0 10;1 10);(2 2#1 2 3 4e;2 2#0 1 2 3e)]
t:tensor 1 2 3e
.t.eq["zscore in place";zscore(t;2;4;1b);::]
.t.eq["zscore in place values";tensor t;-0.25 0 0.25e]
free t

/ transform: train and eval blocks
m:module`transform
module(m;1;`sequential)
module(m;2;(`randomflip;1.0;-1))
module(m;2;(`zscore;.5;.25))
module(m;1;`sequential)
module(m;2;(`zscore;.5;.25))
.t.eq["transform children";childnames m;`train`eval]
.t.eq["transform training";val forward(m;(0 1e;1 1e));(2 -2e;2 2e)]
.t.eq["transform evaluation";evaluate(m;(0 1e;1 1e));(-2 2e;2 2e)]
.t.ok["transform state";same m]
.t.eq["transform 3rd block";err[module;(m;1;`sequential)];"module: transform: both training and evaluation transforms already defined"]
.t.eq["transform needs blocks";err[module;(m;1;`relu)];"module: transform: cannot add relu module, expected sequential block"]
free m

/ ---------------------------------------------------------------------------------------------
/ containers
X:-3 -2 -1 0 1 2 3e
m:module(`fork;seq(`sequential;`sigmoid);seq(`sequential;`relu))
.t.eq["fork names";childnames m;`qa`qb]
.t.ok["fork evaluate";near[evaluate(m;X);(sigmoid X;relu X)]]
.t.ok["fork state";same m]
free m
m:module(`fork;`sigmoid;seq(`sequential;`relu))
.t.eq["fork module and block";childnames m;`a`qb]
v:forward(m;X)
.t.eq["fork forward gives a vector";class v;`vector]
.t.ok["fork vector";near[vector v;(sigmoid X;relu X)]]
free(m;v)
.t.eq["fork 3 branches";err[module;(`fork;enlist`relu;enlist`relu;enlist`relu)];"module: fork: cannot add relu module, both left & right forks already defined"]

m:module(`residual;seq(`sequential;`mul;`relu))
.t.eq["residual names";childnames m;enlist`q1]
.t.eq["residual f(x;y)+x";evaluate(m;X;10000e);-3 -2 -1 0 10001 20002 30003e]
.t.ok["residual state";same m]
free m
m:module(`residual;seq(`sequential;`relu);seq(`sequential;`sigmoid);`tanh)
.t.eq["residual 2 blocks and fn";childnames m;`q1`q2`fn]
.t.ok["residual a(f+g)";near[evaluate(m;X);tanh relu[X]+sigmoid X]]
free m
m:module`residual
.t.eq["residual fn first";err[module;(m;1;`relu)];"module: residual: cannot add relu module until sequential module(s) defined"]

q:module(`seqjoin;seq(`sequential`f;`relu);seq(`sequential`g;`sigmoid);`cat)
.t.eq["seqjoin names";childnames q;`f`g`join]
.t.ok["seqjoin cat";near[evaluate(q;-1 2 1e;1 2 3e);relu[-1 2 1e],sigmoid 1 2 3e]]
.t.ok["seqjoin state";same q]
free q
q:module`seqjoin
module(q;1;`sequential)
module(q;2;`relu)
module(q;1;`matmul)
.t.eq["seqjoin one block";childnames q;`qx`join]
.t.eq["seqjoin y defaults to x";evaluate(q;X);14e]
free q
free m
m:module`seqjoin
.t.eq["seqjoin join first";err[module;(m;1;`cat)];"module: seqjoin: at least one sequential layer must be defined first"]

q:module`seqdict
module(q;1;`sequential`a)
module(q;2;`sigmoid`f)
module(q;1;`sequential`b)
module(q;2;`cat`c)
x:-2 -1 0 1 2 3.0; y:99 100.0
.t.ok["seqdict";near[evaluate(q;x;y);sigmoid[x],y]]
.t.ok["seqdict state";same q]
free q
q:module(`seqdict;(`sequential`a;`sigmoid`f);(`sequential`b;`cat`c;enlist(`reshape;`mat;2 4)))
.t.eq["seqdict tree";childnames q;`a`b]
.t.ok["seqdict reshape";near[evaluate(q;x;y);2 4#sigmoid[x],y]]
free q
free m
m:module(`seqlist;seq(`sequential;`sigmoid);seq(`sequential;`relu);seq(`sequential;`mul))
.t.eq["seqlist names";childnames m;`0`1`2]
.t.ok["seqlist";near[evaluate(m;X;1000e);1000*relu sigmoid X]]
free m
m:module`seqlist
.t.eq["seqlist needs blocks";err[module;(m;1;`relu)];"module: seqlist: cannot add relu module, expected sequential block"]
free m

/ nbeats: blocks that fork x into backcast x and forecast x-1
c:enlist(`callback;"{[m;x]add(x;-1)}")
b:(`sequential;(`fork;(`sequential;1#`identity);(`sequential;c)))
f:module b
.t.eq["nbeats block";evaluate(f;1 2 3);(1 2 3;0 1 2)]
free f
m:module(`nbeats;b;b;b)
.t.eq["nbeats";evaluate(m;1 2 3);-2 -1 0]
.t.ok["nbeats state";same m]
free m
m:module(`nbeats;(`modulelist;b;b);b)
.t.eq["nbeats module list";evaluate(m;1 2 3);-2 -1 0]
free m
m:module`nbeats
.t.eq["nbeats block type";err[module;(m;1;`relu)];"module: nbeats: cannot add relu module, expected sequential or modulelist"]

free m
m:module(`moduledict;enlist(`linear;`a;2;3);enlist`relu`b)
.t.eq["moduledict names";childnames m;`a`b]
.t.eq["moduledict parms";parmnames m;`a.weight`a.bias]
.t.eq["moduledict no forward";err[evaluate;(m;1 2e)];"evaluate: moduledict: no forward calculation"]
.t.ok["moduledict state";same m]
free m
m:module(`modulelist;enlist(`linear;2;3);enlist`relu)
.t.eq["modulelist names";childnames m;`0`1]
free m
m:module(`parmdict;`a`b!(1 2 3e;2 2#0 1 2 3e))
.t.eq["parmdict names";parmnames m;`a`b]
.t.eq["parmdict values";state[m]`parms;`a`b!(1 2 3e;(0 1e;2 3e))]
ps:parms m
.t.eq["parmdict requires gradients";gradient ps;`a`b!`grad`grad]
free ps
.t.ok["parmdict state";same m]
.t.eq["parmdict no forward";err[evaluate;(m;1 2e)];"evaluate: parmdict: no forward calculation"]
free m
m:module(`parmdict;`p;(enlist`w)!enlist 1 2f)
.t.eq["parmdict named";(module m)`name;`p]
free m
m:module`recur
.t.eq["recur child";err[module;(m;1;`relu)];"module: recur: cannot add relu module, expected lstm, gru, rnn or sequential"]
free m

/ ---------------------------------------------------------------------------------------------
/ against PyTorch: residual relu(linear(x)) + x and a fork of two linear layers
m:module .e.residual
.t.ok["residual linear as PyTorch";near[evaluate(m;.i.x);.e.residualy]]
.t.ok["residual linear state";same m]
free m
m:module .e.fork
.t.ok["fork linear as PyTorch";near[evaluate(m;.i.x);.e.forky]]
free m

/ ---------------------------------------------------------------------------------------------
/ bad options
.t.eq["onehot classes";err[module;enlist(`onehot;-2)];"module: onehot: number of classes must be nonnegative or set to -1 to derive from input"]
.t.eq["onehot dtype";err[module;enlist(`onehot;3;`nosuch)];"module: onehot: unrecognized data type `nosuch"]
.t.eq["randomcrop size";err[module;enlist(`randomcrop;-1)];"module: randomcrop: positive crop size(s) required, given [-1, -1]"]
.t.eq["randomcrop padmode";err[module;enlist(`randomcrop;3;1;`bad)];"module: randomcrop padmode: expected one of `constant`reflect`replicate`circular, given symbol scalar"]
.t.eq["randomcrop too big";err[randomcrop;(3 3#1;5)];"randomcrop: size 5x5, exceeds tensor dim(s) 3x3"]
.t.eq["randomflip p";err[module;enlist(`randomflip;2.0)];"module: randomflip: probability has to be between 0 and 1, but got 2"]
.t.eq["randomflip 1-dim";err[randomflip;(1 2 3;1.0)];"randomflip: not implemented for 1-dim tensor"]
.t.eq["zscore needs std";err[module;enlist(`zscore;1.0)];"module: zscore: no value given for option `std"]
.t.eq["select needs index";err[module;enlist(`select;1)];"module: select: no value given for option `ind"]
.t.eq["expand size type";err[module;enlist(`expand;1.5)];"module: expand size: expected long(s), given float scalar"]

.t.eq["no module left";count obj[];0]
.t.done[]
