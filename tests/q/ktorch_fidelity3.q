/ Issue 35: what ktorch's C++ source (github.com/ktorch/ktorch at 66deaac) does, checked against
/ that source or its documentation (the file and function, or the page, named at each check).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ ---------------------------------------------------------------------------------------------
/ obj[] (ktorch.cpp kobj): ptr is each object's handle (knk(1,kj(j)): a one-item list, what q
/ holds), dtype only for tensors (nullsym otherwise), size a tensor's sizes (tensorsize) or a
/ count (objsize: kj of a vector's or dictionary's size, a module's parameters, an optimizer's
/ parameters, osize), device a tensor's, a module's first parameter's, an optimizer's first
/ group parameter's (objdevice); pointers.rst:71 shows `dict cpu <blank> 2`, `vector cpu <blank> 2`
t:tensor 1 2 3.0; v:vector(1 2;3 4 5e); d:dict `a`b!(0101b;3 4#til 12)
q:module enlist(`linear;2;1); o:opt(`sgd;q); e:opt`adam; s:tensor 1
r:obj[]
.t.eq["obj columns (kobj)";cols r;`ptr`class`device`dtype`size`elements`bytes]
.t.eq["ptr: the handles q holds";r`ptr;(t;v;d;q;o;e;s)]
.t.eq["class";r`class;`tensor`vector`dictionary`module`optimizer`optimizer`tensor]
.t.eq["dtype: tensors only";r`dtype;`double``````long]
.t.eq["size: tensor sizes, else a count";r`size;(enlist 3;2;2;2;2;0;`long$())]
.t.eq["device: an optimizer's is its parameters' (objdevice), none without parameters";r`device;`cpu`cpu`cpu`cpu`cpu``cpu]
.t.eq["elements";r`elements;3 5 16 3 0 0 1]
/ ktorch's scripts free everything this way (pointers.rst's free section, examples' cleanup)
free each exec ptr from obj[];
.t.eq["free each exec ptr from obj[]";count obj[];0]
.t.eq["obj: empty arg expected (kobj's TORCH_CHECK)";.t.catch[{obj 1}];"obj: empty arg expected, given long scalar"]

/ ---------------------------------------------------------------------------------------------
/ optimizers: help/options of an optimizer object are its options table (ktorch.cpp khelp:
/ `case Class::optimizer: return optsettings(a,g->c,g->opt())`, for help and options alike)
o:opt`sgd
sgd:([]lr:enlist 0.01;momentum:enlist 0f;dampening:enlist 0f;decay:enlist 0f;nesterov:enlist 0b)
.t.eq["options o: optsettings (one group, defaults)";options o;sgd]
.t.eq["help o: optsettings";help o;sgd]
/ an optimizer made with no parameters has one group (kopt.cpp optinit: ParamGroup g({}) given
/ to the constructor); opt.rst:43 shows its one row of options
.t.eq["opt`sgd has a group";count (opt o)`options;1]
.t.eq["its parameters: none";count (opt o)`parms;0]
v:vector(1 2 3e;4 5e); gradflag(v;1b)
opt(o;v;.1)
.t.eq["opt(o;parms) fills group 0";exec parmgroup from (opt o)`parms;0 0]
.t.eq["with the options given";exec lr from (opt o)`options;enlist 0.1]
opt(o;1;();.2)
.t.eq["a second group";exec lr from options o;0.1 0.2]
.t.eq["help o follows the groups";help o;options o]
free(o;v)
/ help`lbfgs: kopt.cpp optdefaults, LBFGSOptions().line_search_fn(..) with lbfgs(true,..):
/ eval kj(nj) (0N), search shown (ktorch's `strong_wolf, a typo libtorch refuses: ours `strong_wolfe)
h:help`lbfgs
.t.eq["help`lbfgs keys";key h;`lr`iter`eval`gradtol`changetol`history`search]
.t.eq["eval: a long null";h`eval;0N]
.t.eq["search: the line search";h`search;`strong_wolfe]
.t.eq["help`optimizer row";first exec options from help`optimizer where optimizer=`lbfgs;h]
/ an LBFGS optimizer stores max_eval = max_iter*5/4 when none is given (libtorch's LBFGS
/ constructor; torch.optim.LBFGS: param_groups[0]['max_eval'] is 25, with max_iter=8 it is 10);
/ no line search: no `search column (kopt.cpp lbfgs adds it only if line_search_fn has a value)
q:module enlist(`linear;2;1)
l:opt(`lbfgs;q)
.t.eq["lbfgs eval 25";exec eval from options l;enlist 25]
.t.eq["lbfgs: no search column";cols options l;`lr`iter`eval`gradtol`changetol`history]
free l
l:opt(`lbfgs;q;1;8)
.t.eq["lbfgs iter 8: eval 10";exec eval from options l;enlist 10]
free l
l:opt(`lbfgs;q;(`search;`strong_wolfe))
.t.eq["lbfgs with a line search";exec search from options l;enlist`strong_wolfe]
free(l;q)

.t.done[]
