/ Module attributes (ktorch's modules.rst: parm, buffer(s), buffernames, parmtypes, child,
/ children, modules, moduletypes, inputmodule, outputmodule, str) and freezing parameters
/ (freeze.rst: freeze, unfreeze, checked through the gradients a backward call leaves).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

err:{[f;a] @[{x y;""}[f];a;{x}]}
val:{r:tensor x; free x; r}
pv:{p:parms x; r:dict p; free p; r}

q:module seq(`sequential;(`linear;`a;3;2);`relu`b;(`linear;`c;2;1))
/ ---------------------------------------------------------------------------------------------
/ parm and buffer: handles sharing the module's tensors
w:parm(q;`a.weight)
.t.eq["parm is a tensor";class w;`tensor]
.t.eq["parm values";tensor w;(pv q)`a.weight]
.t.eq["parm requires gradients";gradient w;`grad]
parm(q;`a.bias;1 2e)
.t.eq["parm(m;name;value) sets values";(pv q)`a.bias;1 2e]
parm(q;`c.bias;.5)
.t.eq["parm set from a scalar (broadcast)";(pv q)`c.bias;enlist .5e]
t:tensor 2 3#1e
parm(q;`a.weight;t)
.t.eq["parm set from a tensor";tensor w;2 3#1e]
.t.eq["parm stays a leaf requiring gradients";gradient w;`grad]
free(t;w)
c:child(q;`a)
.t.eq["parm of a child";(pv c)`weight;2 3#1e]
parm(c;`weight;2 3#2e)
.t.eq["child shares the parent's parameters";(pv q)`a.weight;2 3#2e]
free c
/ a new parameter and a new buffer by name
parm(q;`c.extra;1 2 3e)
.t.eq["new parameter";parmnames q;`a.weight`a.bias`c.weight`c.bias`c.extra]
buffer(q;`a.count;0 0)
.t.eq["new buffer";buffernames q;enlist`a.count]
b:buffer(q;`a.count)
.t.eq["buffer handle";tensor b;0 0]
buffer(q;`a.count;5 6)
.t.eq["buffer set shares";tensor b;5 6]
free b
bs:buffers q
.t.eq["buffers: a dictionary";(class bs;dict bs);(`dictionary;enlist[`a.count]!enlist 5 6)]
free bs
.t.eq["buffernames of a child";buffernames(q;`a);enlist`count]
.t.eq["buffernames by index";buffernames(q;0);enlist`count]
.t.eq["buffernames of a layer without";buffernames(q;`c);0#`]
bs:buffers(q;`a)
.t.eq["buffers of a child";dict bs;enlist[`count]!enlist 5 6]
free bs

/ ---------------------------------------------------------------------------------------------
/ types, children, modules
.t.eq["parmtypes";parmtypes q;`a.weight`a.bias`c.weight`c.bias`c.extra!`linear`linear`linear`linear`linear]
.t.eq["moduletypes";moduletypes q;``a`b`c!`sequential`linear`relu`linear]
.t.eq["moduletypes of one type";moduletypes(q;`linear);`a`c]
.t.eq["moduletypes of the root type";moduletypes(q;`sequential);enlist`]
.t.eq["moduletypes of types";moduletypes(q;`relu`sequential);``b!`sequential`relu]
.t.ok["moduletypes[]: every type";all `linear`relu`sequential`drop in moduletypes[]]
.t.eq["moduletypes[] are symbols";type moduletypes[];11h]
c:children q
.t.eq["children: names";key c;`a`b`c]
.t.eq["children: module handles";distinct class each value c;enlist`module]
.t.eq["children types";objtype each c;`a`b`c!`linear`relu`linear]
free each value c;
n:module(`sequential;seq(`seqnest`s;(`linear;`x;2;2);`relu`y);enlist(`linear;`z;2;2))
a:modules n
.t.eq["modules: all below";key a;`s`s.x`s.y`z]
/ a sequential inside a sequential is refused, as ktorch's knn.cpp (anymodule) and kmodules.rst:1034
s1:module seq(`sequential;(`linear;5;2);`relu)
.t.eq["sequential in a sequential";@[module;(s1;1;`sequential);{x}];"module: sequential: unable to create type-erased module, forward method uses template"]
.t.eq["refused: nothing added";childnames s1;`0`1]
.t.eq["a seqnest is taken";module(s1;1;`seqnest);::]
free s1
free each value a;
a:modules(n;`s)
.t.eq["modules of a child";key a;`x`y]
free each value a;
c:children(n;`s)
.t.eq["children of a child";key c;`x`y]
free each value c;
c:child(n;`s.x)
.t.eq["child by dotted name";objtype c;`linear]
.t.eq["child's module";(module c)`options;`in`out`bias!(2;2;1b)]
free c
c:child(n;2)
.t.eq["child by index (all descendants)";objtype c;`relu]
free c
/ knn.cpp forwardfind: a sequential's first child with a forward of its own (a seqnest has one)
.t.eq["inputmodule";inputmodule n;`seqnest]
.t.eq["outputmodule";outputmodule n;`linear]
.t.eq["inputmodule of a layer";inputmodule q;`linear]
.t.eq["outputmodule of a relu";outputmodule module seq(`sequential;(`linear;2;2);`relu);`relu]
free[]
/ (the line above freed the module made inline; all others are remade below)
q:module seq(`sequential;(`linear;`a;3;2);`relu`b;(`linear;`c;2;1))
n:module(`sequential;seq(`seqnest`s;(`linear;`x;2;2);`relu`y);enlist(`linear;`z;2;2))
e:module`sequential
.t.eq["inputmodule of an empty sequential";inputmodule e;`]

/ ---------------------------------------------------------------------------------------------
/ str: libtorch's printed form
l:module enlist(`linear;784;10)
.t.eq["str of a linear";str l;"torch::nn::Linear(in_features=784, out_features=10, bias=true)"]
s:module seq(`sequential;(`linear;784;10);`relu;`drop)
.t.eq["str of a sequential";str s;"torch::nn::Sequential(\n  (0): torch::nn::Linear(in_features=784, out_features=10, bias=true)\n  (1): torch::nn::ReLU()\n  (2): torch::nn::Dropout(p=0.5, inplace=false)\n)"]
.t.eq["str nested";str n;"torch::nn::Sequential(\n  (s): knn::SeqNest(\n    (x): torch::nn::Linear(in_features=2, out_features=2, bias=true)\n    (y): torch::nn::ReLU()\n  )\n  (z): torch::nn::Linear(in_features=2, out_features=2, bias=true)\n)"]
r:module enlist(`relu;1b)
.t.eq["str shows inplace when set";str r;"torch::nn::ReLU(inplace=true)"]
f:module enlist(`flatten;2)
.t.eq["str of flatten";str f;"torch::nn::Flatten(start_dim=2, end_dim=-1)"]
sn:module(`seqnest;enlist(`linear;2;2))
.t.eq["str of ktorch's own class";str sn;"knn::SeqNest(\n  (0): torch::nn::Linear(in_features=2, out_features=2, bias=true)\n)"]
free(l;s;r;f;sn)

/ ---------------------------------------------------------------------------------------------
/ freeze and unfreeze: gradients after backward
p:parms q
.t.eq["all parameters train";gradient p;`a.weight`a.bias`c.weight`c.bias!4#`grad]
freeze q
.t.eq["freeze all";gradient p;`a.weight`a.bias`c.weight`c.bias!4#`nograd]
unfreeze q
.t.eq["unfreeze all";gradient p;`a.weight`a.bias`c.weight`c.bias!4#`grad]
freeze(q;`a.weight`a.bias)
.t.eq["freeze by names";gradient p;`a.weight`a.bias`c.weight`c.bias!`nograd`nograd`grad`grad]
x:tensor 2 3#1e
y:forward(q;x)
l:Sum y
backward l
free l
pa:parm(q;`a.weight); pc:parm(q;`c.weight)
.t.eq["frozen parameters get no gradient";grad pa;(::)]
.t.eq["unfrozen get gradients";count raze grad pc;2]
free(y;pa;pc)
unfreeze(q;`a.weight)
.t.eq["unfreeze one name";gradient[p]`a.weight;`grad]
freeze(q;`a.weight`a.bias;(2 3#1e;0 0e))
.t.eq["freeze with values";pv[q]`a.weight`a.bias;(2 3#1e;0 0e)]
.t.eq["freeze with values: flags";gradient p;`a.weight`a.bias`c.weight`c.bias!`nograd`nograd`grad`grad]
i:tensor(`eye;2)
freeze(q;`c.weight;1 2#9e)
.t.eq["freeze one name with value";pv[q]`c.weight;enlist 9 9e]
unfreeze(q;`c.weight`c.bias!(1 2#3e;enlist 4e))
.t.eq["unfreeze with a q dictionary";pv[q]`c.weight`c.bias;(enlist 3 3e;enlist 4e)]
d:dict `a.bias`c.bias!(1 1e;enlist 7e)
freeze(q;d)
.t.eq["freeze with a dictionary handle";(pv[q]`a.bias`c.bias;gradient[p]`a.bias`c.bias);((1 1e;enlist 7e);`nograd`nograd)]
unfreeze p
.t.eq["unfreeze a parameter dictionary";gradient p;`a.weight`a.bias`c.weight`c.bias!4#`grad]
freeze(p;`c.bias)
.t.eq["freeze a parameter dictionary by name";gradient[p]`c.bias;`nograd]
free(d;i;x)
t:tensor(1 2e;`grad)
freeze t
.t.eq["freeze a tensor";gradient t;`nograd]
v:vector(1 2e;3 4e)
unfreeze v
.t.eq["unfreeze a vector";gradient v;`grad`grad]
freeze v
.t.eq["freeze a vector";gradient v;`nograd`nograd]
free(t;v)

/ ---------------------------------------------------------------------------------------------
/ errors
.t.eq["parm not found";err[parm;(q;`nope)];"parm: parameter `nope not found"]
.t.eq["parm of a tensor";err[parm;(1 2;`a)];"parm: first arg must be a module or model"]
.t.eq["parm name not symbol";err[parm;(q;1)];"parm: second arg is parameter name, expected symbol given long scalar"]
.t.eq["buffer not found";err[buffer;(q;`a.weight)];"buffer: buffer `a.weight not found"]
.t.eq["parm size mismatch";err[parm;(q;`a.bias;1 2 3e)] like "parm: *";1b]
.t.eq["child bad name";err[child;(q;`x)];"child: no child module named `x"]
.t.eq["child bad index";err[child;(q;5)];"child: invalid index[5] for 3 child modules"]
.t.eq["child one arg";err[child;q];"child: expected module as first argument"]
.t.eq["moduletypes unknown type";err[moduletypes;(q;`nosuch)];"moduletypes: unrecognized module: `nosuch"]
.t.eq["parmtypes of data";err[parmtypes;1 2];"parmtypes: expected model, module or optimizer, given long list"]
.t.eq["freeze unknown name";err[freeze;(q;`nope)];"freeze: unable to find parameter `nope"]
.t.eq["freeze size mismatch";err[freeze;(q;`a.bias;1 2 3e)];"freeze: size mismatch for parameter `a.bias, size is [2] vs new size of [3]"]
.t.eq["freeze count mismatch";err[freeze;(q;`a.bias`c.bias;enlist 1 2e)];"freeze: 2-element list of names but 1-element list of values"]
.t.eq["freeze of data";err[freeze;1 2];"freeze: expected 2-3 args, (module;names;values), given long list"]
.t.eq["inputmodule of data";err[inputmodule;1];"inputmodule: expected a module, given long scalar"]
free(p;q;n;e)
.t.eq["no object left";count obj[];0]
.t.done[]
