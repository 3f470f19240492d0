/ On a CUDA machine (scripts/gpu-run.sh): setting`lncast, layer norm under CUDA autocast whose
/ output is written in autocast's type (bf16 or fp16) by an NVRTC forward kernel and whose
/ gradient comes back in that type (src/cxx/fused_ln.cpp), against ATen's layer norm under
/ autocast (float32 out: the setting off) on the same inputs.
/ Shapes rows x features: 25600x512 (char.q's GPT), 1x1, 3x7, 1000x1000, 77x4097 (no vector
/ loads: 4097 is odd), 64x8192; bf16 autocast, and fp16 for two of them.
/ Tolerances: y is ATen's float32 y rounded once to the low type, so within half a unit in the
/ last place of that type: 2^-9 of |y| for bf16 (8 bits), 2^-11 for fp16 (11 bits), plus fp16's
/ smallest step 2^-24 near 0; the row's mean and 1/std come from another sum order (float32),
/ which moves y by ~1e-7 of its terms ((x-mean)*rstd*gamma and beta, up to max|y|, where y is
/ near 0 by their cancelling): the bound is doubled (2^-8, 2^-10) and 1e-6 x max|y| added. The gradients are computed
/ in float32 from the same dy values (ATen's side gets them as float32): dx, dgamma, dbeta within
/ 1e-5 x (1 | max) as tests/q/gpu/ktorch_fused_ln.q. Also: a forward pass without gradients gives
/ exactly ATen's y cast; without autocast the setting changes nothing; the forward kernel is seen
/ in `profile`; selfattention's gradients; a recorded training step replays the kernels with
/ losses as the setting off.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
seed 11
maxdiff:{[a;b] $[(::)~a;$[(::)~b;0f;0w];max abs raze over ("f"$a)-"f"$b]}
scale:{$[(::)~x;1f;1f|max abs raze over "f"$x]}
/ dtype of y, y, dx, dgamma, dbeta of layer norm over the last dim of cuda tensor x0 (float32,
/ copied with gradients) under autocast ac, setting`lncast lc; dy0 (the low type's values) is
/ given to backward in y's type
ln:{[lc;ac;x0;dy0;w;b]
  setting`lncast,lc;
  q:module enlist(`layernorm;count w); parm(q;`weight;w); parm(q;`bias;b); to(q;`cuda);
  ps:{parm(x;y)}[q]each`weight`bias;
  x:copyto(x0;`float`grad);
  setting`autocast,ac; y:forward(q;x); setting`autocast,`none;
  t:dtype y; dy:copyto(dy0;t);
  backward(y;dy);
  r:(t;tensor y;grad x;grad ps 0;grad ps 1);
  free each (x;y;dy),ps; free q; setting`lncast,0b; r}
low:`bf16`fp16!`bfloat`half
ulp:`bf16`fp16!(2 xexp -8;2 xexp -10)
tiny:`bf16`fp16!(0f;2 xexp -24)
case:{[r;f;ac]
  name:string[r],"x",string[f]," ",string[ac]," autocast";
  x0:tensor(`randn;r,f;`cuda); mul(x0;3;[]); add(x0;1;[]);
  dy0:copyto(t:tensor(`randn;r,f;`cuda);low ac); free t;
  w:"e"$1+-0.5+f?1f; b:"e"$-0.5+f?1f;
  a:ln[0b;ac;x0;dy0;w;b]; u:ln[1b;ac;x0;dy0;w;b];
  free(x0;dy0);
  d:maxdiff'[1_u;1_a]; s:scale each 1_a;
  ya:"f"$raze a 1; yu:"f"$raze u 1;
  -1 name,": y type ",string[u 0]," (off: ",string[a 0],"), max |lncast-aten| y ",string[d 0]," (beyond one rounding ",string[max 0f,abs[yu-ya]-ulp[ac]*abs ya],"), dx ",string[d 1]," (scale ",string[s 1],"), dgamma ",string[d 2]," (scale ",string[s 2],"), dbeta ",string[d 3]," (scale ",string[s 3],")";
  .t.eq[name," y in autocast's type";u 0;low ac];
  .t.eq[name," off: y float32";a 0;`float];
  .t.ok[name," y within one rounding of ATen's";all abs[yu-ya]<=tiny[ac]+(1e-6*max abs ya)+ulp[ac]*abs ya];
  .t.ok[name," dx within 1e-5";d[1]<=1e-5*s 1];
  .t.ok[name," dgamma within 1e-5";d[2]<=1e-5*s 2];
  .t.ok[name," dbeta within 1e-5";d[3]<=1e-5*s 3];
  }
shapes:(25600 512;1 1;3 7;1000 1000;77 4097;64 8192)
{case[x 0;x 1;`bf16]}each shapes;
{case[x 0;x 1;`fp16]}each (25600 512;77 4097);

/ without gradients: ATen's layer norm and a cast, exactly; without autocast: float32, as off
ng:{[lc;ac] setting`lncast,lc; seed 5; q:module enlist(`layernorm;512); to(q;`cuda);
  x:tensor(`randn;64 512;`cuda);
  setting`autocast,ac; y:forward(q;x); setting`autocast,`none;
  r:(dtype y;tensor y); free(q;x;y); setting`lncast,0b; r}
n1:ng[1b;`bf16]; n0:ng[0b;`bf16]
.t.eq["no gradients: y in bf16";n1 0;`bfloat]
.t.ok["no gradients: y is ATen's y cast to bf16";n1[1]~tensor t:copyto(u:tensor n0 1;`bfloat)]; free(t;u);
.t.ok["no autocast: float32 and ATen's y, setting on as off";ng[1b;`none]~ng[0b;`none]]

/ the forward kernel runs with the setting on (profile's CUDA rows), not with it off
kernels:{[lc]
  setting`lncast,lc;
  q:module enlist(`layernorm;512); to(q;`cuda); x:tensor(`randn;256 512;`cuda`grad);
  profile`start; setting`autocast,`bf16; y:forward(q;x); setting`autocast,`none;
  backward(y;1e); sync(); p:profile`stop;
  free(x;y;q); setting`lncast,0b;
  exec name from p where device=`cuda}
on:kernels 1b; off:kernels 0b
-1 "CUDA kernels, setting`lncast on: ",", " sv string on;
-1 "CUDA kernels, setting`lncast off: ",", " sv string off;
.t.ok["forward and backward kernels ran with the setting on";all `ktorch_ln_fwd`ktorch_ln_bwd in on]
.t.ok["no forward kernel with the setting off";not `ktorch_ln_fwd in off]

/ selfattention (char.q's block: 512 features, 8 heads, norm on) under bf16 autocast: the
/ gradients of the input and every parameter with the setting on as off. The attention's input
/ projection then sees the same bf16 values but for a rare rounding flip: within 1e-2 x scale.
att:{[lc]
  setting`lncast,lc; seed 3;
  q:module enlist(`selfattention;512;8;0f;1b); to(q;`cuda);
  x:tensor(`randn;4 128 512;`cuda`grad);
  setting`autocast,`bf16; y:forward(q;x); setting`autocast,`none;
  backward(y;1e);
  ps:{parm(x;y)}[q]each parmnames q;
  r:grad each enlist[x],ps; free each (x;y),ps; free q; setting`lncast,0b; r}
a:att 0b; u:att 1b
d:maxdiff'[u;a]; s:scale each a
-1 "selfattention bf16 autocast, max |lncast-aten| / scale: ",", " sv string d%s;
.t.ok["selfattention gradients with lncast";all d<=1e-2*s]

/ a recorded training step under bf16 autocast (CUDA graph): the replays run the forward kernel
/ and give the losses of the setting off within 1e-3 relative (bf16 matmuls after the norm)
GX:"e"$256 64#(256*64)?1f; GY:"e"$256 8#(256*8)?1f
gstep:{[lc]
  setting`lncast,lc; seed 9; setting`autocast,`bf16;
  q:module seq(`sequential;(`linear;64;512);(`layernorm;512);(`linear;512;8)); to(q;`cuda);
  m:model(q;loss`mse;opt(`sgd;q;.001));
  g:graph(m;GX;GY);
  profile`start; l:replay g; sync(); p:profile`stop; free l;
  ls:{[g;i] l:replay g; r:first raze tensor l; free l; r}[g] each til 5;
  free(g;m); setting`lncast,0b; setting`autocast,`none;
  (ls;exec name from p where device=`cuda)}
ga:gstep 0b; gu:gstep 1b
-1 "recorded step losses, off: ",(" " sv string ga 0),"; lncast: "," " sv string gu 0;
.t.ok["recorded step replays the forward kernel";`ktorch_ln_fwd in gu 1]
.t.ok["recorded step: losses finite and falling";(all 0w>gu 0) and (last gu 0)<first gu 0]
.t.ok["recorded step: losses as the setting off";all (abs(gu[0]-ga 0))<=1e-3*abs ga 0]
.t.done[]
