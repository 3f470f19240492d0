/ Linear algebra and spectral math (ktorch's math-linalg.rst and math-spectral.rst, kmath.cpp
/ forms): every function on q data (q data back) and on tensor handles (handles back, read with
/ tensor/vector), checked against PyTorch's values from tests/q/gen/linalg.py (inputs .i, expected
/ .e in tests/q/data/linalg_expected.q) or the same computation in q; output tensor/vector forms;
/ one bad-argument case each.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/linalg_expected.q
free[];

/ the value(s) of a handle result, freeing it
val:{r:$[`vector~class x;vector x;tensor x]; free x; r}
/ same type and shape, values within 1e-5 (relative above 1); a general list of atoms (several
/ 0-d results) matches the simple list q makes of the same atoms
close:{[a;b]$[0h=type a;$[(0h<=type b)&count[a]=count b;all .z.s'[a;b];0b];0h=type b;0b;type[a]<>type b;0b;count[a]<>count b;0b;all 1e-5>abs[a-b]%1|abs b]}
/ f of the argument list a as q data, then with the arguments at indices i made tensors
chk:{[name;f;a;i;e]
  .t.ok[name," q data";close[f a;e]];
  h:@[a;i;tensor];
  .t.ok[name," tensor";close[val f h;e]];
  {free x} each h (),i;
  }
/ f of one input: q data and tensor
chk1:{[name;f;a;e]
  .t.ok[name," q data";close[f a;e]];
  h:tensor a;
  .t.ok[name," tensor";close[val f h;e]];
  free h;
  }
/ a bad call signals an error naming the function
err:{[name;f;a] .t.ok[name," bad args";.t.catch[{[f;a;d] f a}[f;a]] like name,": *"]}
/ the message of a bad call
msg:{[f;a] .t.catch[{[f;a;d] f a}[f;a]]}

/ matrix products
chk["bmm";bmm;(.i.Y;.i.Z);0 1;.e.bmm]
err["bmm";bmm;(.i.G;.i.B)]
chk["dot";dot;(.i.u;.i.w);0;.e.dot]
.t.eq["dot in q";dot(.i.u;.i.w);sum .i.u*.i.w]
err["dot";dot;(.i.u;.i.v2)]
chk["outer";outer;(.i.u;.i.w);1;.e.outer]
.t.eq["outer in q";outer(.i.u;.i.w);.i.u*\:.i.w]
.t.eq["outer extra arg";msg[outer;(.i.u;.i.w;1b)];"outer: unrecognized arg(s), expected (x;y) or (x;y;output)"]
chk["matmul";matmul;(.i.G;.i.u);0 1;.e.matmul]
.t.eq["matmul in q";matmul(.i.G;.i.u);sum each .i.G*\:.i.u]
err["matmul";matmul;(.i.G;.i.v2)]
chk["mm";mm;(.i.G;.i.B);0 1;.e.mm]
err["mm";mm;(.i.G;.i.u)]
chk["mmt";mmt;(.i.C;.i.G);0;.e.mmt]
err["mmt";mmt;(.i.C;.i.B)]
chk["mtm";mtm;(.i.B;.i.G);1;.e.mtm]
err["mtm";mtm;(.i.B;.i.C)]
chk["mv";mv;(.i.G;.i.u);0;.e.mv]
err["mv";mv;(.i.G;.i.v2)]
chk["householder";householder;(.i.B;.i.tau);0 1;.e.householder]
err["householder";householder;(.i.B;1 2 3 4f)]
chk["multidot";multidot;(.i.C;.i.G;.i.B);0 1 2;.e.multidot]
v:vector(.i.C;.i.G;.i.B)
.t.ok["multidot of a vector";close[val multidot v;.e.multidot]]
free v
err["multidot";multidot;(.i.C;.i.C)]
chk["power";power;(.i.G;3);0;.e.power]
chk["power -1";power;(.i.A;-1);0;.e.powerneg]
.t.eq["power long n";msg[power;(.i.G;3.0)];"power: 2nd argument of long integer n-th power expected"]
chk["Cross";Cross;(.i.u;.i.w);0 1;.e.Cross]
.t.eq["Cross in q";Cross(.i.u;.i.w);(.i.u[i]*.i.w j)-.i.u[j:2 0 1]*.i.w i:1 2 0]
chk["Cross dim";Cross;((.i.u;.i.w;.i.u);(.i.w;.i.u;.i.u);0);0;.e.Cross0]
err["Cross";Cross;(.i.v2;.i.v2)]
chk["addbmm";addbmm;(2#.i.B;.i.Y;.i.Z;2;0.5);1;.e.addbmm]
chk["addmm";addmm;(.i.B;.i.G;.i.B);0;.e.addmm]
.t.eq["addmm in q";addmm(.i.B;.i.G;.i.B);.i.B+mm(.i.G;.i.B)]
chk["addmm beta";addmm;(.i.B;.i.G;.i.B;0.5);2;.e.addmm2]
.t.eq["addmm integers beta alpha";addmm(2 2#1;2 2#1;2 2#1;2;3);2 2#8]
err["addmm";addmm;(.i.B;.i.G;.i.C)]
chk["addmv";addmv;(.i.u;.i.G;.i.w;2;3);0 1 2;.e.addmv]
err["addmv";addmv;(.i.u;.i.G)]
chk["addr";addr;(.i.G;.i.u;.i.w);2;.e.addr]
.t.eq["addr in q";addr(.i.G;.i.u;.i.w);.i.G+.i.u*\:.i.w]
err["addr";addr;(.i.G;.i.u;.i.v2)]
chk["baddbmm";baddbmm;(2 2 2#1f;.i.Y;.i.Z;-1;2);0;.e.baddbmm]
err["baddbmm";baddbmm;(2 2 2#1f;.i.Y;.i.Y)]
/ output tensors
o:tensor 0#0f
.t.eq["mm output";mm(.i.G;.i.B;o);::]
.t.ok["mm output value";close[tensor o;.e.mm]]
resize(o;0)
addmm(.i.B;.i.G;.i.B;0.5;1;o)
.t.ok["addmm output";close[tensor o;.e.addmm2]]
resize(o;0)
power(.i.G;3;o)
.t.ok["power output";close[tensor o;.e.power]]
resize(o;0)
Cross(.i.u;.i.w;o)
.t.ok["Cross output";close[tensor o;.e.Cross]]

/ matrix properties
chk1["det";det;.i.G;.e.det]
err["det";det;.i.C]
chk1["logdet";logdet;.i.A;.e.logdet]
err["logdet";logdet;.i.C]
chk1["slogdet";slogdet;.i.G;.e.slogdet]
err["slogdet";slogdet;.i.C]
chk1["mrank";mrank;.i.G;.e.mrank]
chk["mrank atol rtol";mrank;(.i.G;3.5;0.0);0;.e.mrank1]
chk["mrank hermitian";mrank;(.i.A;1b);0;3]
err["mrank";mrank;(.i.G;`a)]
chk1["pinverse";pinverse;.i.C;.e.pinverse]
chk["pinverse hermitian";pinverse;(.i.A;1b);0;.e.pinverseh]
err["pinverse";pinverse;(.i.C;1;2)]

/ decompositions
chk1["chol";chol;.i.A;.e.chol]
chk["chol upper";chol;(.i.A;1b);0;.e.cholu]
.t.ok["chol not positive-definite";msg[chol;.i.G] like "chol: *not positive-definite*"]
resize(o;0)
chol(.i.A;o)
.t.ok["chol output";close[tensor o;.e.chol]]
chk1["cholx";cholx;.i.A;.e.cholx]
.t.eq["cholx error code";last cholx .i.G;.e.cholxbad]
.t.ok["cholx check";msg[cholx;(.i.G;0b;1b)] like "cholx: *not positive-definite*"]
chk1["cholinverse";cholinverse;.e.chol;.e.cholinverse]
err["cholinverse";cholinverse;(.i.A;`x)]
chk["cholsolve";cholsolve;(.i.B;.e.chol);0 1;.e.cholsolve]
err["cholsolve";cholsolve;(.i.B;.i.C)]
chk1["eig";eig;.i.G;.e.eig]
err["eig";eig;.i.C]
chk1["eigvals";eigvals;.i.G;.e.eigvals]
err["eigvals";eigvals;.i.C]
chk1["eigh";eigh;.i.A;.e.eigh]
chk["eigh upper";eigh;(.i.A;1b);0;.e.eighu]
err["eigh";eigh;(.i.A;`u)]
chk1["eigvalsh";eigvalsh;.i.A;.e.eigvalsh]
err["eigvalsh";eigvalsh;.i.C]
chk1["qr";qr;.i.B;.e.qr]
chk["qr complete";qr;(.i.B;`complete);0;.e.qrc]
.t.eq["qr mode";msg[qr;(.i.B;`full)];"qr: unrecognized qr mode: full"]
chk1["lu";lu;.i.G;.e.lu]
err["lu";lu;(.i.G;`a)]
chk1["lux";lux;.i.G;.e.lux]
err["lux";lux;(.i.G;1b;1b;1b)]
.t.ok["lun q list";close[lun .e.lu;.e.lun]]
.t.ok["lun (matrix;pivots;flags)";close[lun(.e.lu 0;.e.lu 1;1b;1b);.e.lun]]
a:tensor .i.G
v:lu a
.t.ok["lun vector";close[val lun v;.e.lun]]
m:tensor(v;0); p:tensor(v;1)
.t.ok["lun tensors";close[val lun(m;p);.e.lun]]
.t.eq["lun inputs";msg[lun;.i.G];"lun: unrecognized inputs, expected a single input vector or 2 arrays/tensors, but 3 inputs given"]
.t.ok["lusolve q data";close[lusolve(.i.B;.e.lu);.e.lusolve]]
.t.ok["lusolve (b;matrix;pivots)";close[lusolve(.i.B;.e.lu 0;.e.lu 1);.e.lusolve]]
.t.ok["lusolve vector";close[val lusolve(.i.B;v);.e.lusolve]]
.t.ok["lusolve tensors";close[val lusolve(.i.B;m;p);.e.lusolve]]
.t.eq["lusolve args";msg[lusolve;(.i.B;.i.G)];"lusolve: expected (b;matrix;pivot) or (b;matrix;pivot;output), but given 2 args"]
free(a;v;m;p)
chk1["svd";svd;.i.C;.e.svd]
chk["svd reduced";svd;(.i.C;0b);0;.e.svdr]
.t.eq["svd driver";msg[svd;(.i.C;`xyz)];"svd: unrecognized driver `xyz"]
chk1["svdvals";svdvals;.i.C;.e.svdvals]
resize(o;0)
svdvals(.i.C;o)
.t.ok["svdvals output";close[tensor o;.e.svdvals]]
err["svdvals";svdvals;(.i.C;1b)]
/ output vectors
w:vector()
.t.eq["qr output vector";qr(.i.B;w);::]
.t.ok["qr output vector values";close[vector w;.e.qr]]
svd(.i.C;w)
.t.ok["svd output vector";close[vector w;.e.svd]]
free w

/ solvers and inverses
chk["solve";solve;(.i.G;.i.B);0 1;.e.solve]
chk["solve right";solve;(.i.G;.i.C;0b);1;.e.solvel]
err["solve";solve;(.i.C;.i.B)]
chk["trisolve";trisolve;(.i.U;.i.B;1b);0 1;.e.trisolve]
chk["trisolve right";trisolve;(.i.U;.i.C;1b;0b);0;.e.trisolvel]
.t.eq["trisolve upper";msg[trisolve;(.i.U;.i.B;1)];"trisolve: 3rd arg of upper triangular flag expected, given long scalar"]
chk["lstsq";lstsq;(.i.G;.i.B);0 1;.e.lstsq]
chk["lstsq gelsd";lstsq;(.i.G;.i.B;`gelsd);0;.e.lstsqd]
w:vector()
lstsq(.i.G;.i.B;`gelsd;w)
.t.ok["lstsq output vector";close[vector w;.e.lstsqd]]
free w
.t.eq["lstsq driver";msg[lstsq;(.i.G;.i.B;`xx)];"lstsq: unrecognized driver `xx"]
chk1["inverse";inverse;.i.G;.e.inverse]
resize(o;0)
inverse(.i.G;o)
.t.ok["inverse output";close[tensor o;.e.inverse]]
a:tensor .i.G
.t.eq["inverse in place";msg[inverse;(a;[])];"inverse: no in-place method"]
free a
free o

/ spectral: complex results come back as (real;imag)
chk1["fft";fft;.i.s;.e.fft]
chk["fft size";fft;(.i.s;3);0;.e.fft3]
chk["fft size dim norm";fft;(.i.s;4;-1;`forward);0;.e.fftf]
.t.eq["fft norm";msg[fft;(.i.s;`back)];"fft: unrecognized fft norm: back"]
chk1["ifft";ifft;.i.s;.e.ifft]
err["ifft";ifft;(.i.s;1;2;3;`ortho;4)]
chk1["rfft";rfft;.i.s;.e.rfft]
err["rfft";rfft;(.i.s;1.5)]
c:tensor(`complex;.e.rfft 0;.e.rfft 1)
.t.ok["irfft complex tensor";close[val irfft(c;5);.e.irfft]]
free c
chk1["irfft real";irfft;.i.s;.e.irfftr]
err["irfft";irfft;(.i.s;0)]
c:tensor(`complex;.e.ifft 0;.e.ifft 1)
.t.ok["hfft complex tensor";close[val hfft(c;5);.e.hfft]]
free c
chk1["hfft real";hfft;.i.s;.e.hfftr]
err["hfft";hfft;(.i.s;`x)]
chk1["ihfft";ihfft;.i.s;.e.ihfft]
err["ihfft";ihfft;(.i.s;5;3)]
chk1["fft2";fft2;.i.S;.e.fft2]
chk["fft2 size dim norm";fft2;(.i.S;2 4;0 1;`ortho);0;.e.fft2o]
err["fft2";fft2;(.i.S;1 2 3;0 1)]
chk1["ifft2";ifft2;.i.S;.e.ifft2]
err["ifft2";ifft2;(.i.S;`x)]
chk1["rfft2";rfft2;.i.S;.e.rfft2]
err["rfft2";rfft2;(.i.S;2 2;5 6)]
c:tensor(`complex;.e.rfft2 0;.e.rfft2 1)
.t.ok["irfft2 complex tensor";close[val irfft2(c;3 4);.e.irfft2]]
free c
chk1["irfft2 real";irfft2;.i.S;.e.irfft2r]
err["irfft2";irfft2;(.i.S;1.0)]
c:tensor(`complex;.e.ihfft2 0;.e.ihfft2 1)
.t.ok["hfft2 complex tensor";close[val hfft2(c;3 4);.e.hfft2]]
free c
chk1["hfft2 real";hfft2;.i.S;.e.hfft2r]
err["hfft2";hfft2;(.i.S;0 0)]
chk1["ihfft2";ihfft2;.i.S;.e.ihfft2]
err["ihfft2";ihfft2;(.i.S;3 4;7 8)]
chk1["fftn";fftn;.i.S;.e.fftn]
chk["fftn size dim";fftn;(.i.S;4;0);0;.e.fftn1]
err["fftn";fftn;(.i.S;`x)]
chk1["ifftn";ifftn;.i.S;.e.ifftn]
err["ifftn";ifftn;(.i.S;1 2;3 4)]
chk1["rfftn";rfftn;.i.S;.e.rfftn]
err["rfftn";rfftn;(.i.S;0b)]
c:tensor(`complex;.e.rfftn 0;.e.rfftn 1)
.t.ok["irfftn complex tensor";close[val irfftn(c;3 4);.e.irfftn]]
free c
chk1["irfftn real";irfftn;.i.S;.e.irfftnr]
err["irfftn";irfftn;(.i.S;1 2;0 9)]
c:tensor(`complex;.e.ihfftn 0;.e.ihfftn 1)
.t.ok["hfftn complex tensor";close[val hfftn(c;3 4);.e.hfftn]]
free c
chk1["hfftn real";hfftn;.i.S;.e.hfftnr]
err["hfftn";hfftn;(.i.S;0 0)]
chk1["ihfftn";ihfftn;.i.S;.e.ihfftn]
err["ihfftn";ihfftn;(.i.S;3;7)]
o:tensor(`zeros;0;`cdouble)
.t.eq["fft output";fft(.i.s;`ortho;o);::]
.t.ok["fft output value";close[tensor o;.e.fft%sqrt 5]]
resize(o;0)
fft2(.i.S;o)
.t.ok["fft2 output";close[tensor o;.e.fft2]]
free o
chk1["fftshift";fftshift;.i.S;.e.fftshift]
chk["fftshift dim";fftshift;(.i.S;1);0;.e.fftshift1]
.t.eq["fftshift in q";fftshift(.i.S;1);2 rotate/:.i.S]
.t.eq["fftshift dim arg";msg[fftshift;(.i.S;`a)];"fftshift: expected 2nd arg of dimension(s), given symbol scalar"]
chk1["ifftshift";ifftshift;.i.S;.e.ifftshift]
.t.eq["ifftshift undoes fftshift";ifftshift fftshift .i.S;.i.S]
err["ifftshift";ifftshift;(.i.S;0;1)]

/ sample frequencies and windows: always tensors
.t.ok["fftfreq";close[val fftfreq 5;.e.fftfreq]]
.t.ok["fftfreq in q";close[val fftfreq 5;"e"$(0 1 2 -2 -1)%5]]
.t.ok["fftfreq scale options";close[val fftfreq(5;2;`double);.e.fftfreq2]]
.t.ok["fftfreq length scale longs";close[val fftfreq 5 2;"e"$.e.fftfreq2]]
r:tensor 0#0f
.t.eq["fftfreq output";fftfreq(5;2;r);::]
.t.ok["fftfreq output value";close[tensor r;.e.fftfreq2]]
.t.eq["fftfreq negative";msg[fftfreq;-1];"fftfreq: length cannot be negative, given -1"]
.t.ok["rfftfreq";close[val rfftfreq 5;.e.rfftfreq]]
.t.ok["rfftfreq scale";close[val rfftfreq(6;0.5);.e.rfftfreq2]]
resize(r;0)
rfftfreq(5;2;r)
.t.ok["rfftfreq output";close[tensor r;0 0.1 0.2]]
free r
err["rfftfreq";rfftfreq;`a]
.t.ok["bartlett";close[val bartlett 11;.e.bartlett]]
.t.ok["bartlett symmetric";close[val bartlett(11;0b;`double);.e.bartlett0]]
.t.ok["bartlett in q";close[val bartlett(11;0b;`double);1-abs -1+(2*til 11)%10]]
err["bartlett";bartlett;(11;1b;0.5)]
.t.ok["blackman";close[val blackman 7;.e.blackman]]
.t.ok["blackman symmetric";close[val blackman(7;0b;`double);.e.blackman0]]
err["blackman";blackman;(7;`bad)]
.t.ok["hann";close[val hann 8;.e.hann]]
.t.ok["hann symmetric";close[val hann(8;0b;`double);.e.hann0]]
.t.ok["hann in q";close[val hann(8;0b;`double);0.5*1-cos 2*acos[-1]*til[8]%7]]
err["hann";hann;(8;1b;2)]
.t.ok["hamming";close[val hamming 9;.e.hamming]]
.t.ok["hamming alpha";close[val hamming(9;0b;0.5);.e.hamming1]]
.t.ok["hamming alpha beta";close[val hamming(9;1b;0.6;0.3;`double);.e.hamming2]]
err["hamming";hamming;(9;1b;0.6;0.3;0.1)]
.t.ok["kaiser";close[val kaiser 10;.e.kaiser]]
.t.ok["kaiser symmetric";close[val kaiser(10;0b);.e.kaiser1]]
.t.ok["kaiser beta";close[val kaiser(10;1b;5;`double);.e.kaiser2]]
err["kaiser";kaiser;(10;1b;5;6)]

.t.eq["every handle freed";count obj[];0]
.t.done[]
