/ Gradients compressed for the all-reduce (distmodel option `compress, as DDP's
/ bf16_compress_hook and fp16_compress_hook) on 2 ranks with Gloo, float32. Each bucket is cast
/ to bfloat16 (or half), divided by the number of ranks, summed across them in that type and cast
/ back: with unit roundoff u (2^-8 for bfloat16, 2^-11 for half) the cast of each rank's gradient
/ and the sum each round once, so every averaged gradient is within 2u (1+u) mean_r|g_r| of the
/ float32 average (half also rounds values below its smallest normal to a multiple of 2^-24:
/ each of the five roundings, two casts, two divisions and the sum, may lose 2^-25 more). Checked element by element against each rank's own gradients (a copy of the model
/ trained alone on the rank's rows, all-gathered), for the buckets reduced during the backward
/ pass, after it, with gradients as bucket views, and sharded (reduce-scatter). Then ten steps of
/ Adam compressed and not: the ranks stay identical, and the parameters move from the float32
/ run's by a stated amount, more than 0 (compression is on) and under 1e-2. Prints "ok".
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit(`gloo;30)
r:distrank[]; w:distsize[]
fail:{-2 "rank ",string[r],": FAIL ",x; exit 1}
say:{if[r=0; -1 x]}
pv:{p:parms x; v:raze over value dict p; free p; v}
/ every gradient of a model, in parameter order (none: an empty list)
gv:{p:parms x; v:raze {[p;k] t:tensor(p;k); g:grad t; free t; $[(::)~g;`real$();raze over g]}[p] each key dict p; free p; v}
net:{module seq(`sequential;(`linear;6;32);`tanh;(`linear;32;32);`tanh;(`linear;32;3))}
seed 10+r
q0:net[]
/ a model like q0 (rank 0's parameters once distmodel has run), synchronised with options o
mk:{[o] q:net[]; p:parms q0; copyparms(q;p); free p; m:model(q;loss`mse;opt(`adam;q;.01)); train(m;`batchsize;16); if[count o; distmodel(m;o 0;o 1)]; m}
ref:mk(`overlap;0b)
p:parms ref; copyparms(q0;p); free p
alone:mk()
X:"e"$32 6#sin 0.37*til 192; Y:"e"$32 3#cos 0.11*til 96; j:r+w*til 32 div w
/ each rank's own gradients, then their mean magnitude element by element
backward(alone;X j;Y j); G:allgather gv alone; scale:avg abs G
backward(ref;X j;Y j); g32:gv ref
if[not 1e-6>max abs g32-avg G; fail "the float32 average is not the mean of the ranks' gradients"];
bound:{[u;tiny] tiny+(2*u*1+u)*scale}
cases:(
  ("bf16, buckets during the backward pass";(`compress;`bf16);2 xexp -8;0);
  ("bf16, after the backward pass";(`compress`overlap;(`bf16;0b));2 xexp -8;0);
  ("bf16, gradients as bucket views";(`compress`views`first;(`bf16;1b;.001));2 xexp -8;0);
  ("fp16, buckets during the backward pass";(`compress;`fp16);2 xexp -11;5*2 xexp -25))
check:{[c]
  m:mk c 1; backward(m;X j;Y j); g:gv m;
  e:abs g-g32; b:bound[c 2;c 3];
  if[any e>b; fail c[0],": ",string[sum e>b]," gradients beyond the bound, the worst by ",string max e-b];
  if[not 0<max e; fail c[0],": no difference from float32: not compressed"];
  if[not all allgather[g]~\:g; fail c[0],": the ranks' averages differ"];
  say c[0],": largest difference from the float32 average ",string[max e],", at most ",string[max e%b]," of the bound";
  free m}
check each cases;
/ sharded: each rank holds its shard's averages, compared where it has them
m:mk(`compress`shard;(`bf16;1b)); backward(m;X j;Y j); g:gv m
k:where raze {[p;k] t:tensor(p;k); h:not(::)~grad t; n:count raze over tensor t; free t; n#h}[p] each key dict p:parms m; free p
if[not count[g]=count k; fail "sharded: ",string[count g]," gradients kept, ",string[count k]," expected"];
if[not count[k]<count g32; fail "sharded: a rank kept every gradient"];
e:abs g-g32 k; b:bound[2 xexp -8;0] k
if[any e>b; fail "bf16 sharded: ",string[sum e>b]," gradients beyond the bound"];
say "bf16, sharded: largest difference from the float32 average ",string[max e],", at most ",string[max e%b]," of the bound";
free m
/ training: ten steps of 32 samples, float32 against bf16 (during the backward pass and sharded)
train1:{[o] m:mk o; ls:{[m;i] data(m;"e"$32 6#sin 0.29*i+til 192;"e"$32 3#cos 0.13*i+til 96); run m}[m] each til 10; v:pv m; free m; (ls;v)}
a:train1(`overlap;0b); b:train1(`compress;`bf16); s:train1(`compress`shard;(`bf16;1b))
{[n;x] if[not all allgather[x 1]~\:x 1; fail n,": the ranks' parameters differ"]}'[("float32";"bf16";"bf16 sharded");(a;b;s)];
db:max abs a[1]-b 1; ds:max abs a[1]-s 1; dl:max abs a[0]-b 0
if[not (0<db)&db<1e-2; fail "bf16 training moved the parameters by ",string db];
if[not (0<ds)&ds<1e-2; fail "bf16 sharded training moved the parameters by ",string ds];
say "10 steps of adam: largest parameter difference from float32, bf16 ",string[db],", bf16 sharded ",string[ds],"; largest loss difference ",string dl;
free(ref;alone)
barrier[]
distend[]
-1 "ok";
exit 0
