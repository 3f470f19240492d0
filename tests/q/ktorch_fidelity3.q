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
.t.done[]
