/ On a CUDA machine (scripts/gpu-run.sh, scripts/gpu-speed.sh): the speed paths of issue 21 on
/ cuda give the numbers of the paths they replace. SDPA attention (flash / memory-efficient /
/ cuDNN kernels) against the math within 1e-5 in float32 (tf32 off), outputs and gradients; the
/ fused Adam, AdamW and SGD kernels against the single-tensor rules; autocast's types.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
close:{[tol;r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (tol*1|abs e)>abs r-e}
seed 7
both:{[f] setting`sdpa,1b; a:f[]; setting`sdpa,0b; b:f[]; setting`sdpa,1b; (a;b)}
same:{[tol;name;f] r:both f; .t.ok[name;close[tol;r 0;r 1]]}
n:64; causal:{triu((2#x)#-0we;1)}
q:"e"$-0.5+(n;4;64)#(n*4*64)?1f
fm:"e"$(n;n)#(n*n)?1f
m:module enlist(`attention;64;4); to(m;`cuda)
ev:{[m;x] r:evaluate enlist[m],{tensor(x;`cuda)}each x; r}
same[1e-5;"cuda attention, no mask";{ev[m;(q;q;q;0#0b;0b)]}]
same[1e-5;"cuda attention, causal mask";{ev[m;(q;q;q;0#0b;0b;causal n)]}]
same[1e-5;"cuda attention, float mask";{ev[m;(q;q;q;0#0b;0b;fm)]}]
free m
xs:"e"$-0.5+(4;n;64)#(4*n*64)?1f
m:module enlist(`selfattention;64;4;0.0;1b); to(m;`cuda)
same[1e-5;"cuda selfattention, causal mask";{ev[m;(xs;causal n)]}]
fwdgrad:{[m;x]
  t:tensor(x 0;`cuda`grad); y:forward enlist[m;t],{tensor(x;`cuda)}each 1_x;
  l:Sum y; backward l; g:grad t; o:tensor y; p:parms m; d:dict p;
  gp:{[m;k] t:parm(m;k); r:grad t; free t; r}[m]each key d;
  zerograd m; free(t;y;l;p); (o;g;gp)}
same[1e-4;"cuda selfattention, gradients (memory-efficient kernel backward)";{fwdgrad[m;(xs;causal n)]}]
free m
/ bf16: SDPA's flash kernel against the math in bf16 (autocast), loose
m:module enlist(`selfattention;64;4;0.0;1b); to(m;`cuda)
setting`autocast,`bf16
r:both{ev[m;(xs;causal n)]}
.t.ok["cuda selfattention, bf16 autocast, sdpa ~ math";close[2e-2;r 0;r 1]]
y:forward(m;tensor(xs;`cuda))
.t.eq["autocast output type";dtype y;`bfloat]
free y
setting`autocast,`none
y:forward(m;tensor(xs;`cuda))
.t.eq["no autocast: float";dtype y;`float]
free(y;m)

/ fused optimizers on cuda against the single-tensor rules (setting`fused off)
W:"e"$-0.5+64 32#2048?1f; B:"e"$-0.5+32?1f; G:{"e"$-0.5+x#prd[x]?1f}each 3#enlist 64 32; H:{"e"$-0.5+32?1f}each til 3
steps:{[name;opts;fused]
  setting`fused,fused;
  v:vector(W;B); to(v;`cuda); gradflag(v;1b);
  o:opt(name;v),opts;
  r:{[o;v;r;i] zerograd o; w:tensor(v;0); b:tensor(v;1);
     y:mul(w;tensor(G i;`cuda)); z:mul(b;tensor(H i;`cuda)); l:Sum y; backward l; l2:Sum z; backward l2; free(w;b;y;z;l;l2);
     step o; r,enlist vector v}[o;v]/[();til 3];
  s:state o; free(o;v); setting`fused,1b; (r;s)}
fused:{[name;opts] a:steps[name;opts;1b]; b:steps[name;opts;0b];
  .t.ok["cuda ",string[name]," fused updates";close[1e-6;a 0;b 0]]}
fused[`adam;enlist .01]
fused[`adam;(.01;.8;.9;1e-6;.1;1b)]
fused[`adamw;enlist .01]
fused[`adamw;(.01;`decay`amsgrad!(.1;1b))]
fused[`sgd;enlist .1]
fused[`sgd;(.1;`momentum`dampening`decay!.9 .1 .01)]
fused[`sgd;(.1;.9;`nesterov,1b)]

/ clipping on cuda (multi-tensor path) against the cpu (per-tensor path)
clipped:{[d] v:vector(W;B); to(v;d); gradflag(v;1b); w:tensor(v;0); y:mul(w;tensor(10*G 0;d)); l:Sum y; backward l;
  r:clip(v;1); g:grad w; free(w;y;l;v); (r;g)}
a:clipped`cuda; b:clipped`cpu
.t.ok["cuda clip total norm";close[1e-5;a 0;b 0]]
.t.ok["cuda clipped gradient";close[1e-5;a 1;b 1]]

/ a recorded AdamW step (fused kernels, step counts on the device) against eager steps: 3 steps
/ at the warm-up, then 5 replays; and the same under bf16 autocast
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-4*1|abs e)>abs r-e}
mk:{seed 11; q:module seq(`sequential;(`linear;`a;2;8);`tanh;(`linear;`b;8;2)); to(q;`cuda); model(q;loss`ce;opt(`adamw;q;.01))}
x:"e"$64 2#128?1f; y:64?2
gstep:{[ac]
  setting`autocast,ac;
  m1:mk[]; l1:(); do[8; l1,:backstep(m1;x;y)];
  m2:mk[]; g:graph(m2;x;y);
  ls:(); do[5; l:replay g; ls,:tensor l; free l];
  .t.ok["adamw step graph (autocast ",string[ac],") trains as eager steps";near[dict p2:parms m2;dict p1:parms m1]];
  .t.ok["adamw step graph (autocast ",string[ac],") losses";near[ls;-5#l1]];
  free(g;m1;m2;p1;p2); setting`autocast,`none}
gstep`none
gstep`bf16
.t.done[]
