/ On a CUDA machine (scripts/gpu-run.sh): running out of GPU memory (issue #10 faults) is a q
/ error; afterwards no memory is held for it, the cache can be emptied, and cuda tensors and a
/ cuda model whose batch was too big work again (the CPU counterpart: tests/q/ktorch_faults.q).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-4*1|abs e)>abs r-e}
oom:{x like "*out of memory*"}
alloc:{cudamemory[][`allocated]}

/ warm up: cuBLAS's workspaces are taken from the caching allocator on first use and kept, so
/ take them before measuring: a matrix product, and a small model's training step on cuda
a:tensor(`randn;64 64;`cuda); b:mm(a;a); free(a;b)
w:module enlist(`linear;2;3); to(w;`cuda)
wm:model(w;loss`ce;opt(`sgd;w;.1)); run(wm;"e"$4 2#til 8;0 1 2 0); free wm
emptycache[]
a0:alloc[]
t:tensor(1 2 3e;`cuda)
.t.eq["a cuda tensor";device t;`cuda:0]
a1:alloc[]

/ requests far beyond the device (4 TB, 40 TB): errors naming the failure; nothing held after
e:err[tensor;(`empty;1000000000000;`cuda)]
.t.ok["empty, 4TB: out of memory";oom e]
.t.ok["the error names the function";e like "tensor: *"]
.t.eq["nothing held after it";alloc[];a1]
.t.ok["zeros, 40TB: out of memory";oom err[tensor;(`zeros;100000 100000 1000;`cuda)]]
.t.ok["ones, 40TB, two dimensions";oom err[tensor;(`ones;1000000 10000000;`cuda)]]
.t.eq["still nothing held";alloc[];a1]
emptycache[]
.t.ok["emptycache: reserved still covers what is allocated";cudamemory[][`reserved]>=alloc[]]
.t.eq["the earlier tensor is intact";tensor t;1 2 3e]
u:tensor(`ones;1000 1000;`cuda)
.t.eq["a new cuda tensor works";`long$tensor r:Sum u;1000000]
free(t;u;r)
.t.eq["all given back";alloc[];a0]

/ a model on cuda whose one batch is too big: 50,000 rows through a linear layer of 2,000,000
/ outputs is 400 GB. `run` gives the error, nothing more is held, the data is back at full
/ size; with a small batch size the same model trains
seed 1
q:module enlist(`linear;2;2000000)
to(q;`cuda)
m:model(q;loss`ce;opt(`sgd;q;.1))
X:"e"$50000 2#100000?1f; Y:50000?3
train(m;`batchsize;50000)
.t.eq["one batch";train(m;X;Y);1]
a2:alloc[]
.t.ok["run: out of memory";oom e:err[run;m]]
.t.ok["named run";e like "run: *"]
.t.eq["nothing held after the failed run";alloc[];a2]
.t.eq["data back at full size";datasize m;50000]
emptycache[]
train(m;`batchsize;10)
train(m;10#X;10#Y)
r:run m
.t.ok["with small batches it trains: a finite loss";not null r]
.t.ok["and its loss decreases";r>last {run m} each til 5]
free m
emptycache[]
.t.eq["all given back at the end";alloc[];a0]
/ A class target out of range on CUDA is a device-side assert in libtorch, which ends the
/ process's CUDA context (and libtorch's allocator has crashed after one: ktorch-fuzz --cuda).
/ ce and nll check class targets of CUDA inputs first; graph checks in its eager warm-up, and
/ replay checks new targets against the class count seen then. CUDA stays usable after each.
x:tensor(`randn;4 3;`cuda)
.t.eq["ce: target past the classes";err[ce;(x;0 1 2 3)];"ce: target 3 is not a class index for 3 classes"]
.t.eq["nll: negative target";err[nll;(x;0 1 -1 2)];"nll: target -1 is not a class index for 3 classes"]
r:ce(x;0 1 -100 2)
.t.ok["ce: ignore index allowed";not null first tensor r]
free r
t:tensor(1 2 3e;`cuda)
.t.eq["cuda still works";tensor r:mul(t;2);2 4 6e]
free(x;t;r)
q:module enlist(`linear;2;3); to(q;`cuda)
m:model(q;loss`ce;opt(`sgd;q;.1))
X:"e"$8 2#16?1f
.t.eq["graph: bad targets";err[graph;(m;X;0 1 2 5 0 1 2 3)];"graph: target 5 is not a class index for 3 classes"]
g:graph(m;X;8#0 1 2)
.t.eq["replay: bad targets";err[replay;(g;X;0 1 2 3 0 1 2 0)];"replay: targets: target 3 is not a class index for 3 classes"]
.t.ok["replay with good targets";not null first tensor l:replay(g;X;8#2 1 0)]
free(l;g;m)
/ run checks the targets once an epoch (the first batch, then the whole set): a bad target in a
/ later batch is still an error
q:module enlist(`linear;2;3); to(q;`cuda)
m:model(q;loss`ce;opt(`sgd;q;.1))
train(m;`batchsize;4)
train(m;X;0 1 2 0 1 2 0 7)
.t.eq["run: bad target in the 2nd batch";err[run;m];"run: target 7 is not a class index for 3 classes"]
train(m;X;0 1 2 0 1 2 0 1)
.t.ok["run: good targets";not null run m]
.t.ok["run again (checked once)";not null run m]
free m
/ backward(m;x;y) and backstep of q targets check them on the host copy they were sent from
/ (no wait for the GPU's forward pass); a CUDA tensor of targets is checked on the device
q:module enlist(`linear;2;3); to(q;`cuda)
m:model(q;loss`ce;opt(`sgd;q;.1))
.t.eq["backward: bad q targets";err[backward;(m;X;0 1 2 0 1 2 0 9)];"backward: target 9 is not a class index for 3 classes"]
.t.eq["backstep: bad q targets";err[backstep;(m;X;-2 1 2 0 1 2 0 1)];"backstep: target -2 is not a class index for 3 classes"]
Y:tensor(0 1 2 0 1 2 0 6;`cuda)
.t.eq["backward: bad CUDA targets";err[backward;(m;X;Y)];"backward: target 6 is not a class index for 3 classes"]
free Y
l0:backward(m;X;0 1 2 0 1 2 0 1)
nograd m
Xc:tensor(X;`cuda); Yc:tensor(0 1 2 0 1 2 0 1;`cuda)
l1:backward(m;Xc;Yc)
.t.ok["backward: good q targets, the same loss as of CUDA tensors";1e-6>abs l0-l1]
free(m;Xc;Yc)
/ An embedding row out of range on CUDA is a device-side assert as well: the indices are checked
/ first (on the host for q data sent in the call, else on the device), as the CPU's own check
q:module enlist(`embed;10;4); to(q;`cuda)
.t.eq["embed: q index past the rows";err[forward;(q;3 10 2)];"forward: index 10 is out of range for an embedding of 10 rows"]
.t.eq["embed: negative q index";err[forward;(q;-1 2)];"forward: index -1 is out of range for an embedding of 10 rows"]
I:tensor(0 12 3;`cuda)
.t.eq["embed: CUDA index past the rows";err[forward;(q;I)];"forward: index 12 is out of range for an embedding of 10 rows"]
y:forward(q;0 9 3); to(q;`cpu)
.t.ok["embed: good indices as on the CPU";1e-6>max abs(raze tensor y)-raze evaluate(q;0 9 3)]
free(q;I;y)
q:module enlist(`embedseq;10;4;6); to(q;`cuda)
.t.eq["embedseq: q index past the rows";err[forward;(q;enlist 1 2 30)];"forward: index 30 is out of range for an embedding of 10 rows"]
free q
q:module enlist(`embedbag;10;4); to(q;`cuda)
.t.eq["embedbag: q index past the rows";err[forward;(q;2 3#1 2 3 4 5 11)];"forward: index 11 is out of range for an embedding of 10 rows"]
free q
/ index_select's indices likewise (index, a tensor's rows by index, the indexselect module)
t:tensor(1 2 3 4 5f;`cuda)
.t.eq["index: q indices past the size";err[index;(t;0;1 7)];"index: index 7 out of range for dimension 0 of size 5"]
.t.eq["index: negative q index";err[index;(t;0;-1 2)];"index: index -1 out of range for dimension 0 of size 5"]
I:tensor(0 9;`cuda)
.t.eq["index: CUDA indices past the size";err[index;(t;0;I)];"index: index 9 out of range for dimension 0 of size 5"]
.t.eq["tensor: rows by index past the size";err[tensor;(t;1 7)];"tensor: index 7 out of range for dimension 0 of size 5"]
q:module enlist(`indexselect;0;0 6); to(q;`cuda)
.t.eq["indexselect: index past the size";err[forward;(q;t)];"forward: index 6 out of range for dimension 0 of size 5"]
r:index(t;0;4 0)
.t.eq["index: good indices as on the CPU";tensor r;5 1f]
free(t;I;q;r)
/ the other kernels indexing by class on CUDA: multimargin's gather, multilabel's loss, onehot's
/ scatter (libtorch leaves each to a device-side assert); good values give the CPU's answers
X:4 3#0.1 0.5 0.2 0.9 0.3 0.4 0.7 0.2 0.6 0.1 0.8 0.5e
x:tensor(X;`cuda)
.t.eq["multimargin: target past the classes";err[multimargin;(x;0 1 3 2)];"multimargin: target 3 is not a class index for 3 classes"]
.t.eq["multimargin: negative target";err[multimargin;(x;0 -2 1 2)];"multimargin: target -2 is not a class index for 3 classes"]
.t.ok["multimargin: good targets as on the CPU";near[tensor r:multimargin(x;0 1 2 2);multimargin(X;0 1 2 2)]]
free r
Y:(0 1 -1;2 -1 0;0 -1 2;2 1 0)
.t.eq["multilabel: target past the classes";err[multilabel;(x;(0 1 -1;5 -1 0;0 -1 2;2 1 0))];"multilabel: target 5 is not a class index for 3 classes, nor -1"]
.t.eq["multilabel: target below -1";err[multilabel;(x;(0 1 -1;2 -1 0;0 -3 2;2 1 0))];"multilabel: target -3 is not a class index for 3 classes, nor -1"]
.t.ok["multilabel: good targets as on the CPU";near[tensor r:multilabel(x;Y);multilabel(X;Y)]]
free(x;r)
c:tensor(0 1 3;`cuda)
.t.eq["onehot: class past the count";err[onehot;(c;3)];"onehot: class value 3 is not below the 3 classes"]
free c; c:tensor(0 -1 2;`cuda)
.t.eq["onehot: negative class, count derived";err[onehot;(c;-1)];"onehot: class values must be nonnegative, given -1"]
free c; c:tensor(0 2 1;`cuda)
.t.eq["onehot: good classes as on the CPU";tensor r:onehot(c;3);onehot(0 2 1;3)]
free(c;r)
t:tensor(1 2 3e;`cuda)
.t.eq["cuda still works after";tensor r:mul(t;2);2 4 6e]
free(t;r)

.t.eq["nothing left";count obj[];0]
.t.done[]
