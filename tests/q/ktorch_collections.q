/ Vectors and dictionaries of tensors: creation from q data and handles (handles move in, as in
/ ktorch), reading all or some values, replacing and appending, handles to members.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];

/ vectors
a:tensor 1 2 3; b:tensor 4 5
v:vector(a;addref b;6 7 8.0)
.t.eq["vector values";vector v;(1 2 3;4 5;6 7 8f)]
.t.eq["a moved into the vector";.t.catch[{tensor a}];"tensor: stale pointer"]
.t.eq["b kept by addref";tensor b;4 5]
.t.eq["one index";vector(v;1);4 5]
.t.eq["negative index";vector(v;-1);6 7 8f]
.t.eq["indices";vector(v;2 0);(6 7 8f;1 2 3)]
.t.eq["class";class v;`vector]
.t.eq["obj row (a vector's size is its count, ktorch.cpp objsize)";first each value exec size,elements,bytes from obj[] where class=`vector;3 8 64]
vector(v;0;10 20 30)
.t.eq["replace one";vector(v;0);10 20 30]
vector(v;2 0;(011b;1 2 3h))
.t.eq["replace several";vector v;(1 2 3h;4 5;011b)]
t:tensor 95 96 97.0
vector(v;1;t)
.t.eq["replace with a tensor";vector(v;1);95 96 97f]
.t.eq["that handle moved in";.t.catch[{tensor t}];"tensor: stale pointer"]
.t.eq["index range";.t.catch[{vector(v;3)}];"vector: index 3 out of range for vector of 3"]
.t.eq["values must match indices";.t.catch[{vector(v;0 1;enlist 1 2)}];"vector: 2 indices need a list of 2 values"]
/ a bad item changes nothing: c stays valid when the list has an error after it
c:tensor 1 2
.t.eq["bad item";.t.catch[{vector(c;`a`b)}];"vector: no torch type found for k: symbol list"]
.t.eq["c untouched";tensor c;1 2]

/ handles to members share the tensor with the vector
r:tensor(v;1)
.t.eq["tensor(v;i)";tensor r;95 96 97f]
.t.eq["shared, not copied";ref r;2]
rr:tensor(v;0 2)
.t.eq["tensor(v;ind)";tensor each rr;(1 2 3h;011b)]
hv:tensor v
.t.eq["tensor v: a handle each";tensor each hv;vector v]
free each rr,hv;
free(r;v;b;c)

/ dictionaries
t:tensor 1 2 3e
d:dict `a`t!(4 5 6 7.0;t)
.t.eq["dict values";dict d;`a`t!(4 5 6 7f;1 2 3e)]
.t.eq["t moved in";.t.catch[{tensor t}];"tensor: stale pointer"]
.t.eq["one key";dict(d;`t);1 2 3e]
.t.eq["keys";dict(d;`t`a`t);(1 2 3e;4 5 6 7f;1 2 3e)]
.t.eq["class";class d;`dictionary]
dict(d;`a;01010b)
dict(d;`z`zz;("z";"zz"))
.t.eq["replace and append";key dict d;`a`t`z`zz]
.t.eq["replaced value";dict(d;`a);01010b]
.t.eq["appended values";dict(d;`zz);"zz"]
.t.eq["missing key";.t.catch[{dict(d;`nope)}];"dict: no key `nope in dictionary"]
.t.eq["dtype of a dictionary";dtype d;`a`t`z`zz!`bool`float`char`char]
e:dict(`x`y;(1 2;3 4 5))
.t.eq["(keys;values) form";dict e;`x`y!(1 2;3 4 5)]
f:dict `x`y!1 2.5
.t.eq["simple list values";(key;{raze value x})@\:dict f;(`x`y;1 2.5)]
g:dict(`one;1 2 3)
.t.eq["one key";dict g;enlist[`one]!enlist 1 2 3]
.t.eq["duplicate keys";.t.catch[{dict(`a`a;(1;2))}];"dict: duplicate key `a"]
.t.eq["key count";.t.catch[{dict(`a`b;enlist 1)}];"dict: 2 key(s) need a list of 2 value(s)"]
h:tensor(e;`y)
.t.eq["tensor(d;key)";tensor h;3 4 5]
hs:tensor e
.t.eq["tensor d: a dictionary of handles";tensor each hs;`x`y!(1 2;3 4 5)]
free each hs;
free(h;d;e;f;g)
.t.eq["all freed";count obj[];0]
.t.done[]
