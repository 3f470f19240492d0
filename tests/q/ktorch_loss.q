/ Loss functions, functional forms (ktorch's loss.rst, kloss.cpp): each loss against PyTorch's
/ value on the same inputs (tests/q/data/loss_expected.q, made by tests/q/gen/loss.py), with its
/ defaults and a non-default option, positional and named; tensor inputs give tensor handles
/ whose backward gives the input's gradient PyTorch gives; bad arguments.
\l tests/q/lib/assert.q
\l tests/q/data/loss_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ floats within 1e-9 (same shape)
near:{[n;g;e] .t.ok[n;@[{[g;e] (count[raze/[(),g]]=count raze/[(),e]) and all 1e-9>abs raze/[(),g-e]}[g];e;0b]]}
/ expected value by name (qhost does not index a namespace: .e`name)
ex:{get ` sv `.e,x}
/ value of a handle result, freeing it
val:{r:tensor x; free x; r}
/ gradient of the input tensor after backward on the loss f applied to (tensor(a;`grad);rest..)
gradof:{[f;a;rest] h:tensor(a;`grad); l:f enlist[h],rest; backward l; g:grad h; free(h;l); g}

/ q data in, q data out: defaults and reductions
{near[string x;value[x](.i.x;.i.y);ex x]} each `mse`l1`smoothl1`huber;
{near[string[x],"none";value[x](.i.x;.i.y;`none);ex`$string[x],"none"]} each `mse`l1`smoothl1`huber;
{near[string[x],"sum";value[x](.i.x;.i.y;`reduce`sum);ex`$string[x],"sum"]} each `mse`l1`smoothl1`huber;
near["smoothl1 beta";smoothl1(.i.x;.i.y;.5);.e.smoothl1beta]
near["smoothl1 beta named";smoothl1(.i.x;.i.y;`beta,.5);.e.smoothl1beta]
near["smoothl1 null beta is default";smoothl1(.i.x;.i.y;0n);.e.smoothl1]
near["huber delta";huber(.i.x;.i.y;.5;`mean);.e.huberdelta]
near["huber delta dict";huber(.i.x;.i.y;enlist[`delta]!enlist .5);.e.huberdelta]
.t.eq["mse simple list";mse 1 3f;4f]
.t.eq["mse doc";mse(1 3 6 9.0; 1 2 4 8.0; `none);0 1 4 1f]

/ cross entropy and nll
near["ce";ce(.i.X;.i.Y);.e.ce]
near["ce positional";ce(.i.X;.i.Y;.i.W;-100;.1;`sum);.e.ceopt]
near["ce named dict";ce(.i.X;.i.Y;`weight`smoothing`reduce!(.i.W;.1;`sum));.e.ceopt]
near["ce mixed";ce(.i.X;.i.Y;.i.W;(`smoothing;.1;`reduce;`sum));.e.ceopt]
near["ce pairs";ce(.i.X;.i.Y;((`weight;.i.W);(`smoothing;.1);`reduce`sum));.e.ceopt]
near["ce ignore";ce(.i.X;.i.Y;();0;`none);.e.ceignore]
near["nll";nll(.i.L;.i.Y);.e.nll]
near["nll weight ignore";nll(.i.L;.i.Y;.i.W;3);.e.nllopt]
near["nll named";nll(.i.L;.i.Y;`ignore`weight!(3;.i.W));.e.nllopt]

/ binary cross entropy
near["bce";bce(.i.p;.i.t);.e.bce]
near["bce batch weights";bce(.i.p;.i.t;.i.w;`none);.e.bcew]
near["bce 3 values";bce(.i.p;.i.t;.i.w;`reduce`none);.e.bcew]
near["bcelogit1";bcelogit1(.i.Z;.i.T);.e.bcelogit1]
near["bcelogit1 class weights";bcelogit1(.i.Z;.i.T;.i.PW;`none);.e.bcelogit1w]
near["bcelogit2";bcelogit2(.i.Z;.i.T;.i.BW);.e.bcelogit2]
near["bcelogit2 weights";bcelogit2(.i.Z;.i.T;.i.BW;`weight`reduce!(.i.PW;`sum));.e.bcelogit2w]
r:bcelogit1(2 2#1.5e;2 2#1e;.25 .5e;`none)
.t.eq["bcelogit1 reals stay real";type each r;8 8h]
.t.ok["bcelogit1 doc reals";all 1e-6>abs raze[r]-raze 2#enlist 0.05035332 0.1007066]

/ kl
near["kl";kl(.i.LK;.i.K);.e.kl]
near["kl batchmean";kl(.i.LK;.i.K;`batchmean);.e.klbatch]
near["kl none";kl(.i.LK;.i.K;`reduce`none);.e.klnone]

/ margins
near["hinge";hinge(.i.h;.i.hy);.e.hinge]
near["hinge margin";hinge(.i.h;.i.hy;.5;`none);.e.hingeopt]
near["softmargin";softmargin(.i.h;.i.hy);.e.softmargin]
near["softmargin sum";softmargin(.i.h;.i.hy;`sum);.e.softmarginsum]
near["cosineloss";cosineloss(.i.A;.i.B;.i.cy);.e.cosineloss]
near["cosineloss margin";cosineloss(.i.A;.i.B;.i.cy;.2;`none);.e.cosinelossopt]
near["margin";margin(.i.m1;.i.m2;.i.cy);.e.margin]
near["margin named";margin(.i.m1;.i.m2;.i.cy;`margin`reduce!(.5;`sum));.e.marginopt]
near["triplet";triplet(.i.A;.i.B;.i.N);.e.triplet]
near["triplet options";triplet(.i.A;.i.B;.i.N;.5;1f;1e-6;1b;`none);.e.tripletopt]
near["triplet named";triplet(.i.A;.i.B;.i.N;`margin`p`swap`reduce!(.5;1;1b;`none));.e.tripletopt]
near["multilabel";multilabel(.i.X;.i.ML);.e.multilabel]
near["multilabel none";multilabel(.i.X;.i.ML;`none);.e.multilabelnone]
near["multimargin";multimargin(.i.X;.i.Y);.e.multimargin]
near["multimargin options";multimargin(.i.X;.i.Y;2;.5;.i.W;`none);.e.multimarginopt]
near["multimargin named";multimargin(.i.X;.i.Y;`p`margin`weight`reduce!(2;.5;.i.W;`none));.e.multimarginopt]
near["multimargin 1-d";multimargin(first .i.X;first .i.Y);.e.multimargin1]
near["multisoft";multisoft(.i.X;.i.MS);.e.multisoft]
near["multisoft weight";multisoft(.i.X;.i.MS;.i.W;`none);.e.multisoftopt]
near["poissonloss";poissonloss(.i.h;.i.pc);.e.poissonloss]
near["poissonloss options";poissonloss(.i.pr;.i.pc;0b;1b;`none);.e.poissonlossopt]
near["poissonloss named";poissonloss(.i.pr;.i.pc;`log`full`reduce!(0b;1b;`none));.e.poissonlossopt]

/ ctc
near["ctc";ctc(.i.LP;.i.CT;.i.IL;.i.TL);.e.ctc]
near["ctc sum";ctc(.i.LP;.i.CT;.i.IL;.i.TL;0;`sum);.e.ctcsum]
near["ctc none";ctc(.i.LP;.i.CT;.i.IL;.i.TL;`blank`reduce!(0;`none));.e.ctcnone]

/ tensor in, tensor out
h:tensor .i.X
r:ce(h;.i.Y)
.t.eq["ce handle result";class r;`tensor]
near["ce handle value";val r;.e.ce]
t:tensor .i.Y
r:ce(.i.X;t)
.t.eq["ce target handle";class r;`tensor]
near["ce target handle value";val r;.e.ce]
free(h;t)

/ gradients after backward on the tensor form
near["mse grad";gradof[mse;.i.x;enlist .i.y];.g.mse]
near["l1 grad";gradof[l1;.i.x;enlist .i.y];.g.l1]
near["smoothl1 grad";gradof[smoothl1;.i.x;enlist .i.y];.g.smoothl1]
near["smoothl1 beta grad";gradof[smoothl1;.i.x;(.i.y;.5;`sum)];.g.smoothl1beta]
near["huber grad";gradof[huber;.i.x;enlist .i.y];.g.huber]
near["huber delta grad";gradof[huber;.i.x;(.i.y;`delta`reduce!(.5;`sum))];.g.huberdelta]
near["ce grad";gradof[ce;.i.X;enlist .i.Y];.g.ce]
near["ce options grad";gradof[ce;.i.X;(.i.Y;.i.W;-100;.1;`sum)];.g.ceopt]
near["nll grad";gradof[nll;.i.L;enlist .i.Y];.g.nll]
near["nll options grad";gradof[nll;.i.L;(.i.Y;.i.W;3)];.g.nllopt]
near["bce grad";gradof[bce;.i.p;enlist .i.t];.g.bce]
near["bce weights grad";gradof[bce;.i.p;(.i.t;.i.w;`sum)];.g.bcew]
near["kl grad";gradof[kl;.i.LK;enlist .i.K];.g.kl]
near["kl batchmean grad";gradof[kl;.i.LK;(.i.K;`batchmean)];.g.klbatch]
near["multimargin grad";gradof[multimargin;.i.X;enlist .i.Y];.g.multimargin]
near["multimargin options grad";gradof[multimargin;.i.X;(.i.Y;2;.5;.i.W;`sum)];.g.multimarginopt]
near["multisoft grad";gradof[multisoft;.i.X;enlist .i.MS];.g.multisoft]

/ bad arguments
.t.eq["bad reduce";.t.catch[{mse(1 2f;1 3f;`avg)}];"mse: reduce: `avg is not one of none,mean,sum"]
.t.eq["batchmean only kl";.t.catch[{l1(1 2f;1 3f;`batchmean)}];"l1: reduce: `batchmean is not one of none,mean,sum"]
.t.eq["no positional";.t.catch[{mse(1 2f;1 3f;1)}];"mse: reduce: expected symbol, given long scalar"]
.t.eq["too many";.t.catch[{huber(1 2f;1 3f;1f;2f)}];"huber: expected up to 1 positional option (delta) and a reduce symbol after the inputs, given 2"]
.t.eq["bad name";.t.catch[{ce(.i.X;.i.Y;`smooth,.1)}];"ce: option: smooth not recognized, expected weight,ignore,smoothing,reduce"]
.t.eq["bad type";.t.catch[{ce(.i.X;.i.Y;();1.5)}];"ce: ignore: expected long scalar, given float scalar"]
.t.eq["bad flag";.t.catch[{triplet(.i.A;.i.B;.i.N;`swap,1)}];"triplet: swap: expected boolean scalar, given long scalar"]
.t.eq["too few inputs";.t.catch[{cosineloss(.i.A;.i.B)}];"cosineloss: expected (input1;input2;target) followed by options, given 2 arguments"]
.t.eq["simple list count";.t.catch[{mse 1 2 3f}];"mse: expected (input;target) followed by options, given a simple list of 3"]
.t.eq["multimargin p";.t.catch[{multimargin(.i.X;.i.Y;3)}];"multimargin: only p == 1 and p == 2 supported, given p = 3"]
.t.ok["libtorch error";.t.catch[{ce(.i.X;0 1)}] like "ce: *"]
.t.eq["uneven pairs";.t.catch[{mse(1 2f;1 3f;`reduce`sum`none)}];"mse: uneven no. of symbols for name,value pairs: reduce,sum,none"]

.t.eq["all freed";count obj[];0]
.t.done[]
