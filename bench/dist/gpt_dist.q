/ Data-parallel GPT of char.q (issue 34): one rank per GPU (scripts/dist-launch.sh), ktorch's
/ `distmodel` (gradients all-reduced in buckets during the backward pass), char.q's step
/ (nograd, backward, clip 1, step) on this rank's shard of every global batch. Dropout off, so
/ that N ranks on a global batch compute what one rank does on the same batch.
/   qhost bench/dist/gpt_dist.q PRECISION ROWS STEPS WARMUP [TEXT]
/ PRECISION fp32 or bf16 (autocast + TF32); ROWS the global batch (rows a step, split over the
/ ranks: rank r takes rows r, r+N, ...). Rank 0 prints
/   `dist N PRECISION ROWS SECONDS SAME LOSSES..`: seconds for the steps after the warm-up, SAME 1
/ when every rank holds the same parameters at the end, the loss of every step (all ranks').
/ SMALL=1: small sizes and Gloo on the CPU (a smoke test). DISTOPTS, words of `distmodel`
/ options: shard (sharded optimizer state), bf16 or fp16 (compress), views (gradients as bucket
/ views), first1 (a first bucket of 1 MiB, as DDP's), aten (setting`fusedln,0b) and noread
/ (setting`clipread,0b), xr (setting`lnres,0b); e.g. DISTOPTS="shard bf16". Rank 0 also prints `mem N` and, for every rank in turn,
/ its optimizer state's bytes (`bytes` of the model's optimizer), the bytes its GPU's caching
/ allocator holds for tensors after the steps and their peak (0 0 on the CPU); and `pdiff N` with
/ the largest difference of any parameter across the ranks.
/ KTORCH_PROFILE=file: after the timed steps, 5 more on every rank, rank 0's under `profile`, its
/ rows written as bench/gpt/gpt.q writes them (name, device, calls, total microseconds) for
/ bench/gpt/profile_compare.py, and its events (file.events) for profile_gaps.py: the split of a
/ step into compute, all-reduce and their overlap beside DDP's (bench/dist/gpt_ddp.py, PROFILE).
{key[x]set'x}(`ktorch 2:`fns,1)[];
a:.z.x; prec:`$a 0; G:"J"$a 1; k:"J"$a 2; wu:"J"$a 3
small:not ""~getenv`SMALL
distinit $[small;`gloo;`nccl]
me:distrank[]; N:distsize[]
gd:$[small;`cpu;`$"cuda:",getenv`LOCAL_RANK]
if[prec=`bf16; setting`tf32,1b; setting`autocast,`bf16]
if[not small; setting`benchmark,1b]
v:65; d:512; h:8; n:128; p:0f; nb:8
if[small; d:32; h:2; n:16; nb:2]

emb:{[v;d;n;p]seq(`sequential; (`embedseq;v;d;n); (`drop;p))}
blk:{[d;h;p]
 q1:seq(`sequential; (`selfattention;d;h;p;1b); (`drop;p));
 q2:seq(`sequential; (`layernorm;d);(`linear;d;d*4;0b); `gelu; (`linear;d*4;d); (`drop;p));
 (`sequential; (`residual;q1); (`residual;q2))}
end:{[d;v]
 q:seq(`sequential; (`layernorm;`norm;d); (`linear;`decode;d;v;0b));
 q,enlist(`transform; seq(`sequential; (`reshape;-1,v)); seq(`sequential; (`select;1;-1)))}
seed 1
q:`seqlist, enlist emb[v;d;n;p]
q:nb {y,enlist x}[blk[d;h]p]/q
q:module q,enlist end[d;v]
to(q;gd)
pt:parmtypes q
{$[y like"*.weight"; normal(x;y;0;.02); zeros(x;y)]}[q]'[where pt in`embed`linear];
pg:{(b; x except b:x where (x in y)|x like"*.bias")}[key pt;where pt in`layernorm`embed`embedpos]
o:opt(`adamw; (); .0006; .9; .95)
opt(o;0;(q;pg 0);`decay,0.0)
opt(o;1;(q;pg 1);`decay,0.1)
m:model(q; loss`ce; o)
/ distmodel's options from DISTOPTS
dopts:(`$" " vs getenv`DISTOPTS) except `
/ noread: setting`clipread,0b (clip answers null: the step waits for the GPU only at the loss)
if[`noread in dopts; setting`clipread,0b; dopts:dopts except`noread]
/ aten: setting`fusedln,0b (layer norm's backward as ATen's: the fused kernel's host cost compared)
if[`aten in dopts; setting`fusedln,0b; dopts:dopts except`aten]
/ xr: setting`lnres,0b (x's two gradients added by autograd, not in layer norm's backward kernel)
if[`xr in dopts; setting`lnres,0b; dopts:dopts except`xr]
known:`shard`views`first1`bf16`fp16!((`shard;1b);(`views;1b);(`first;1f);(`compress;`bf16);(`compress;`fp16))
if[count dopts except key known; '"DISTOPTS: unknown ",", " sv string dopts except key known]
$[count dopts; distmodel(m;first each known dopts;last each known dopts); distmodel m]

t:$[4<count a; {(asc distinct x)?x}"\n" sv read0 hsym`$a 4; 200000?v]
t:t mod v
/ the global batches (the same on every rank: the same seed), this rank's rows of each
seed 2
I:{[t;n;G;x] G?count[t]-1+n}[t;n;G] each til wu+k
I:I[;me+N*til G div N]
u:tensor(triu((2#n)#-0we;1);gd)
iter:{[m;L;i] x:t i+\:til n+1; nograd m; l:backward(m; (-1_'x;u); raze 1_'x); clip(m;1); step m; L,l}[m]
L:iter/[();wu#I]
sync gd
t0:.z.p
L:iter/[L;wu _ I]
sync gd
t1:.z.p
pf:getenv`KTORCH_PROFILE
if[count pf;
 if[me=0; profile`start]; L5:iter/[();5#wu _ I]; sync gd;
 if[me=0; p:profile`stop;
  (hsym`$pf) 0: {"\t" sv (string x`name;string x`device;string x`calls;string x`total)} each p;
  e:select name,device,start,duration from profile`events;
  (hsym`$pf,".events") 0: {"\t" sv (string x`name;string x`device;string x`start;string x`duration)} each e]]
/ the loss of the global batch: the ranks' mean (each rank's loss is its rows' mean)
/ (NCCL carries CUDA tensors: the losses and parameters go through tensors on this rank's GPU)
Lt:tensor(L;gd); allreduce(Lt;`avg); L:tensor Lt
pv:parms m; Pt:tensor(raze (raze/) each value dict pv;gd); free pv
g:allgather Pt; A:tensor g; same:all (first A)~/:A; pdiff:max abs raze A-\:first A
free(Lt;Pt;g)
system "P 10"
if[me=0; -1 " " sv ("dist";string N;string prec;string G;string 1e-9*"j"$t1-t0;string same),string L]
if[me=0; -1 " " sv ("pdiff";string N;string pdiff)]
/ memory: the optimizer state's bytes (this rank's shard when sharded), the allocator's now and peak
o2:opt m; sb:bytes o2; free o2
cm:$[small; `allocated`maxallocated!0 0; cudamemory "J"$getenv`LOCAL_RANK]
Mt:tensor((sb;cm`allocated;cm`maxallocated);gd); g:allgather Mt; M:tensor g; free(Mt;g)
if[me=0; -1 " " sv ("mem";string N),string raze M]
free(m;u)
distend[]
exit 0
