/ Complex and sparse tensors (ktorch's complex.rst, sparse.rst and the sparse parts of
/ tensors.rst and info.rst): results checked against q computations or values from PyTorch
/ (tests/q/data/complex_expected.q, made by tests/q/gen/complex.py), for q data and handles,
/ with bad arguments for each function.
\l tests/q/lib/assert.q
\l tests/q/data/complex_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
/ (row;col) indices of the non-zero elements of a matrix, in row-major order, one row per dim
nzix:{flip raze{x,/:y}'[til count x;where each 0<>x]}

/ ---------------------------------------------------------------- complex tensors
re:1.5 -2 0 3.25
im:0 .5 -1 0
c:tensor(`complex;re;im)
.t.eq["complex mode dtype";dtype c;`cdouble]
.t.eq["complex mode values";tensor c;(re;im)]
.t.eq["complex retrieved pairs last";tensor(c;0b);re,'im]

/ real, imag, isreal: a handle gives q data, an enlisted handle a new handle
.t.eq["real q data";real c;.e.real]
.t.eq["real q data matches q";real c;re]
.t.eq["imag q data";imag c;.e.imag]
.t.eq["isreal q data";isreal c;.e.isreal]
.t.eq["isreal matches q";isreal c;0=im]
.t.eq["real handle";val real enlist c;.e.real]
.t.eq["imag handle";val imag enlist c;.e.imag]
r:isreal enlist c
.t.eq["isreal handle dtype";dtype r;`bool]
.t.eq["isreal handle";val r;.e.isreal]
.t.eq["real of float parts";real cf:tensor(`complex;1 2 3;-1 0 2);1 2 3e]
i:imag enlist cf
.t.eq["imag handle dtype";dtype i;`float]
.t.eq["imag handle values";val i;-1 0 2e]
d:tensor 1 2 3.0
.t.eq["real bad: real tensor";.t.catch[{real d}];"real: expects a complex tensor (enlist to return tensor ptr), given a dense double tensor"]
.t.eq["imag bad: q data";.t.catch[{imag 1 2 3}];"imag: expects a complex tensor (enlist to return tensor ptr), given long list"]
.t.eq["isreal bad: enlisted real";.t.catch[{isreal enlist d}];"isreal: expects a complex tensor (enlist to return tensor ptr), given a dense double tensor"]
.t.eq["real bad: two handles";.t.catch[{real(c;c)}];"real: expects a complex tensor (enlist to return tensor ptr), given general list"]

/ complex from one array: (real;imag) first by default (complexfirst), or pairs last with 0b
x2:(1 -1f;2 0f;3 2f;4 5f)
use[c]tensor(`complex;flip x2)
.t.eq["complex one array, first";(real c;imag c);(.e.lastReal;.e.lastImag)]
use[c]tensor(`complex;x2;0b)
.t.eq["complex one array, last";(real c;imag c);(.e.lastReal;.e.lastImag)]
use[c]tensor(`complex;flip x2;1b;`cfloat)
.t.eq["complex one array, flag and options";(dtype c;real c);(`cfloat;`real$.e.lastReal)]
.t.eq["complex one array, wrong size";.t.catch[{tensor(`complex;x2)}];"tensor: complex: single input array must have a first dimension of size 2 (real;imaginary), given size of [4, 2]"]
.t.eq["complex one array, wrong last";.t.catch[{tensor(`complex;flip x2;0b)}];"tensor: complex: single input array must have a last dimension of size 2 (real,'imaginary), given size of [2, 4]"]
.t.eq["complex real and imag types differ";.t.catch[{tensor(`complex;1 2e;3 4f)}];"tensor: complex: real input is float, imaginary input is double"]
.t.eq["complex with a real dtype";.t.catch[{tensor(`complex;1 2;3 4;`double)}];"tensor: complex: unable to create complex tensor with given datatype: double"]
.t.eq["complex from a scalar array";.t.catch[{tensor(`complex;1f;0b)}];"tensor: complex: single input array must have one or more dimensions"]
setting`complexfirst,0b
use[c]tensor(`complex;x2)
.t.eq["complex one array follows complexfirst";tensor c;x2]
setting`complexfirst,1b

/ other creation modes with complex dtypes: real part given, imaginary part zero
use[c]tensor(`full;4;2.5;`cfloat)
.t.eq["full cfloat";tensor c;(4#2.5e;4#0e)]
use[c]tensor(`ones;2 3;`cdouble)
.t.eq["ones cdouble";(real c;imag c);(2 3#1f;2 3#0f)]
use[c]tensor(`linspace;0;9;10;`cfloat)
.t.eq["linspace cfloat";tensor c;(`real$til 10;10#0e)]
.t.ok["arange refuses complex";.t.catch[{tensor(`arange;10;`cfloat)}] like "tensor: *not implemented for 'ComplexFloat'*"]
free(c;cf;d)

/ ---------------------------------------------------------------- sparse from q data
xm:./[3 4#0;(0 1;2 3;1 2);:;12 -99 4]
t:tensor(xm;`sparse)
.t.eq["sparse option layout";layout t;`sparse]
.t.eq["sparse option values back dense";tensor t;xm]
.t.eq["indices q data";indices t;nzix xm]
.t.eq["values q data";values t;xm ./: flip nzix xm]
.t.eq["indices handle";val indices enlist t;nzix xm]
.t.eq["values handle";val values enlist t;12 4 -99]
.t.eq["nnz";nnz t;"j"$sum sum 0<>xm]
.t.eq["sparsedim";sparsedim t;2]
.t.eq["densedim";densedim t;0]
.t.eq["sparseflag";sparseflag t;1b]
.t.eq["coalesced from dense";coalesced t;1b]
.t.eq["size";size t;3 4]
.t.eq["info sparsedim";info[t]`sparsedim;2]
.t.eq["numel counts values";numel t;3]
.t.eq["tensor part of sparse";tensor(t;1);xm 1]
a:tensor 1 2 3
.t.eq["indices bad: dense";.t.catch[{indices a}];"indices: expects a sparse tensor (enlist to return tensor ptr), given a dense long tensor"]
.t.eq["values bad: q data";.t.catch[{values 1 2 3}];"values: expects a sparse tensor (enlist to return tensor ptr), given long list"]
.t.eq["nnz bad: q data";.t.catch[{nnz 1 2}];"nnz: expects a tensor, vector or dictionary, given long list"]
.t.eq["sparsedim bad: q data";.t.catch[{sparsedim 1 2}];"sparsedim: expects a tensor, vector or dictionary, given long list"]
.t.eq["densedim bad: symbol";.t.catch[{densedim`a}];"densedim: expects a tensor, vector or dictionary, given symbol scalar"]
.t.eq["sparse with strided";.t.catch[{tensor(xm;`sparse`strided)}];"tensor: more than one layout given: `strided"]
.t.eq["sparse pinned";.t.catch[{tensor(xm;`sparse`pinned)}];"tensor: sparse tensors cannot have pinned memory"]

/ nnz sparsedim densedim of a dense tensor, a vector, a dictionary
.t.eq["nnz dense";nnz a;3]
.t.eq["sparsedim dense";sparsedim a;0]
.t.eq["densedim dense";densedim a;1]
v:vector(xm;1 0 2)
to(v;`sparse)
.t.eq["to vector sparse";sparseflag v;11b]
.t.eq["nnz vector";nnz v;3 2]
.t.eq["sparsedim vector";sparsedim v;2 1]
dd:dict`a`b!(xm;0 1 0)
.t.eq["densedim dict";densedim dd;`a`b!2 1]
to(dd;`sparse)
.t.eq["densedim dict sparse";densedim dd;`a`b!0 0]
.t.eq["nnz dict";nnz dd;`a`b!3 1]
free(v;dd;t)

/ to and copyto change layout
to(a;`sparse`double)
.t.eq["to sparse";(layout a;dtype a;tensor a);(`sparse;`double;1 2 3f)]
b:copyto(a;`strided)
.t.eq["copyto strided";(layout b;tensor b);(`strided;1 2 3f)]
to(a;`strided)
.t.eq["to strided";(layout a;sparseflag a);(`strided;0b)]
free(a;b)

/ ---------------------------------------------------------------- sparse creation mode
s:tensor(`sparse;flip(0 1;2 3;1 2);12 -99 4;`double)
.t.eq["sparse mode indices";indices s;flip(0 1;2 3;1 2)]
.t.eq["sparse mode values";values s;12 -99 4f]
.t.eq["sparse mode size inferred";size s;3 4]
.t.eq["sparse mode dense";tensor s;"f"$xm]
.t.eq["sparse mode not coalesced";coalesced s;0b]
use[s]tensor(`sparse;1 2#3 1;2 3#til 6;5 3)
.t.eq["hybrid sparse";tensor s;.e.hybridDense]
.t.eq["hybrid dims";(sparsedim s;densedim s;nnz s);1 1 2]
use[s]tensor(`sparse;3 4)
.t.eq["empty sparse";(nnz s;tensor s);(0;3 4#0e)]
use[s]tensor(`zeros;2 3;`sparse)
.t.eq["zeros sparse";(layout s;nnz s;tensor s);(`sparse;0;2 3#0e)]
use[s]tensor(`complex;1 0 3;0 0 1;`sparse)
.t.eq["complex sparse";(nnz s;real s;imag s);(2;1 0 3e;0 0 1e)]
.t.eq["sparse mode bad size";.t.catch[{tensor(`sparse;enlist 0 5;1 2;3)}];"tensor: `sparse: index 5 out of range for size 3 of dimension 0"]
.t.eq["sparse mode negative index";.t.catch[{tensor(`sparse;enlist 0 -1;1 2)}];"tensor: `sparse: negative index"]
.t.eq["sparse mode value count";.t.catch[{tensor(`sparse;enlist 0 1;1 2 3)}];"tensor: `sparse: 2 index column(s) but values of size [3]"]
.t.eq["sparse mode float indices";.t.catch[{tensor(`sparse;enlist 0 1f;1 2)}];"tensor: `sparse: indices expected as integers, given double"]
.t.eq["sparse mode 1-d indices";.t.catch[{tensor(`sparse;0 1;1 2)}];"tensor: `sparse: indices expected as a matrix, one row per sparse dimension, given 1-dim array"]
.t.eq["sparse mode size mismatch";.t.catch[{tensor(`sparse;enlist 0 1;1 2;3 3)}];"tensor: `sparse: size [3, 3] does not fit 1 sparse dimension(s) and values of size [2]"]
.t.eq["sparse mode output tensor";.t.catch[{tensor(`sparse;enlist 0 1;1 2;s)}];"tensor: sparse not implemented with output tensors"]
.t.eq["sparse layout, other mode";.t.catch[{tensor(`ones;3;`sparse)}];"tensor: ones: not implemented for sparse tensors"]
.t.eq["sparse mode, strided";.t.catch[{tensor(`sparse;3 4;`strided)}];"tensor: sparse mode incompatible with layout set to strided"]

/ ---------------------------------------------------------------- coalesce
use[s]tensor(`sparse;1 5#3 0 3 1 0;1.5 2 -4 7 1;6)
.t.eq["uncoalesced dense";tensor s;.e.coalesceDense]
.t.eq["uncoalesced sums duplicates (q)";tensor s;@[6#0f;3 0 3 1 0;+;1.5 2 -4 7 1]]
.t.eq["uncoalesced indices";indices s;enlist 3 0 3 1 0]
coalesce s
.t.eq["coalesce flag";coalesced s;1b]
.t.eq["coalesce indices";indices s;.e.coalesceIndices]
.t.eq["coalesce values";values s;.e.coalesceValues]
.t.eq["coalesce dense unchanged";tensor s;.e.coalesceDense]
.t.eq["coalesce again is null";coalesce s;::]
.t.eq["coalesce bad: q data";.t.catch[{coalesce 1 2}];"coalesce: expects a sparse tensor, given long list"]
d:tensor 1 2
.t.eq["coalesce bad: dense";.t.catch[{coalesce d}];"coalesce: expects a sparse tensor, given a dense tensor"]

/ ---------------------------------------------------------------- dense
e:dense s
.t.eq["dense layout";layout e;`strided]
.t.eq["dense values";tensor e;.e.coalesceDense]
.t.eq["dense bad: dense";.t.catch[{dense d}];"dense: expects a sparse tensor, given a dense tensor"]
.t.eq["dense bad: q data";.t.catch[{dense 1 2}];"dense: expects a sparse tensor, given long list"]
free(s;e;d)

/ ---------------------------------------------------------------- sparse
x3:2 3 4#0 0 1 0 2 0 0 0 0 0 0 0 3 0 0 4 0 0 0 0 5 0 0 6
s:sparse x3
.t.eq["sparse q data indices";indices s;.e.x3Indices]
.t.eq["sparse q data values";values s;.e.x3Values]
.t.eq["sparse q data values (q)";values s;x3 ./: flip indices s]
.t.eq["sparse q data dense";tensor s;x3]
use[s]sparse(x3;2)
.t.eq["sparse(xm;dim) indices";indices s;.e.x3HybridIndices]
.t.eq["sparse(xm;dim) values";values s;.e.x3HybridValues]
.t.eq["sparse(xm;dim) nnz";nnz s;.e.x3Nnz2]
.t.eq["sparse(xm;dim) dims";(sparsedim s;densedim s);2 1]
h:tensor x3
use[s]sparse h
.t.eq["sparse handle";(indices s;values s);(.e.x3Indices;.e.x3Values)]
use[s]sparse(h;2)
.t.eq["sparse(handle;dim)";(indices s;values s);(.e.x3HybridIndices;.e.x3HybridValues)]
m:3 4#til 12
mk:sparse(0 9 0 1.0;0 0 -1 0.0;5.5 0 0 0.0)
use[s]sparse(m;mk)
.t.eq["sparse mask indices";indices s;.e.maskIndices]
.t.eq["sparse mask values";values s;.e.maskValues]
.t.eq["sparse mask values (q)";values s;m ./: flip indices mk]
use[h]tensor m
use[s]sparse(h;mk)
.t.eq["sparse mask handle";(indices s;values s);(.e.maskIndices;.e.maskValues)]
.t.eq["sparse bad dim";.t.catch[{sparse(x3;4)}];"sparse: sparse dimensions must be 0-3, given 4"]
.t.eq["sparse bad mask";.t.catch[{sparse(m;h)}];"sparse: 2nd arg is not a sparse tensor, unable to use its indices"]
.t.eq["sparse bad arg";.t.catch[{sparse`a`b}];"sparse: unrecognized arg(s), expected input, (input;sparsedim) or (input;sparse tensor)"]
free(s;h;mk)

/ ---------------------------------------------------------------- sparseindex
.t.eq["sparseindex q data";sparseindex x3;.e.x3Indices]
.t.eq["sparseindex q data (q)";sparseindex xm;nzix xm]
.t.eq["sparseindex(xm;1)";sparseindex(x3;1);.e.x3Sparseindex1]
.t.eq["sparseindex(xm;2)";sparseindex(x3;2);.e.x3Sparseindex2]
.t.eq["sparseindex(xm;1) (q)";sparseindex(xm;1);enlist distinct first nzix xm]
h:tensor x3
.t.eq["sparseindex handle";val sparseindex h;.e.x3Indices]
.t.eq["sparseindex(handle;2)";val sparseindex(h;2);.e.x3Sparseindex2]
.t.eq["sparseindex bad dim";.t.catch[{sparseindex(x3;4)}];"sparseindex: sparse dimensions must be 1-3, given 4"]
.t.eq["sparseindex bad arg";.t.catch[{sparseindex`a}];"sparseindex: no torch type found for k: symbol scalar"]
free h

.t.eq["all freed";count obj[];0]
.t.done[]
