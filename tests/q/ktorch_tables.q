/ Tables in and out (issue 33, docs/tables.md): tables to tensors (values against q's own casts,
/ types against torch.result_type), models trained from a table's columns, evaluate and score on
/ tables, rows and keyed tables, against PyTorch (tests/q/gen/tables.py).
\l tests/q/lib/assert.q
\l tests/q/data/tables_expected.q
{key[x]set'x}(`ktorch 2:`fns,1)[];

/ r and e agree within 1e-5 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-5*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
val:{r:tensor x; free x; r}
/ a module's or model's parameters as a q dictionary
pv:{p:parms x; r:dict p; free p; r}
/ a module of definition d with parameters p (a dictionary of PyTorch's names to values)
made:{[d;p] m:module d; {[m;k;v] parm(m;k;v)}[m]'[key p;value p]; m}

/ ---------------------------------------------------------------------------------------------
/ tensor of a table: rows x columns, the values q's casts give
t:([]a:1 2 3f;b:4 5 6f)
.t.eq["float table";val tensor t;flip "f"$value flip t]
h:tensor t
.t.eq["float table dtype";dtype h;`double]
.t.eq["float table size";size h;3 2]
free h
t:([]a:1 2 3;b:4 5 6e;c:101b;d:7 8 9i)
.t.eq["mixed table: values as reals";val tensor t;flip "e"$value flip t]
/ every pair of column types: the dtype torch.result_type gives
pr:{[p] t:flip `a`b!(p[0]$1 0;p[1]$0 1); h:tensor t; r:dtype h; free h; r}
{.t.eq["promote ",x 0;pr x 0;x 1]} each .e.promote;
/ a long table through its columns one by one equals q's flip
t:([]a:til 1000;b:1000?1f;c:1000?100i;d:1000?1e)
.t.eq["1000 rows"; val tensor t; flip "f"$value flip t]
t:([]a:"e"$til 300000;b:300000?1e;c:300000?1e)
.t.eq["300000 rows (blocks, one type)"; val tensor t; flip value flip t]
/ large outputs (written with non-temporal stores): 8-byte items converted from long and real
t:([]a:til 200000;b:200000?1f;c:200000?1e)
.t.eq["200000 rows, long float real"; val tensor t; flip "f"$value flip t]
/ an even count of 8-byte columns (two rows of two columns a step), an odd count of rows
t:([]a:til 300001;b:300001?1f;c:300001?1f;d:300001?1e)
.t.eq["300001 rows x 4: pairs"; val tensor t; flip "f"$value flip t]
t:flip (`$"c",/:string til 10)!10#enlist 500001?1f
.t.eq["500001 rows x 10 floats"; val tensor t; flip value flip t]
/ 4-byte items from int and real
t:([]a:600000?1000i;b:600000?1e)
.t.eq["600000 rows, int real"; val tensor t; flip "e"$value flip t]
/ 40 MB: huge pages asked for
t:flip (`$"c",/:string til 5)!5#enlist 1000000?1f
.t.eq["1000000 rows x 5"; val tensor t; flip value flip t]
t:flip (`$"c",/:string til 40)!40#enlist "e"$til 1000
.t.eq["40 columns"; val tensor t; flip value flip t]
/ columns by name: q's take
t:([]a:1 2 3f;b:4 5 6f;c:7 8 9f)
.t.eq["columns by name";val tensor `c`a#t;flip t`c`a]
/ one column: a rows x 1 matrix
.t.eq["one column";val tensor ([]a:1 2 3);(enlist 1;enlist 2;enlist 3)]
/ a keyed table: its value columns
kt:([k:1 2 3]x:1 2 3f;y:4 5 6f)
.t.eq["keyed table";val tensor kt;flip value flip value kt]
/ dict of a keyed table: its value columns too
d:dict kt
.t.eq["dict of a keyed table";dict d;`x`y!(1 2 3f;4 5 6f)]
free d
/ char columns are their bytes, as tensor of a string
.t.eq["char column";val tensor ([]c:"ab";b:0x0102);(97 1h;98 2h)]
/ options apply after the conversion
h:tensor(t;`float)
.t.eq["table with options";dtype h;`float]
free h
/ empty tables
.t.eq["0 rows";size h:tensor 0#t;0 3]
free h
/ dict of a table: one tensor per column, each keeping its type
d:dict ([]a:1 2 3;b:4 5 6e;c:010b)
.t.eq["dict of a table";dict d;`a`b`c!(1 2 3;4 5 6e;010b)]
free d
/ an enumerated column (as q makes it: `sym?, type 20, each item the long index of its symbol)
/ gives the indices as longs, the input of an embedding (docs/tables.md)
sym:`x`y
t:([]s:`sym?`y`x`z`y;a:1 2 3 4)
.t.eq["enumeration column type";type t`s;20h]
.t.eq["enumeration domain extended";sym;`x`y`z]
.t.eq["enumeration column";val tensor t;flip(1 0 2 1;1 2 3 4)]
.t.eq["enumeration alone";val tensor (enlist`s)#t;flip enlist 1 0 2 1]
/ sequence windows: every n consecutive rows, as q's own indexing gives them; a view of the
/ tensor's storage; windows within one sym found by q
m:7 2#til 14
x:tensor m
w:windows(x;3)
.t.eq["windows";tensor w;m (til 3)+/:til 5]
.t.eq["windows share the storage";sptr w;sptr x]
v:windows(x;3;2)
.t.eq["windows by 2";tensor v;m (til 3)+/:0 2 4]
.t.eq["windows of q data";windows(1 2 3 4f;2);(1 2f;2 3f;3 4f)]
.t.eq["windows too long";err[windows;(x;8)];"windows: size 8 is more than the 7 rows of the input"]
free(x;w;v)
s:`a`a`a`b`b`b`b
.t.eq["windows within a sym";where(neg[2]_s)=2_s;0 3 4]
.t.eq["symbol column";err[tensor;([]a:1 2f;s:`x`y)];"tensor: column `s is symbol: enumerate it (`sym$, `sym?) for long indices, or leave it out"]
.t.eq["time column";err[tensor;([]a:1 2f;p:2#2000.01.01D)];"tensor: column `p is timestamp list, not numeric: cast it (\"j\"$, \"f\"$) or leave it out"]
.t.eq["nested column";err[tensor;([]a:1 2f;v:(1 2;3 4))];"tensor: column `v is a general list, not a simple numeric column"]

/ ---------------------------------------------------------------------------------------------
/ evaluate and score on a table: a module's output on the table's columns, in float32 as
/ PyTorch's on .i.x
acts:`relu`sigmoid`tanh`silu`elu`selu`leakyrelu`relu6`hardtanh`softmax`logsoftmax`gelu`drop
def:`relu`sigmoid`tanh`silu`elu`selu`leakyrelu`relu6`hardtanh`softmax`logsoftmax`gelu`drop!(`relu;`sigmoid;`tanh;`silu;(`elu;0.5);`selu;(`leakyrelu;0.2);`relu6;(`hardtanh;-0.5;2.0);(`softmax;1);(`logsoftmax;-1);`gelu;(`drop;0.5))
net:{[a] made[seq(`sequential;(`linear;4;6);def a;(`linear;6;2));get` sv`.p,a]}
chk:{[a] m:net a; e:get` sv`.e,a;
  .t.ok["evaluate table ",string a;near[evaluate[(m;.d.x)]`output;e]];
  .t.eq["evaluate table names ",string a;cols evaluate(m;.d.x);enlist`output];
  .t.ok["score table ",string a;near[score(m;.d.x);e]];
  .t.ok["score row ",string a;near[score(m;first .d.x);first e]];
  .t.ok["score keyed ",string a;near[score(m;`k xkey update k:til 5 from .d.x);e]];
  .t.ok["score matrix ",string a;near[score(m;.i.x);e]];
  .t.ok["score vector ",string a;near[score(m;.i.x 1);e 1]];
  .t.ok["score float matrix ",string a;near[score(m;"f"$.i.x);e]];
  .t.ok["evaluate matrix ",string a;near[evaluate(m;.i.x);e]];
  free m}
chk each acts;
/ one output per row: a vector from a table, an atom from a row
m:made[enlist(`linear;4;1);.p.one]
.t.ok["score one output";near[score(m;.d.x);.e.one]]
.t.eq["score one output type";type score(m;.d.x);8h]
.t.eq["score of a matrix: rows x 1, as evaluate";score(m;.i.x);evaluate(m;.i.x)]
/ a row's score does not depend on the rows scored with it (four at a time, or alone)
.t.eq["score: a row alone as in a table";{score(m;x)} each .d.x;score(m;.d.x)]
.t.eq["score of a vector: one output, as evaluate";score(m;.i.x 0);evaluate(m;.i.x 0)]
/ from peach's threads (sequential when q has none) as from q's
.t.eq["score under peach";{score(m;x)} peach 2 3#\:.d.x;{score(m;x)} each 2 3#\:.d.x]
.t.ok["score one row";near[score(m;.d.x 2);.e.one 2]]
.t.eq["score one row is an atom";type score(m;.d.x 2);-8h]
.t.ok["score after training (weights read at the call)";[w:parm(m;`weight); r:score(m;.d.x); free w; near[r;.e.one]]]
.t.eq["evaluate keyed: keys kept";key evaluate(m;`k xkey update k:til 5 from .d.x);([]k:til 5)]
.t.eq["score: too few columns";err[score;(m;`a`b#.d.x)];"score: 2 feature columns for a module of 4 inputs"]
.t.eq["score: not a row";err[score;(m;`a`b`c`d!(1f;2f;`x;1f))];"score: `c is symbol scalar, not a number"]
.t.eq["score: not a handle";err[score;(1;.d.x)];"score: expected (model;table), (model;row dictionary) or (model;data), given general list"]
free m

/ ---------------------------------------------------------------------------------------------
/ training from a table's columns: features a b c, target y (rows x 1), mse, SGD as PyTorch
q:made[enlist(`linear;3;1);.p.reg]
m:model(q;loss`mse;opt(`sgd;q;0.1))
train(m;`batchsize;4)
.t.eq["train(m;t;features;target)";train(m;.d.train;`a`b`c;`y);2]
.t.eq["columns";columns m;`features`target!(`a`b`c;`y)]
.t.eq["datasize";datasize m;8]
.t.ok["data: features in float32";near[first data m;flip "e"$.d.train`a`b`c]]
.t.eq["data: target rows x 1";last data m;flip enlist "e"$.d.train`y]
.t.ok["run: mean batch loss";near[run m;.e.regloss]]
.t.ok["parameters after one epoch";near[value pv m;value .e.regP]]
/ evaluate takes the feature columns by name from a table with more, names the output y
e:evaluate(m;`c`y`b`a`k#.d.train)
.t.eq["evaluate names the target";cols e;enlist`y]
.t.ok["evaluate values";near[e`y;.e.regout]]
.t.ok["score values";near[score(m;.d.train);.e.regout]]
.t.ok["score row by name";near[score(m;`k`c`b`a!(0;.d.train[`c]1;2;1f));.e.regout 1]]
.t.eq["evaluate keyed";cols evaluate(m;`k xkey .d.train);`k`y]
.t.eq["evaluate: missing column";err[evaluate;(m;`a`b#.d.train)];"evaluate: no column `c in the table (columns: `a`b)"]
/ all other columns as features: (m;t;target)
.t.eq["train(m;t;target)";train(m;`a`b`c`y#.d.train;`y);2]
.t.eq["columns, all others";columns m;`features`target!(`a`b`c;`y)]
/ a keyed table's key columns may be features
.t.eq["train from a keyed table";train(m;`a xkey .d.train;`a`b`c;`y);2]
.t.eq["keyed: features in float32";first data m;flip "e"$.d.train`a`b`c]
/ test data likewise
.t.eq["test(m;t;features;target)";test(m;.d.train;`a`b`c;`y);1]
.t.eq["testsize";testsize m;8]
.t.eq["train: unknown column";err[train;(m;.d.train;`a`z;`y)];"train: features: no column `z in the table (columns: `a`b`c`y`k)"]
.t.eq["train: bad target";err[train;(m;.d.train;`a`b;1)];"train: target: expected a symbol or symbols, given long scalar"]
.t.eq["train: symbol feature";err[train;(m;update s:`x from .d.train;`a`s;`y)];"train: features: column `s is symbol: enumerate it (`sym$, `sym?) for long indices, or leave it out"]
.t.eq["train: table alone";err[train;(m;.d.train)];"train: expected (model;table;features;target) or (model;table;target)"]
free m

/ classes: a long target column with cross entropy is the class of each row (a vector)
q:made[enlist(`linear;3;3);.p.cls]
m:model(q;loss`ce;opt(`sgd;q;0.1))
train(m;`batchsize;4)
train(m;.d.train;`a`b`c;`k)
.t.eq["class target: a long vector";last data m;.d.train`k]
.t.ok["ce: mean batch loss";near[run m;.e.clsloss]]
.t.ok["ce: parameters";near[value pv m;value .e.clsP]]
/ several outputs: one column of rows named after the target
e:evaluate(m;.d.train)
.t.eq["class outputs: one column";cols e;enlist`k]
.t.eq["class outputs: rows of 3";count each e`k;8#3]
free m

/ ---------------------------------------------------------------------------------------------
/ a data source: chunks of the table from a q function, as PyTorch's two batches of 4 rows
q:made[enlist(`linear;3;1);.p.reg]
m:model(q;loss`mse;opt(`sgd;q;0.1))
train(m;`batchsize;4)
.t.eq["source: columns from an empty table";train(m;0#.d.train;`a`b`c;`y);0]
.t.ok["source: run(m;f;args) loss";near[run(m;{.d.train x+til 4};0 4);.e.regloss]]
.t.ok["source: parameters";near[value pv m;value .e.regP]]
.t.eq["source: nothing kept";datasize m;0]
/ test over chunks: the mean of the batches' mse, as q computes it from score's predictions
p:score(m;.d.train)
.t.ok["source: testrun(m;f;args)";near[testrun(m;{.d.train x+til 4};0 4);avg {avg x*x} each 2 4#.d.train[`y]-p]]
.t.eq["source: no test data kept";testsize m;0]
free m
/ (inputs;targets) chunks, and cross entropy's classes
q:made[enlist(`linear;3;3);.p.cls]
m:model(q;loss`ce;opt(`sgd;q;0.1))
train(m;`batchsize;4)
X:flip "e"$.d.train`a`b`c
.t.ok["source: (x;y) chunks";near[run(m;{(X x+til 4;.d.train[`k] x+til 4)};0 4);.e.clsloss]]
.t.ok["source: (x;y) parameters";near[value pv m;value .e.clsP]]
.t.eq["source: a table needs columns";.t.catch {run(m;{.d.train x+til 4};0 4)};"run: source: chunk 0 is a table, but the model has no feature and target columns: name them first with train(m;t;features;target) (0#t will do)"]
.t.eq["source: q error";.t.catch {run(m;{'"oops"};0 4)};"run: source: chunk 0: 'oops"]
.t.eq["source: a chunk of the wrong form";.t.catch {run(m;{x};0 4)};"run: source: chunk 0: expected a table or (inputs;targets), given long scalar"]
.t.eq["source: no chunks";.t.catch {run(m;{x};`long$())};"run: source: no chunks (an empty list of arguments)"]
.t.eq["source: model usable after an error";datasize m;0]
/ chunks given as a list of pairs, the function passing each on
ch:{(X x+til 4;.d.train[`k] x+til 4)} each 0 4
.t.eq["source: a list of chunks";type run(m;{x};ch);-8h]
free m

/ progress: off by default; on, run and testrun write a line to stderr (values unchanged)
.t.eq["progress off";progress[];0b]
progress 1b
.t.eq["progress on";progress[];1b]
q:made[enlist(`linear;3;1);.p.reg]
m:model(q;loss`mse;opt(`sgd;q;0.1))
train(m;`batchsize;4)
train(m;.d.train;`a`b`c;`y)
.t.ok["progress: run";near[run m;.e.regloss]]
progress 0b
.t.eq["progress: not a flag";.t.catch {progress 1};"progress: expecting a boolean flag, or [] for the setting, given long scalar"]
free m

.t.eq["objects left";count obj[];0]
.t.done[]
