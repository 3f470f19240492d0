/ TorchScript (and AOTInductor) on CUDA through ktorch against PyTorch on CUDA (cuda_refs.py).
{key[x]set'x}(`ktorch 2:`fns,1)[];
dir:first .z.x; f:{`$":",dir,"/",x}
system"l ",dir,"/refs.q"
md:{max abs raze over x-y}
rep:{[n;d;tol] -1 $[d<=tol;"ok   ";"FAIL "],n,": largest difference ",string[d]," (tolerance ",string[tol],")"; if[d>tol;.fail+:1]}
.fail:0
m:loadscript(f"scorer.pt";`cuda)
show device p:parms m; free p
r1:evaluate(m;.c.x); r:evaluate(m;.c.x); r:evaluate(m;.c.x); r:evaluate(m;.c.x)
rep["TorchScript on cuda vs PyTorch's script on cuda (4th call)";md[r;.c.script1];0]
rep["TorchScript on cuda (1st call) vs PyTorch eager on cuda";md[r1;.c.eager];1e-6]
rep["TorchScript on cuda (4th call) vs PyTorch eager on cuda";md[r;.c.eager];1e-5]
free m
m:loadscript f"scorer.pt"
to(m;`cuda)
rep["loaded on cpu, to cuda: vs PyTorch eager on cuda";md[evaluate(m;.c.x);.c.eager];1e-5]
q:model(m;loss`mse;opt(`sgd;m;.05;.9))
l:{backstep(q;.c.x;.c.y)} each til 5
rep["fine-tuning on cuda: losses";md[l;.c.ftloss];1e-5]
rep["fine-tuning on cuda: eval output";md[evaluate(q;.c.x);.c.fteval];1e-5]
free q
mm:loadscript(f"multi.pt";`cuda)
r:evaluate(mm;.c.mx;.c.mz)
rep["two inputs, tuple output on cuda";md[r;(.c.ma;.c.mb)];1e-6]
free mm
if[.c.aoti; a:loadaoti f"scorer_cuda.pt2"; rep["AOTInductor cuda package vs PyTorch eager on cuda";md[evaluate(a;.c.x);.c.eager];1e-5]; free a]
-1 "failures: ",string .fail;
exit .fail>0
