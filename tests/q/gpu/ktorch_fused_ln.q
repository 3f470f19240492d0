/ On a CUDA machine (scripts/gpu-run.sh): setting`fusedln, layer norm whose backward is one
/ NVRTC kernel over x and dy (src/cxx/fused_ln.cpp), against ATen's layer norm (setting off) on
/ the same inputs: output y and the gradients of x, weight and bias.
/ Shapes rows x features: 25600x512 (char.q's GPT: 200 x 128 tokens, 512 features), 1x1, 3x7,
/ 1000x1000, 77x4097 (no float4 loads: 4097 is odd), 64x8192; float32, bias trained or frozen;
/ and under bf16 autocast (the GPT's case: an fp32 residual in, fp32 out), also with a bf16
/ input (autocast casts it to fp32 for layer norm; its gradient comes back in bf16).
/ Tolerance: y must be identical (the same ATen forward); dx within 1e-5 x (1 | max|dx|) (fp32:
/ the same formula, sums in another order; a bf16 input's dx, rounded to bf16, within 2^-7 x
/ that scale, one bf16 rounding); dgamma and dbeta, sums over up to 25600 rows in another order,
/ within 1e-5 x (1 | max|dgamma|). Seen on an H100: dx within 4.8e-7, dgamma and dbeta of
/ 25600x512 within 3.4e-4 of a scale near 500 (7e-7 relative). The fused kernels are seen to run: their names
/ (ktorch_ln_bwd, ktorch_ln_bwd_reduce) are CUDA rows of `profile` with the setting on, absent
/ with it off. Also: selfattention's gradients under bf16 autocast, a recorded training step
/ (CUDA graph) that replays the fused kernels with ATen's losses, a backward pass for higher
/ derivatives (`create) through ATen's backward.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
seed 7
/ (a frozen bias has no gradient: :: on both sides, no difference)
maxdiff:{[a;b] $[(::)~a;$[(::)~b;0f;0w];max abs raze over ("f"$a)-"f"$b]}
scale:{$[(::)~x;1f;1f|max abs raze over "f"$x]}
/ y, dx, dgamma, dbeta (dbeta :: when the bias is frozen) of layer norm over the last dim of
/ cuda tensor x0 (copied, as dtype `dt`, with gradients), gradient dy, weight w, bias b
ln:{[fused;ac;dt;x0;dy;w;b;fb]
  setting`fusedln,fused;
  q:module enlist(`layernorm;count w); parm(q;`weight;w); parm(q;`bias;b); to(q;`cuda);
  ps:{parm(x;y)}[q]each`weight`bias; if[not fb; gradflag(ps 1;0b)];
  x:copyto(x0;dt,`grad);
  setting`autocast,ac; y:forward(q;x); setting`autocast,`none;
  backward(y;dy);
  r:(tensor y;grad x;grad ps 0;grad ps 1);
  free each (x;y),ps; free q; setting`fusedln,0b; r}
/ one case: rows r, features f; name for the report
case:{[r;f;ac;dt;fb]
  name:string[r],"x",string[f],$[fb;"";" bias frozen"],$[ac~`none;"";" ",string[ac]," autocast"],$[dt~`float;"";" ",string[dt]," input"];
  x0:tensor(`randn;r,f;`cuda); mul(x0;3;[]); add(x0;1;[]);
  dy:tensor(`randn;r,f;`cuda);
  w:"e"$1+-0.5+f?1f; b:"e"$-0.5+f?1f;
  a:ln[0b;ac;dt;x0;dy;w;b;fb]; u:ln[1b;ac;dt;x0;dy;w;b;fb];
  free(x0;dy);
  d:maxdiff'[u;a]; s:scale each a;
  -1 name,": max |fused-aten| y ",string[d 0],", dx ",string[d 1]," (scale ",string[s 1],"), dgamma ",string[d 2]," (scale ",string[s 2],"), dbeta ",string[d 3]," (scale ",string[s 3],")";
  .t.eq[name," y identical";u 0;a 0];
  .t.eq[name," dx type";type u 1;type a 1];
  / a bf16 input's gradient is rounded to bf16: the fp32 difference may flip one rounding
  .t.ok[name," dx within ",$[dt~`float;"1e-5";"a bf16 rounding"];d[1]<=s[1]*$[dt~`float;1e-5;2 xexp -7]];
  .t.ok[name," dgamma within 1e-5";d[2]<=1e-5*s 2];
  $[fb; .t.ok[name," dbeta within 1e-5";d[3]<=1e-5*s 3]; .t.eq[name," frozen bias: no gradient";(u 3;a 3);(::;::)]];
  }
shapes:(25600 512;1 1;3 7;1000 1000;77 4097;64 8192)
{case[x 0;x 1;`none;`float;1b]}each shapes;
{case[x 0;x 1;`none;`float;0b]}each 2#shapes;
{case[x 0;x 1;`bf16;`float;1b]}each shapes;
case[4096;512;`bf16;`bfloat;1b]

/ the fused kernels ran with the setting on, not with it off (profile's CUDA rows)
kernels:{[fused]
  setting`fusedln,fused;
  q:module enlist(`layernorm;512); to(q;`cuda); x:tensor(`randn;256 512;`cuda`grad);
  profile`start; y:forward(q;x); backward(y;1e); sync(); p:profile`stop;
  free(x;y;q); setting`fusedln,0b;
  exec name from p where device=`cuda}
on:kernels 1b; off:kernels 0b
-1 "CUDA kernels, setting`fusedln on: ",", " sv string on;
-1 "CUDA kernels, setting`fusedln off: ",", " sv string off;
.t.ok["fused kernels ran with the setting on";all `ktorch_ln_bwd`ktorch_ln_bwd_reduce in on]
.t.ok["no fused kernel with the setting off";not any `ktorch_ln_bwd`ktorch_ln_bwd_reduce in off]

/ selfattention's norm (char.q's GPT block: 512 features, 8 heads, norm on) under bf16 autocast:
/ gradients of the input and every parameter with the setting on as off. The layer norm's
/ gradients differ in the last fp32 bits, which bf16 matmuls downstream may round either way:
/ within 1e-2 x scale.
att:{[fused]
  setting`fusedln,fused; seed 3;
  q:module enlist(`selfattention;512;8;0f;1b); to(q;`cuda);
  x:tensor(`randn;4 128 512;`cuda`grad);
  setting`autocast,`bf16; y:forward(q;x); setting`autocast,`none;
  backward(y;1e);
  ps:{parm(x;y)}[q]each parmnames q;
  r:grad each enlist[x],ps; free each (x;y),ps; free q; setting`fusedln,0b; r}
a:att 0b; u:att 1b
d:maxdiff'[u;a]; s:scale each a
-1 "selfattention bf16 autocast, max |fused-aten| / scale: ",", " sv string d%s;
.t.ok["selfattention gradients with fusedln";all d<=1e-2*s]

/ a recorded training step (CUDA graph, docs/graph.md): recording runs three eager steps first,
/ which compile the kernel, then captures it; the replays run it (profile) and give the losses
/ of ATen's recorded step within 1e-5 relative
GX:"e"$256 64#(256*64)?1f; GY:"e"$256 8#(256*8)?1f
gstep:{[fused]
  setting`fusedln,fused; seed 9;
  q:module seq(`sequential;(`linear;64;512);(`layernorm;512);(`linear;512;8)); to(q;`cuda);
  m:model(q;loss`mse;opt(`sgd;q;.001));
  g:graph(m;GX;GY);
  profile`start; l:replay g; sync(); p:profile`stop; free l;
  ls:{[g;i] l:replay g; r:first raze tensor l; free l; r}[g] each til 5;
  free(g;m); setting`fusedln,0b;
  (ls;exec name from p where device=`cuda)}
ga:gstep 0b; gu:gstep 1b
-1 "recorded step losses, ATen: ",(" " sv string ga 0),"; fused: "," " sv string gu 0;
.t.ok["recorded step replays the fused kernels";all `ktorch_ln_bwd`ktorch_ln_bwd_reduce in gu 1]
.t.ok["recorded step: ATen's kernels without the setting";not `ktorch_ln_bwd in ga 1]
.t.ok["recorded step: losses finite and falling";(all 0w>ga 0) and (last ga 0)<first ga 0]
.t.ok["recorded step: losses as ATen's";all (abs(gu[0]-ga 0))<=1e-5*abs ga 0]

/ without affine parameters (no weight: ATen's layer norm with the setting on, as off)
na:{[fused] setting`fusedln,fused; seed 4; q:module enlist(`layernorm;512;1e-5;0b); to(q;`cuda);
  x:tensor(`randn;64 512;`cuda`grad); dy:tensor(`randn;64 512;`cuda);
  y:forward(q;x); backward(y;dy); r:(tensor y;grad x); free(q;x;dy;y); setting`fusedln,0b; r}
.t.ok["no affine parameters: as ATen's";{x~y}. na each 01b]

/ a backward pass recorded for higher derivatives (`create) runs ATen's backward with the setting
/ on (tests/fused_ln.rs checks the second derivatives against libtorch's on the CPU): the first
/ derivatives as with the setting off, and no fused kernel counted for it
dd:{[fused] setting`fusedln,fused; seed 6; q:module enlist(`layernorm;16); to(q;`cuda);
  x:tensor(`randn;4 16;`cuda`grad); y:forward(q;x); backward(y;4 16#1e;`create);
  r:grad x; nograd x; free(q;x;y); setting`fusedln,1b; r}
D:dd each 10b
.t.ok["create: first derivatives as ATen's";(D[0]~D[1]) and 0<sum abs raze D 0]
.t.done[]
