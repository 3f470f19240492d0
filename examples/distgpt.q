/ The GPT of ktorch's examples/gpt/char.q (character-level, Shakespeare) trained step by step
/ as char.q does (backward, clip to norm 1, step), four times from the same start and the same
/ batches: alone, alone again (to see how far two identical runs on this device differ), and as
/ a synchronising model in a process group of one rank (`distmodel`: gradients averaged by the
/ backend each backward), first with each bucket's all-reduce started during the backward pass
/ (the default, DDP's overlap), then with every bucket sent after it (option overlap 0b).
/ Prints the largest difference of losses and parameters between the runs and the time per
/ step of each: the cost of synchronising.
/   qhost examples/distgpt.q [steps [device [small [precision]]]]
/ precision `bf16 trains under bf16 autocast (setting`autocast`bf16; on the CPU with
/ setting`autocastcpu too).
/ e.g. `qhost examples/distgpt.q 30 cuda` (NCCL), `qhost examples/distgpt.q 3 cpu 1` (Gloo,
/ small sizes). Needs data/shakespeare.txt beside the script (from ktorch/examples: gpt/data).
{key[x]set'x}(`ktorch 2:`fns,1)[];
a:.z.x
steps:$[count a;"J"$a 0;30]
devc:$[1<count a;`$a 1;`cuda]
small:$[2<count a;"J"$a 2;0]
amp:$[3<count a;`$a 3;`none]
setting`autocast,amp; if[not amp=`none; setting`autocastcpu,1b]
backend:$[devc like "cuda*";`nccl;`gloo]
T0:.z.p; say:{-1 string[`int$1e-9*.z.p-T0],"s: ",x}

dir:$["/" in f:string .z.f; "/" sv -1_"/" vs f; "."]
t:"\n" sv read0 hsym`$dir,"/data/shakespeare.txt"
char:(`s#get enum:char!til count char)!char:asc distinct t
t:enum t
say "text: ",string[count t]," characters"

/ char.q's sizes: vocabulary, batch, embedding, heads, sequence, dropout; 8 blocks
v:count char; w:200; d:512; h:8; n:128; p:.1; nb:8
if[small; w:4; d:32; h:2; n:16; nb:2]

emb:{[v;d;n;p]seq(`sequential; (`embedseq;v;d;n); (`drop;p))}
blk:{[d;h;p]
 q1:seq(`sequential; (`selfattention;d;h;p;1b); (`drop;p));
 q2:seq(`sequential; (`layernorm;d);(`linear;d;d*4;0b); `gelu; (`linear;d*4;d); (`drop;p));
 (`sequential; (`residual;q1); (`residual;q2))}
end:{[d;v]
 q:seq(`sequential; (`layernorm;`norm;d); (`linear;`decode;d;v;0b));
 q,enlist(`transform; seq(`sequential; (`reshape;-1,v)); seq(`sequential; (`select;1;-1)))}

/ the model, from seed 1 each time: char.q's layers and initialization
gpt:{[]
 seed 1;
 q:`seqlist, enlist emb[v;d;n;p];
 q:nb {y,enlist x}[blk[d;h]p]/q;
 q:module q,enlist end[d;v];
 to(q;devc);
 pt:parmtypes q;
 {$[y like"*.weight"; normal(x;y;0;.02); zeros(x;y)]}[q]'[where pt in`embed`linear];
 / char.q's two optimizer groups (no decay for biases, embeddings and norms) need opt's group
 / forms this branch lacks: one adamw group, char.q's rate and betas
 model(q; loss`ce; opt(`adamw; q; .0006; .9; .95))}

u:tensor(triu((2#n)#-0we;1);devc)
/ the batches: steps x w starting points of sequences of n+1 characters, the same for every run
I:(steps;w)#(steps*w)?count[t]-1+n

/ one run: seed 2 before the first step (dropout draws alike), char.q's steps; losses, the
/ parameters after, and milliseconds a step (the first step, which sets things up, left out)
go:{[m]
 seed 2; L:(); T:();
 do[steps;
  x:t I[count L]+\:til n+1; s:.z.p;
  nograd m; l:backward(m; (-1_'x;u); raze 1_'x); clip(m;1); step m;
  L,:l; T,:1e-6*.z.p-s];
 say "steps done"; pv:parms m; P:raze (raze/) each value dict pv; free pv;
 (L;P;avg 1_T)}

m:gpt[]; say "model made"; r1:go m; free m; say "trained alone"
m:gpt[]; r2:go m; free m; say "trained alone again"
distinit(backend;"127.0.0.1:0";0;1;60)
m:gpt[]; distmodel m; r3:go m; free m; say "trained synchronised"
m:gpt[]; distmodel(m;`overlap;0b); r4:go m; free m; say "trained synchronised, buckets after the backward pass"
distend[]

-1 "gpt: ",string[sum count each P:r1 1]," parameters, ",string[steps]," steps of ",string[w]," sequences of ",string[n]," on ",string[devc],", autocast ",string amp;
-1 "losses, first and last: ",(" " sv string 2#r1 0)," .. ",string last r1 0;
-1 "largest difference, alone vs alone again: loss ",string[max abs r1[0]-r2 0],", parameter ",string max abs r1[1]-r2 1;
-1 "largest difference, alone vs synchronised (",string[backend],", 1 rank): loss ",string[max abs r1[0]-r3 0],", parameter ",string max abs r1[1]-r3 1;
-1 "largest difference, alone vs synchronised after the backward pass: loss ",string[max abs r1[0]-r4 0],", parameter ",string max abs r1[1]-r4 1;
-1 "largest difference, synchronised overlapped vs after the backward pass: loss ",string[max abs r3[0]-r4 0],", parameter ",string max abs r3[1]-r4 1;
base:.5*r1[2]+r2 2
cost:{[b;r] string[r-b]," ms a step (",string[.1*floor .5+1000*(r%b)-1],"%)"}[base]
-1 "ms a step: alone ",string[r1 2],", alone again ",string[r2 2],", synchronised ",string[r3 2],", synchronised after the backward pass ",string r4 2;
-1 "synchronising costs, buckets during the backward pass: ",cost[r3 2],"; after it: ",cost r4 2;
exit 0
