/ Tensor operations (ktorch's tensorop.rst and ktensor.cpp forms) and Max/Min: results checked
/ against the same computation in q, for q data (q data back) and tensor handles (handles back,
/ read with tensor h), in-place and output-tensor forms, and bad arguments.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ values of a handle result, freeing it
val:{r:tensor x; free x; r}
x3:3 cut 4 cut til 24          / a 2 3 4 array
m:.1+2 3#til 6

/ reshape
.t.eq["reshape q data";reshape(til 6;2 3);2 3#til 6]
.t.eq["reshape infers -1";reshape(til 6;-1 2);3 2#til 6]
.t.eq["reshape 3-d to 2-d";reshape(x3;3 8);3 8#til 24]
.t.eq["reshape 2-d to 3-d";reshape(til 24;2 3 4);x3]
e:tensor(`zeros;3 2)
.t.eq["reshape to an example tensor's size";reshape(til 6;e);3 2#til 6]
a:tensor til 6
b:reshape(a;2 3)
.t.eq["reshape handle gives a handle";class b;`tensor]
.t.eq["reshape handle values";tensor b;2 3#til 6]
fill(a;9)
.t.eq["reshape shares storage";tensor b;2 3#9]
.t.ok["reshape bad size";.t.catch[{reshape(til 10;-1 4)}] like "reshape: *invalid for input of size 10*"]
.t.eq["reshape bad 2nd arg";.t.catch[{reshape(til 6;`a)}];"reshape: expected 2nd arg of size or tensor whose size to use, given symbol scalar"]
.t.eq["reshape arity";.t.catch[{reshape(til 6;2 3;1)}];"reshape: expected (input;size) or (input;example tensor), given 3 arguments"]
free(a;b)
.t.eq["reshape freed handle";.t.catch[{reshape(a;2 3)}];"reshape: stale pointer"]

/ resize: in place for a handle (null result), q data back for q data
.t.eq["resize q data shrinks";resize(til 6;2 2);2 2#til 4]
t:tensor 2 3#til 6
.t.eq["resize handle returns null";resize(t;2 2);::]
.t.eq["resize in place";tensor t;2 2#til 4]
resize(t;-1)
.t.eq["resize infers -1";(size t;tensor t);(enlist 4;til 4)]
resize(t;e)
.t.eq["resize to an example's size";size t;3 2]
resize(t;2 3)
.t.eq["resize back keeps storage";tensor t;2 3#til 6]
.t.eq["resize two inferred";.t.catch[{resize(t;-1 -1)}];"resize: only one dimension can be inferred"]
.t.eq["resize arity";.t.catch[{resize enlist t}];"resize: expected (input;size) or (input;example tensor), given 1 argument"]
free(t;e)
.t.eq["resize freed handle";.t.catch[{resize(t;2 2)}];"resize: stale pointer"]

/ View: always shares storage
.t.eq["View q data";View(1 2 3 4;2 2);(1 2;3 4)]
a:tensor 4 4#til 16
b:View(a;2 8)
.t.eq["View values";tensor b;2 8#til 16]
fill(a;1)
.t.eq["View shares storage";tensor b;2 8#1]
c:transpose b
.t.ok["View of a non-contiguous tensor";.t.catch[{View(c;4 4)}] like "View: *view size is not compatible*"]
.t.eq["View to an example's size";val View(a;e:tensor(`zeros;8 2));8 2#1]
free(a;b;c;e)

/ narrow
.t.eq["narrow q data";narrow(til 10;0;3;3);3 4 5]
y:5 4#til 20
.t.eq["narrow rows";narrow(y;0;1;3);1_4#y]
.t.eq["narrow columns";narrow(y;1;2;1);y[;enlist 2]]
a:tensor y
b:narrow(a;0;1;3)
.t.eq["narrow handle";tensor b;y 1 2 3]
amend(b;3 4#0)
.t.eq["narrow shares storage";tensor a;(enlist y 0),(3#enlist 4#0),enlist y 4]
v:vector(til 5;10+til 5)
w:narrow(v;0;1;2)
.t.eq["narrow vector gives a vector";class w;`vector]
.t.eq["narrow vector values";vector w;(1 2;11 12)]
.t.ok["narrow past the end";.t.catch[{narrow(til 10;0;9;2)}] like "narrow: *exceeds dimension size*"]
.t.eq["narrow arity";.t.catch[{narrow(til 10;0;1)}];"narrow: expected (input;dim;offset;size), given 3 arguments"]
.t.eq["narrow longs";.t.catch[{narrow(til 10;0;1;2.0)}];"narrow: expected (input;dim;offset;size) with dim, offset and size as longs"]
free(a;b;v;w)
.t.eq["narrow freed handle";.t.catch[{narrow(a;0;1;1)}];"narrow: stale pointer"]

/ transpose
.t.eq["transpose matrix";transpose 3 4#til 12;flip 3 4#til 12]
.t.eq["transpose simple list as is";transpose 1 2 3;1 2 3]
.t.eq["transpose dims";transpose(1 cut 3 cut til 6;1;2);(1 cut 0 1 2;1 cut 3 4 5)]
.t.eq["transpose 3-d 0 2";transpose(x3;0;2);{flip x[;;y]}[x3] each til 4]
t:tensor 3 4#til 12
v:transpose t
.t.eq["transpose handle";tensor v;flip 3 4#til 12]
.t.eq["transpose in place returns null";transpose(v;1b);::]
.t.eq["transpose in place";tensor[v]~tensor t;1b]
u:tensor x3
w:transpose(u;0;2)
.t.eq["transpose handle dims";size w;4 3 2]
transpose(w;0;2;1b)
.t.eq["transpose dims in place";tensor w;x3]
.t.eq["transpose 3-d needs dims";.t.catch[{transpose u}];"transpose: a 3d tensor needs the two dimensions to be swapped"]
.t.ok["transpose dim out of range";.t.catch[{transpose(u;0;5)}] like "transpose: *out of range*"]
.t.eq["transpose bad dims";.t.catch[{transpose(u;0;`a)}];"transpose: expected tensor, (tensor;inplace), (tensor;dim1;dim2) or (tensor;dim1;dim2;inplace), dimensions as longs"]
free(t;v;u;w)
.t.eq["transpose freed handle";.t.catch[{transpose t}];"transpose: stale pointer"]

/ permute
.t.eq["permute q data";permute(x3;2 0 1);{x[;;y]}[x3] each til 4]
t:tensor x3
p:permute(t;1 2 0)
.t.eq["permute handle size";size p;3 4 2]
.t.eq["permute handle values";tensor p;{flip x[;y]}[x3] each til 3]
.t.ok["permute wrong rank";.t.catch[{permute(x3;0 1)}] like "permute: *"]
.t.eq["permute bad dims";.t.catch[{permute(x3;`a)}];"permute: expected 2nd arg of reordered dimensions, given symbol scalar"]
free(t;p)
.t.eq["permute freed handle";.t.catch[{permute(t;0 1 2)}];"permute: stale pointer"]

/ expand
.t.eq["expand q data";expand(enlist 1 2 3;2 -1);2#enlist 1 2 3]
.t.eq["expand (value;size)";expand(1;3);1 1 1]
a:tensor 3 1#1 2 3
b:expand(a;-1 4)
.t.eq["expand handle";tensor b;4#/:1 2 3]
e:tensor(`zeros;3 2)
.t.eq["expand to an example";val expand(a;e);2#/:1 2 3]
.t.ok["expand non-singleton";.t.catch[{expand(1 2 3;2 2)}] like "expand: *"]
.t.eq["expand arity";.t.catch[{expand(a;2;3)}];"expand: expected (input;size) or (input;tensor whose size to match), given 3 arguments"]
free(a;b;e)
.t.eq["expand freed handle";.t.catch[{expand(a;3 4)}];"expand: stale pointer"]

/ squeeze, unsqueeze
z:enlist 1 cut til 3   / 1 3 1
.t.eq["squeeze q data";squeeze z;til 3]
.t.eq["squeeze dim";squeeze(z;0);1 cut til 3]
.t.eq["squeeze null dim is all";squeeze(z;0N);til 3]
.t.eq["unsqueeze 0";unsqueeze(1 2 3;0);enlist 1 2 3]
.t.eq["unsqueeze 1";unsqueeze(1 2 3;1);1 cut 1 2 3]
t:tensor z
.t.eq["squeeze handle";val squeeze t;til 3]
.t.eq["squeeze handle dim";val squeeze(t;-1);enlist til 3]
.t.eq["squeeze in place returns null";squeeze(t;0;1b);::]
.t.eq["squeeze in place";size t;3 1]
squeeze(t;1b)
.t.eq["squeeze all in place";size t;enlist 3]
unsqueeze(t;0;1b)
.t.eq["unsqueeze in place";tensor t;enlist til 3]
.t.eq["unsqueeze handle";size u:unsqueeze(t;2);1 3 1]
.t.eq["unsqueeze needs a dim";.t.catch[{unsqueeze t}];"unsqueeze: requires 2nd arg specifying dimension to add"]
.t.ok["unsqueeze dim out of range";.t.catch[{unsqueeze(1 2 3;5)}] like "unsqueeze: *out of range*"]
.t.eq["unsqueeze bad args";.t.catch[{unsqueeze(1 2 3;`a)}];"unsqueeze: unexpected arg(s), expected (input;dim;optional in-place flag)"]
free(t;u)
.t.eq["squeeze freed handle";.t.catch[{squeeze t}];"squeeze: stale pointer"]

/ cat, stack
.t.eq["cat q data";cat(1 2;3 4 5);1 2,3 4 5]
.t.eq["cat matrices";cat(2 2#til 4;2 2#4+til 4);(2 2#til 4),2 2#4+til 4]
.t.eq["cat along dim 1";cat((2 2#til 4;2 2#4+til 4);1);(2 2#til 4),'2 2#4+til 4]
.t.eq["stack q data";stack(1 2;3 4);(1 2;3 4)]
.t.eq["stack along dim 1";stack((1 2;3 4);1);flip(1 2;3 4)]
a:tensor 1 2; b:tensor 3 4
.t.eq["cat handles";val cat(a;b);1 2 3 4]
.t.eq["cat handle and q data";val cat(a;5 6 7);1 2 5 6 7]
.t.eq["cat list of handles with dim";val stack((a;b);1);flip(1 2;3 4)]
.t.eq["cat enlisted list";val cat enlist(a;b);1 2 3 4]
v:vector(1 2;3 4)
.t.eq["cat vector";val cat v;1 2 3 4]
.t.eq["stack vector dim";val stack(v;1);flip(1 2;3 4)]
r:tensor 0#0
.t.eq["cat vector into output";cat(v;0;r);::]
.t.eq["output tensor written";tensor r;1 2 3 4]
resize(r;0); stack(v;r)
.t.eq["stack vector into output";tensor r;(1 2;3 4)]
resize(r;0); cat((5 6;7 8);0;r)
.t.eq["cat list into output";tensor r;5 6 7 8]
.t.ok["stack unequal sizes";.t.catch[{stack(1 2;3 4 5)}] like "stack: *equal size*"]
.t.eq["cat vector bad args";.t.catch[{cat(v;`x)}];"cat: expected vector, (vector;dim), (vector;dim;out tensor) or (vector;out tensor)"]
.t.eq["cat a tensor";.t.catch[{cat a}];"cat: expected a vector, given tensor"]
.t.eq["cat simple list";.t.catch[{cat 1 2 3}];"cat: not implemented for long list"]
free(a;v;r)
.t.eq["cat freed handle";.t.catch[{cat(a;b)}];"cat: stale pointer"]
free b

/ index: select (long index) and index_select (indices)
.t.eq["index select";index(x3;1;2);x3[;2]]
.t.eq["index negative";index(x3;-1;-2);x3[;;2]]
.t.eq["index_select";index(x3;-1;0 1);x3[;;0 1]]
t:tensor x3; i:tensor 0 2
.t.eq["index handle";val index(t;0;1);x3 1]
.t.eq["index handle indices";val index(t;1;i);x3[;0 2]]
.t.eq["index arity";.t.catch[{index(x3;1)}];"index: expected (input;dim;index or indices), given 2 arguments"]
.t.ok["index dim out of range";.t.catch[{index(x3;5;0)}] like "index: *out of range*"]
.t.eq["index bad indices";.t.catch[{index(x3;1;`a)}];"index: 3rd argument of index/indices expected, given symbol scalar"]
free(t;i)
.t.eq["index freed handle";.t.catch[{index(t;0;0)}];"index: stale pointer"]

/ fill
.t.eq["fill q data";fill(2 3#til 6;7);2 3#7]
.t.eq["fill rows";fill(2 3#til 6;1;7);(0 1 2;7 7 7)]
.t.eq["fill float with long";fill(1 2 3.0;5);5 5 5f]
t:tensor 2 3#til 6
.t.eq["fill handle returns null";fill(t;9);::]
.t.eq["fill in place";tensor t;2 3#9]
fill(t;0;-1)
.t.eq["fill row in place";tensor t;(3#-1;3#9)]
v:vector(1 2;3 4 5)
fill(v;1;0)
.t.eq["fill one of a vector";vector v;(1 2;0 0 0)]
fill(v;8)
.t.eq["fill all of a vector";vector v;(8 8;8 8 8)]
.t.eq["fill bad value";.t.catch[{fill(t;`a)}];"fill: unable to get fill element from final arg of symbol scalar"]
.t.eq["fill bad row";.t.catch[{fill(t;5;1)}];"fill: tensor[5] invalid given a 2-element tensor"]
.t.eq["fill bad vector index";.t.catch[{fill(v;2;1)}];"fill: vector[2] invalid given a 2-element vector"]
free(t;v)
.t.eq["fill freed handle";.t.catch[{fill(t;1)}];"fill: stale pointer"]

/ filldiagonal
.t.eq["filldiagonal q data";filldiagonal(3 3#0;1);(1 0 0;0 1 0;0 0 1)]
.t.eq["filldiagonal tall no wrap";filldiagonal(4 2#0;1);(1 0;0 1;0 0;0 0)]
.t.eq["filldiagonal wrap";filldiagonal(7 3#0;1;1b);(1 0 0;0 1 0;0 0 1;0 0 0;1 0 0;0 1 0;0 0 1)]
t:tensor 2 2#0.0
.t.eq["filldiagonal handle returns null";filldiagonal(t;2.5);::]
.t.eq["filldiagonal in place";tensor t;(2.5 0;0 2.5)]
.t.ok["filldiagonal 1-d";.t.catch[{filldiagonal(1 2 3;1)}] like "filldiagonal: *"]
.t.eq["filldiagonal bad value";.t.catch[{filldiagonal(t;`a)}];"filldiagonal: expected (input;fill value) or (input;fill value;wrap flag), fill value a number, wrap a boolean"]
free t
.t.eq["filldiagonal freed handle";.t.catch[{filldiagonal(t;1)}];"filldiagonal: stale pointer"]

/ amend: copy values into a tensor, keeping its type
t:tensor 1 2 3.0
.t.eq["amend returns null";amend(t;4 5 6);::]
.t.eq["amend keeps the type";tensor t;4 5 6f]
u:tensor 7 8 9.0
amend(t;u;0b)
.t.eq["amend from a handle";tensor t;7 8 9f]
amend(t;0)
.t.eq["amend broadcasts";tensor t;0 0 0f]
v:vector(1 2;3 4)
amend(v;1;10 20)
.t.eq["amend vector item";vector v;(1 2;10 20)]
w:tensor 7 8
amend(v;0;w)
.t.eq["amend vector item from a handle";vector v;(7 8;10 20)]
.t.eq["amend not a handle";.t.catch[{amend(1 2;3)}];"amend: expected 1st arg of tensor, vector or dictionary, given general list"]
.t.eq["amend vector index";.t.catch[{amend(v;5;1 2)}];"amend: vector[5] is invalid given a 2-element vector"]
.t.eq["amend tensor arity";.t.catch[{amend(t;1;2;3)}];"amend: expected (tensor;values) or (tensor;values;async flag), given 4 arguments"]
.t.ok["amend size mismatch";.t.catch[{amend(t;1 2)}] like "amend: *"]
free(t;u;v;w)
.t.eq["amend freed handle";.t.catch[{amend(t;1 2 3)}];"amend: stale pointer"]

/ detach
gx:tensor(1 2 3.0;`grad)
gy:mul(gx;gx)
d:detach gy
.t.eq["detach gives no gradient";(options d)`gradient;`nograd]
.t.eq["detach leaves the input";(options gy)`gradient;`grad]
.t.eq["detach values";tensor d;1 4 9f]
.t.eq["detach(t;0b) a new tensor";(options e:detach(gy;0b))`gradient;`nograd]
.t.eq["detach in place returns null";detach(gy;1b);::]
.t.eq["detach in place";(options gy)`gradient;`nograd]
gz:mul(gx;gx)
v:vector(addref gx;addref gz)   / handles move into a vector: addref keeps them
.t.eq["detach vector items";detach(v;0 1);::]
.t.eq["detach whole vector";detach v;::]
.t.eq["detach vector index";.t.catch[{detach(v;5)}];"detach: vector[5] out of bounds"]
.t.eq["detach bad flag";.t.catch[{detach(gx;`a)}];"detach: expected tensor or (tensor;inplace flag), given 2nd arg of symbol scalar"]
.t.eq["detach q data";.t.catch[{detach 1 2 3}];"detach: expected tensor, vector or dictionary, given long list"]
free(gx;gy;d;e;gz;v)
.t.eq["detach freed handle";.t.catch[{detach gx}];"detach: stale pointer"]

/ Max, Min
.t.eq["Max q data";Max 1 2 3;3]
.t.eq["Min q data";Min 3 1 2;1]
.t.eq["Max matrix overall";Max 2 3#til 6;5]
.t.eq["Max atom";Max 4.5;4.5]
im:{x?y}                        / first index of a value
.t.eq["Max dim 0";Max(m;0);(max m;im'[flip m;max m])]
.t.eq["Max dim 1";Max(m;1);(max each m;im'[m;max each m])]
.t.eq["Min dim 1";Min(m;1);(min each m;im'[m;min each m])]
.t.eq["Min keepdim";Min(m;1;1b);(enlist each min each m;enlist each im'[m;min each m])]
.t.eq["Max keepdim only: last dim";Max(m;1b);(enlist each max each m;enlist each im'[m;max each m])]
.t.eq["Max longs";Max(2 3#til 6;1);(2 5;2 2)]
mx:tensor m
.t.eq["Max handle";val Max mx;5.1]
v:Max(mx;0)
.t.eq["Max handle dim gives a vector";class v;`vector]
.t.eq["Max handle values and indices";vector v;(max m;1 1 1)]
o:vector()
.t.eq["Max into output vector";Max(mx;0;o);::]
.t.eq["output vector written";vector o;(max m;1 1 1)]
Min(mx;1;o)
.t.eq["Min replaces the output";vector o;(min each m;0 0)]
.t.ok["Max dim out of range";.t.catch[{Max(mx;5)}] like "Max: *out of range*"]
.t.eq["Max bad args";.t.catch[{Max(1 2;`a)}];"Max: unrecognized args, expected up to 4, (input;dim;keepdim;output)"]
.t.eq["Max output not a vector";.t.catch[{Max(mx;0;mx)}];"Max: output expected as a vector, given tensor"]
.t.eq["Min arity";.t.catch[{Min(mx;0;1b;o;1)}];"Min: expected up to 4 args, (input;dim;keepdim;output), given 5"]
free(mx;v;o)
.t.eq["Max freed handle";.t.catch[{Max mx}];"Max: stale pointer"]
.t.eq["Min freed handle";.t.catch[{Min(mx;0)}];"Min: stale pointer"]

.t.eq["all freed at the end";count obj[];0]
.t.done[]
