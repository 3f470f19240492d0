/ A rank killed between data-parallel steps on GPUs, while the other reads a CUDA value back
/ (scripts/gpu-dist-kill.sh with SCRIPT=tests/dist/gpu_kill_read.q, two GPUs with NCCL). Both
/ ranks take char.q-style steps (backward, step) on a model of `distmodel`; rank 1 SIGKILLs
/ itself after its fifth step. Rank 0's sixth backward pass leaves its gradients' all-reduce to
/ the GPU (the stream waits for it, q does not), so the GPU waits on the dead peer; rank 0 then
/ reads a parameter back with `tensor`. That read must be a q error within the timeout (the
/ argument, seconds): the collectives left to the GPU are waited for on the host first, with
/ the group's timeout (src/cxx/dist_reducer.cpp, ktorch_dist_settle_pending). Without it the
/ read waited on the stream without end. Rank 0 then ends the group and starts again alone.
{key[x]set'x}(`ktorch 2:`fns,1)[];
tmo:"J"$first .z.x
distinit(`nccl;tmo)
r:distrank[]; d:`$"cuda:",getenv`LOCAL_RANK
seed 1
q:module seq(`sequential;(`linear;4;8);`tanh;(`linear;8;2))
to(q;d)
m:model(q;loss`mse;opt(`sgd;q;.1))
distmodel m
X:"e"$8 4#sin til 32; Y:"e"$8 2#cos til 16
p0:parm(m;first parmnames m)
stp:{[i] backward(m;X;Y); step m; -1 "step ",string i}
stp each 1+til 5
if[r=1; sync d; system "kill -9 ",string .z.i]
stp 6
t0:.z.p
e:@[{tensor p0; "no error"};::;{x}]
-1 "read after the peer died: error after ",(string 1e-9*"j"$.z.p-t0)," s (timeout ",(string tmo)," s): ",e;
distend[]
-1 "ended";
distinit(`nccl;"127.0.0.1:0";0;1;tmo)
do[3; backward(m;X;Y); step m]
-1 "started again alone, 3 steps: parameter ",string first raze tensor p0;
free(p0;m)
distend[]
exit 0
