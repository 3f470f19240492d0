/ Faults and security (issue #10): a q error inside a callback, a training run interrupted in
/ mid-epoch, host memory requests far beyond the machine, forged and wrong-class handles, file
/ paths that cannot be written. Each is a q error; the objects involved stay usable (values
/ checked against tests/q/gen/faults.py) and nothing else is lost.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/faults_expected.q
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
/ the parameter values of a module or model, in order
pv:{p:parms x; r:value dict p; free p; r}
X:"e"$.i.X; Y:.i.Y

/ ---- a q error inside a callback: the call's error; the module, and a model holding it, stay
/ usable and give the right values once the function is good
ok:{[m;x] kforward(m;`a;x)}
bad:{[m;x] '`boom}
g:bad
q:module seq((`callback;`cb;`g);(`linear;`a;2;3))
parm(q;`a.weight;"e"$.p.W0); parm(q;`a.bias;"e"$.p.B0);
.t.eq["callback error: forward";err[forward;(q;X)];"forward: callback error from k: boom"]
.t.eq["callback error: evaluate";err[evaluate;(q;X)];"evaluate: callback error from k: boom"]
g:ok
.t.ok["the module works after the error";near[evaluate(q;X);.e.out0]]
.t.ok["its parameters are untouched";near[pv q;(.p.W0;.p.B0)]]
n:count obj[]
m:model(q;loss`ce;opt(`sgd;q;.1))
g:bad
.t.eq["callback error in a model's forward";err[evaluate;(m;X)];"evaluate: callback error from k: boom"]
g:ok
.t.ok["the model works after the error";near[evaluate(m;X);.e.out0]]

/ ---- an error in mid-epoch: the 3rd of 3 batches fails in the callback. `run` gives the error,
/ the data is back at full size, the parameters are those after the 2 batches that ran; a
/ second run without the fault trains a full epoch from there
calls:0; fault:3
g:{[m;x] `calls set calls+1; if[calls=fault;'`fault]; kforward(m;`a;x)}
train(m;`batchsize;4)
.t.eq["3 batches";train(m;X;Y);3]
.t.eq["error in the 3rd batch";err[run;m];"run: callback error from k: fault"]
.t.eq["3 forward calls";calls;3]
.t.eq["data back at full size";datasize m;12]
.t.eq["the data is whole, in order";data m;(X;Y)]
.t.ok["parameters after the 2 batches that ran";near[pv m;(.e.W2;.e.B2)]]
.t.eq["no handles left by the failed run";count obj[];n]
fault:0N
r:run m
.t.ok["a second run trains a full epoch: its loss";near[r;.e.loss5]]
.t.ok["and its parameters";near[pv m;(.e.W5;.e.B5)]]
.t.ok["loss decreases";r>run m]
free m

/ ---- a bad target in the 3rd batch (libtorch's error): the same state; new data trains
q:module enlist(`linear;`a;2;3)
parm(q;`weight;"e"$.p.W0); parm(q;`bias;"e"$.p.B0);
m:model(q;loss`ce;opt(`sgd;q;.1))
train(m;`batchsize;4)
train(m;X;@[Y;9;:;7])
.t.eq["bad target: libtorch's error";err[run;m];"run: Target 7 is out of bounds."]
.t.eq["data back at full size";datasize m;12]
.t.ok["parameters after the 2 batches that ran";near[pv m;(.e.W2;.e.B2)]]
train(m;X;Y)
.t.ok["good targets: a full epoch";near[run m;.e.loss5]]
.t.ok["parameters";near[pv m;(.e.W5;.e.B5)]]
free m

/ ---- host memory: requests beyond any machine's address space are errors; the session goes on
t:tensor 1 2 3e
v:vector(1 2e;3 4 5e)
.t.ok["empty, 1e14 floats";err[tensor;(`empty;100000000000000)] like "tensor: *can't allocate memory*"]
.t.ok["zeros, 1e15 floats";err[tensor;(`zeros;100000 100000 100000)] like "tensor: *can't allocate memory*"]
.t.ok["randn, 1e15 doubles";err[tensor;(`randn;100000 100000 100000;`double)] like "tensor: *can't allocate memory*"]
.t.ok["a huge result of an op";err[tensor;(`ones;100000000000000 1)] like "tensor: *can't allocate memory*"]
.t.eq["other tensors intact";tensor t;1 2 3e]
.t.eq["vectors intact";vector v;(1 2e;3 4 5e)]
s:tensor(`ones;1000 1000)
.t.eq["and new ones work";`long$tensor r:Sum s;1000000]
free(r;s;t;v)

/ ---- security: a handle is a registry id; forged, freed and wrong-class ids are errors
/ the handle form: a one-item general list holding a long
h:{1#(x;::)}
t:tensor 1 2 3e
q:module enlist(`linear;2;3)
o:opt(`sgd;q;.1)
f:tensor 0e; free f
forged:(0;-1;0N;0W;-0W;999999999;first first f;1+first first o)
.t.eq["forged ids: tensor";err[tensor] each h each forged;count[forged]#enlist"tensor: stale pointer"]
.t.eq["forged ids: free";err[free] each h each forged;count[forged]#enlist"free: stale pointer"]
.t.eq["forged ids: forward";{err[forward;(h x;1 2e)]} each forged;count[forged]#enlist"forward: stale pointer"]
.t.eq["forged ids: step";err[step] each h each forged;count[forged]#enlist"step: expected an optimizer, given stale pointer"]
.t.eq["forged ids: lr";err[lr] each h each forged;count[forged]#enlist"lr: expected optimizer, model, or (optimizer or model;rate(s)), given stale pointer"]
.t.eq["forged ids: run";err[run] each h each forged;count[forged]#enlist"run: expected model, or (model;inputs;targets), given stale pointer"]
.t.eq["forged ids: a forward of a model";err[forward] each h each forged;count[forged]#enlist"forward: stale pointer"]
.t.eq["wrong class: forward a tensor";err[forward;(t;1 2e)];"forward: expected a module or model, given tensor"]
.t.eq["wrong class: forward a tensor alone";err[forward;t];"forward: expected a model, or a module and inputs, given tensor"]
.t.eq["wrong class: forward an optimizer";err[forward;(o;1 2e)];"forward: expected a module or model, given optimizer"]
.t.eq["wrong class: step a module";err[step;q];"step: expected an optimizer or model, given module"]
.t.eq["wrong class: step a tensor";err[step;t];"step: expected an optimizer or model, given tensor"]
.t.eq["wrong class: lr of a module";err[lr;q];"lr: expected optimizer, model, or (optimizer or model;rate(s)), given module"]
.t.eq["wrong class: lr of a tensor";err[lr;t];"lr: expected optimizer, model, or (optimizer or model;rate(s)), given tensor"]
.t.eq["wrong class: run a module";err[run;q];"run: expected model, or (model;inputs;targets), given module"]
/ a function over several classes names them all when given a handle of another (dispatch/route.rs)
.t.eq["wrong class: ptr of an optimizer";err[ptr;o];"ptr: expected a tensor, vector, dictionary or module, given optimizer"]
.t.eq["wrong class: dtype of an optimizer";err[dtype;o];"dtype: expected a tensor, vector, dictionary, module or model, given optimizer"]
.t.eq["wrong class: backward of a module";err[backward;q];"backward: expected a tensor or model, given module"]
.t.eq["wrong class: opt of a tensor";err[opt;t];"opt: expected an optimizer or model, given tensor"]
.t.eq["wrong class: parmtypes of a tensor";err[parmtypes;t];"parmtypes: expected a module, optimizer or model, given tensor"]
.t.eq["wrong class: state of a tensor";err[state;t];"state: expected a module, optimizer or model, given tensor"]
.t.eq["wrong class: batch of a module";err[batch;q];"batch: expected a tensor, vector, dictionary or model, given module"]
.t.eq["forged ids: size, class, state";(err[size;h 0];err[class;h 0];err[state;h 0]);("size: stale pointer";"class: stale pointer";"state: expected a module, or (module;flag), given stale pointer")]
.t.eq["objects intact";(tensor t;class q;class o);(1 2 3e;`module;`optimizer)]

/ file paths are used as given: the error names the path that cannot be written
img:3 2 2#til 12
.t.eq["png: a directory";err[png;(`:/tmp;img)];"png: unable to create /tmp: Is a directory (os error 21)"]
/ the system's reason varies with the user (root or not): match the path
.t.ok["png: unwritable";err[png;(`:/proc/ktorch_x.png;img)] like "png: unable to create /proc/ktorch_x.png: *"]
.t.ok["png: a directory that cannot be made";err[png;(`:/proc/ktorch_dir/x.png;img)] like "png: unable to create directory /proc/ktorch_dir: *"]
free(t;q;o)
.t.eq["nothing left";count obj[];0]
.t.done[]
