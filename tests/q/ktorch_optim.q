/ Optimizers (opt.rst): each one's first three updates against torch.optim on the same
/ parameters and gradients (tests/q/gen/optim.py), LAMB against a transcription of ktorch's rule;
/ the definition (`opt o`), groups, `lr`, `state` buffers, and errors.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/optim_expected.q
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-9*1|abs e)>abs r-e}

/ set the gradient of tensor handle t to g: backward of sum(t*g)
setgrad:{[t;g] y:mul(t;g); l:Sum y; backward l; free(y;l)}
/ three steps of optimizer `name` with options `opts` on W and B: (params after each step; W's buffers)
run:{[name;opts]
  v:vector(.p.W;.p.B); gradflag(v;1b);
  o:opt(name;v),opts;
  r:{[o;v;r;i] zerograd o; w:tensor(v;0); b:tensor(v;1); setgrad[w;.p.GW i]; setgrad[b;.p.GB i]; free(w;b);
     step o; r,vector v}[o;v]/[();til 3];
  s:first (state o)[`parms;`buffers];
  free(o;v); (r;s)}
/ buffers agree: same names, values near
bufs:{[s;e] $[key[s]~key e;all near'[value s;value e];0b]}

check:{[case;name;opts]
  r:run[name;opts];
  .t.ok[string[case]," updates";near[r 0;E case]];
  if[case in key S; .t.ok[string[case]," buffers";bufs[r 1;S case]]]}
check[`sgd;`sgd;enlist .1]
check[`sgdm;`sgd;(.1;`momentum`dampening`decay!.9 .1 .01)]
check[`nesterov;`sgd;(.1;.9;`nesterov,1b)]
check[`adam;`adam;enlist .01]
check[`adamd;`adam;(.01;.8;.9;1e-6;.1;1b)]
check[`adamw;`adamw;enlist .01]
check[`adamwa;`adamw;(.01;`decay`amsgrad!(.1;1b))]
check[`adagrad;`adagrad;enlist .1]
check[`adagradd;`adagrad;(.1;.1;.01;.5;1e-8)]
check[`rmsprop;`rmsprop;enlist .01]
check[`rmspropc;`rmsprop;(.01;.9;1e-8;.01;.5;1b)]
check[`lamb;`lamb;()]
check[`lambd;`lamb;(.01;`decay`unbiased`globalnorm`trustclip!(.01;0b;0b;0b))]

/ definition: options per group, parameters with their module and name
m:module seq(`sequential;(`linear;`a;4;3);`relu;(`linear;`b;3;2))
o:opt(`sgd;m;.1;.9)
d:opt o
.t.eq["optimizer type";d`optimizer;`sgd]
.t.eq["options table";d`options;([]lr:enlist .1;momentum:enlist .9;dampening:enlist 0f;decay:enlist 0f;nesterov:enlist 0b)]
.t.eq["parameter table";`parmgroup`module`name`size#d`parms;([]parmgroup:0 0 0 0;module:`linear`linear`linear`linear;name:`a.weight`a.bias`b.weight`b.bias;size:(3 4;enlist 3;2 3;enlist 2))]
.t.eq["non-default options only";cols (opt(o;0b))`options;`lr`momentum]
.t.eq["class";class o;`optimizer]
.t.eq["objtype";objtype o;`sgd]
.t.eq["lr";lr o;enlist .1]
lr(o;.05)
.t.eq["lr set";lr o;enlist .05]
.t.eq["no buffers before a step";count first (state o)[`parms;`buffers];0]
x:tensor(1 2 3 4e;`grad)
y:forward(m;enlist 1 2 3 4e); l:Sum y; backward l; step o
.t.eq["momentum buffer after a step";key first (state o)[`parms;`buffers];enlist`momentum_buffer]
.t.eq["tensorcount counts buffers";tensorcount o;4]
p:parms m
g:{[p;k] t:tensor(p;k); r:grad t; free t; r}[p]
.t.ok["gradients before zerograd";any 0<>raze over g each parmnames m]
zerograd o
.t.ok["zerograd on an optimizer zeroes its parameters' gradients";all 0=raze over g each parmnames m]
free(p;y;l;x;o)
/ groups: consecutive, each with its options
o:opt(`sgd;();.1;.9)
opt(o;0;(m;`a))
opt(o;1;(m;`b);.05;.95)
d:opt o
.t.eq["two groups";d[`options;`lr`momentum];(.1 .05;.9 .95)]
.t.eq["parameters by group";d[`parms;`parmgroup`name];(0 0 1 1;`a.weight`a.bias`b.weight`b.bias)]
.t.eq["lr of each group";lr o;.1 .05]
lr(o;.01 .02)
.t.eq["lr set per group";lr o;.01 .02]
.t.eq["group gap";err[opt;(o;3;();.1)];"opt: group 3 invalid, cannot be greater than number of groups(2)"]
.t.eq["same parameter twice";err[opt;(o;0;(m;`a))];"opt: parameter a.weight is already in the optimizer"]
free o
/ other parameter sources and errors
t:tensor(1 2 3e;`grad)
o:opt(`adam;t)
/ kopt.cpp keeps tensors in a parameter dictionary (`parmdict), a lone tensor named by its position
.t.eq["a tensor";(opt o)[`parms;`module`name];(enlist`parmdict;enlist`0)]
free o
d:dict `a`b!(1 2 3e;4 5e); gradflag(d;1b)
o:opt(`sgd;(d;`b))
.t.eq["a dictionary key";(opt o)[`parms;`name];enlist`b]
free(o;d)
nt:tensor 1 2 3e
.t.eq["not requiring gradients";err[opt;(`sgd;nt)];"opt: tensor: tensor does not require gradients"]
free nt
.t.eq["unknown optimizer";err[opt;`nope];"opt: unrecognized optimizer: `nope"]
.t.eq["bad option";err[opt;(`sgd;t;`lr`foo!1 2f)];"opt: sgd: unrecognized option `foo"]
.t.eq["bad option type";err[opt;(`adam;t;.1;`x)];"opt: adam beta1: expected double, given symbol scalar"]
.t.eq["step of a tensor";err[step;t];"step: expected an optimizer or model, given tensor"]
free(t;m)
/ opt.rst: size, tensorcount, elements, bytes of an optimizer (the doc's values)
attrs:{x!x@\:y}[`class`objtype`size`tensorcount`elements`bytes]
o:opt(`adamw;())
.t.eq["new optimizer's counts (opt.rst:359)";attrs o;`class`objtype`size`tensorcount`elements`bytes!(`optimizer;`adamw;0;0;0;0)]
m:module enlist(`linear;64;10)
opt(o;m)
.t.eq["with parameters, no buffers yet (opt.rst:375)";attrs o;`class`objtype`size`tensorcount`elements`bytes!(`optimizer;`adamw;2;0;0;0)]
backward z:ce(y:forward(m;20 64#1e);20?10); step o
.t.eq["after a step (opt.rst:389)";attrs o;`class`objtype`size`tensorcount`elements`bytes!(`optimizer;`adamw;2;4;1302;5216)]
.t.eq["a module's size, elements, bytes (ktorch.cpp moduleattr)";(size;elements;bytes)@\:m;2 650 2600]
free(o;m;y;z)
/ opt.rst:418-436: unnamed modules added one by one are keyed 0, 1 in the optimizer's container
o:opt(`sgd;();.1;.9)
m0:module enlist(`linear;128;64); m1:module enlist(`linear;64;10)
opt(o;0;m0)
.t.eq["one module: its own names";(opt o)[`parms;`name];`weight`bias]
opt(o;1;m1;.05;.95)
.t.eq["two modules: keyed by position (opt.rst:432)";(opt o)[`parms;`name];`0.weight`0.bias`1.weight`1.bias]
c:module o
.t.eq["module o: a dictionary of the two";(childnames c;objtype c);(`0`1;`moduledict)]
free(o;c;m0;m1)
/ opt.rst:602-655: named modules keyed by name; `module o` returns the container
m0:module seq(`sequential`A;(`linear;`fc;128;64);`relu`actfn)
m1:module seq(`sequential`B;(`linear;`fc;64;10);`relu`actfn)
o:opt`adamw
opt(o;0;m0;.001)
opt(o;1;m1;.0001)
.t.eq["named modules (opt.rst:618)";(opt o)[`parms;`name];`A.fc.weight`A.fc.bias`B.fc.weight`B.fc.bias]
c:module o
.t.eq["container's children (opt.rst:652)";childnames c;`A`B]
.t.eq["container's modules (opt.rst:655)";names c;`A`A.fc`A.actfn`B`B.fc`B.actfn]
.t.eq["container on the same tensors";tensor[t:parm(c;`A.fc.bias)]~tensor[u:parm(m0;`fc.bias)];1b]
free(t;u)
.t.ok["the same module twice: its parameters are in already (kopt.cpp parmcheck)";err[opt;(o;m0)] like "opt: parameter*already in the optimizer"]
m2:module seq(`sequential`A;(`linear;`fc;2;2))
.t.eq["another module of a name taken";err[opt;(o;m2)];"opt: a sequential module named `A already registered with the optimizer"]
free(o;c;m0;m1;m2)
/ opt.rst:190-205: a dictionary's tensors keep their keys, module `parmdict
d:dict `a`b!(1 2 3e;4 5e); gradflag(d;1b)
o:opt(`sgd;(d;`b`a))
.t.eq["dictionary keys (opt.rst:201)";(opt o)[`parms;`module`name];(`parmdict`parmdict;`b`a)]
m:module enlist(`linear;2;1)
opt(o;m)
.t.eq["tensors then a module: parms and 1";(opt o)[`parms;`name];`parms.b`parms.a`1.weight`1.bias]
free(o;d;m)
/ model.rst:272: opt m of a model: an optimizer on the model's parameters
q:module seq(`sequential;(`linear;64;10);`relu)
md:model(q;loss`mse;opt(`sgd;q))
o:opt md
.t.eq["opt of a model";(objtype o;(opt o)[`parms;`name]);(`sgd;`0.weight`0.bias)]
free(o;md)
.t.eq["class of a non-handle (pointers.rst:34)";err[class;1];"class: need allocated torch object, e.g. tensor, module, given long scalar"]
.t.eq["nothing left";count obj[];0]
.t.done[]
