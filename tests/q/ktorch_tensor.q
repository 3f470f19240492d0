/ Tensors from q data and back, options, creation modes, handles, autograd, errors.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ round trip: q data -> tensor -> q data keeps values, type and rank
rt:{t:tensor x; r:tensor t; free t; r}
.t.eq["bool";rt 101b;101b]
.t.eq["byte";rt 0x00ff10;0x00ff10]
.t.eq["short";rt 1 -2 3h;1 -2 3h]
.t.eq["int";rt 1 -2 3i;1 -2 3i]
.t.eq["long";rt 1 -2 3;1 -2 3]
.t.eq["real";rt 1.5 -2.25e;1.5 -2.25e]
.t.eq["float";rt 1.5 -2.25;1.5 -2.25]
.t.eq["char";rt "abc";"abc"]
.t.eq["long atom";rt 42;42]
.t.eq["float atom";rt 2.5;2.5]
.t.eq["matrix";rt (1 2 3;4 5 6);(1 2 3;4 5 6)]
.t.eq["3-d";rt ((1 2;3 4);(5 6;7 8));((1 2;3 4);(5 6;7 8))]
.t.eq["empty long";rt `long$();`long$()]

/ q -> tensor -> q is exact for every type at ranks 0 to 4, nulls and extremes included
vals:(01b;0x00ff7f;-32767 0 0Nh;-2147483647 0 0Ni;-0W 0 0N 0W;`real$-1.5 0n 3.4e38;-1.5 0n 1e308 -0w;"a\000z")
shapes:(();enlist 5;2 3;2 3 2;2 1 3 2)
mk:{[v;s] $[0=count s;first v;1=count s;s[0]#v;s#(prd s)#v]}
ok:{[v;s] d:mk[v;s]; r:rt d; (r~d) and type[r]=type d}
res:vals ok/:\: shapes
.t.eq["round trips, every type and rank";res;(count[vals];count shapes)#1b]
.t.eq["rank kept";rt mk[-1 2 3;2 1 3 2];mk[-1 2 3;2 1 3 2]]

/ dtypes from q types, and options
.t.eq["dtype of longs";{t:tensor x; r:dtype t; free t; r} 1 2;`long]
.t.eq["dtype of floats";{t:tensor x; r:dtype t; free t; r} 1 2.0;`double]
t:tensor(1 2 3;`float)
.t.eq["`float option";tensor t;1 2 3e]
.t.eq["size";size t;enlist 3]
.t.eq["dim";dim t;1]
.t.eq["numel";numel t;3]
.t.eq["device";device t;`cpu]
free t
t:tensor(2 3#til 6;`double)
.t.eq["size of matrix";size t;2 3]
.t.eq["double values";tensor t;(0 1 2f;3 4 5f)]
free t
.t.ok["unknown option";.t.catch[{tensor(1 2;`bogus)}] like "tensor: *bogus*"]
.t.ok["two dtypes";.t.catch[{tensor(1 2;`int`long)}] like "tensor: *more than one data type*"]
.t.ok["grad on longs refused";.t.catch[{tensor(1 2;`grad)}] like "tensor: *floating point*"]

/ creation modes
m:{t:tensor x; r:tensor t; free t; r}
.t.eq["zeros";m(`zeros;2 3;`int);(0 0 0i;0 0 0i)]
.t.eq["ones default float";m(`ones;2);1 1e]
.t.eq["full";m(`full;3;1.5);1.5 1.5 1.5]
.t.eq["arange";m(`arange;5);0 1 2 3 4]
.t.eq["arange step";m(`arange;1;10;3);1 4 7]
.t.eq["range includes end";m(`range;1;4);1 2 3 4]
.t.eq["linspace";m(`linspace;0;1;5;`double);0 0.25 0.5 0.75 1]
.t.eq["logspace";m(`logspace;0;2;3;`double);1 10 100f]
.t.eq["eye";m(`eye;2;3;`long);(1 0 0;0 1 0)]
.t.eq["randperm is a permutation";asc m(`randperm;10);til 10]
r:m(`randint;5;10;1000)
.t.ok["randint in [5,10)";all (r>=5)&r<10]
.t.eq["randn size";{t:tensor x; r:size t; free t; r}(`randn;4 5);4 5]
.t.ok["unknown mode";.t.catch[{tensor(`nope;3)}] like "tensor: *creation mode*"]

/ conversion errors
.t.ok["ragged";.t.catch[{tensor(1 2;3 4 5)}] like "tensor: length*"]
.t.ok["mixed types";.t.catch[{tensor(1 2;3 4.0)}] like "tensor: type*"]
.t.ok["symbols";.t.catch[{tensor`a`b}] like "tensor: *"]

/ handles: q holds ids, freed or forged ones are errors, never crashes
t:tensor 1 2 3
.t.eq["handle is a 1-item general list";type t;0h]
.t.eq["holding a long";type first t;-7h]
.t.eq["class";class t;`tensor]
.t.eq["tensorcount";tensorcount[];1]
.t.eq["obj row";raze obj[][`elements`bytes];3 24]
free t
.t.eq["stale after free";.t.catch[{tensor t}];"tensor: stale pointer"]
.t.eq["double free";.t.catch[{free t}];"free: stale pointer"]
.t.eq["forged handle";.t.catch[{tensor 1_(::;123456789)}];"tensor: stale pointer"]
a:tensor 1 2; b:tensor 3 4
.t.eq["free checks all first";.t.catch[{free(a;t)}];"free: stale pointer, element[1] of given list"]
.t.eq["free: not a handle";.t.catch[{free(a;1 2)}];"free: expected a ktorch object but element[1] of given list is not one"]
.t.eq["free: a handle twice is freed once";free(b;b);::]
b:tensor 2
.t.eq["free: a dictionary of handles";free `p`q!(addref a;addref b);::]
.t.eq["free: stale in a dictionary";.t.catch[{free enlist[`p]!enlist t}];"free: stale pointer, key[`p] of given dictionary"]
.t.eq["nothing freed";tensorcount[];2]
free(a;b)
.t.eq["all freed";tensorcount[];0]
a:tensor 1; b:tensor 2; free[]
.t.eq["free[] frees all";tensorcount[];0]

/ autograd: d/dx mean(x*x) = 2x/n
x:tensor(1 2 3.0;`grad)
y:mul(x;x)
z:mean y
.t.eq["no grad before backward";grad x;::]
backward z
.t.ok["grad x = 2x/3";all 1e-12>abs grad[x]-2*1 2 3.0%3]
free(x;y;z)
t:tensor 1 2.0
.t.eq["backward needs grad";.t.catch[{backward t}];"backward: tensor does not require gradients"]
free t

/ math on q data returns q data; on handles, handles
.t.eq["mul q data";mul(1 2 3.0;2);2 4 6f]
.t.eq["mean q data";mean 1 2 3 4.0;2.5]
.t.eq["mean of longs is float";mean 1 2 3 4;2.5e]
a:tensor 1 2 3.0
b:mul(a;a)
.t.eq["mul of handles is a handle";class b;`tensor]
.t.eq["mul values";tensor b;1 4 9f]
free(a;b)
.t.eq["clean";tensorcount[];0]

/ to, use, addref, return, options
t:tensor 1 2 3
to(t;`double)
.t.eq["to converts in place";tensor t;1 2 3f]
.t.eq["options";options t;`device`dtype`layout`gradient`pin`memory!`cpu`double`strided`nograd`unpinned`contiguous]
.t.eq["options() defaults";(options())`dtype;`float]
g:tensor(1 2.0;`grad)
to(g;`float)
.t.eq["to keeps the gradient flag";(options g)`gradient;`grad]
u:addref t
use[t;10 20]
.t.eq["use with q data";tensor t;10 20]
.t.eq["addref keeps the old tensor";tensor u;1 2 3f]
w:tensor 5 6.0
use[t;w]
.t.eq["use takes a handle's tensor";tensor t;5 6f]
.t.eq["and frees that handle";.t.catch[{tensor w}];"tensor: stale pointer"]
.t.eq["use on a stale handle";.t.catch[{use[w;1 2]}];"use: stale pointer"]
.t.eq["return";return u;1 2 3f]
.t.eq["return frees";.t.catch[{tensor u}];"tensor: stale pointer"]
free(t;g)

/ to and copyto
t:tensor 1 2 3
r:copyto(t;`double`grad)
.t.eq["copyto makes a new tensor";(dtype t;dtype r;gradflag r);(`long;`double;1b)]
.t.eq["copyto values";tensor r;1 2 3f]
.t.eq["copyto is a copy";same(t;r);0b]
c2:copyto(t;`long)
.t.eq["copyto always copies";alias(t;c2);0b]
a:addref t
to(t;`float)
.t.eq["to converts in place";(dtype t;tensor t);(`float;1 2 3e)]
.t.eq["addref handle keeps the old tensor";dtype a;`long]
e:tensor()
to(e;r)
.t.eq["to(h;example): dtype and device";(dtype e;device e;gradflag e);(`double;`cpu;0b)]
b:addref t
to(t;`grad)
.t.eq["only the flag: same tensor kept";(same(t;b);gradflag b);11b]
to(t;`double)
.t.eq["to keeps the gradient flag";(dtype t;gradflag t);(`double;1b)]
.t.eq["to: bad option";.t.catch[{to(t;`bogus)}];"to: unrecognized tensor option: `bogus"]
.t.eq["to: async flag";.t.catch[{to(t;`float;1)}];"to: 3rd argument expected as boolean async flag"]
.t.eq["to: bad 2nd arg";.t.catch[{to(t;1 2)}];"to: 2nd argument not recognizable as option(s), e.g. device, data type, etc."]
.t.eq["to: grad on longs";.t.catch[{to(a;`grad)}];"to: only floating point and complex tensors can require gradients"]
.t.eq["copyto: not a handle";.t.catch[{copyto(0N;`float)}];"copyto: not a ktorch handle"]
v:vector(1 2;3 4.0)
to(v;`float)
.t.eq["to on a vector";dtype v;`float`float]
d:dict `a`b!(1 2;3 4e)
to(d;`double)
.t.eq["to on a dictionary";dtype d;`a`b!`double`double]
m4:tensor(`randn;1 2 3 4)
cl:copyto(m4;`channel2d)
.t.eq["memory format";(memory m4;memory cl;contiguous cl);(`contiguous;`channel2d;0b)]
.t.eq["same values in another layout";tensor[m4]~tensor cl;1b]
.t.eq["channel3d needs rank 5";.t.catch[{copyto(m4;`channel3d)}];"copyto: required rank 5 tensor to use channels_last_3d format"]
free(t;r;c2;a;e;b;v;d;m4;cl)

/ backward forms, zerograd, nograd (no x y z globals: inside a lambda they are its arguments)
gx:tensor(1 2 3.0;`grad)
gy:mul(gx;gx)
backward(gy;1 1 1.0;`retain)
.t.eq["backward with gradient";grad gx;2 4 6f]
backward(gy;2.0)
.t.eq["atom gradient, accumulated";grad gx;6 12 18f]
zerograd gx
.t.eq["zerograd";grad gx;0 0 0f]
nograd gx
.t.eq["nograd";grad gx;::]
.t.ok["graph freed after a pass";.t.catch[{backward(gy;1 1 1.0)}] like "backward: *second time*"]
gy2:mul(gx;gx); gs:Sum gy2
backward(gs;`create)
.t.eq["create: first derivative";grad gx;2 4 6f]
nograd gx   / drops the gradient and with it the cycle `create makes
.t.eq["bad graph symbol";.t.catch[{backward(gs;`bogus)}];"backward: unrecognized backward option `bogus, expected `free`retain`create or `createfree"]
.t.ok["scalar needed without gradient";.t.catch[{backward gy2}] like "backward: grad can be implicitly created only for scalar outputs*"]
t0:tensor 1 2
.t.eq["no gradient required";.t.catch[{backward t0}];"backward: tensor does not require gradients"]
v:vector enlist addref gx
backward(gy2;1 1 1.0)
zerograd v
.t.eq["zerograd on a vector";grad gx;0 0 0f]
free(gx;gy;gy2;gs;t0;v)
.t.eq["no tensors left";tensorcount[];0]

/ undefined and empty tensors
u:tensor[]
.t.eq["undefined is (::)";tensor u;::]
.t.eq["undefined: defined";defined u;0b]
e:tensor()
.t.eq["empty has the default dtype";(dtype e;tensor e);(`float;`real$())]
dtype`double
e2:tensor()
.t.eq["default dtype followed";(dtype e2;tensor e2);(`double;`float$())]
.t.eq["modes follow it";m(`ones;2);1 1f]
dtype`float
.t.eq["default dtype must be floating";.t.catch[{dtype`long}];"dtype: default data type must be floating point, given `long"]
free(u;e;e2)

/ reading part of a tensor: tensor(h;ind), tensor(h;dim;ind)
t:tensor 3 4#til 12
.t.eq["row";tensor(t;1);4 5 6 7]
.t.eq["last row";tensor(t;-1);8 9 10 11]
.t.eq["rows";tensor(t;2 0);(8 9 10 11;0 1 2 3)]
.t.eq["column";tensor(t;1;2);2 6 10]
.t.eq["last dim";tensor(t;-1;2 3);(3 4#til 12)[;2 3]]
.t.eq["dim -2";tensor(t;-2;1 2);(3 4#til 12)1 2]
.t.ok["index out of range";.t.catch[{tensor(t;5)}] like "tensor: *index 5*out of range*"]
.t.ok["dim out of range";.t.catch[{tensor(t;2;0)}] like "tensor: *imension out of range*"]
/ indices past the size: ktorch's check, the same error on every device (on CUDA libtorch's own
/ would be a device-side assert: tests/q/gpu/ktorch_cuda_faults.q)
.t.eq["rows past the size";.t.catch[{tensor(t;0 3)}];"tensor: index 3 out of range for dimension 0 of size 3"]
.t.eq["index: indices past the size";.t.catch[{index(t;1;0 4)}];"index: index 4 out of range for dimension 1 of size 4"]
.t.eq["index: negative index";.t.catch[{index(t;-1;-1 0)}];"index: index -1 out of range for dimension -1 of size 4"]
i:tensor 2 5
.t.eq["index: tensor of indices past the size";.t.catch[{index(t;0;i)}];"index: index 5 out of range for dimension 0 of size 3"]
free i
q:module enlist(`indexselect;1;0 4)
.t.eq["indexselect module: index past the size";.t.catch[{forward(q;t)}];"forward: index 4 out of range for dimension 1 of size 4"]
free q
free t

/ output tensors: new values, the output tensor's dtype and device kept, in place
r:tensor(1 2;`float)
r2:addref r
.t.eq["tensor(data;out) returns null";tensor(10 20 30;r);::]
.t.eq["values converted to its dtype";tensor r;10 20 30e]
.t.eq["in place: other handles see it";tensor r2;10 20 30e]
tensor(`zeros;2 2;r)
.t.eq["mode into out";tensor r;(0 0e;0 0e)]
tensor(`full;3;7;r)
.t.eq["full into out";tensor r;7 7 7e]
tensor(`arange;0;10;4;r)
.t.eq["arange into out";tensor r;0 4 8e]
tensor(`randperm;6;r)
.t.eq["randperm into out";asc tensor r;`s#0 1 2 3 4 5e]
.t.eq["out keeps dtype";dtype r;`float]
u:tensor[]
tensor(1 2 3;u)
.t.eq["undefined out takes the values";(dtype u;tensor u);(`long;1 2 3)]
free(r;r2;u)

/ input tensors: size (and dtype, device) from a tensor, as PyTorch's *_like
t:tensor(2 3#1.5;`double)
o:tensor(`ones;t)
.t.eq["ones like";(dtype o;tensor o);(`double;(1 1 1f;1 1 1f))]
z:tensor(`zeros;t;`int)
.t.eq["options override";tensor z;(0 0 0i;0 0 0i)]
b:tensor(`full;t;1b)
.t.eq["full like: dtype from the value";tensor b;(111b;111b)]
ri:tensor(`randint;t;5;6)
.t.eq["randint like";tensor ri;(5 5 5f;5 5 5f)]
free(t;o;z;b;ri)

/ complex tensors: (real;imag) first by default, or pairs last
c:tensor(1 2 3;`cfloat)
.t.eq["complex from reals";tensor c;(1 2 3e;0 0 0e)]
.t.eq["complex pairs last";tensor(c;0b);(1 0e;2 0e;3 0e)]
c2:tensor(`complex;1 2 3;-1 0 2)
.t.eq["complex mode";(dtype c2;tensor c2);(`cfloat;(1 2 3e;-1 0 2e))]
/ one array: (real;imag) along the first dimension (complexfirst is on), as ktorch
c3:tensor(`complex;(1 2.0;-1 0.5))
.t.eq["complex from one array, double";(dtype c3;tensor c3);(`cdouble;(1 2f;-1 0.5))]
setting`complexfirst,0b
.t.eq["complexfirst off";tensor c2;(1 -1e;2 0e;3 2e)]
setting`complexfirst,1b
free(c;c2;c3)

/ conversion errors name the problem as ktorch does
.t.eq["symbols";.t.catch[{tensor `a`b}];"tensor: no torch type found for k: symbol list"]
.t.eq["timestamps";.t.catch[{tensor 2#2000.01.01D0}];"tensor: no torch type found for k: timestamp list"]
/ a table is no error here (ktorch's is): rows by columns (issue 33, docs/tables.md)
.t.eq["table";{r:tensor h:tensor x; free h; r}([]a:1 2);(enlist 1;enlist 2)]
.t.eq["mixed types";.t.catch[{tensor(1 2;3 4.0)}];"tensor: type mismatch: long list and float list in one list"]
/ an out= tensor whose resize failed (no memory for 1e15 items) is an error on every later use,
/ not memory a kernel writes past (the second call was a SIGSEGV: ktorch-fuzz --seed 15392495).
/ 4e15 bytes are more than a process's address space (2^47), so the allocation fails on every
/ machine; 1e12 items (4 TB) were granted where memory is overcommitted (the GPU machine), and the
/ kernel writing them was killed for memory
r:fftfreq 5
.t.eq["failed resize";.t.catch[{fftfreq(1000000000000000;2;r)}] like "fftfreq: *can't allocate memory*";1b]
.t.eq["the tensor after it";.t.catch[{fftfreq(1000000000000000;2;r)}];"fftfreq: tensor of size [1000000000000000] needs more memory than its storage holds (an earlier call's resize failed): free it"]
.t.eq["its values too";.t.catch[{tensor r}] like "tensor: tensor of size*free it";1b]
/ add's path for two tensor handles (registry::tensor_pair) checks both as well
s:tensor 1 2 3e
.t.eq["add of it";.t.catch[{add(r;s)}] like "add: tensor of size*free it";1b]
.t.eq["add to it";.t.catch[{add(s;r)}] like "add: tensor of size*free it";1b]
free s
free r
.t.eq["all freed at the end";tensorcount[];0]
.t.done[]
