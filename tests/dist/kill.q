/ A rank that dies: tests/dist.rs kills rank 1 (SIGKILL) once it has printed "step 3"; rank 0
/ keeps training and must get a q error (Gloo sees the connection close), which it prints,
/ then ends the group and exits 0. The timeout of every wait is the argument (seconds).
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit(`gloo;"J"$first .z.x)
r:distrank[]
seed 1
q:module seq(`sequential;(`linear;4;8);`tanh;(`linear;8;2))
m:model(q;loss`mse;opt(`sgd;q;.1))
train(m;`batchsize;8)
distmodel m
train(m;"e"$16 4#sin til 64;"e"$16 2#cos til 32)
i:0
e:@[{while[1b; run m; i::i+1; -1 "step ",string i]; ""};::;{x}]
-1 "error: ",e;
/ the group is unusable after the error: distend ends it without waiting on the dead peer
distend[]
-1 "ended";
exit 0
