/ Data-parallel training (docs/dist.md): one process per rank, started by the launcher, e.g.
/   scripts/dist-launch.sh -n 2 examples/dist.q
/ Every rank builds the same data and model; distmodel makes rank 0's parameters everyone's,
/ and each `run` trains on this rank's shard with the gradients averaged across ranks.
/ Argument: epochs (default 60).
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit`gloo                                    / rendezvous from the launcher's environment
me:distrank[]; world:distsize[]
say:{if[me=0; -1 x]}                           / rank 0 reports
epochs:$[count .z.x;"J"$first .z.x;60]
say "ranks: ",string world

/ three-class spirals, the same on every rank (no random numbers: a fixed jitter)
n:200; k:3
rad:raze k#enlist til[n]%n-1
t:raze {(4*x)+4*til[n]%n-1} each til k
t+:0.2*sin 1000*til n*k
X:"e"$flip(rad*sin t;rad*cos t); Y:raze n#'til k

seed 42+me                                       / different start on each rank: distmodel fixes that
q:module seq(`sequential;(`linear;2;100);`relu;(`linear;100;3))
m:model(q;loss`ce;opt(`sgd;q;.2;.9))
train(m;`batchsize`shuffle`metrics;(25;1b;`loss`accuracy))
train(m;X;Y)
distmodel m                                      / rank 0's parameters on every rank

epoch:{[i] r:run m; if[0=(i+1)mod 20; say "epoch ",(string i+1),"  loss ",(string r 0),"  accuracy ",(string r 1),"%"]}
epoch each til epochs;

test(m;X;Y); test(m;`metrics;`accuracy)
say "accuracy in evaluation mode: ",(string testrun m),"%"
p:parms m; v:raze over value dict p; free p
say "parameters identical on every rank: ",string all allgather[v]~\:v
free m
distend[]
exit 0
