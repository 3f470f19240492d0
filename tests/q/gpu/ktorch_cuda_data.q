/ On a CUDA machine (scripts/gpu-run.sh): batches in place, shuffles, and a model's data on cuda
/ give what they give on the CPU.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
t:tensor(til 7;`cuda)
b:(); while[batch(t;3); b,:enlist tensor t]
.t.eq["batch(t;3) on cuda";b;3 cut til 7]
batch(t;3;2)
.t.eq["restore on cuda";restore t;7]
shuffle t
.t.eq["shuffle on cuda: a permutation";asc tensor t;til 7]
free t
q:module enlist(`linear;2;1)
to(q;`cuda)
m:model(q;loss`mse;opt(`sgd;q;.1))
x:"e"$10 2#til 20; y:"e"$10 1#til 10
train(m;`batchsize`shuffle;(3;1b)); train(m;x;y)
.t.eq["model data on cuda";string device a:input m;"cuda:0"]
free a
k:0; while[batch m; k+:1]
d:data m
.t.eq["a pass on cuda: batches, full size, together";(k;count d 0;d[1;;0]);(4;10;"e"$d[0;;0]%2)]
unshuffle m
.t.eq["unshuffle on cuda";data m;(x;y)]
r:run m
.t.ok["run on cuda";r>0]
free m
.t.eq["all freed";count obj[];0]
.t.done[]
