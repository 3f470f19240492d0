/ On a CUDA machine (scripts/gpu-speed.sh): mixed precision training on cuda.
/ 1. gradscale through overflows (initial scale 2^120): Adam on the fused kernel, which skips
/    the step on the device from the found-inf flag (no wait), gives the scales, skips and
/    parameters of the single-tensor rule whose step is skipped after reading the flag back
/    (setting`fused off), within 1e-5.
/ 2. A CNN (conv-bn-relu x2, pool, linear) trained 150 steps on fixed data, the same start and
/    batches, in fp32, in bf16 autocast with channels-last images and weights, and in fp16
/    autocast with gradscale: each low-precision loss curve tracks fp32's, every step within a
/    band of 0.1 and the mean of the last 10 within 0.05 (the first ~10 steps see fp16's scale
/    back off: skipped steps, counted).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
near:{[tol;r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (tol*1|abs e)>abs r-e}
seed 11
X:"e"$100*-0.5+8 3#24?1f; Y:"e"$100*-0.5+8 2#16?1f
w0:"e"$-0.5+2 3#6?1f; b0:"e"$-0.5+2?1f
scaled:{[fused]
  setting`fused,fused;
  q:module enlist(`linear;3;2); to(q;`cuda); parm(q;`weight;w0); parm(q;`bias;b0);
  m:model(q;loss`mse;opt(`adam;q;.1));
  gradscale(m;2 xexp 120;2 xexp 6;2 xexp -4;2);
  r:{[m;i] nograd m; l:backward(m;X;Y); clip(m;50); step m; s:gradscale m; (l;s`scale;s`skipped)}[m]each til 12;
  p:parms m; d:dict p; free(p;m); setting`fused,1b; (r;d)}
a:scaled 1b; b:scaled 0b
.t.eq["cuda gradscale: fused and single-tensor steps skip alike";a[0][;2];b[0][;2]]
.t.ok["cuda gradscale: some steps skipped";0<last a[0][;2]]
.t.eq["cuda gradscale: same scales";a[0][;1];b[0][;1]]
.t.ok["cuda gradscale: same losses";near[1e-5;a[0][;0];b[0][;0]]]
.t.ok["cuda gradscale: same parameters";near[1e-5;value a 1;value b 1]]

/ 2. CNN tracking
n:512; bs:64; k:150
xs:"e"$-0.5+(n;3;16;16)#(n*3*16*16)?1f
/ learnable targets: the class of a fixed random projection of the mean image
P:"e"$-0.5+10 3#30?1f
ys:{x?max x}each ("f"${avg each raze each x}each xs) mmu flip "f"$P
net:{seq(`sequential; (`conv2d;3;16;3;1;1); (`batchnorm2d;16); `relu; (`conv2d;16;32;3;2;1); (`batchnorm2d;32); `relu; (`adaptavg2d;1 1); `flatten; (`linear;32;10))}
cfg:{[ac;cl;gs]
  seed 5; q:module net[]; to(q;`cuda); if[cl; to(q;`channel2d)];
  m:model(q;loss`ce;opt(`sgd;q;.05;.9)); if[gs; gradscale(m;1b)];
  x:tensor(xs;`cuda); if[cl; to(x;`channel2d)]; y:tensor(ys;`cuda);
  train(m;`batchsize`shuffle`metrics!(bs;0b;`batchloss)); train(m;x;y); free(x;y);
  setting`autocast,ac;
  l:raze {[m;i] run[m]}[m]each til k div n div bs;
  setting`autocast,`none;
  s:$[gs; (gradscale m)`skipped; 0]; free m; (l;s)}
f32:cfg[`none;0b;0b]
b16:cfg[`bf16;1b;0b]
f16:cfg[`fp16;1b;1b]
band:{[name;r;e]
  d:abs r-e; t:abs avg[-10#r]-avg -10#e;
  -1 name,": max |diff| ",string[max d],", last-10 mean ",string[avg -10#r]," vs fp32 ",string[avg -10#e],", first/last fp32 ",string[first e]," ",string last e;
  .t.ok[name," tracks fp32 every step within 0.1";all d<0.1];
  .t.ok[name," last-10 mean within 0.05 of fp32";t<0.05]}
.t.ok["cnn fp32 learns";(avg -10#f32 0)<0.8*first f32 0]
band["cnn bf16 autocast channels-last";b16 0;f32 0]
band["cnn fp16 autocast + gradscale channels-last";f16 0;f32 0]
-1 "cnn fp16 steps skipped: ",string f16 1;
.t.ok["cnn fp16: no nan loss";not any null f16 0]
.t.done[]
