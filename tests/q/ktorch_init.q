/ Initialisation (ktorch's init.rst; ktensor.cpp's kfill/kaiming/snormal, kmath.cpp's kprob):
/ each fill under `seed` against PyTorch's same seeded call (tests/q/gen/init.py), exact values
/ for zeros/ones/eye/dirac, orthogonality, the target forms (tensor, rows, vector, dictionary,
/ module names, q data), reset of a module, and errors.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/init_expected.q
free[];

near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
val:{r:tensor x; free x; r}
/ fill zeros of shape s (reals) with f after seed 7, as the generator does; the values back
sf:{[f;s;a] t:tensor s#0e; seed 7; f $[(::)~a;t;enlist[t],a]; val t}
Z:3 4#0e

/ ---------------------------------------------------------------------------------------------
/ distributions against PyTorch
.t.ok["normal";near[sf[normal;3 4;::];.e.normal]]
.t.ok["normal(t;2;.5)";near[sf[normal;3 4;(2;.5)];.e.normal2]]
.t.ok["uniform";near[sf[uniform;3 4;::];.e.uniform]]
.t.ok["uniform(t;-1;1)";near[sf[uniform;3 4;(-1;1)];.e.uniform2]]
.t.ok["cauchy";near[sf[cauchy;3 4;::];.e.cauchy]]
.t.ok["cauchy(t;1;.5)";near[sf[cauchy;3 4;(1;.5)];.e.cauchy2]]
.t.ok["exponential";near[sf[exponential;3 4;::];.e.exponential]]
.t.ok["exponential(t;2)";near[sf[exponential;3 4;enlist 2]; .e.exponential2]]
.t.ok["geometric(t;.3)";near[sf[geometric;3 4;enlist .3];.e.geometric]]
.t.ok["lognormal";near[sf[lognormal;3 4;::];.e.lognormal]]
.t.ok["lognormal(t;0;.25)";near[sf[lognormal;3 4;(0;.25)];.e.lognormal2]]
t:tensor 3 4#0; seed 7; random(t;10)
.t.eq["random(t;10) on longs";val t;.e.random10]
t:tensor 3 4#0; seed 7; random(t;3;7)
.t.eq["random(t;3;7)";val t;.e.random37]
/ q data in, q data out (same type and shape)
seed 7; r:normal Z
.t.eq["normal of q data keeps type";type r;0h]
.t.eq["normal of q data keeps shape";(count r;count first r;type first r);(3;4;8h)]
.t.ok["normal of q data";near[r;.e.normal]]
seed 7
.t.ok["normal(data;2;.5)";near[normal(Z;2;.5);.e.normal2]]
seed 7
.t.eq["random(data;3;7)";random(3 4#0;3;7);.e.random37]
/ rows of a tensor
t:tensor Z; seed 7; normal(t;1#1)
.t.ok["normal of row 1";near[val t;.e.row1]]
t:tensor Z; seed 7; uniform(t;0 2;0;10)
.t.ok["uniform of rows 0 2";near[val t;.e.rows02]]
t:tensor Z; seed 7; uniform(t;0 2;0;10)
.t.ok["single index with all options";(tensor[t]1)~4#0e]
free t

/ ---------------------------------------------------------------------------------------------
/ heuristics against PyTorch
.t.ok["xnormal";near[sf[xnormal;3 4;::];.e.xnormal]]
.t.ok["xuniform(t;2.0)";near[sf[xuniform;3 4;enlist 2.0];.e.xuniform2]]
.t.ok["knormal";near[sf[knormal;3 4;::];.e.knormal]]
.t.ok["kuniform";near[sf[kuniform;3 4;::];.e.kuniform]]
.t.ok["kuniform(t;`relu;`fanout)";near[sf[kuniform;3 4;`relu`fanout];.e.kuniformrelu]]
t:tensor 2 3 2#0e; seed 7; knormal(t;.2;`fanout;`leakyrelu)
.t.ok["knormal options in any order";near[val t;.e.knormalleaky]]
.t.ok["orthogonal";near[sf[orthogonal;3 5;::];.e.orthogonal]]
.t.ok["orthogonal(t;2.0)";near[sf[orthogonal;4 2;enlist 2.0];.e.orthogonal2]]
w:sf[orthogonal;3 5;::]
.t.ok["orthogonal rows";near[w {sum x*y}/:\: w;"e"$(til 3)=/:til 3]]
.t.ok["snormal(t;.4)";near[sf[snormal;5 3;enlist .4];.e.snormal]]
.t.ok["snormal(t;.5;1.0)";near[sf[snormal;5 3;(.5;1.0)];.e.snormal2]]
.t.eq["snormal zeros per column";sum 0=sf[snormal;5 3;enlist .4];2 2 2i]
.t.ok["dirac";near[sf[dirac;2 3 3;::];.e.dirac]]
.t.ok["dirac 4-d";near[sf[dirac;3 2 3 2;::];.e.dirac4]]
.t.eq["eye";eye 3 4#9e;"e"$(til 4)=/:til 3]
.t.eq["eye tensor";sf[eye;3 4;::];"e"$.e.eye]
.t.eq["zeros";zeros 2 3#5f;2 3#0f]
.t.eq["ones";ones 2 3#5;2 3#1]
t:tensor 3 4#5e; zeros(t;1#1)
.t.eq["zeros of row 1";val t;(4#5e;4#0e;4#5e)]

/ gain, as PyTorch's calculate_gain
.t.eq["gains";gain each `linear`conv2d`sigmoid`tanh`relu`leakyrelu`selu;(.g.linear;.g.conv2d;.g.sigmoid;.g.tanh;.g.relu;.g.leakyrelu;.g.selu)]
.t.eq["gain(`leakyrelu;.5)";gain(`leakyrelu;.5);.g.leakyrelu5]

/ ---------------------------------------------------------------------------------------------
/ vectors, dictionaries, modules
v:vector(1 2 3e;4 5#0e;2#0e)
seed 7; random(v;1;0;10)
r:vector v
.t.eq["random of vector item 1 only";(r 0;r 2);(1 2 3e;0 0e)]
.t.ok["random of vector item 1 in range";all raze[r 1] within 0 9]
ones v
.t.eq["ones of a vector";vector v;(3#1e;4 5#1e;2#1e)]
free v
d:dict `a`b!(2 3#0e;4#0e)
zeros(d;`b)
ones d
zeros(d;`b)
.t.eq["dictionary: all, then by key";dict d;`a`b!(2 3#1e;4#0e)]
d2:dict `fanout`relu!(2 3#0e;1 4#0e)
kuniform(d2;1#`fanout)
.t.ok["kaiming key enlisted: only that key";(all 0<>raze(dict d2)`fanout) and all 0=raze(dict d2)`relu]
free d2
d2:dict `fanout`relu!(2 3#0e;1 4#0e)
kuniform(d2;`fanout)
.t.ok["kaiming key that is an option: all";all 0<>raze over value dict d2]
free(d;d2)
m:module seq(`sequential;(`linear;`fc;3;2);`relu)
p:parms m
zeros(m;`fc.bias)
normal(m;`fc.weight;0;.01)
.t.eq["module parameter by name";(dict p)`fc.bias;0 0e]
.t.ok["normal(m;name;0;.01)";all .1>abs raze(dict p)`fc.weight]
eye(m;`fc.weight)
.t.eq["eye of a module weight";(dict p)`fc.weight;"e"$(til 3)=/:til 2]
knormal(m;`fc.weight;`fanout;`relu)
.t.ok["knormal of a module weight";not(dict[p]`fc.weight)~"e"$(til 3)=/:til 2]
/ reset: the values PyTorch's Linear starts with under the same seed
l:module enlist(`linear;3;2)
seed 5; reset l
pl:parms l
.t.ok["reset gives PyTorch's linear weight";near[dict[pl]`weight;.e.linearweight]]
.t.ok["reset gives PyTorch's linear bias";near[dict[pl]`bias;.e.linearbias]]
zeros(l;`weight`bias)
seed 5; reset l
.t.ok["reset after zeros";near[dict[pl]`weight;.e.linearweight]]
seed 5; l2:module enlist(`linear;3;2)
.t.eq["reset as at creation";state l;state l2]
free(pl;l2)
seed 5; reset(m;`fc)
.t.eq["reset of a child";(dict p)`fc.weight;"e"$.e.linearweight]
seed 5; reset(m;0)
.t.eq["reset of a child by index";(dict p)`fc.bias;"e"$.e.linearbias]
.t.eq["gradient kept after fills";gradient p;`fc.weight`fc.bias!`grad`grad]
/ ktorch's tensor reset: offset, sizes, strides into the same storage
t:tensor 1 2 3 4 5 6e
reset(t;2;2 2)
.t.eq["reset(t;offset;sizes)";tensor t;(3 4e;5 6e)]
reset(t;0;3;2)
.t.eq["reset(t;offset;sizes;strides)";tensor t;1 3 5e]
free t

/ ---------------------------------------------------------------------------------------------
/ errors
t:tensor Z
.t.eq["module without names";err[zeros;m];"zeros: not implemented for single module argument, parameter or buffer names required"]
.t.eq["unknown parameter";err[zeros;(m;`nope)];"zeros: parameter/buffer `nope not found"]
.t.eq["eye of 3 dims";err[eye;2 2 2#0e];"eye: Only tensors with 2 dimensions are supported"]
.t.eq["dirac of 2 dims";err[dirac;2 2#0e];"dirac: Only tensors with 3, 4, or 5 dimensions are supported"]
.t.eq["fan of 1 dim";err[knormal;3#0e] like "knormal: Fan in and fan out can not be computed*";1b]
.t.eq["kaiming bad symbol";err[knormal;(t;`nope)];"knormal: unrecognized symbol `nope"]
.t.eq["zeros takes no gain";err[zeros;(t;1.0)];"zeros: not implemented for additional gain argument of 1"]
.t.eq["bad row";err[normal;(t;1#5)];"normal: tensor[5] invalid given a 3-element tensor"]
.t.eq["geometric needs p";err[geometric;t];"geometric: requires a single probability argument, 0 args supplied"]
.t.eq["random needs integers";err[random;(t;1.5)];"random: requires integers for low & high limits"]
.t.eq["too many options";err[normal;(t;1#0;1;2;3)];"normal: expected 1-2 args, 3 given"]
.t.eq["gain unknown";err[gain;`nope];"gain: unrecognized non-linearity `nope"]
.t.eq["gain bad arg";err[gain;1];"gain: expected function name and optional parameter, e.g. `relu or (`leakyrelu;0.2)"]
.t.eq["snormal needs fraction";err[snormal;t];"snormal: not implemented for tensor"]
.t.eq["reset of q data";err[reset;1 2];"reset: expected a module, (module;child), or (tensor;offset;sizes;strides), given long list"]
.t.eq["reset past storage";err[reset;(t;20)] like "reset: *";1b]
free(t;m;p;l)
.t.eq["no object left";count obj[];0]
.t.done[]
