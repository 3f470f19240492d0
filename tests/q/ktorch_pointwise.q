/ Pointwise and comparison math (ktorch's math-pointwise.rst, math-compare.rst; kmath.cpp forms):
/ every function checked against an independent value, computed in q where q has the operation,
/ else from PyTorch (tests/q/gen/pointwise.py writes tests/q/data/pointwise_expected.q), for q
/ data (q data back) and tensor handles (a handle back, read with tensor h), with the output
/ tensor, in-place and bad-argument forms.
\l tests/q/lib/assert.q
\l tests/q/data/pointwise_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
vval:{r:vector x; free x; r}
/ r and e agree: same count, each element equal (nulls and infinities included) or within 1e-5
near:{[r;e] r:"f"$raze r; e:"f"$raze e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
/ the error (a string) from f applied to argument a, "" when none
err:{[f;a] @[{x y;""}[f];a;{x}]}
/ error e names function nm
names:{[nm;e] e like nm,": *"}

/ ---------------------------------------------------------------------------------------------
/ unary functions: (name; function; input; expected; in place?)
/ each: q data; tensor; output tensor; in place (or its error); in place on q data is an error
R:.pe.R; X:.pe.X; U:.pe.U
trunc1:{signum[x]*floor abs x}
unary:(
  ("Abs";Abs;-2 1 0 3.5;2 1 0 3.5;1b);
  ("Acos";Acos;U;acos U;1b);
  ("angle";angle;-1.5 0 2;(acos -1),0 0f;0b);
  ("Asin";Asin;U;asin U;1b);
  ("Atan";Atan;R;atan R;1b);
  ("bitwisenot";bitwisenot;-3 0 5 12;-1-(-3 0 5 12);1b);
  ("ceil";ceil;R;ceiling R;1b);
  ("Cos";Cos;R;cos R;1b);
  ("cosh";cosh;R;.5*exp[R]+exp neg R;1b);
  ("digamma";digamma;X;.pe.digamma;1b);
  ("erf";erf;U;.pe.erf;1b);
  ("erfc";erfc;U;.pe.erfc;1b);
  ("erfinv";erfinv;U;.pe.erfinv;1b);
  ("Exp";Exp;R;exp R;1b);
  ("expm1";expm1;R;-1+exp R;1b);
  ("Floor";Floor;R;floor R;1b);
  ("frac";frac;R;R-trunc1 R;1b);
  ("lgamma";lgamma;X;.pe.lgamma;1b);
  ("Log";Log;X;log X;1b);
  ("log10";log10;X;10 xlog X;1b);
  ("log1p";log1p;X;log 1+X;1b);
  ("log2";log2;X;2 xlog X;1b);
  ("Neg";Neg;R;neg R;1b);
  ("Not";Not;0110b;1001b;1b);
  ("Reciprocal";Reciprocal;X;1%X;1b);
  ("round";round;R;.pe.round;1b);
  ("rsqrt";rsqrt;X;1%sqrt X;1b);
  ("sgn";sgn;R;signum R;1b);
  ("sigmoid";sigmoid;R;1%1+exp neg R;1b);
  ("sign";sign;R;signum R;1b);
  ("Sin";Sin;R;sin R;1b);
  ("sinh";sinh;R;.5*exp[R]-exp neg R;1b);
  ("Sqrt";Sqrt;X;sqrt X;1b);
  ("Tan";Tan;U;tan U;1b);
  ("tanh";tanh;R;{(exp[x]-exp neg x)%exp[x]+exp neg x}R;1b);
  ("trunc";trunc;R;trunc1 R;1b);
  ("msort";msort;(3 1.5;2 5.5;1 4.5);(1 1.5;2 4.5;3 5.5);0b))

testunary:{[nm;f;a;e;ip]
  .t.ok[nm," q data";near[f a;e]];
  h:tensor a;
  r:f h;
  .t.eq[nm," tensor in, tensor out";class r;`tensor];
  .t.ok[nm," tensor";near[tensor r;e]];
  use[r]0#raze tensor r;
  .t.eq[nm," output tensor returns null";f(h;r);::];
  .t.ok[nm," output tensor";near[tensor r;e]];
  $[ip;
    [.t.eq[nm," in place returns null";f(h;::);::]; .t.ok[nm," in place";near[tensor h;e]]];
    .t.eq[nm," no in place";err[f;(h;::)];nm,": no in-place method"]];
  .t.ok[nm," in place needs a tensor";names[nm]err[f;(a;::)]];
  free(h;r);
  }
testunary ./: unary

/ ---------------------------------------------------------------------------------------------
/ binary functions: (name; function; x; y; expected; scalar y; expected with scalar; in place?)
/ each: q data; first or second input a tensor; scalar y; output tensor; in place; a simple
/ list pair; shapes that do not broadcast are an error
A:.pe.A; B:.pe.B
i:1 2 3 4; j:3 2 2 4
binary:(
  ("atan2";atan2;A;B;.pe.atan2;2.0;atan A%2;1b);
  ("Div";Div;1 4 9 10.;2 4 3 4.;1 4 9 10.%2 4 3 4.;2;1 4 9 10.%2;1b);
  ("fmod";fmod;A;B;.pe.fmod;2.5;A-2.5*trunc1 A%2.5;1b);
  ("mul";mul;1 2 3 4.;4 5 6 7.;1 2 3 4.*4 5 6 7.;2.5;2.5*1 2 3 4.;1b);
  ("remainder";remainder;A;B;.pe.remainder;2.5;A mod 2.5;1b);
  ("xor";xor;0011b;0101b;0110b;1b;1100b;1b);
  ("eq";eq;i;j;i=j;2;i=2;1b);
  ("ge";ge;i;j;i>=j;2;i>=2;1b);
  ("gt";gt;i;j;i>j;2;i>2;1b);
  ("le";le;i;j;i<=j;2;i<=2;1b);
  ("lt";lt;i;j;i<j;2;i<2;1b);
  ("ne";ne;i;j;i<>j;2;i<>2;1b);
  ("fmax";fmax;1 5 0n 4 0n;3 2 2 0n 0n;3 5 2 4 0n;2.0;2 5 2 4 2.;0b);
  ("fmin";fmin;1 5 0n 4 0n;3 2 2 0n 0n;1 2 2 4 0n;2.0;1 2 2 2 2.;0b);
  ("maximum";maximum;1 5 0n 4 0n;3 2 2 0n 0n;3 5 0n 0n 0n;2.0;2 5 0n 4 0n;0b);
  ("minimum";minimum;1 5 0n 4 0n;3 2 2 0n 0n;1 2 0n 0n 0n;2.0;1 2 0n 2 0n;0b))

testbinary:{[nm;f;a;b;e;s;es;ip]
  .t.ok[nm," q data";near[f(a;b);e]];
  .t.ok[nm," q data, scalar";near[f(a;s);es]];
  ha:tensor a; hb:tensor b;
  r:f(ha;b);
  .t.eq[nm," tensor in, tensor out";class r;`tensor];
  .t.ok[nm," first a tensor";near[tensor r;e]];
  .t.ok[nm," second a tensor";near[val f(a;hb);e]];
  .t.ok[nm," both tensors";near[val f(ha;hb);e]];
  .t.ok[nm," tensor, scalar";near[val f(ha;s);es]];
  .t.eq[nm," output tensor returns null";f(ha;hb;r);::];
  .t.ok[nm," output tensor";near[tensor r;e]];
  f(ha;s;r);
  .t.ok[nm," output tensor, scalar";near[tensor r;es]];
  $[ip;
    [.t.eq[nm," in place returns null";f(ha;hb;::);::]; .t.ok[nm," in place";near[tensor ha;e]];
     .t.ok[nm," in place on q data gives q data";near[f(a;s;::);es]]];
    .t.eq[nm," no in place";err[f;(ha;hb;::)];nm,": no in-place call implemented"]];
  .t.ok[nm," pair";near[f (a 0),b 0;e 0]];
  .t.ok[nm," shapes must broadcast";names[nm]err[f;(a;3#b)]];
  .t.ok[nm," bad output";names[nm]err[f;(a;b;`out)]];
  free(ha;hb;r);
  }
testbinary ./: binary
.t.eq["mul pair";mul 3 4;12]
.t.eq["Div of longs is true division";Div(1 2 3;2);0.5 1 1.5e]
.t.eq["pow scalar exponent keeps integer type";pow(1 2 3;2);1 4 9]

/ ---------------------------------------------------------------------------------------------
/ the comparison and min/max results are boolean / typed as PyTorch's
.t.eq["eq gives booleans";eq(1 2 3;4 3 3);001b]
.t.eq["fmin promotes";fmin(1 2 0n;1 2 3);1 2 3f]
h:tensor 1 2 3; g:tensor 1 5 1
r:ne(h;g)
.t.eq["ne tensor";tensor r;011b]
ne(h;g;[])
.t.eq["ne in place keeps type";tensor h;0 1 1]
free(h;g;r)

/ ---------------------------------------------------------------------------------------------
/ add: (x;y), (x;y;multiplier), output tensor or [] last; a simple list of values
.t.eq["add";add(1 2 3;4 5 6);5 7 9]
.t.eq["add multiplier";add(1 2 3;4 5 6;100);401 502 603]
.t.ok["add float multiplier";near[add(1 2 3.;4 5 6.;.5);1 2 3.+.5*4 5 6.]]
.t.eq["add pair";add 1 2;3]
.t.eq["add triple";add 1 2 10;21]
h:tensor 1 2 3.; g:tensor(3 1#1 10 100.)
r:add(h;g;1000)
.t.ok["add broadcasts";near[tensor r;1 2 3.+/:1000*1 10 100.]]
add(h;g;-1;r)
.t.ok["add output tensor";near[tensor r;1 2 3.-/:1 10 100.]]
.t.eq["add in place";add(h;10 20 30.;2;[]);::]
.t.eq["add in place values";tensor h;21 42 63f]
.t.eq["add integral with float multiplier";err[add;(1 2;3 4;.5)];"add: For integral input tensors, argument alpha must not be a floating point number."]
.t.eq["add arity";err[add;(1 2;3 4;5;r;6)];"add: 2-4 args expected, (x;y;multiplier;output), but 5 given"]
.t.eq["add bad multiplier";err[add;(1 2;3 4;`m)];"add: unrecognized arg(s), expected 2-4 args, (x;y;multiplier;output)"]
free(h;g;r)

/ addcmul, addcdiv: x + m*y*z, x + m*y%z
x1:1 2 3.; y1:9 16 25.; z1:3 4 5.
.t.eq["addcmul";addcmul(1 2 3;3 4 5;2 1 2);1 2 3+3 4 5*2 1 2]
.t.ok["addcmul multiplier";near[addcmul(x1;y1;z1;.5);x1+.5*y1*z1]]
.t.eq["addcdiv";addcdiv(x1;y1;z1);x1+y1%z1]
.t.ok["addcdiv multiplier";near[addcdiv(x1;y1;z1;10);x1+10*y1%z1]]
.t.eq["addcmul list of values";addcmul 1 2 3 10;61]
h:tensor x1
r:addcmul(h;y1;z1)
.t.ok["addcmul tensor";near[tensor r;x1+y1*z1]]
g:tensor y1
.t.ok["addcdiv tensor";near[val addcdiv(x1;g;z1;2);x1+2*y1%z1]]
addcdiv(x1;y1;z1;100;r)
.t.ok["addcdiv output";near[tensor r;x1+100*y1%z1]]
addcmul(h;y1;z1;-1;[])
.t.ok["addcmul in place";near[tensor h;x1-y1*z1]]
.t.ok["addcdiv integers";names["addcdiv"]err[addcdiv;(1 2;3 4;5 6)]]
.t.eq["addcmul arity";err[addcmul;(1 2;3 4)];"addcmul: 3-5 args expected, (x;y;z;multiplier;output), but 2 given"]
free(h;r;g)

/ ---------------------------------------------------------------------------------------------
/ clamp(x;lo;hi), nulls for no limit; output tensor
v:-5 -1 0 1 9
.t.eq["clamp";clamp(v;-2;7);-2|7&v]
.t.eq["clamp no low";clamp(v;0N;1);1&v]
.t.eq["clamp no high";clamp(v;-2;0N);-2|v]
.t.eq["clamp float limits";clamp(-1.5 0.5 3;0n;2.0);-1.5 0.5 2]
h:tensor v
r:clamp(h;0;3)
.t.eq["clamp tensor";tensor r;0|3&v]
clamp(h;-1;0N;r)
.t.eq["clamp output";tensor r;-1|v]
.t.eq["clamp no limits";err[clamp;(v;0N;0N)];"clamp: at least one of lo or hi must not be null"]
.t.eq["clamp bad limit";err[clamp;(v;`a;1)];"clamp: expected 2nd & 3rd arg to be numeric low & high limits"]
.t.eq["clamp arity";err[clamp;(v;1;2;3)];"clamp: unexpected arg(s), expected (input;lo;hi) or (input;lo;hi;output)"]
free(h;r)

/ lerp(x;y;wt): x + wt*(y-x), wt a number or an array
lx:1 2 3 4 5.; ly:10*lx
.t.ok["lerp scalar weight";near[lerp(lx;ly;.1);lx+.1*ly-lx]]
.t.ok["lerp array weight";near[lerp(lx;ly;1%lx);lx+(1%lx)*ly-lx]]
.t.ok["lerp matrix";near[lerp(2 2#lx;2 2#ly;2 2#1%lx);2 2#10 11 12 13.]]
.t.ok["lerp values";near[lerp 1 3 .25;1.5]]
h:tensor lx
r:lerp(h;ly;.5)
.t.ok["lerp tensor";near[tensor r;lx+.5*ly-lx]]
hy:tensor ly; hw:tensor lx
lerp(lx;hy;hw;r)
.t.ok["lerp output";near[tensor r;lx+lx*ly-lx]]
.t.eq["lerp arity";err[lerp;(lx;ly)];"lerp: 3-4 arguments expected, (x;y;wt;output), but 2 supplied"]
.t.eq["lerp bad output";err[lerp;(lx;ly;.5;1)];"lerp: optional 4th arg is an output tensor, but given long scalar"]
free(h;r;hy;hw)

/ mvlgamma(x;p)
M:.pe.M
.t.ok["mvlgamma";near[mvlgamma(M;2);.pe.mvlgamma]]
.t.ok["mvlgamma p=3";near[mvlgamma(M+1;3);.pe.mvlgamma3]]
h:tensor M
r:mvlgamma(h;2)
.t.ok["mvlgamma tensor";near[tensor r;.pe.mvlgamma]]
g:tensor M+1
mvlgamma(g;3;r)
.t.ok["mvlgamma output";near[tensor r;.pe.mvlgamma3]]
.t.eq["mvlgamma p < 1";err[mvlgamma;(M;0)];"mvlgamma: p has to be greater than or equal to 1"]
.t.eq["mvlgamma no p";err[mvlgamma;(M;2.0)];"mvlgamma: 2nd argument of number of dimensions expected, given float scalar"]
free(h;r;g)

/ pow and fpow: x or y a number; output; in place
.t.eq["pow";pow(1 2 3;2);1 4 9]
.t.eq["pow real result for float exponent";type pow(1 2 3;2.5);8h]
.t.ok["pow float exponent";near[pow(1 2 3;2.5);1 2 3 xexp 2.5]]
.t.ok["pow scalar base";near[pow(2.0;1 2 3.);2 xexp 1 2 3]]
.t.ok["pow arrays";near[pow(2 3 4.;3 2 .5);2 3 4 xexp 3 2 .5]]
.t.eq["fpow double result";type fpow(1 2 3;2.5);9h]
.t.ok["fpow";near[fpow(1 2 3;2.5);1 2 3 xexp 2.5]]
.t.ok["fpow arrays";near[fpow(2 3 4;3 2 .5);2 3 4 xexp 3 2 .5]]
h:tensor 1 2 3.
r:pow(h;2)
.t.eq["pow tensor";tensor r;1 4 9f]
pow(2;h;r)
.t.eq["pow output scalar base";tensor r;2 4 8f]
pow(h;3;[])
.t.eq["pow in place";tensor h;1 8 27f]
g:tensor 1 1 .5
fpow(h;g;[])
.t.ok["fpow in place";near[tensor h;1 8,sqrt 27]]
use[g]1 2 3.
fpow(2;g;r)
.t.eq["fpow output";tensor r;2 4 8f]
use[g]1 2 3
.t.ok["fpow tensor";near[val fpow(g;2);1 4 9f]]
.t.eq["pow in place on a scalar";err[pow;(2;h;[])];"pow: cannot be called in-place on a scalar"]
.t.eq["fpow arity";err[fpow;(1 2;2;3;4)];"fpow: expected inputs x,y with optional output tensor or null as 3rd arg"]
free(h;r;g)

/ ---------------------------------------------------------------------------------------------
/ close, allclose: |x-y| <= atol + rtol*|y|
cl:{[a;b;rt;at] (abs a-b)<=at+rt*abs b}
ca:1 2 3 4 5.; cb:1 2.00001 3.0001 4.001 6
.t.eq["close";close(ca;cb);cl[ca;cb;1e-5;1e-8]]
.t.eq["close rtol";close(ca;cb;1e-4);cl[ca;cb;1e-4;1e-8]]
.t.eq["close rtol atol";close(ca;cb;1e-4;.001);cl[ca;cb;1e-4;.001]]
.t.eq["close nan equal";close(0n 1;0n 1.;1b);11b]
.t.eq["close nan not equal";close(0n 1;0n 1.);01b]
.t.eq["close list of values";close 1 1.000001 1e-4;1b]
.t.eq["allclose";allclose(1 1 1f;.999999999);1b]
.t.eq["allclose false";allclose(ca;cb;1e-3;1e-3);0b]
.t.eq["allclose nan";allclose(0n 1;0n 1.;1e-5;1e-8;1b);1b]
h:tensor ca
r:close(h;cb;1e-4)
.t.eq["close tensor";tensor r;cl[ca;cb;1e-4;1e-8]]
.t.eq["allclose tensor gives a boolean";allclose(h;ca+1e-9);1b]
.t.eq["close bad tolerance";err[close;(ca;cb;1)];"close: expected (x;y), (x;y;nan equal), (x;y;rel tol), (x;y;rel tol;abs tol), or (x;y;rel;abs;nan equal)"]
.t.ok["allclose shapes";names["allclose"]err[allclose;(1 2 3.;1 2.)]]
free(h;r)

/ equal: same size and elements
.t.eq["equal shape differs";equal(2 3#til 6;til 6);0b]
.t.eq["equal";equal(2 3#til 6;2 3#til 6);1b]
.t.eq["equal pair";equal 3 3;1b]
h:tensor 1 2 3e
.t.eq["equal tensor";equal(h;1 2 3e);1b]
.t.eq["equal tensor differs";equal(h;1 2 3.0001e);0b]
.t.eq["equal arity";err[equal;(1;2;`a)];"equal: expected two input arrays/tensors to compare"]
free h

/ special values
spv:0 0n -0w 0w 1.5
/ infinities: not null, but x-x is (qhost's tolerant comparisons take every float as equal to 0w)
big:(not null spv) and null spv-spv
specials:(("finite";finite;not (null spv) or big);("inf";inf;big);("nan";nan;null spv);("neginf";neginf;big and -1=signum spv);("posinf";posinf;big and 1=signum spv))
testspecial:{[nm;f;e]
  .t.eq[nm," q data";f spv;e];
  h:tensor "e"$spv;
  .t.eq[nm," tensor";val f h;e];
  free h;
  .t.ok[nm," bad input";names[nm]err[f;`a]];
  }
testspecial ./: specials

/ ---------------------------------------------------------------------------------------------
/ sort: values and indices; dim, descend, stable; output vector
.t.eq["sort";sort 5 2 9;(2 5 9;1 0 2)]
.t.eq["sort descending";sort(5 2 9;1b);(9 5 2;2 0 1)]
.t.eq["sort stable";sort(3 1 3 1;0b;1b);(1 1 3 3;1 3 0 2)]
sm:(3 1.5;2 5.5;1 4.5)
.t.eq["sort dim 0";sort(sm;0);flip each(asc each flip sm;iasc each flip sm)]
.t.eq["sort dim 0 descending";sort(sm;0;1b);flip each(desc each flip sm;idesc each flip sm)]
.t.eq["sort dim 1";sort(sm;1);(asc each sm;iasc each sm)]
h:tensor sm
v:sort h
.t.eq["sort tensor gives a vector";class v;`vector]
.t.eq["sort tensor";vector v;(asc each sm;iasc each sm)]
.t.eq["sort into output vector";sort(h;0;1b;v);::]
.t.eq["sort output vector";vector v;flip each(desc each flip sm;idesc each flip sm)]
.t.ok["sort dim out of range";names["sort"]err[sort;(sm;2)]]
.t.eq["sort bad args";err[sort;(sm;`a)];"sort: unrecognized args, expected up to 5, (input;dim;descend;stable;output)"]
free(h;v)

/ argsort
.t.eq["argsort";argsort 5 2 9;1 0 2]
.t.eq["argsort descending";argsort(5 2 9;1b);2 0 1]
.t.eq["argsort dim";argsort(sm;0);flip iasc each flip sm]
.t.eq["argsort dim descending";argsort(sm;0;1b);flip idesc each flip sm]
h:tensor sm
.t.eq["argsort tensor";val argsort h;iasc each sm]
.t.eq["argsort tensor args";val argsort(h;0;1b);flip idesc each flip sm]
.t.eq["argsort arity";err[argsort;(sm;0;1b;1b)];"argsort: expected up to 3 args, (input;dim;descend), given 4"]
free h

/ topk: k largest (or smallest) values and indices
tv:100.1+3 6 0 5 1 4 2
.t.eq["topk";topk(tv;3);(3#desc tv;3#idesc tv)]
.t.eq["topk smallest";topk(tv;3;0b);(3#asc tv;3#iasc tv)]
tm:4 2#100.1+til 8
.t.eq["topk dim 0";topk(tm;2;0);(2#reverse tm;(3 3;2 2))]
.t.eq["topk dim largest sorted";topk(tm;1;1;0b;1b);(enlist each tm[;0];4#enlist enlist 0)]
h:tensor tv
v:topk(h;2)
.t.eq["topk tensor";vector v;(2#desc tv;2#idesc tv)]
topk(h;1;0b;v)
.t.eq["topk output vector";vector v;(enlist min tv;enlist tv?min tv)]
.t.ok["topk k too large";names["topk"]err[topk;(tv;9)]]
.t.eq["topk k missing";err[topk;(tv;`k)];"topk: expected k as 2nd arg, given symbol scalar"]
free(h;v)

/ kthvalue: k-th smallest values and indices
kx:5 3#1.1+til 15
.t.eq["kthvalue";raze kthvalue(4 1 5 2 3;2);2 3]
.t.eq["kthvalue dim 1";kthvalue(kx;3;1);(kx[;2];5#2)]
.t.eq["kthvalue dim 0";kthvalue(kx;3;0);(kx 2;3#2)]
.t.eq["kthvalue keepdim";kthvalue(kx;1;0;1b);(enlist kx 0;enlist 3#0)]
h:tensor kx
v:vector()
kthvalue(h;3;0;v)
.t.eq["kthvalue output vector";vector v;(kx 2;3#2)]
.t.eq["kthvalue tensor";vval kthvalue(h;2);(kx[;1];5#1)]
.t.ok["kthvalue k out of range";names["kthvalue"]err[kthvalue;(kx;9;0)]]
.t.eq["kthvalue bad flag";err[kthvalue;(kx;1;`a)];"kthvalue: unrecognized arg 3, expected dim or keepdim flag, given symbol scalar"]
free(h;v)

/ In: x in y, either a scalar
.t.eq["In";In(1 2 3;3 4 5 6);1 2 3 in 3 4 5 6]
.t.eq["In unique invert";In(1 2 3;3 4 5 6;1b;1b);not 1 2 3 in 3 4 5 6]
.t.eq["In scalar y";In(1 2 3;2);010b]
.t.eq["In scalar x";In(2;1 2 3);1b]
h:tensor til 5
r:In(5 9 1 0;h)
.t.eq["In tensor";tensor r;5 9 1 0 in til 5]
In(5 9 1 0;h;1b;1b;r)
.t.eq["In output";tensor r;not 5 9 1 0 in til 5]
.t.eq["In both scalars";err[In;(1;2.)];"In: not implemented for inputs that are both scalars"]
.t.eq["In bad flag";err[In;(1 2;2;`u)];"In: unrecognized arg 3, expected unique flag, given symbol scalar"]
free(h;r)

.t.eq["all freed at the end";count obj[];0]
.t.done[]
