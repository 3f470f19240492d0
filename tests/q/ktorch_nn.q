/ Modules, first slice (ktorch's modules.rst, kmodules.rst; knn.cpp's module/seq and functional
/ forms; kmodel.cpp's forward calls, training, parms and name lists). Forward results are checked
/ against the same calculation done in q on the module's own weights, copied out with parms.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ r and e agree within 1e-5 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
/ the error (a string) from f applied to argument a, "" when none
err:{[f;a] @[{x y;""}[f];a;{x}]}
/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
/ parameter values of a module as a q dictionary
pv:{p:parms x; r:dict p; free p; r}
/ linear layer in q: x w' + b (floats), each row of x against each row of w
lin:{[p;x] w:"f"$p`weight; b:$[`bias in key p;"f"$p`bias;count[w]#0f]; {[w;b;r] b+sum each w*\:r}[w;b] each "f"$x}
X3:(1 2 3e;-1 0.5 2e)
X4:(1 -2 3 0.5e;-1 0.5 2 4e;0 0 1 -3e)

/ ---------------------------------------------------------------------------------------------
/ one layer: definition forms, options, parameters
m:module enlist(`linear;3;2)
.t.eq["class";class m;`module]
.t.eq["objtype";objtype m;`linear]
.t.eq["module m";module m;`depth`module`name`options!(0;`linear;`;`in`out`bias!(3;2;1b))]
.t.eq["module(m;0b)";module[(m;0b)]`options;`in`out!3 2]
.t.eq["parmnames";parmnames m;`weight`bias]
p:pv m
.t.eq["weight and bias sizes";(count p`weight;count first p`weight;count p`bias);2 3 2]
.t.eq["weights are single precision";type each value p;0 8h]
.t.ok["weights in PyTorch's range";all 1>=sqrt[3]*abs raze over value p]
ps:parms m
.t.eq["parameters require gradients";gradient ps;`weight`bias!`grad`grad]
free ps
.t.ok["evaluate: q data in, q data out";near[evaluate(m;X3);lin[p;X3]]]
.t.eq["evaluate keeps single precision";type first evaluate(m;X3);8h]
r:forward(m;X3)
.t.eq["forward: a tensor";class r;`tensor]
.t.eq["forward tracks gradients";gradfn r;`AddmmBackward0]
.t.ok["forward values";near[val r;lin[p;X3]]]
t:tensor X3
r:eforward(m;t)
.t.eq["eforward: no gradient";gradfn r;`]
.t.ok["eforward on a tensor";near[val r;lin[p;X3]]]
r:nforward(m;t)
.t.eq["nforward: no gradient";gradfn r;`]
free r
.t.eq["evaluate on a tensor";evaluate(m;t);evaluate(m;X3)]
free t
/ no bias, options by name and as trailing pairs
m2:module enlist(`linear;`in`out!3 2)
.t.eq["options as a dictionary";(module m2)`options;`in`out`bias!(3;2;1b)]
m3:module enlist(`linear;`fc;3;2;`bias,0b)
.t.eq["name and trailing pair";module m3;`depth`module`name`options!(0;`linear;`fc;`in`out`bias!(3;2;0b))]
.t.eq["no bias parameter";parmnames m3;enlist`weight]
.t.ok["no bias forward";near[evaluate(m3;X3);lin[pv m3;X3]]]
m4:module enlist(`linear;((`in;3);(`out;2)))
.t.eq["list of pairs";(module m4)`options;`in`out`bias!(3;2;1b)]
/ a definition retrieved makes an identical definition (new weights)
m5:module module m
.t.eq["module (module m)";module m5;module m]
.t.ok["new weights";not pv[m5]~pv m]
free(m2;m3;m4;m5)

/ ---------------------------------------------------------------------------------------------
/ sequential: tree, seq, depth-value pairs, names
q:module seq(`sequential;(`linear;4;3);`relu;(`linear;3;2))
.t.eq["objtype sequential";objtype q;`sequential]
.t.eq["module table";module q;([]depth:0 1 1 1;module:`sequential`linear`relu`linear;name:``0`1`2;
  options:((`symbol$())!();`in`out`bias!(4;3;1b);(enlist`inplace)!enlist 0b;`in`out`bias!(3;2;1b)))]
.t.eq["parmnames sequential";parmnames q;`0.weight`0.bias`2.weight`2.bias]
.t.eq["names";names q;`0`1`2]
.t.eq["childnames";childnames q;`0`1`2]
.t.eq["parmnames of a child by name";parmnames(q;`2);`weight`bias]
.t.eq["parmnames of a child by index";parmnames(q;0);`weight`bias]
P:pv q
p0:`weight`bias!P`0.weight`0.bias
p2:`weight`bias!P`2.weight`2.bias
.t.ok["sequential forward = linear, relu, linear in q";near[evaluate(q;X4);lin[p2;0|lin[p0;X4]]]]
r:forward(q;X4)
.t.ok["sequential forward";near[val r;lin[p2;0|lin[p0;X4]]]]
/ the same tree written out, and as depth-value pairs
t1:module(`sequential;enlist(`linear;4;3);`relu;enlist(`linear;3;2))
.t.eq["tree = seq form";module t1;module q]
t2:module((0;`sequential);(1;(`linear;4;3));(1;`relu);(1;(`linear;3;2)))
.t.eq["depth-value pairs";module t2;module q]
t3:module module q
.t.eq["from the table module returns";module t3;module q]
free(t1;t2;t3)
/ names given to parent and children; nested containers
n:module(`sequential`net;enlist(`linear;`fc1;4;3);`relu`act;enlist(`linear;`fc2;3;2;0b))
.t.eq["named children";exec name from module n;`net`fc1`act`fc2]
.t.eq["named parmnames";parmnames n;`fc1.weight`fc1.bias`fc2.weight]
nest:module(`sequential;seq(`seqnest;(`linear;4;3);`tanh);seq(`seqnest`b;(`linear;3;2);`sigmoid))
.t.eq["nested names";names nest;`0`0.0`0.1`b`b.0`b.1]
.t.eq["nested parmnames";parmnames nest;`0.0.weight`0.0.bias`b.0.weight`b.0.bias]
.t.eq["nested depths";exec depth from module nest;0 1 2 2 1 2 2]
.t.eq["childnames of a child";childnames(nest;`b);`0`1]
P:pv nest
p0:`weight`bias!P`0.0.weight`0.0.bias
p1:`weight`bias!P`b.0.weight`b.0.bias
th:{(e-1)%1+e:exp 2*x}
sg:{1%1+exp neg x}
.t.ok["nested forward: tanh, sigmoid";near[evaluate(nest;X4);sg lin[p1;th lin[p0;X4]]]]
free(n;nest)

/ state: the definition with parameters; a module made from it has the same parameters
s:state q
.t.eq["state columns";cols s;`depth`module`name`options`parms`buffers]
P:pv q
/ (q makes a list of conforming dictionaries a table: compare row by row)
.t.eq["state parms";s[`parms][1 3]~'(`weight`bias!P`0.weight`0.bias;`weight`bias!P`2.weight`2.bias);11b]
t1:module s
.t.eq["module from state";state t1;s]
.t.eq["same forward";evaluate(t1;X4);evaluate(q;X4)]
free t1
/ weights set from q
s:state m
.t.eq["state of a layer";key s;`depth`module`name`options`parms`buffers]
s[`parms]:`weight`bias!((1 -2 0.5e;0 1 0e);0.25 -1e)
t1:module s
.t.eq["weights from q";evaluate(t1;X3);(-1.25 1e;-0.75 -0.5e)]
ps:parms t1
.t.eq["set weights are parameters";gradient ps;`weight`bias!`grad`grad]
free(ps;t1)
s[`parms]:`weight`bias!((1 -2 0.5;0 1 0f);0.25 -1e)
.t.eq["state: wrong type";err[module;s];"module: linear: type mismatch, weight is float, input is double"]
s[`parms]:`weight`bias!(enlist 1 -2e;0.25 -1e)
.t.eq["state: wrong size";err[module;s];"module: linear: size mismatch, weight is [2, 3], input is [1, 2]"]
s[`parms]:(enlist`weight)!enlist(1 -2 0.5e;0 1 0e)
.t.eq["state: missing parameter";err[module;s];"module: linear: unable to find parameter: bias"]
.t.eq["state of q data";err[state;1];"state: expected a module, or (module;flag), given long scalar"]

/ dv and tree: a definition's two forms, each from the other (modules.rst's examples)
t:(`a;(`b;enlist(`c;1);enlist(`d;2)))
.t.eq["dv";dv t;((0;`a);(1;`b);(2;(`c;1));(2;(`d;2)))]
.t.eq["tree";tree dv t;t]
.t.eq["dv of seq";dv seq`a`b`c;((0;`a);(1;`b);(1;`c))]
.t.eq["dv of nested seq";dv(`a;seq(`b;(`c;1));`d;seq`e`f);((0;`a);(1;`b);(2;(`c;1));(1;`d);(1;`e);(2;`f))]
.t.eq["tree of symbols";tree dv(`sequential`a;enlist(`linear;5;2);`relu`r);(`sequential`a;enlist(`linear;5;2);enlist`relu`r)]
.t.eq["tree of one pair";tree(0;`a);enlist`a]
.t.eq["tree of a bad arg";err[tree;1 2];"tree: unable to parse (depth;value) pairs, given long list"]
t1:module tree dv seq(`sequential;(`linear;4;3);`relu;(`linear;3;2))
.t.eq["module of tree dv";module t1;module q]
free t1

/ ---------------------------------------------------------------------------------------------
/ the other layer types, each against q
.t.eq["seq of symbols";seq`a`b`c;(`a;enlist`b;enlist`c)]
.t.eq["seq of lists";seq(`a;(`b;1);`c);(`a;enlist(`b;1);enlist`c)]
.t.eq["seq of a symbol";seq`a;`a]
a:module`relu
.t.eq["relu module";evaluate(a;-1 2 -3 0.5e);0 2 0 0.5e]
.t.eq["relu options";module a;`depth`module`name`options!(0;`relu;`;(enlist`inplace)!enlist 0b)]
b:module`tanh
.t.ok["tanh module";near[evaluate(b;-1 0 0.5 2e);th -1 0 0.5 2]]
c:module`sigmoid
.t.ok["sigmoid module";near[evaluate(c;-1 0 0.5 2e);sg -1 0 0.5 2]]
/ gelu: x Φ(x), Φ the standard normal cdf (table values)
g:module`gelu
.t.ok["gelu module";near[evaluate(g;-1 0 1 2e);-1 0 1 2*0.1586552539 0.5 0.8413447461 0.9772498681]]
i:module`identity
.t.eq["identity module";evaluate(i;X3);X3]
sm:module enlist(`softmax;1)
smq:{e%sum e:exp x}
.t.ok["softmax module";near[evaluate(sm;X3);smq each "f"$X3]]
.t.eq["softmax options";(module sm)`options;(enlist`dim)!enlist 1]
ls:module enlist(`logsoftmax;`dim,0)
.t.ok["logsoftmax module, dim 0";near[evaluate(ls;X3);flip log smq each flip "f"$X3]]
f:module`flatten
.t.eq["flatten module: from dim 1";evaluate(f;2 2 3#til 12);(0 1 2 3 4 5;6 7 8 9 10 11)]
.t.eq["flatten options";(module f)`options;`start`end!1 -1]
f2:module enlist(`flatten;0)
.t.eq["flatten from 0";evaluate(f2;2 2 3#til 12);til 12]
d:module`drop
.t.eq["drop options";(module d)`options;`p`inplace!(0.5;0b)]
.t.eq["drop in evaluation mode: identity";evaluate(d;X3);X3]
d1:module enlist(`drop;1.0)
.t.eq["drop p=1 in training";val forward(d1;X3);2 3#0e]
.t.eq["drop p=1 in evaluation";evaluate(d1;X3);X3]
free(a;b;c;g;i;sm;ls;f;f2;d;d1)

/ ---------------------------------------------------------------------------------------------
/ training flag, to, obj, free
.t.eq["training";training q;1b]
training(q;0b)
.t.eq["training off";training q;0b]
r:forward(q;X4)
.t.eq["forward restores the flag";training q;0b]
free r
training(q;1b)
qd:module seq(`sequential;(`drop;1.0))
r:eforward(qd;X3)
.t.eq["eforward: evaluation mode";val r;X3]
.t.eq["flag kept";training qd;1b]
free qd
to(m;`double)
ps:parms m
.t.eq["to double";dtype ps;`weight`bias!`double`double]
.t.eq["still parameters";gradient ps;`weight`bias!`grad`grad]
free ps
.t.ok["double forward";near[evaluate(m;"f"$X3);lin[p;X3]]]
.t.eq["double result";type first evaluate(m;"f"$X3);9h]
o:select from obj[] where class=`module
.t.eq["obj rows";exec elements from o;8 23]
.t.eq["obj bytes";exec bytes from o;64 92]
.t.eq["obj sizes (parameter tensors: a count, ktorch.cpp objsize)";raze exec size from o;2 4]

/ ---------------------------------------------------------------------------------------------
/ functional forms
.t.eq["relu q data";relu -1 2 -3 0.5;0 2 0 0.5]
.t.eq["relu long";relu -1 2 -3;0 2 0]
t:tensor -1 2 -3e
r:relu t
.t.eq["relu tensor";val r;0 2 0e]
.t.eq["relu in place";relu(t;1b);(::)]
.t.eq["relu in place values";tensor t;0 2 0e]
free t
.t.ok["softmax(x;dim)";near[softmax(X3;1);smq each "f"$X3]]
.t.ok["softmax by name";near[softmax(X3;`dim,0);flip smq each flip "f"$X3]]
.t.eq["softmax with type";type softmax(1 2 3e;0;`double);9h]
.t.ok["softmax default dim";near[softmax 1 2 3f;smq 1 2 3f]]
t:tensor X3
.t.ok["logsoftmax tensor";near[val logsoftmax(t;1);log smq each "f"$X3]]
free t
.t.eq["flatten from 0";flatten 2 2 3#til 12;til 12]
.t.eq["flatten(x;1)";flatten(2 2 3#til 12;1);(0 1 2 3 4 5;6 7 8 9 10 11)]
.t.eq["flatten by name";flatten(2 2 3#til 12;`start`end!0 1);(0 1 2;3 4 5;6 7 8;9 10 11)]
W:(1 0 2e;0 1 -1e); B:10 20e
.t.ok["linear(x;w;b)";near[linear(X3;W;B);lin[`weight`bias!(W;B);X3]]]
.t.ok["linear(x;w)";near[linear(X3;W);lin[(enlist`weight)!enlist W;X3]]]
t:tensor W
r:linear(X3;t)
.t.eq["linear with a tensor: a tensor";class r;`tensor]
free(r;t)

/ ---------------------------------------------------------------------------------------------
/ bad arguments
.t.eq["unknown type";err[module;`nosuch];"module: unrecognized module type: `nosuch"]
.t.eq["missing option";err[module;enlist(`linear;3)];"module: linear: no value given for option `out"]
.t.eq["wrong option type";err[module;enlist(`relu;3)];"module: relu inplace: expected boolean scalar, given long scalar"]
.t.eq["unknown option";err[module;enlist(`linear;3;2;`bad,1)];"module: linear: unrecognized option `bad"]
.t.eq["too many options";err[module;enlist(`linear;3;2;1b;4)];"module: linear: expected up to 3 positional arg(s), 4 given"]
.t.eq["no options";err[module;enlist(`tanh;1)];"module: tanh: no arguments expected"]
.t.eq["softmax needs dim";err[module;`softmax];"module: softmax: no value given for option `dim"]
.t.eq["bad size";err[module;enlist(`linear;0;2)];"module: linear: positive input size required"]
.t.eq["bad dropout";err[module;enlist(`drop;2.0)];"module: drop: dropout probability has to be between 0 and 1, but got 2"]
.t.eq["child of a layer";err[module;((0;(`linear;2;2));(1;`relu))];"module: unable to add a relu module as a child of a linear module"]
.t.eq["bad depth";err[module;((0;`sequential);(2;`relu))];"module: relu: depth 2 above max depth of 1"]
.t.eq["seq of a number";err[seq;1];"seq: expecting module symbol, given long scalar"]
.t.eq["forward without input";err[forward;enlist m];"forward: requires a module and at least one input"]
.t.eq["forward of a tensor";err[forward;(1 2;1)];"forward: requires a module and at least one input"]
.t.eq["forward of two inputs";err[forward;(m;X3;X3)];"forward: linear: forward expects 1 input, given 2"]
.t.eq["forward wrong size";err[evaluate;(m;1 2f)] like "evaluate: *";1b]
.t.eq["training bad";err[training;1];"training: unrecognized arg(s), expected module and optional flag"]
.t.eq["parmnames bad index";err[parmnames;(q;9)];"parmnames: invalid index[9] for 3 child modules"]
.t.eq["parmnames bad name";err[parmnames;(q;`x)];"parmnames: no child module named `x"]
.t.eq["parms of q data";err[parms;1 2];"parms: expected a module, not implemented for long list"]
.t.eq["to gradient";err[to;(m;`grad)];"to: converts device & type, but cannot be used for layout, gradient, pinned memory or memory format"]
.t.eq["softmax bad dim";err[softmax;(1 2 3f;`a)];"softmax: dim: expected long scalar, given symbol scalar"]
.t.eq["linear args";err[linear;enlist 1 2f];"linear: expected (input;weight;[bias]), given 1 argument"]
free(m;q)
.t.eq["no module left";count obj[];0]
.t.done[]
