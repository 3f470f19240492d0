/ A rank killed on GPUs (issue 34; scripts/gpu-dist-kill.sh runs it on two GPUs with NCCL): both
/ ranks train a small model on their own GPU; the script SIGKILLs rank 1 once it has printed
/ "step 5". Rank 0 must get a q error within the timeout (the argument, seconds), end the group
/ (distend aborts NCCL's communicator) and start again: a group of one rank, three more steps.
{key[x]set'x}(`ktorch 2:`fns,1)[];
tmo:"J"$first .z.x
distinit(`nccl;tmo)
r:distrank[]; d:`$"cuda:",getenv`LOCAL_RANK
seed 1
q:module seq(`sequential;(`linear;4;8);`tanh;(`linear;8;2))
to(q;d)
m:model(q;loss`mse;opt(`sgd;q;.1))
train(m;`batchsize;8)
distmodel m
train(m;"e"$16 4#sin til 64;"e"$16 2#cos til 32)
i:0; t0:.z.p
e:@[{while[1b; run m; i::i+1; -1 "step ",string i; if[r=1; system "sleep 0.2"]]; ""};::;{x}]
-1 "error after ",(string 1e-9*"j"$.z.p-t0)," s (timeout ",(string tmo)," s): ",e;
distend[]
-1 "ended";
distinit(`nccl;"127.0.0.1:0";0;1;tmo)
do[3; run m]
-1 "started again alone, 3 steps: loss ",string first run m;
free m
distend[]
exit 0
