/ The GPT of ktorch/examples gpt/char.q (8 blocks, dim 512, 8 heads, sequence 128, batch 200,
/ AdamW, clip 1), its model, optimizer and training iteration copied from char.q (the `msg`
/ display left out), timed on qhost: `qhost bench/gpt/gpt.q DEVICE CONFIG ITERS WARMUP [TEXT]`.
/ CONFIG (more below): `base` (setting`sdpa`fused off: the attention and optimizer of before issue 21),
/ `fp32` (the defaults), `tf32` (one added line: setting`tf32,1b), `bf16` (setting`tf32,1b and
/ setting`autocast,`bf16), `fp16` (setting`tf32,1b, setting`autocast,`fp16 and gradscale(m;1b):
/ GradScaler's rules). Without TEXT the token list is 200000 characters drawn from 65.
/ SMALL=1 in the environment: a small model (a smoke test on the CPU).
/ Prints: `gpt CONFIG ITERS SECONDS LOSSES` (the loss of every step after the warm-up).
{key[x]set'x}(`ktorch 2:`fns,1)[];
a:.z.x; c:`$a 0; cfg:`$a 1; k:"J"$a 2; wu:"J"$a 3
/ Suffixes combine in the order aten, pc, lc, xd, xr (`graphbf16lcxr`); the last is read first.
/ CONFIG ending in `xr` (`graphbf16lcxr`): with setting`lnres,0b (x's two gradients in a residual
/ block added by autograd, not by layer norm's backward kernel: issue 31)
if[(cs:string cfg) like "*xr"; setting`lnres,0b; cfg:`$-2_cs]
/ CONFIG ending in `xd` (`fp32xd`, `graphbf16lcxd`): with setting`dropadd,0b (each residual block's
/ last dropout and its add apart, as ATen's layers: issue 31)
if[(cs:string cfg) like "*xd"; setting`dropadd,0b; cfg:`$-2_cs]
/ CONFIG ending in `lc` (`bf16lc`, `graphbf16lc`, `bf16nrlc`): with setting`lncast,1b (layer norm's
/ output in autocast's type, as the next linear layer casts it: issue 31)
if[(cs:string cfg) like "*lc"; setting`lncast,1b; cfg:`$-2_cs]
/ CONFIG ending in `pc` (`bf16pc`, `graphbf16pc`): that configuration with setting`precast,1b
/ (the parameters autocast casts, cast together at the start of each forward pass: issue 31)
if[(cs:string cfg) like "*pc"; setting`precast,1b; cfg:`$-2_cs]
/ CONFIG ending in `aten` (`fp32aten`, `bf16aten`, `graphbf16aten`, ..): that configuration with
/ setting`fusedln,0b (layer norm's backward as ATen's, not the fused CUDA kernel: issue 31)
if[(cs:string cfg) like "*aten"; setting`fusedln,0b; cfg:`$-4_cs]
if[cfg in`base; setting`sdpa,0b; setting`fused,0b]
if[cfg in`tf32`bf16`fp16; setting`tf32,1b]
if[cfg in`fp16; setting`autocast,`fp16]
if[cfg in`bf16`graphbf16`bf16nr; setting`autocast,`bf16]
/ `fp32nr`, `bf16nr`: char.q with one added line, setting`clipread,0b (clip answers null and does
/ not wait for the GPU; char.q ignores clip's answer)
if[cfg in`fp32nr`bf16nr; setting`clipread,0b]
if[cfg in`bf16nr; setting`tf32,1b]
if[cfg in`graphbf16; setting`tf32,1b]
/ `bf16fa`, `graphbf16fa`: bf16nr and graphbf16 with cuDNN's attention kernels turned off
/ (setting`sdpcudnn,0b), so that libtorch picks FlashAttention (slower cuDNN SDPA in graphs)
if[cfg in`bf16fa`graphbf16fa; setting`tf32,1b; setting`autocast,`bf16; setting`sdpcudnn,0b]
if[cfg in`bf16fa; setting`clipread,0b]
/ `graph and `graphbf16: the step recorded once (CUDA graph, clipping by the model's train
/ setting) and replayed on each new batch, at a fixed learning rate (a graph records it)
gr:cfg in`graph`graphbf16`graphbf16fa
seed 42

v:65; w:200; d:512; h:8; n:128; p:.1; b:8
if[not ""~getenv`SMALL; w:4; d:32; h:2; n:16; b:2]

emb:{[v;d;n;p]seq(`sequential; (`embedseq;v;d;n); (`drop;p))}
blk:{[d;h;p]
 q1:seq(`sequential; (`selfattention;d;h;p;1b); (`drop;p));
 q2:seq(`sequential; (`layernorm;d);(`linear;d;d*4;0b); `gelu; (`linear;d*4;d); (`drop;p));
 (`sequential; (`residual;q1); (`residual;q2))}
end:{[d;v]
 q:seq(`sequential; (`layernorm;`norm;d); (`linear;`decode;d;v;0b));
 q,enlist(`transform; seq(`sequential; (`reshape;-1,v));
                      seq(`sequential; (`select;1;-1)))}
q:`seqlist, enlist emb[v;d;n;p]
q:b {y,enlist x}[blk[d;h]p]/q
q:q,enlist end[d;v]
q:module q
if[c in cudadevices(); setting`benchmark,1b]
to(q;c)
p:parmtypes q
{$[y like"*.weight"; normal(x;y;0;.02); zeros(x;y)]}[q]'[where p in`embed`linear];
p:{(b; x except b:x where (x in y)|x like"*.bias")}[key p;where p in`layernorm`embed`embedpos]
o:opt(`adamw; (); .0006; .9; .95)
opt(o;0;(q;p 0);`decay,0.0)
opt(o;1;(q;p 1);`decay,0.1)
m:model(q; loss`ce; o);
if[cfg in`fp16; gradscale(m;1b)]

lrdecay:{x[`lr] * .1|.5*1+cos %/[@[x[`it]*-1 0+x`e`ep; 0; +; x`i]]*acos -1}
iter:{[m;t;u;n;s;i]
 x:t i+\:til n+1;
 nograd m;
 s[`l]:backward(m; (-1_'x;u); raze 1_'x);
 s[`i]+:1;
 s[`r]:lrdecay s;
 clip(m;1);
 lr(m;s`r); step m; s,enlist[`ls]!enlist s[`ls],s`l}

/ the text as char.q reads it: lines joined by newlines, each character its rank among the distinct
t:$[4<count a; {(asc distinct x)?x}"\n" sv read0 hsym`$a 4; 200000?v]
t:t mod v
s:`ep`it`lr ! (2; ceiling(count[t]-1+n)%w; first lr m)
s,:`e`t`r`i`l ! 5#0
s,:enlist[`ls]!enlist 0#0e
u:tensor(triu((2#n)#-0we;1);c)
/ the batches: w random starting points each
I:{[t;n;w;x] w?count[t]-1+n}[t;n;w]each til wu+k
/ the replayed step's loss is the graph's own tensor, overwritten by the next replay: each step
/ keeps a copy on the GPU (mul by 1, no wait for the GPU) and the losses are read after the timing,
/ as the PyTorch peers read theirs once after their loop
giter:{[g;m;t;u;n;s;i] x:t i+\:til n+1; l:replay(g;(-1_'x;u);raze 1_'x); s[`lh]:s[`lh],enlist mul(l;1f); free l; s[`i]+:1; s}
s,:enlist[`lh]!enlist()
if[gr; train(m;`clipnorm;1f); x0:t (first I)+\:til n+1; g:graph(m;(-1_'x0;u);raze 1_'x0); iter:giter[g]]
s:iter[m;t;u;n]/[s;wu#I]
sync c
t0:.z.p
s:iter[m;t;u;n]/[s;wu _ I]
sync c
t1:.z.p
if[gr; s[`ls]:{r:first tensor x; free x; r} each s`lh; s[`lh]:()]
-1 " " sv ("gpt";string cfg;string k;string 1e-9*"j"$t1-t0),string wu _ s`ls;
/ KTORCH_PROFILE=file: 5 more steps under `profile`, its rows written as name, device, calls,
/ total microseconds (tab-separated) for bench/gpt/profile_compare.py
pf:getenv`KTORCH_PROFILE
if[count pf; profile`start; s:iter[m;t;u;n]/[s;5#I]; sync c; p:profile`stop;
 (hsym`$pf) 0: {"\t" sv (string x`name;string x`device;string x`calls;string x`total)} each p;
 e:select name,device,start,duration from profile`events;
 (hsym`$pf,".events") 0: {"\t" sv (string x`name;string x`device;string x`start;string x`duration)} each e]
exit 0
