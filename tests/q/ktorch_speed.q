/ Speed paths give the numbers of the paths they replace (issue 21): attention through
/ scaled_dot_product_attention (setting`sdpa) against the matmul-softmax-matmul math within 1e-5
/ in float32, outputs and gradients, masks of every kind, the causal mask recognised (and seen
/ again after an in-place change); the fused optimizer kernels (setting`fusedcpu on the CPU)
/ against the single-tensor rules; the precision settings (TF32, matmul precision, autocast).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
/ within tol, relative to 1|abs e, element by element
close:{[tol;r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (tol*1|abs e)>abs r-e}
seed 7

/ ---------------------------------------------------------------------------------------------
/ settings
.t.eq["sdpa on by default";setting`sdpa;1b]
.t.eq["fused on by default";setting`fused;1b]
.t.eq["fusedcpu off by default";setting`fusedcpu;0b]
.t.eq["autocast none by default";setting`autocast;`none]
.t.eq["matmul precision highest by default (PyTorch's default)";setting`matmulprecision;`highest]
.t.eq["tf32 off by default (PyTorch's default)";setting`tf32;0b]
.t.eq["cudnn tf32 on by default (PyTorch's default)";setting`cudnntf32;1b]
setting`matmulprecision,`high
/ torch.set_float32_matmul_precision("high") is torch.backends.cuda.matmul.allow_tf32=True
.t.eq["precision high is tf32 for matmuls";setting`tf32;1b]
setting`tf32,0b
.t.eq["tf32 off is precision highest";setting`matmulprecision;`highest]
setting`tf32,1b
.t.eq["tf32 on is precision high";setting`matmulprecision;`high]
setting`tf32,0b
setting`cudnntf32,0b
.t.eq["cudnn tf32 set";setting`cudnntf32;0b]
setting`cudnntf32,1b
setting`autocast,`bf16
.t.eq["autocast set";setting`autocast;`bf16]
setting`autocast,`none
.t.eq["autocast: unknown type";err[setting;(`autocast;`fp8)];"setting: autocast: expected one of `none`bf16`fp16, given `fp8"]
.t.eq["matmulprecision: unknown";err[setting;(`matmulprecision;`low)];"setting: matmulprecision: expected one of `highest`high`medium, given `low"]
.t.eq["tf32: not a boolean";err[setting;(`tf32;1)];"setting: `tf32 expects a boolean"]
.t.ok["all settings listed";all `tf32`cudnntf32`matmulprecision`autocast`autocastcpu`fused`fusedcpu`sdpa in key setting[]]
/ autocast on the CPU (torch.autocast("cpu")): only with autocastcpu; a linear layer's output is
/ then bf16 (CPU autocast's lower-precision list), its parameters stay float32
.t.eq["autocastcpu off by default";setting`autocastcpu;0b]
lin:module enlist(`linear;4;3); xin:tensor 2 4#"e"$til 8
setting`autocast,`bf16
y:forward(lin;xin); .t.eq["autocast without autocastcpu: a CPU module in float32";dtype y;`float]; free y
setting`autocastcpu,1b
y:forward(lin;xin); .t.eq["autocastcpu: the CPU module's linear in bf16";dtype y;`bfloat]; free y
p:parms lin; .t.eq["autocastcpu: parameters stay float32";distinct value dtype p;enlist`float]; free p
setting`autocast,`none
y:forward(lin;xin); .t.eq["autocastcpu with autocast none: float32";dtype y;`float]; free y
setting`autocastcpu,0b
free(lin;xin)

/ ---------------------------------------------------------------------------------------------
/ attention: sdpa (1b) against the math (0b), evaluation and training mode (no dropout),
/ outputs and the gradients of inputs and parameters
both:{[f] setting`sdpa,1b; a:f[]; setting`sdpa,0b; b:f[]; setting`sdpa,1b; (a;b)}
same:{[name;f] r:both f; .t.ok[name;close[1e-5;r 0;r 1]]}
/ output of module m on inputs x (q data) in training mode with gradients, and the gradients of
/ every parameter and of the first input
fwdgrad:{[m;x]
  t:tensor(x 0;`grad); y:forward enlist[m;t],1_x; y:$[`vector~class y;[r:tensor(y;0); free y; r];y];
  l:Sum y; backward l; g:grad t; o:tensor y; p:parms m; d:dict p;
  gp:{[m;k] t:parm(m;k); r:grad t; free t; r}[m]each key d;
  zerograd m; free(t;y;l;p); (o;g;gp)}
n:6; causal:{triu((2#x)#-0we;1)}
q:"e"$-0.5+(n;3;8)#(n*3*8)?1f      / (length; batch; dim), sequence first
k:"e"$-0.5+(n;3;8)#(n*3*8)?1f
fm:"e"$(n;n)#(n*n)?1f               / a float mask, not causal
m:module enlist(`attention;8;2)
ev:{[m;x] evaluate enlist[m],x}
same["attention, no mask";{ev[m;(q;q;q;0#0b;0b)]}]
same["attention, causal float mask";{ev[m;(q;q;q;0#0b;0b;causal n)]}]
same["attention, causal boolean mask";{ev[m;(q;q;q;0#0b;0b;(til n)</:til n)]}]
same["attention, other float mask";{ev[m;(q;k;k;0#0b;0b;fm)]}]
same["attention, key padding mask";{ev[m;(q;k;k;3 6#000001b,000011b,000000b;0b)]}]
same["attention, padding and causal mask";{ev[m;(q;q;q;3 6#000001b,000011b,000000b;0b;causal n)]}]
same["attention, unbatched";{ev[m;(q[;0];q[;0];q[;0];0#0b;0b;causal n)]}]
same["attention, with weights (math both ways)";{ev[m;(q;q;q;0#0b;1b;causal n)]}]
same["attention, training, gradients, causal";{fwdgrad[m;(q;q;q;0#0b;0b;causal n)]}]
same["attention, training, gradients, float mask";{fwdgrad[m;(q;k;k;0#0b;0b;fm)]}]
free m
m:module enlist(`attention;8;2;0.0;1b;1b;1b)
same["attention, addbias and addzero, causal mask";{ev[m;(q;q;q;0#0b;0b;causal n)]}]
free m

/ a causal mask seen, then changed in place: no longer causal
u:tensor causal n
m:module enlist(`attention;8;2)
same["attention, causal mask tensor";{evaluate(m;tensor q;tensor q;tensor q;tensor 0#0b;tensor 0b;u)}]
fill(u;0)   / in place: all zero, no longer causal
same["attention, the same mask tensor changed in place";{evaluate(m;tensor q;tensor q;tensor q;tensor 0#0b;tensor 0b;u)}]
free(m;u)

/ ktorch's selfattention (batch first): char.q's block, mask triu -inf, larger mask narrowed
xs:"e"$-0.5+(3;n;8)#(3*n*8)?1f
m:module enlist(`selfattention;8;2;0.0;1b)
same["selfattention, no mask";{ev[m;enlist xs]}]
same["selfattention, causal mask";{ev[m;(xs;causal n)]}]
same["selfattention, larger causal mask";{ev[m;(xs;causal 2*n)]}]
same["selfattention, float mask";{ev[m;(xs;fm)]}]
same["selfattention, boolean mask (added as numbers)";{ev[m;(xs;(til n)</:til n)]}]
same["selfattention, training, gradients";{fwdgrad[m;(xs;causal n)]}]
free m

/ transformer layers (evaluation: their dropout is not 0)
m:module enlist(`encoderlayer;8;2;16)
same["encoderlayer, causal mask";{ev[m;(q;causal n)]}]
same["encoderlayer, padding mask";{ev[m;(q;0#0e;3 6#000001b,000011b,000000b)]}]
free m
m:module enlist(`decoderlayer;8;2;16)
same["decoderlayer, causal target mask";{ev[m;(q;k;causal n)]}]
free m

/ dropout in training: the sdpa path drops (the outputs differ from evaluation's) and keeps scale
m:module enlist(`selfattention;8;2;0.5)
setting`sdpa,1b
a:forward(m;xs); b:evaluate(m;xs); o:tensor a; free a
.t.ok["selfattention dropout in training";not close[1e-5;o;b]]
free m

/ ---------------------------------------------------------------------------------------------
/ fused optimizer kernels against the single-tensor rules (CPU kernels through setting`fusedcpu):
/ three steps of the same gradients from the same parameters
W:"e"$-0.5+4 3#12?1f; B:"e"$-0.5+3?1f; G:{"e"$-0.5+x#prd[x]?1f}each 3#enlist 4 3; H:{"e"$-0.5+3?1f}each til 3
steps:{[name;opts;fused]
  setting`fusedcpu,fused;
  v:vector(W;B); gradflag(v;1b);
  o:opt(name;v),opts;
  r:{[o;v;r;i] zerograd o; w:tensor(v;0); b:tensor(v;1);
     y:mul(w;G i); z:mul(b;H i); l:Sum y; backward l; l2:Sum z; backward l2; free(w;b;y;z;l;l2);
     step o; r,enlist vector v}[o;v]/[();til 3];
  s:state o; free(o;v); setting`fusedcpu,0b; (r;s)}
fused:{[name;opts] a:steps[name;opts;1b]; b:steps[name;opts;0b];
  .t.ok[string[name]," fused updates";close[1e-6;a 0;b 0]]}
fused[`adam;enlist .01]
fused[`adam;(.01;.8;.9;1e-6;.1;1b)]
fused[`adamw;enlist .01]
fused[`adamw;(.01;`decay`amsgrad!(.1;1b))]
fused[`sgd;enlist .1]
fused[`sgd;(.1;`momentum`dampening`decay!.9 .1 .01)]
fused[`sgd;(.1;.9;`nesterov,1b)]
/ the state has the same buffers; the step count stays a float scalar
a:steps[`adamw;enlist .01;1b]; b:steps[`adamw;enlist .01;0b]
.t.eq["fused adamw buffers";key each (a 1)[`parms;`buffers];key each (b 1)[`parms;`buffers]]
.t.eq["fused adamw step count";(a 1)[`parms;`buffers;0;`step];3e]

/ a module's memory format (PyTorch's Module.to(memory_format=)): its 4-d tensors channels-last,
/ the others as they were; the same output as before, in a channels-last layout (the inner
/ container a seqnest: a sequential cannot hold a sequential, as in ktorch)
q:module (`sequential; seq(`seqnest; (`conv2d;3;4;3;1;1); (`batchnorm2d;4); `relu))
x:tensor(`randn;2 3 5 5)
y0:tensor r0:forward(q;x); free r0
to(q;`channel2d)
p:parms q
w:tensor(p;`0.0.weight); b:tensor(p;`0.0.bias)
.t.ok["to(module;`channel2d): conv weight channels-last";contiguous(w;`channel2d)]
.t.ok["to(module;`channel2d): conv weight no longer row-major";not contiguous w]
.t.ok["to(module;`channel2d): 1-d bias as it was";contiguous b]
to(x;`channel2d)
r1:forward(q;x)
.t.ok["channels-last forward: the same output";all 1e-5>abs raze over y0-tensor r1]
.t.ok["channels-last forward: output channels-last";contiguous(r1;`channel2d)]
to(q;`contiguous)
.t.ok["to(module;`contiguous): row-major again";contiguous w]
.t.eq["to(module;`preserve): refused";.t.catch {to(q;`preserve)};"to: converts device & type, but cannot be used for layout, gradient, pinned memory or memory format"]
free(q;x;p;w;b;r1)
.t.done[]
