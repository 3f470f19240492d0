/ Models and weights between PyTorch and ktorch (issue 23), against what PyTorch computed:
/ tests/py/pymodels_make.py wrote the files and refs.q (its outputs) into the folder given as the
/ first argument; this script checks ktorch's results and leaves files for
/ tests/py/pymodels_check.py (q-trained state and outputs, read back in PyTorch). Run by
/ tests/pymodels.rs.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
dir:first .z.x
f:{`$":",dir,"/",x}
system"l ",dir,"/refs.q"
err:{[g;a] @[{x y;""}[g];a;{x}]}
has:{[e;s] 0<count ss[e;s]}
/ float tolerance where kernels may differ (AOTInductor's generated code)
near:{[a;b;tol] tol>max abs raze over (a-b)}

/ TorchScript: loaded, names as PyTorch's, eval outputs bit-equal to PyTorch's on CPU
m:loadscript f"scorer.pt"
.t.eq["parameter names";parmnames m;.r.parmnames]
.t.eq["buffer names";buffernames m;.r.buffernames]
.t.eq["eval output equals PyTorch's";evaluate(m;.r.x);.r.eval]
t:eforward(m;.r.x)
.t.eq["eforward gives a tensor";class t;`tensor]
.t.eq["eforward's values";tensor t;.r.eval]
free t
.t.eq["training flag";training m;1b]
/ training mode forward: batch statistics (no gradient needed for the value)
t:nforward(m;.r.x)
.t.eq["training-mode output equals PyTorch's";tensor t;.r.train]
free t
.t.eq["module definition";(module m)`module;`torchscript]
/ clone: an independent copy
e1:evaluate(m;.r.x)
c:clone m
.t.eq["clone runs the same";evaluate(c;.r.x);evaluate(m;.r.x)]
p:parms c
zeros p
free p
.t.ok["clone's parameters are its own";not (evaluate(c;.r.x))~evaluate(m;.r.x)]
.t.eq["the original is unchanged";evaluate(m;.r.x);e1]
free(c;m)

/ several inputs, tuple and dictionary outputs
mm:loadscript f"multi.pt"
r:evaluate(mm;.r.mx;.r.mz)
.t.eq["two inputs, tuple output";r;(.r.ma;.r.mb)]
v:eforward(mm;.r.mx;.r.mz)
.t.eq["tuple output as a vector";class v;`vector]
.t.eq["vector's tensors";vector v;(.r.ma;.r.mb)]
free(v;mm)
s:loadscript(f"stats.pt";`cpu)
d:evaluate(s;.r.mx)
.t.eq["dictionary output: keys";key d;`mean`max`n]
.t.eq["dictionary output: values";d`mean`max;(.r.smean;.r.smax)]
h:eforward(s;.r.mx)
.t.eq["dictionary output as a dictionary handle";class h;`dictionary]
free(h;s)

/ fine-tuning in a ktorch model: SGD with momentum, 5 steps, against PyTorch's (same loss, same
/ optimizer): each loss and every parameter after
ft:loadscript f"scorer.pt"
q:model(ft;loss`mse;opt(`sgd;ft;.05;.9))
l:{backstep(q;.r.x;.r.y)} each til 5
.t.eq["fine-tuning losses (SGD, momentum)";l;.r.ftloss]
p:dict pp:parms q
.t.eq["fine-tuned l1.weight";p`l1.weight;.r.ft.l1_weight]
.t.eq["fine-tuned l1.bias";p`l1.bias;.r.ft.l1_bias]
.t.eq["fine-tuned bn.weight";p`bn.weight;.r.ft.bn_weight]
.t.eq["fine-tuned l2.weight";p`l2.weight;.r.ft.l2_weight]
b:dict bb:buffers q
.t.eq["fine-tuned running mean";b`bn.running_mean;.r.ftbuf.bn_running_mean]
.t.eq["fine-tuned running var";b`bn.running_var;.r.ftbuf.bn_running_var]
.t.eq["fine-tuned eval output";evaluate(q;.r.x);.r.fteval]
free(pp;bb)
/ savable again: torch.jit.load reads it (tests/py/pymodels_check.py), and so do we
.t.eq["savescript answers the file";savescript(q;f"ft_q.pt");f"ft_q.pt"]
m2:loadscript f"ft_q.pt"
.t.eq["saved fine-tuned module runs the same";evaluate(m2;.r.x);.r.fteval]
free(m2;q)
fa:loadscript f"scorer.pt"
q:model(fa;loss`mse;opt(`adam;fa;.01))
{backstep(q;.r.x;.r.y)} each til 5;
.t.eq["fine-tuning with Adam";evaluate(q;.r.x);.r.adameval]
free q

/ AOTInductor package: float tolerance (its kernels are generated, not ATen's)
a:loadaoti f"scorer.pt2"
.t.ok["aoti output near PyTorch's";near[evaluate(a;.r.x);.r.aoti;1e-5]]
.t.ok["aoti batch of 2";near[evaluate(a;2#.r.x);2#.r.aoti;1e-5]]
e:err[evaluate;(a;1#.r.x)]
.t.ok["aoti batch of 1, outside the exported range: an error";has[e;"aoti forward"]]
.t.ok["aoti has no parameters";0=count parmnames a]
e:err[evaluate;(a;"e"$32 3#0)]
.t.ok["aoti wrong input shape is an error";(0<count e) and not has[e;"stale"]]
free a

/ torch.save'd state dict: into a dictionary and into a module of the same names
d:loadpt f"seq.pt"
.t.eq["state dict keys";key dict d;`$("0.weight";"0.bias";"2.weight";"2.bias")]
free d
q:module seq(`sequential;(`linear;4;8);`relu;(`linear;8;3))
loadpt(q;f"seq.pt")
.t.eq["state dict loaded: outputs equal PyTorch's";evaluate(q;.r.x);.r.seq]
q2:module seq(`sequential;(`linear;4;8);`relu;(`linear;8;3))
loadsafe(q2;f"seq.safetensors")
.t.eq["PyTorch's safetensors loaded: same outputs";evaluate(q2;.r.x);.r.seq]
free(q;q2)
d:loadpt f"dtypes.pt"
v:dict d
.t.eq["torch.save dtypes: double";v`f64;.r.f64]
.t.eq["long";v`i64;til 5]
.t.eq["int";v`i32;"i"$til 4]
.t.eq["bool";v`bool;101b]
.t.eq["byte";v`u8;"x"$til 3]
.t.eq["half";"f"$v`f16;.r.f16]
.t.eq["bfloat16";"f"$v`bf16;.r.bf16]
.t.eq["a view of a storage";v`view;.r.view]
free d
d:loadsafe f"dtypes.safetensors"
v:dict d
.t.eq["safetensors dtypes: double";v`f64;.r.f64]
.t.eq["safetensors long";v`i64;til 5]
.t.eq["safetensors half";"f"$v`f16;.r.f16]
.t.eq["safetensors bfloat16";"f"$v`bf16;.r.bf16]
.t.eq["safetensors view (saved contiguous)";v`view;.r.view]
free d

/ bad files: q errors naming the file and the problem
chk:{[name;g;a;file;what] e:err[g;a]; .t.ok[name,": ",e;has[e;file] and has[e;what]]}
chk["truncated TorchScript";loadscript;f"bad_truncated.pt";"bad_truncated.pt";"not a TorchScript module"]
chk["text as TorchScript";loadscript;f"bad_text.pt";"bad_text.pt";"not a TorchScript module"]
chk["missing file";loadscript;f"nope.pt";"nope.pt";"No such file"]
chk["truncated state dict";loadpt;f"bad_truncated_sd.pt";"bad_truncated_sd.pt";"not a zip archive"]
chk["text as state dict";loadpt;f"bad_text.pt";"bad_text.pt";"not a torch.save file"]
chk["pickle with code";loadpt;f"bad_code.pt";"bad_code.pt";"could run code"]
chk["TorchScript as state dict";loadpt;f"scorer.pt";"scorer.pt";"use loadscript"]
chk["truncated safetensors";loadsafe;f"bad_truncated.safetensors";"bad_truncated.safetensors";"not a safetensors file"]
chk["bad safetensors header";loadsafe;f"bad_header.safetensors";"bad_header.safetensors";"not a safetensors file"]
chk["state dict as safetensors";loadsafe;f"seq.pt";"seq.pt";"not a safetensors file"]
chk["text as AOTI package";loadaoti;f"bad_text.pt";"bad_text.pt";"not an AOTInductor package"]
chk["TorchScript as AOTI package";loadaoti;f"scorer.pt";"scorer.pt";"cannot load AOTInductor package"]
q:module seq(`sequential;(`linear;4;8);`relu;(`linear;8;3))
e0:evaluate(q;.r.x)
chk["names mismatch";loadpt;(q;f"bad_names.pt");"bad_names.pt";"names do not match"]
chk["shape mismatch";loadpt;(q;f"bad_shape.pt");"bad_shape.pt";"has shape 8 5 in the file, 8 4 in the module"]
chk["safetensors shape mismatch";loadsafe;(q;f"bad_shape.safetensors");"bad_shape.safetensors";"has shape 8 5"]
.t.eq["a failed load changes nothing";evaluate(q;.r.x);e0]
chk["savescript of a ktorch module";savescript;(q;f"no.pt");"sequential";"not a TorchScript module"]
free q

/ the reverse: a model trained in q, its state written as safetensors with PyTorch's names;
/ tests/py/pymodels_check.py loads it into torch.nn.Sequential and compares outputs with q's
seed 7
q:module seq(`sequential;(`linear;4;8);`relu;(`linear;8;1))
m:model(q;loss`mse;opt(`adam;q;.01))
{backstep(m;.r.x;.r.y)} each til 20;
savesafe(m;f"qtrained.safetensors")
savesafe(`x`y!(.r.x;evaluate(m;.r.x));f"qtrained_out.safetensors")
/ and the fine-tuned TorchScript module's outputs, for ft_q.pt
savesafe((enlist`y)!enlist .r.fteval;f"ft_q_out.safetensors")
d:loadsafe f"qtrained.safetensors"
/ (safetensors orders a file's tensors by type size, then name)
.t.eq["our safetensors read back: names";asc key dict d;asc `$("0.weight";"0.bias";"2.weight";"2.bias")]
free(d;m)
.t.eq["nothing left";count obj[];0]
.t.done[]
