/ The main job: three-class spirals (as in Stanford's cs231n notes) classified by a small MLP,
/ trained by a ktorch model: every epoch's batches run inside the library (`run m`), q only
/ reads the metrics. Arguments: epochs (default 200), 0 to switch the progress lines off, and a
/ device (default cpu), e.g. `qhost examples/spirals.q 50 0` or `qhost examples/spirals.q 200 1 cuda`.
{key[x]set'x}(`ktorch 2:`fns,1)[];
-1 "ktorch ",version[`ktorch],", libtorch ",version[()],", cuda: ",string version`cuda;
args:.z.x
epochs:$[count args;"J"$args 0;200]
progress:$[1<count args;"J"$args 1;1]
device:$[2<count args;`$args 2;`cpu]

seed 42
n:100; k:3                                      / points per class, classes
r:raze k#enlist til[n]%n-1                      / radius 0..1
t:raze {(4*x)+4*til[n]%n-1} each til k          / angle, one turn apart per class
t+:0.2*(n*k)?1f                                 / noise (q's rand: the data set is fixed by q)
X:"e"$flip(r*sin t;r*cos t)                     / 300 x 2 inputs
Y:raze n#'til k                                 / class of each point

q:module seq(`sequential;(`linear;2;100);`relu;(`linear;100;3))
if[not device~`cpu; to(q;device)]                / data follows the module's device
m:model(q;loss`ce;opt(`sgd;q;.2;.9))            / the model owns module, loss and optimizer
train(m;`batchsize`shuffle`metrics;(50;1b;`loss`accuracy))
train(m;X;Y)
epoch:{[i] r:run m; if[progress&0=(i+1)mod 20; -1 "epoch ",(string i+1),"  loss ",(string r 0),"  accuracy ",(string r 1),"%"]; r}
r:epoch each til epochs
-1 "training accuracy after ",(string epochs)," epochs on ",(string device),": ",(string last[r]1),"%";
test(m;X;Y); test(m;`metrics;`accuracy)
-1 "accuracy in evaluation mode: ",(string testrun m),"%";
if[(epochs>=200)&95>last[r]1; '"spirals: accuracy below 95%"];
free m
if[count obj[]; '"objects left: ",string count obj[]];
\\
