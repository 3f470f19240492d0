/ Gradient scaling (`gradscale`, PyTorch's torch.amp.GradScaler) against PyTorch through
/ overflows (tests/q/gen/amp.py writes tests/q/data/amp_expected.q): an initial scale of 2^120
/ makes the scaled gradients inf, steps are skipped, the scale backs off and grows again. Each
/ step's loss, scale, growth tracker and skip, and the parameters after 12 steps, equal
/ PyTorch's: SGD with momentum trained by `run` (the found-inf flag read back), and Adam through
/ the fused kernel (setting`fusedcpu; the kernel skips the update itself) in a hand-written loop
/ `backward`, `clip`, `step` (GradScaler's scale/backward, unscale_, clip_grad_norm_, step and
/ update); SGD again through the fused kernel. Then the forms, state and errors of gradscale.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/amp_expected.q

near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-5*1|abs e)>abs r-e}
mk:{[p] q:module lin; {[q;k;v] parm(q;k;"e"$v)}[q]'[key p;value p]; q}
parmsnear:{[m;e] p:parms m; d:dict p; free p; $[key[d]~key e; near[value d;value e]; 0b]}
lin:enlist(`linear;3;2)
/ after each step: (loss; scale; tracker; steps skipped so far)
ex:{[n;s] get `$".e.",n,s}
after:{[m;l] s:gradscale m; (l;s`scale;s`tracker;s`skipped)}
check:{[name;m;r]
  .t.ok[name," losses";near[r[;0];ex[name;"L"]]];
  .t.eq[name," scales";r[;1];ex[name;"S"]];
  .t.eq[name," growth tracker";r[;2];ex[name;"T"]];
  .t.eq[name," steps skipped";r[;3];sums "j"$ex[name;"K"]];
  .t.ok[name," parameters after 12 steps";parmsnear[m;ex[name;"P"]]]}

/ SGD with momentum, `run` (one batch an epoch)
q:mk .p.sgd
m:model(q;loss`mse;opt(`sgd;q;1e-5;.9))
train(m;`batchsize;8); train(m;"e"$.i.x;"e"$.i.y);
.t.eq["gradscale off: ::";gradscale m;::]
gradscale(m;2 xexp 120;2 xexp 6;2 xexp -4;2);
.t.eq["gradscale state before a step";gradscale m;`scale`growth`backoff`interval`tracker`skipped!(2 xexp 120;64f;.0625;2;0;0)]
r:{[m;i] after[m;run m]}[m]each til 12
check["sgd";m;r]
free m

/ the same through the fused SGD kernel (setting`fusedcpu): steps skipped before the momentum
/ buffers exist read the flag back (the kernel would leave them unset), later ones skip on the
/ device; the same numbers as PyTorch's single-tensor SGD
setting`fusedcpu,1b
q:mk .p.sgd
m:model(q;loss`mse;opt(`sgd;q;1e-5;.9))
train(m;`batchsize;8); train(m;"e"$.i.x;"e"$.i.y);
gradscale(m;2 xexp 120;2 xexp 6;2 xexp -4;2);
r:{[m;i] after[m;run m]}[m]each til 12
check["sgd";m;r]
setting`fusedcpu,0b
free m

/ Adam, fused kernel on the CPU, hand-written loop with clipping
setting`fusedcpu,1b
q:mk .p.adam
m:model(q;loss`mse;opt(`adam;q;.1))
gradscale(m;2 xexp 120;2 xexp 6;2 xexp -4;2);
x:"e"$.i.x; y:"e"$.i.y
r:{[m;x;y;i] nograd m; l:backward(m;x;y); clip(m;50); step m; after[m;l]}[m;x;y]each til 12
check["adam";m;r]
setting`fusedcpu,0b
free m

/ forms and errors
q:module lin; m:model(q;loss`mse;opt(`sgd;q;.1))
gradscale(m;1b);
.t.eq["gradscale(m;1b): PyTorch's defaults";gradscale m;`scale`growth`backoff`interval`tracker`skipped!(65536f;2f;.5;2000;0;0)]
gradscale(m;1024);
.t.eq["gradscale(m;init)";"f"$(gradscale m)`scale`growth;1024 2f]
gradscale(m;0b);
.t.eq["gradscale(m;0b): off";gradscale m;::]
.t.throws["growth factor";{gradscale(m;1024;1;.5;10)};"gradscale: growth factor must be greater than 1, given 1"]
.t.throws["backoff factor";{gradscale(m;1024;2;1.5;10)};"gradscale: backoff factor must be between 0 and 1, given 1.5"]
.t.throws["interval";{gradscale(m;1024;2;.5;0)};"gradscale: growth interval must be a positive integer, given 0"]
.t.throws["initial scale";{gradscale(m;-1)};"gradscale: initial scale must be a positive number, given -1"]
.t.ok["not a model";0<count .t.catch {gradscale(q;1b)}]
free m
q:module lin; m:model(q;loss`mse;opt(`lbfgs;q))
gradscale(m;1b);
.t.throws["lbfgs";{backstep(m;"e"$.i.x;"e"$.i.y)};"backstep: gradscale: not for lbfgs, whose step evaluates the loss more than once (as GradScaler, which takes no closure)"]
free m
.t.done[]
