/ Tensor information (docs/info.md): sizes, pointers and reference counts, options, flags,
/ info/detail/str/help; each for tensors and vectors, with a bad-argument case per function.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ sizes: a 2 3 4 long tensor has strides 12 4 1, 24 elements of 8 bytes
a:tensor(`zeros;2 3 4;`long)
.t.eq["size";size a;2 3 4]
.t.eq["stride";stride a;12 4 1]
.t.eq["dim";dim a;3]
.t.eq["numel";numel a;24]
.t.eq["itemsize long";itemsize a;8]
.t.eq["elements";elements a;24]
.t.eq["bytes = numel*itemsize";bytes a;24*8]
.t.eq["offset";offset a;0]
.t.eq["stride of a 1-dim tensor";{t:tensor x; r:stride t; free t; r} 1 2 3;enlist 1]
.t.eq["itemsize from q data";itemsize each(1 2e;1 2h;01b;"ab";1 2.0);4 2 1 1 8]
.t.eq["stride from q data";stride(1 2 3;4 5 6);3 1]
.t.eq["dim of a scalar";dim 1.5;0]
.t.eq["size of a scalar";size 1.5;`long$()]
.t.eq["stride of a scalar";stride 1.5;`long$()]

/ vectors: a list, one item per tensor
v:vector(1 2 3;4 5e;010b)
.t.eq["size v";size v;(enlist 3;enlist 2;enlist 3)]
.t.eq["stride v";stride v;(enlist 1;enlist 1;enlist 1)]
.t.eq["dim v";dim v;1 1 1]
.t.eq["numel v";numel v;3 2 3]
.t.eq["itemsize v";itemsize v;8 4 1]
.t.eq["elements v";elements v;3 2 3]
.t.eq["bytes v";bytes v;24 8 3]
.t.eq["offset v";offset v;0 0 0]
.t.eq["dtype v";dtype v;`long`float`bool]
.t.eq["device v";device v;`cpu`cpu`cpu]
.t.eq["ktype v";ktype v;"jeb"]
.t.eq["layout v";layout v;`strided`strided`strided]
.t.eq["memory v";memory v;`contiguous`contiguous`contiguous]
.t.eq["gradient v";gradient v;`nograd`nograd`nograd]
.t.eq["gradfn v";gradfn v;```]
.t.eq["defined v";defined v;111b]
.t.eq["contiguous v";contiguous v;111b]
.t.eq["coalesced v";coalesced v;111b]
.t.eq["leaf v";leaf v;111b]
.t.eq["pinned v";pinned v;000b]
.t.eq["sparseflag v";sparseflag v;000b]
.t.eq["ref v";ref v;1 1 1]
.t.eq["sref v";sref v;1 1 1]
.t.eq["weakref v";weakref v;1 1 1]
.t.eq["ptr v: one long per tensor";type ptr v;7h]
.t.eq["sptr v: distinct storages";count distinct sptr v;3]
.t.eq["objtype v";objtype v;`tensor]
o:options v
.t.eq["options v is a table";(type o;cols o;count o);(98h;`device`dtype`layout`gradient`pin`memory;3)]
.t.eq["options v dtypes";o`dtype;`long`float`bool]
free v
v:vector()
.t.eq["empty vector";(size v;dtype v;ref v);(();0#`;`long$())]
free v

/ references: addref shares the tensor; free drops a reference
t:tensor 1 2 3
.t.eq["ref 1";ref t;1]
.t.eq["sref 1";sref t;1]
u:addref t
.t.eq["ref after addref";ref t;2]
.t.eq["ref of the other handle";ref u;2]
.t.eq["sref unchanged";sref t;1]
.t.eq["same ptr";ptr t;ptr u]
.t.eq["same sptr";sptr t;sptr u]
.t.ok["same after addref";same(t;u)]
.t.ok["alias after addref";alias(t;u)]
.t.ok["ptr is an address";0<ptr t]
.t.ok["sptr is an address";0<sptr t]
.t.eq["weakref";weakref t;1]
free u
.t.eq["ref after free";ref t;1]
/ to() with nothing to change keeps the very tensor
u:addref t
to(t;`long)
.t.ok["to, nothing to change: same tensor";same(t;u)]
free u
/ a view is a new tensor on the same storage
u:View(t;size t)
.t.ok["not the same tensor";not same(t;u)]
.t.ok["but an alias";alias(t;u)]
.t.eq["ref each: a view holds its base";(ref t;ref u);2 1]
.t.eq["sref: two tensors on one storage";sref t;2]
.t.eq["sptr shared";sptr t;sptr u]
/ a conversion copies: neither same nor alias
to(t;`double)
.t.ok["copy: not same";not same(t;u)]
.t.ok["copy: not alias";not alias(t;u)]
.t.eq["sref after copy: the old storage has the view and its base";(sref t;sref u);1 2]
.t.eq["bytes after conversion";bytes t;24]
c:tensor 1 2 3
.t.ok["equal values, different storage";not alias(t;c)]
free(t;u;c)
.t.eq["ref stale";.t.catch[{ref t}];"ref: stale pointer"]
.t.eq["sref stale";.t.catch[{sref t}];"sref: stale pointer"]
.t.eq["weakref stale";.t.catch[{weakref t}];"weakref: stale pointer"]
.t.eq["ptr stale";.t.catch[{ptr t}];"ptr: stale pointer"]
.t.eq["sptr stale";.t.catch[{sptr t}];"sptr: stale pointer"]
.t.eq["same stale";.t.catch[{same(t;t)}];"same: stale pointer"]
.t.eq["alias stale";.t.catch[{alias(t;t)}];"alias: stale pointer"]
.t.eq["ref of q data";.t.catch[{ref 1 2 3}];"ref: expects a tensor, vector or dictionary, given long list"]
.t.eq["ptr of a symbol";.t.catch[{ptr`a}];"ptr: expects a tensor, vector or dictionary, given symbol scalar"]
.t.eq["same of one";.t.catch[{same enlist 1}];"same: expected (tensor;tensor)"]
.t.eq["alias with data";.t.catch[{alias(a;1 2)}];"alias: expected a tensor, given long list"]
.t.eq["size stale";.t.catch[{size t}];"size: stale pointer"]
.t.eq["stride stale";.t.catch[{stride t}];"stride: stale pointer"]
.t.eq["dim stale";.t.catch[{dim t}];"dim: stale pointer"]
.t.eq["numel stale";.t.catch[{numel t}];"numel: stale pointer"]
.t.eq["itemsize stale";.t.catch[{itemsize t}];"itemsize: stale pointer"]
.t.eq["elements stale";.t.catch[{elements t}];"elements: stale pointer"]
.t.eq["bytes stale";.t.catch[{bytes t}];"bytes: stale pointer"]
.t.eq["offset stale";.t.catch[{offset t}];"offset: stale pointer"]
.t.ok["size of symbols";.t.catch[{size`a`b}] like "size: *"]

/ options and attributes of a tensor
.t.eq["dtype";dtype a;`long]
.t.eq["device";device a;`cpu]
.t.eq["layout";layout a;`strided]
.t.eq["gradient";gradient a;`nograd]
.t.eq["memory";memory a;`contiguous]
.t.eq["gradfn";gradfn a;`]
.t.eq["ktype";ktype a;"j"]
.t.eq["ktype each";ktype each(1 2e;1 2f;01b;0x01;"a";1 2i;1 2h);"efbxcih"]
.t.eq["objtype";objtype a;`tensor]
.t.eq["options";options a;`device`dtype`layout`gradient`pin`memory!`cpu`long`strided`nograd`unpinned`contiguous]
.t.eq["options[]";options[];`device`dtype`layout`gradient`pin`memory!`cpu`float`strided`nograd`unpinned`contiguous]
.t.eq["options()";options();options[]]
.t.eq["options`tensor";options`tensor;options[]]
.t.eq["dtype stale";.t.catch[{dtype t}];"dtype: stale pointer"]
.t.eq["device stale";.t.catch[{device t}];"device: stale pointer"]
.t.eq["layout stale";.t.catch[{layout t}];"layout: stale pointer"]
.t.eq["gradient stale";.t.catch[{gradient t}];"gradient: stale pointer"]
.t.eq["memory stale";.t.catch[{memory t}];"memory: stale pointer"]
.t.eq["gradfn stale";.t.catch[{gradfn t}];"gradfn: stale pointer"]
.t.eq["ktype stale";.t.catch[{ktype t}];"ktype: stale pointer"]
.t.eq["objtype stale";.t.catch[{objtype t}];"objtype: stale pointer"]
.t.eq["options stale";.t.catch[{options t}];"options: stale pointer"]
.t.eq["objtype of data";.t.catch[{objtype 1 2}];"objtype: requires an allocated object, e.g. tensor, vector or dictionary, given long list"]
.t.eq["gradient of data";.t.catch[{gradient 1 2}];"gradient: expects a tensor, vector or dictionary, given long list"]
.t.eq["options of data";.t.catch[{options 1 2}];"options: expects a tensor, vector or dictionary, given long list"]

/ default dtype and device
.t.eq["dtype[]";dtype[];`float]
.t.eq["set default";dtype`double;::]
.t.eq["dtype()";dtype();`double]
.t.eq["options follow the default";options[][`dtype];`double]
.t.eq["creation uses it";{t:tensor(`ones;2); r:dtype t; free t; r}[];`double]
dtype`float
.t.eq["reset";dtype[];`float]
.t.eq["not floating point";.t.catch[{dtype`long}];"dtype: default data type must be floating point, given `long"]
.t.eq["unknown dtype";.t.catch[{dtype`bogus}];"dtype: unrecognized data type: `bogus"]
.t.ok["device[]";device[] in `cpu`cuda]
.t.eq["device[] matches CUDA";device[];$[`cuda in key help`device;`cuda;`cpu]]

/ gradients: gradient, gradfn, gradflag, leaf
g1:tensor(1 2 3.0;`grad)
g2:mul(g1;g1)
g3:mean g2
.t.eq["gradient each";gradient each(g1;g2;g3);`grad`grad`grad]
.t.eq["gradfn each";gradfn each(g1;g2;g3);``MulBackward0`MeanBackward0]
.t.eq["leaf each";leaf each(g1;g2;g3);100b]
.t.eq["gradflag each";gradflag each(g1;g2;g3);111b]
.t.eq["turn off on non-leaf";.t.catch[{gradflag(g2;0b)}];"gradflag: only the gradient flag of leaf tensors can be turned off"]
free(g1;g2;g3)
w:tensor 1 2 3.0
.t.eq["gradflag off";gradflag w;0b]
.t.eq["set on";gradflag(w;1b);::]
.t.eq["now on";(gradflag w;gradient w);(1b;`grad)]
gradflag(w;0b)
.t.eq["off again";gradflag w;0b]
free w
v:vector(1 2.0;3 4e;5 6)
.t.eq["gradflag v";gradflag v;000b]
gradflag(v;0 1;1b)
.t.eq["set by indices";gradflag v;110b]
.t.eq["get by index";gradflag(v;1);1b]
.t.eq["get by indices";gradflag(v;2 0);01b]
.t.eq["long tensor refused";.t.catch[{gradflag(v;1b)}];"gradflag: only floating point and complex tensors can require gradients, given `long"]
.t.eq["nothing changed";gradflag v;110b]
gradflag(v;0 1;0b)
.t.eq["all off";gradflag v;000b]
.t.eq["bad index";.t.catch[{gradflag(v;3)}];"gradflag: vector[3] invalid for 3-element vector"]
.t.eq["keys on a vector";.t.catch[{gradflag(v;`a)}];"gradflag: 2nd argument of index/indices expected for a vector"]
.t.eq["index on a tensor";.t.catch[{gradflag(a;0)}];"gradflag: 2nd argument of key(s) or index/indices not valid with a tensor"]
.t.eq["gradflag of data";.t.catch[{gradflag 1 2}];"gradflag: expected tensor/vector/dictionary or (object;flag) or (dict/vector;keys/indices) or (dict/vector;keys/indices;flag)"]
.t.eq["gradflag stale";.t.catch[{gradflag t}];"gradflag: stale pointer"]
free v

/ flags
.t.eq["contiguous";contiguous a;1b]
.t.eq["contiguous(x;`contiguous)";contiguous(a;`contiguous);1b]
.t.eq["not channels-last (2d) for 3 dims";contiguous(a;`channel2d);0b]
.t.eq["contiguous of data";contiguous(1 2;3 4);1b]
.t.eq["coalesced";coalesced a;1b]
.t.eq["defined";defined a;1b]
.t.eq["leaf";leaf a;1b]
.t.eq["pinned";pinned a;0b]
.t.eq["sparseflag";sparseflag a;0b]
.t.eq["unknown format";.t.catch[{contiguous(a;`bogus)}];"contiguous: unrecognized memory format `bogus, expected one of contiguous,preserve,channel2d,channel3d"]
.t.eq["contiguous stale";.t.catch[{contiguous t}];"contiguous: stale pointer"]
.t.eq["coalesced stale";.t.catch[{coalesced t}];"coalesced: stale pointer"]
.t.eq["defined stale";.t.catch[{defined t}];"defined: stale pointer"]
.t.eq["leaf stale";.t.catch[{leaf t}];"leaf: stale pointer"]
.t.eq["pinned stale";.t.catch[{pinned t}];"pinned: stale pointer"]
.t.eq["sparseflag stale";.t.catch[{sparseflag t}];"sparseflag: stale pointer"]
.t.eq["defined of data";.t.catch[{defined 1 2}];"defined: expects a tensor, vector or dictionary, given long list"]

/ info, detail, str
i:info a
.t.eq["info keys";key i;`device`dtype`layout`gradient`pin`memory`leaf`gradfn`dim`sparsedim`size`stride`numel`itemsize`contiguous`coalesced`offset`ptr`ref]
.t.eq["info values";i`device`dtype`layout`gradient`pin`memory`leaf`gradfn`dim`sparsedim`size`stride`numel`itemsize`contiguous`coalesced`offset;(`cpu;`long;`strided;`nograd;`unpinned;`contiguous;1b;`;3;0;2 3 4;12 4 1;24;8;1b;1b;0)]
.t.eq["info ptr and ref";raze i`ptr`ref;(ptr a),ref a]
f:tensor 1.5 2.5e
d:detail f
.t.eq["detail keys";key d;key[i],`storage]
.t.eq["detail storage";d`storage;`size`itemsize`ref`ptr`data!(2;4;1;sptr f;1.5 2.5e)]
.t.eq["info of a vector";.t.catch[{info v}];"info: stale pointer"]
v:vector(1 2;3 4)
.t.eq["info of a vector";.t.catch[{info v}];"info: expected a tensor, given a vector"]
.t.eq["detail of data";.t.catch[{detail 1 2}];"detail: expected a tensor, given long list"]
.t.eq["info stale";.t.catch[{info t}];"info: stale pointer"]
.t.eq["detail stale";.t.catch[{detail t}];"detail: stale pointer"]
.t.eq["str";str f;" 1.5000\n 2.5000\n[ CPUFloatType{2} ]"]
.t.eq["str of a scalar";{t:tensor x; r:str t; free t; r} 7;"7\n[ CPULongType{} ]"]
.t.eq["str of a vector";.t.catch[{str v}];"str: expected a tensor or module, given vector"]
.t.eq["str stale";.t.catch[{str t}];"str: stale pointer"]
free(f;v)

/ help
/ ktorch.cpp helpsym's topics
.t.eq["help[]";key help[];`backward`device`dtype`ktype`loss`module`optimizer`tensor]
/ ktorch's tables as types.rst prints them (bfloat, ours, last)
.t.eq["help`dtype";help`dtype;`float`double`half`bool`byte`char`long`int`short`chalf`cfloat`cdouble`bfloat!"efebxcjiheefe"]
.t.eq["help`ktype";help`ktype;"efebxcji"!`float`double`half`bool`byte`char`long`int]
.t.eq["help`tensor";help`tensor;options[]]
seed 42
.t.eq["help`device";(help`device)`cpu;42]
.t.eq["unknown topic";.t.catch[{help`bogus}];"help: unrecognized help topic `bogus, expected one of backward,device,dtype,ktype,loss,module,optimizer,tensor, or a module, loss or optimizer name"]
.t.eq["help of data";.t.catch[{help 1 2}];"help: expected an empty argument or a topic symbol, given long list"]

free a
free[]
.t.eq["all freed";count obj[];0]
.t.done[]
