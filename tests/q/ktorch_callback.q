/ The callback module (kmodules.rst "callback", "kforward"): a forward call that calls back into
/ q. The documented examples run and give the documented results; a q error in a callback is an
/ error of the outer call; the handles made for a call never outlive it.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
/ the definition (or state) of a module made from x, freeing it
def:{r:module m:module x; free m; r}
st:{r:state m:module x; free m; r}

/ one input type is a symbol atom (ktorch.cpp arglist; knn/callback.cpp callback; kmodules.rst:1071)
.t.eq["callbacks table";callbacks[];([]fn:("{[m;x]}";"{[m;x;y]}";"{[m;x;y;z]}");in:(`tensor;`tensor`tensor;`tensor`tensor`tensor);out:`tensor`tensor`tensor)]

/ defining: function by name or as a string, input types
cb1:module enlist(`callback;`cb;`f)
.t.eq["a container: a table of one row";first module cb1;`depth`module`name`options!(0;`callback;`cb;`fn`in`out!`f`tensor`tensor)]
f:{[m;x]relu x}
.t.eq["callback by name";evaluate(cb1;-2 -1 0 1 2e);0 0 0 1 2e]
cb2:module enlist(`callback;`cb;"{[m;x;y] cat(x;y)}";`tensor`tensor)
.t.eq["callback as a string, two inputs";evaluate(cb2;1 2 3;4 5);1 2 3 4 5]
/ str as ktorch's knn/callback.h prints it (kmodules.rst:1086, 1100): each input type then a comma
.t.eq["str, one input";str cb1;"knn::Callback(fn=f, in=tensor, out=tensor)"]
.t.eq["str, two inputs";str cb2;"knn::Callback(fn={[m;x;y] cat(x;y)}, in=tensor,tensor, out=tensor)"]
.t.eq["string function kept";(first module cb2)[`options;`fn];"{[m;x;y] cat(x;y)}"]
.t.eq["state round trip";st state cb2;state cb2]
cb3:module enlist(`callback;`c3;"{[m;x;y;z] use[y]mul(x;y); use[z]add(y;z); z}";`tensor`tensor`tensor)
.t.eq["three inputs";evaluate(cb3;1 2 3e;4 5 6e;1 1 1e);5 11 19e]
.t.eq["symbols give type and name";first def(`callback;`f;`tensor);`depth`module`name`options!(0;`callback;`f;`fn`in`out!`tensor`tensor`tensor)]
.t.eq["no function";err[module;(`callback;`cb)];"module: callback: no k function defined, 2nd symbol, `cb, defines callback module name"]
.t.eq["four inputs";err[module;enlist(`callback;`cb;`f;`tensor`tensor`tensor`tensor)];"module: callback: expected 1-3 input types, given 4"]
.t.eq["wrong input count";err[evaluate;(cb2;1 2 3)];"evaluate: callback: {[m;x;y] cat(x;y)} expects 2 inputs, given 1"]
free(cb1;cb2;cb3)

/ children, by depth-value pairs and as a tree; the function runs them by name
m:module(`callback;`cb;`f)
module(m;1;(`linear;`a;5;2))
module(m;1;(`sigmoid;`b))
module(m;1;(`drop;`c;.5))
.t.eq["children added";names m;`a`b`c]
.t.eq["added options";(module m)`options;(`fn`in`out!`f`tensor`tensor;`in`out`bias!(5;2;1b);(`symbol$())!();`p`inplace!(0.5;0b))]
.t.eq["add to a layer";err[module;(m;2;`relu)];"module: unable to add a relu module as a child of a drop module"]
free m
m:module seq((`callback;`cb;`f);(`linear;`a;5;2);(`sigmoid;`b);(`drop;`c;.5))
f:{[m;x] y:kforward(m;`a;x); use[y]kforward(m;`b;y); use[y]kforward(m;`c;y); y}
x:tensor(`randn;3 5)
seed 123
y:forward(m;x)
f:{{use[y]kforward(x;z;y);y}[x]/[y;`a`b`c]}
seed 123
y1:forward(m;x)
.t.eq["two forms of the function agree";tensor y;tensor y1]
.t.eq["forward through a callback tracks gradients";gradfn y1;`MulBackward0]
/ the same layers as a sequential module, with the callback's weights
q:module seq(`sequential`q;(`linear;`a;5;2);(`sigmoid;`b);(`drop;`c))
.t.eq["parmnames";parmnames m;`a.weight`a.bias]
s:state q
s:update parms:(state m)`parms from s
q2:module s
seed 123
yq:forward(q2;x)
.t.eq["callback = sequential with the same weights";tensor yq;tensor y]
/ kforward follows the outer call: evaluate runs dropout off and without gradients
k:evaluate(m;x)
.t.eq["training and evaluation differ (dropout)";tensor[y]~k;0b]
.t.ok["evaluate = eval-mode sequential";near[k;evaluate(q2;x)]]
r:eforward(m;x)
.t.eq["eforward: no gradient";gradfn r;`]
free(r;y;y1;yq;q;q2)

/ errors in the callback: a q error, a wrong result, a module used wrongly; nothing leaks
n:count obj[]
f:{[m;x]'`oops}
.t.eq["q error in callback";err[forward;(m;x)];"forward: callback error from k: oops"]
f:{[m;x]42}
.t.eq["not a tensor";err[evaluate;(m;x)];"evaluate: callback: unable to retrieve tensor from long scalar"]
f:{[m;x]kforward(m;`z;x)}
.t.eq["no such child";err[evaluate;(m;x)];"evaluate: callback error from k: kforward: no child module named `z"]
f:{[m;x]module(m;1;`relu);x}
.t.eq["tree is in use during forward";err[evaluate;(m;x)] like "evaluate: callback error from k: module: module is in use*";1b]
f:{[m;x]free m;x}
.t.ok["freeing the callback's own handle is harmless";near[evaluate(m;x);tensor x]]
.t.eq["no handles left from the calls";count obj[];n]
/ the function kept the handle it was given: stale after the call
f:{[m;x] `h set m; x}
evaluate(m;x);
.t.eq["the callback's module handle is stale after the call";err[names;h];"names: stale pointer"]
f:{[m;x] `hx set x; relu x}
evaluate(m;x);
.t.eq["input handles are stale after the call";err[tensor;hx];"tensor: stale pointer"]
.t.eq["still no handles left";count obj[];n]
/ module still usable after errors
f:{{use[y]kforward(x;z;y);y}[x]/[y;`a`b`c]}
.t.ok["module usable after errors";near[evaluate(m;x);k]]
free(m;x)
/ train.rst:694-705: a callback with a parameter of its own (`parms), trained by LBFGS to its target
cb:module enlist(`callback;`cb;"{[m;x]parm(m;`x)}";(`parms;(`x;.5 2.5 3)))
md:model(cb;loss`mse;opt(`lbfgs;cb))
.t.eq["the callback's parameter";tensor x:parm(md;`x);.5 2.5 3]
.t.ok["backstep: the loss of the first evaluation (train.rst:699)";1e-6>abs .1666667-backstep(md;0;1 2 3.0)]
.t.ok["the parameter reaches the target";1e-6>max abs 1 2 3-tensor x]
free(x;md)
/ parameters and buffers given positionally as a dictionary; kept by state
cb:module enlist(`callback;`cb;"{[m;x]x}";`tensor;`tensor;`a`b!(1 2e;3e);(enlist`c)!enlist 4 5e)
.t.eq["positional parms and buffers";(parmnames cb;buffernames cb);(`a`b;enlist`c)]
s:state cb; free cb; cb:module s
.t.eq["state round trip";state cb;s]
free cb
.t.eq["nothing left";count obj[];0]
.t.done[]
