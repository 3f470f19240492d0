/ Reductions, other math and random (ktorch's math-reduce.rst, math-other.rst, math-random.rst):
/ each function checked against q's own computation where q has it, else against PyTorch's
/ values (tests/q/data/reduce_expected.q, made by tests/q/gen/reduce.py), for q data (q data back)
/ and tensor handles (handles back, read with tensor h), output forms, and bad arguments.
\l tests/q/lib/assert.q
\l tests/q/data/reduce_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
vals:{r:vector x; free x; r}
/ floats within 1e-5 (same shape), e.g. reals against q's floats
near:{[n;g;e] .t.ok[n;@[{[g;e] (count[raze/[(),g]]=count raze/[(),e]) and all 1e-5>abs raze/[(),g-e]}[g];e;0b]]}
m:.1+2 3#til 6          / a float matrix
ml:2 3#3 1 4 1 5 9      / a long matrix
b:2 5#011b

/ All, Any
.t.eq["All array";All b;0b]
.t.eq["Any array";Any b;1b]
.t.eq["Any dim 0";Any(b;0);max b]
.t.eq["All dim 1";All(b;1);min each b]
.t.eq["Any dim keepdim";Any(b;1;1b);enlist each max each b]
.t.eq["All keepdim only: last dim";All(b;1b);enlist each min each b]
h:tensor b
.t.eq["Any handle";val Any h;1b]
r:Any(h;1;1b)
.t.eq["Any handle dim";tensor r;enlist each max each b]
.t.eq["All into output";All(h;1;1b;r);::]
.t.eq["All output values";tensor r;enlist each min each b]
free r; r:tensor 0#0b
All(h;r)
.t.eq["All (x;output) over all";tensor r;0b]
.t.ok["Any dim out of range";.t.catch[{Any(b;3)}] like "Any: *out of range*"]
.t.eq["All bad arg";.t.catch[{All(b;`a)}];"All: unrecognized args, expected up to 4, (input;dim;keepdim;output)"]
free(h;r)

/ amax, amin
.t.eq["amax array";amax ml;9]
.t.eq["amin array";amin ml;1]
.t.eq["amax dim";amax(ml;1);max each ml]
.t.eq["amin dims";amin(ml;0 1);1]
.t.eq["amax keepdim";amax(ml;0;1b);enlist max ml]
h:tensor m; r:amax h
.t.eq["amax handle";tensor r;5.1]
amin(h;0;r)
.t.eq["amin output";tensor r;min m]
.t.ok["amax bad dim";.t.catch[{amax(ml;4)}] like "amax: *out of range*"]
free(h;r)

/ aminmax
.t.eq["aminmax array";aminmax ml;1 9]
.t.eq["aminmax dim";aminmax(ml;1);(min each ml;max each ml)]
h:tensor m
v:aminmax(h;0;0b)
.t.eq["aminmax handle";vals v;(min m;max m)]
.t.eq["aminmax handle alone";val aminmax h;.1 5.1]
v:vector()
.t.eq["aminmax output vector";aminmax(h;1;1b;v);::]
.t.eq["aminmax output values";vector v;(enlist each min each m;enlist each max each m)]
.t.eq["aminmax output not a vector";.t.catch[{aminmax(h;0;h)}];"aminmax: output expected as a vector, given tensor"]
free(h;v)

/ argmax, argmin
.t.eq["argmax array";argmax ml;5]
.t.eq["argmin dim";argmin(ml;1);{x?min x}each ml]
.t.eq["argmax dim 0";argmax((1 3 2;6 5 4);0);1 1 1]
.t.eq["argmax null dim: flattened";argmax(ml;0N);5]
h:tensor ml
r:argmin(h;1;1b)
.t.eq["argmin handle keepdim";tensor r;enlist each {x?min x}each ml]
argmax(h;r)
.t.eq["argmax output";tensor r;5]
.t.eq["argmax arity";.t.catch[{argmax(ml;0;1b;h;1)}];"argmax: expected up to 4 args, (input;dim;keepdim;output), given 5"]
free(h;r)

/ dist
.t.eq["dist q data";dist(1 2 3f;0 3 9f);sqrt sum d*d:1 2 3f-0 3 9f]
near["dist p";dist(1 2 3f;0 3 9f;3);xexp[sum abs[d]xexp 3;1%3]]
near["dist p inf";dist(1 2 3f;0 3 9f;0w);max abs d]
.t.eq["dist simple list";dist 1 4 2f;3f]
h:tensor 1 2 3e
near["dist handle";val dist(h;0 3 9e);sqrt sum d*d]
.t.eq["dist arity";.t.catch[{dist(1 2;3 4;2;1)}];"dist: expected 2-3 args, (x;y;p), 4 arg(s) given"]
.t.ok["dist no broadcast";.t.catch[{dist(1 2 3f;1 2f)}] like "dist: *"]
free h

/ logsumexp
lx:2 3#-1 0 1 2 .5
near["logsumexp dims";logsumexp(lx;0 1);log sum exp raze lx]
near["logsumexp dim 1";logsumexp(lx;1);log sum each exp lx]
h:tensor lx; r:logsumexp(h;0)
near["logsumexp handle";tensor r;log sum exp lx]
logsumexp(h;0;1b;r)
near["logsumexp output keepdim";tensor r;enlist log sum exp lx]
.t.eq["logsumexp needs dims";.t.catch[{logsumexp lx}];"logsumexp: needs explicit dimension(s) for log of summed exponentials"]
free(h;r)

/ mean, nanmean
nx:(1 2 3 0n;5 0n 6 7)
.t.eq["mean array";mean 1 2 3 4f;2.5]
.t.eq["mean dtype";mean(1 2 3 4f;`float);2.5e]
.t.eq["mean dims";mean(m;0 1);avg raze m]
.t.eq["mean dim";mean(m;1);avg each m]
near["mean keepdim dtype";mean(m;0;1b;`float);enlist avg m]
.t.eq["nanmean drops nulls";nanmean(nx;1);avg each nx]
.t.eq["nanmean all";nanmean nx;avg raze nx]
h:tensor nx
r:mean(h;0;0b;`float)
.t.eq["mean handle";tensor r;"e"$(sum nx)%2]
nanmean(h;0;`float;r)
.t.eq["nanmean output";tensor r;"e"$avg each flip nx]
.t.ok["mean bad dtype";.t.catch[{mean(m;`nodtype)}] like "mean: *unrecognized data type*"]
free(h;r)

/ median, nanmedian
.t.eq["median odd";median 1 2 3 4 5f;3f]
.t.eq["median null";median 1 2 0n 4 5f;0n]
.t.eq["nanmedian drops nulls";nanmedian 1 2 3 4 5 0n;3f]
md:(3 1 4 1f;5 9 2 6f;5 3 5 8f)
.t.eq["median overall (lower of two middles)";median md;.e.medianall]
.t.eq["median dim 1";median(md;1);(.e.median1v;.e.median1i)]
h:tensor md
v:median(h;0)
.t.eq["median handle dim 0";vals v;(.e.median0v;.e.median0i)]
v:vector()
median(h;1;v)
.t.eq["median output vector";vector v;(.e.median1v;.e.median1i)]
.t.eq["nanmedian handle dim";vals nanmedian(h;1;1b);(enlist each .e.median1v;enlist each .e.median1i)]
.t.ok["median dim out of range";.t.catch[{median(md;2)}] like "median: *out of range*"]
free(h;v)

/ mode
mo:(0 0 1 1 1 0 2;0 2 2 2 0 0 0;2 0 1 0 0 0 2)
.t.eq["mode q data";mode mo;(.e.modev;.e.modei)]
h:tensor mo
.t.eq["mode handle dim 0";vals mode(h;0);(.e.mode0v;.e.mode0i)]
.t.eq["mode bad arg";.t.catch[{mode(mo;1;`x)}];"mode: unrecognized args, expected up to 4, (input;dim;keepdim;output)"]
free h

/ nansum, Sum, prod
sx:(1 2 3 4f;5 6 0n 8f)
.t.eq["Sum null";Sum sx;0n]
.t.eq["nansum";nansum sx;sum raze sx]
.t.eq["nansum dim dtype";nansum(sx;0;`float);"e"$sum each flip sx]
.t.eq["Sum dim";Sum(ml;1);sum each ml]
.t.eq["Sum dims keepdim";Sum(ml;0 1;1b);enlist enlist sum raze ml]
.t.eq["prod";prod 1 2 3 4;24]
.t.eq["prod dim keepdim dtype";prod((1 2 3e;4 5 6e);1;1b;`double);(enlist 6f;enlist 120f)]
.t.eq["prod dtype";prod((1 2 3e;4 5 6e);`double);720f]
h:tensor sx; r:Sum h
.t.eq["Sum handle";tensor r;0n]
nansum(h;1;r)
.t.eq["nansum output";tensor r;sum each sx]
free r; r:tensor 0#0e
Sum(h;0;`float;r)
.t.eq["Sum dim dtype output";tensor r;"e"$sum sx]
free r; r:tensor 0#0f
prod(h;1;r)
.t.eq["prod output: nulls propagate";tensor r;24 0n]
free r; r:tensor 0#0f
prod(h1:tensor 1 2 3 4f;r)
.t.eq["prod (x;output) over all";tensor r;24f]
free h1
.t.eq["prod single dim only";.t.catch[{prod(ml;0 1)}];"prod: product can only be calculated along a single dimension, given 2"]
free(h;r)

/ std, variance, meanstd, meanvar
fx:"e"$3 5#til 15
near["std";std fx;sdev raze fx]
near["std dim unbiased keepdim";std(fx;-1;1b;1b);enlist each sdev each fx]
near["std biased";std(fx;0b);dev raze fx]
near["variance dim";variance(fx;1);svar each fx]
h:tensor fx
r:variance(h;-1;1b;1b)
near["variance handle";tensor r;enlist each svar each fx]
variance(h;1;0b;1b;r)
near["variance output biased";tensor r;enlist each var each fx]
near["std of longs is float";std 1 2 3 4;sdev 1 2 3 4]
near["meanstd";meanstd fx;(avg raze fx;sdev raze fx)]
near["meanstd dim";meanstd(fx;1);(avg each fx;sdev each fx)]
near["meanvar handle";val meanvar(h;1);(avg each fx;svar each fx)]
near["meanvar biased";meanvar(fx;0;0b);(avg fx;var each flip fx)]
.t.eq["std arity";.t.catch[{std(fx;0;1b;1b;h;1)}];"std: expected up to 5 args, (input;dim;unbiased;keepdim;output), given 6"]
.t.eq["meanstd has no output";.t.catch[{meanstd(fx;0;h)}];"meanstd: unrecognized args, expected up to 4, (input;dim;unbiased;keepdim)"]
free(h;r)

/ fnorm, nnorm, mnorm, vnorm
fm:2 2#1 2 3 4e
near["fnorm";fnorm fm;sqrt sum raze fm*fm]
.t.eq["fnorm dtype";type fnorm(fm;`double);-9h]
f3:3 2 2#1 2 3 4e
near["fnorm batch";fnorm f3;3#sqrt sum raze fm*fm]
h:tensor f3; r:tensor 3 1 1#0n
fnorm(h;-2 -1;1b;`double;r)
near["fnorm output keepdim";tensor r;3 1 1#sqrt sum raze fm*fm]
nm:(1 2 3f;4 5 7f)
near["nnorm";nnorm nm;.e.nnorm]
free h; h:tensor(nm;2*nm;reverse nm)
near["nnorm handle batch";val nnorm h;.e.nnorm3]
.t.eq["fnorm needs 2 dims";.t.catch[{fnorm(fm;0)}];"fnorm: matrix norm needs 2 dimensions, given 1"]
mx:"e"$2 3#til 6
.t.eq["mnorm 1";mnorm(mx;1.0);max sum mx]
.t.eq["mnorm 1 dims";mnorm(mx;1.0;-1 -2);max sum flip mx]
.t.eq["mnorm -1 dims";mnorm(mx;-1.0;-1 -2);min sum flip mx]
.t.eq["mnorm inf";mnorm(mx;0w);max sum each mx]
near["mnorm default frobenius";mnorm mx;sqrt sum raze mx*mx]
near["mnorm 2";mnorm(nm;2.0);.e.mnorm2]
h2:tensor nm
near["mnorm -2 handle";val mnorm(h2;-2.0);.e.mnormm2]
free h2
vx:-4 -3 -2 -1 0 1 2 3 4e
near["vnorm";vnorm vx;sqrt sum vx*vx]
.t.eq["vnorm dtype";type vnorm(vx;`double);-9h]
near["vnorm ord";vnorm(vx;3.0);xexp[sum abs[vx]xexp 3;1%3]]
.t.eq["vnorm inf";vnorm(vx;0w);4e]
.t.eq["vnorm 0";vnorm(vx;0.0);8e]
free h; h:tensor 3 3#vx
near["vnorm handle dim keepdim";val vnorm(h;-1;1b);enlist each {sqrt sum x*x}each 3 3#vx]
free r; r:tensor 0#0e
vnorm(h;1.0;0;r)
near["vnorm output";tensor r;sum abs 3 3#vx]
.t.eq["vnorm of longs";.t.catch[{vnorm 1 2 3}];"vnorm: expected a floating point or complex tensor as input, given long"]
free(h;r)

/ unique, uniquec
ux:1 1 1 2 2 0 0 0 1 1 1 3
.t.eq["unique";unique ux;asc distinct ux]
.t.eq["unique counts";unique(ux;1b;0b;1b);(asc distinct ux;count each group[ux]asc distinct ux)]
.t.eq["unique indices";unique(ux;1b;1b);(u;(u:asc distinct ux)?ux)]
.t.eq["unique 2-d";unique((ux;ux));asc distinct ux]
.t.eq["unique dim 0";unique((ux;ux);0);enlist ux]
.t.eq["unique dim 1";unique((ux;ux);1);2#enlist asc distinct ux]
h:tensor ux
v:unique(h;1b;1b;1b)
.t.eq["unique handle all three";vals v;(u;u?ux;count each group[ux]u)]
.t.eq["unique handle";val unique h;u]
rr:{x where differ x}
.t.eq["uniquec";uniquec ux;rr ux]
.t.eq["uniquec counts";uniquec(ux;0b;1b);(rr ux;1_deltas(where differ ux),count ux)]
u2:(ux;asc ux)
v:uniquec(h2:tensor u2;1;1b;1b)
vv:vector v
.t.eq["uniquec handle dim";first vv;flip rr flip u2]
.t.eq["uniquec handle indices";vv 1;sums[differ flip u2]-1]
free(v;h2)
.t.eq["unique bad flag";.t.catch[{unique(ux;1b;`a)}];"unique: unrecognized arg(s), expected (input;dim;sorted;indices;counts), given symbol scalar for a flag"]
free h

/ bincount
bx:4 3 6 3 4
bw:0 0.25 0.5 0.75 1
gc:{[n;i;w] @[n#0f;key g;:;sum each w get g:group i]}
.t.eq["bincount";bincount bx;@[7#0;key g;:;count each get g:group bx]]
.t.eq["bincount bins";bincount(bx;10);@[10#0;key g;:;count each get g]]
.t.eq["bincount weights";bincount(bx;bw);gc[7;bx;bw]]
.t.eq["bincount weights bins";bincount(bx;bw;8);gc[8;bx;bw]]
h:tensor bw
.t.eq["bincount weight handle";val bincount(bx;h);gc[7;bx;bw]]
.t.ok["bincount negative";.t.catch[{bincount -1 2}] like "bincount: *"]
.t.eq["bincount atom";.t.catch[{bincount 3}];"bincount: not implemented for long scalar"]
free h

/ cumsum, cumprod
.t.eq["cumsum";cumsum 1 2 3;sums 1 2 3]
.t.eq["cumprod";cumprod 1 2 3;prds 1 2 3]
.t.eq["cumprod array: last dim";cumprod(1 2 3;4 5 6);prds each(1 2 3;4 5 6)]
.t.eq["cumprod dim 0";cumprod((1 2 3;4 5 6);0);prds(1 2 3;4 5 6)]
.t.eq["cumsum dtype";cumsum(1 2 3;`double);1 3 6f]
h:tensor(1 2 3;4 5 6); r:cumsum(h;0)
.t.eq["cumsum handle";tensor r;sums(1 2 3;4 5 6)]
cumsum(h;r)
.t.eq["cumsum output";tensor r;sums each(1 2 3;4 5 6)]
cumprod(h;0;`long;r)
.t.eq["cumprod output";tensor r;prds(1 2 3;4 5 6)]
.t.ok["cumsum bad dim";.t.catch[{cumsum(1 2 3;1)}] like "cumsum: *out of range*"]
free(h;r)

/ diag, diagflat, diagonal
dm:{(x;x)#1+til x*x}
.t.eq["diag vector";diag 1 2 3;(1 0 0;0 2 0;0 0 3)]
.t.eq["diag matrix";diag dm 3;1 5 9]
.t.eq["diag offset";diag(1 2 3 4;1);(0 1 0 0 0;0 0 2 0 0;0 0 0 3 0;0 0 0 0 4;0 0 0 0 0)]
.t.eq["diag offset extract";diag(dm 3;1);2 6]
h:tensor 1 2 3; r:diag h
.t.eq["diag handle";tensor r;(1 0 0;0 2 0;0 0 3)]
diag(dm 3;r)
.t.eq["diag output";tensor r;1 5 9]
.t.eq["diag atom";.t.catch[{diag 1}];"diag: not implemented for long scalar"]
.t.eq["diagflat";diagflat 1 2 3;(1 0 0;0 2 0;0 0 3)]
.t.eq["diagflat flattens";diagflat(1 2;3 4);(1 0 0 0;0 2 0 0;0 0 3 0;0 0 0 4)]
.t.eq["diagflat offset";diagflat(1 2;-1);(0 0 0;1 0 0;0 2 0)]
.t.eq["diagflat handle";val diagflat h;(1 0 0;0 2 0;0 0 3)]
.t.eq["diagflat no output";.t.catch[{diagflat(1 2;r)}];"diagflat: output tensor not implemented"]
free(h;r)
d4:4 4#til 16
.t.eq["diagonal";diagonal d4;0 5 10 15]
.t.eq["diagonal offset";diagonal(d4;-1);4 9 14]
h:tensor(d4;d4+100)
.t.eq["diagonal handle";val diagonal h;flip(d4 0;100+d4 1)]
.t.eq["diagonal dims";val diagonal(h;0;1;2);(0 5 10 15;100 105 110 115)]
.t.eq["diagonal simple list";.t.catch[{diagonal 1 2 3}];"diagonal: not implemented for long list"]
free h

/ Flip, roll, trace
t3:2 3 4#til 24
.t.eq["Flip";Flip(t3;1 2);reverse each reverse each' t3]
.t.eq["Flip 0";Flip(t3;0);reverse t3]
h:tensor t3
.t.eq["Flip handle";val Flip(h;0 2);reverse reverse each' t3]
.t.eq["Flip args";.t.catch[{Flip(t3;1;2)}];"Flip: expected 2 arguments, (input;dims)"]
.t.eq["roll";roll(1 2 3 4;2);2 rotate 1 2 3 4]
.t.eq["roll negative";roll(1 2 3 4;-1);1 rotate 1 2 3 4]
r4:4 2#1+til 8
.t.eq["roll flattened";roll(r4;1);4 2#-1 rotate raze r4]
.t.eq["roll dim";roll(r4;1;0);-1 rotate r4]
.t.eq["roll dims";roll(r4;2 1;0 1);-1 rotate'-2 rotate r4]
.t.eq["roll handle";val roll(h;1;2);-1 rotate''t3]
.t.eq["roll args";.t.catch[{roll(1 2 3;`a)}];"roll: unexpected arg(s), expected 2-3 args, (input;shifts;dims)"]
free h
.t.eq["trace";trace 3 3#til 9;12]
h:tensor "f"$3 3#til 9
.t.eq["trace handle";val trace h;12f]
.t.ok["trace 1-d";.t.catch[{trace 1 2 3}] like "trace: *"]
free h

/ histc
hx:0.5 1.5 2.5 2.5 3.9 -1 7 4 0 4
.t.eq["histc";histc hx;.e.histc]
.t.eq["histc bins";histc(hx;5);.e.histc5]
.t.eq["histc lo hi";histc(hx;4;0;4);.e.histc4lohi]
h:tensor hx; r:histc(h;5)
.t.eq["histc handle";tensor r;.e.histc5]
histc(h;4;0;4;r)
.t.eq["histc output";tensor r;.e.histc4lohi]
.t.eq["histc lo above hi";.t.catch[{histc(hx;3;1)}];"histc: max must be larger than min"]
.t.eq["histc bad bins";.t.catch[{histc(hx;`a)}];"histc: unrecognized arg(s), expected 1-5 args, (input;bins;lo;hi;output)"]
free(h;r)

/ renorm
rn:(1 2 3f;4 5 6f;7 8 9f;1 1 1f)
near["renorm";renorm(rn;2;1;5.0);.e.renorm]
h:tensor rn
near["renorm handle";val renorm(h;1;0;6);.e.renorm0]
r:tensor 0#0f
renorm(rn;2;1;5;r)
near["renorm output";tensor r;.e.renorm]
.t.eq["renorm args";.t.catch[{renorm(rn;2;1)}];"renorm: unexpected arg(s), expected 4-5 args, (input;power;dim;maxnorm;output)"]
free(h;r)

/ tensordot
sq:3 3#0 1 2 3 4 5 6 7 8f
mmul:{[a;c] a{sum x*y}/:\:flip c}   / x$y (qhost has no matrix $)
.t.eq["tensordot 1";tensordot(sq;sq;1);mmul[sq;sq]]
.t.eq["tensordot 2";tensordot(sq;sq;2);sum raze sq*sq]
.t.eq["tensordot default 2";tensordot(sq;sq);sum raze sq*sq]
a3:3 4 5#til 60
b3:4 3 2#til 24
h:tensor a3
.t.eq["tensordot dims";val tensordot(h;b3;1 0;0 1);{[i] {[i;k] sum raze a3[;;i]*flip b3[;;k]}[i] each til 2} each til 5]
.t.ok["tensordot sizes";.t.catch[{tensordot(sq;1 2f;1)}] like "tensordot: *"]
.t.eq["tensordot args";.t.catch[{tensordot(sq;sq;`a)}];"tensordot: unexpected arg(s), expected inputs (x;y), (x;y;dim) or (x;y;dim1;dim2)"]
free h

/ tril, triu
o4:4 4#1
.t.eq["tril";tril o4;{(x+1)#'1}'[til 4],'{(3-x)#0}'[til 4]]
.t.eq["triu";triu 3 3#1b;(111b;011b;001b)]
.t.eq["tril offset";tril(o4;-1);{x#'1}'[til 4],'{(4-x)#0}'[til 4]]
.t.eq["triu batch offset";first triu(2 3 3#1b;1);(011b;001b;000b)]
n9:3 3#1+til 9
h:tensor n9; r:tensor 0#0
tril(h;r)
.t.eq["tril output";tensor r;(1 0 0;4 5 0;7 8 9)]
.t.eq["triu handle";val triu(h;1);(0 2 3;0 0 6;0 0 0)]
.t.eq["tril in place";tril(h;[]);::]
.t.eq["tril in place values";tensor h;(1 0 0;4 5 0;7 8 9)]
.t.eq["triu in place needs a tensor";.t.catch[{triu(n9;[])}];"triu: in-place operation needs a tensor as first argument"]
.t.ok["tril 1-d";.t.catch[{tril 1 2 3}] like "tril: *"]
free(h;r)

/ bernoulli, multinomial: seeded draws as PyTorch's
p2:(.1 .5 .9;.3 .7 .2)
seed 7
.t.eq["bernoulli q data";bernoulli p2;.e.bernoulli]
seed 7
h:tensor p2
.t.eq["bernoulli handle";val bernoulli h;.e.bernoulli]
seed 7
r:tensor 0#0b
bernoulli(h;r)
.t.eq["bernoulli output boolean";tensor r;"b"$.e.bernoulli]
.t.ok["bernoulli bad probability";.t.catch[{bernoulli 1.5 .5}] like "bernoulli: *"]
free(h;r)
w2:(.2 .6 .4;.5 0 .5)
seed 7
.t.eq["multinomial replacement";multinomial(w2;4;1b);.e.multinomial]
seed 7
.t.eq["multinomial one";multinomial .2 .6 .4;.e.multinomial1]
seed 7
h:tensor w2; r:tensor 0#0
multinomial(h;4;1b;r)
.t.eq["multinomial output";tensor r;.e.multinomial]
.t.eq["multinomial handle shape";size v:multinomial h;enlist 2]
free v
.t.ok["multinomial too many without replacement";.t.catch[{multinomial(.2 .6 .4;5)}] like "multinomial: *"]
.t.eq["multinomial atom";.t.catch[{multinomial 1}];"multinomial: not implemented for long scalar"]
free(h;r)

.t.eq["all freed";count obj[];0]
.t.done[]
