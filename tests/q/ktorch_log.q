/ ktorch's log: loglevel, logto, and what ktorch logs at each level (trace: calls, debug:
/ objects made and freed and errors signalled to q, warn: libtorch's warnings).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/log_expected.q

/ ---- level ----
.t.eq["default level";loglevel[];`info]
.t.eq["loglevel() form";loglevel();`info]
.t.eq["setting answers null";loglevel`debug;::]
.t.eq["set by symbol";loglevel[];`debug]
loglevel 0
.t.eq["set by long";loglevel[];`trace]
loglevel 4i
.t.eq["set by int";loglevel[];`error]
loglevel 3h
.t.eq["set by short";loglevel[];`warn]
loglevel`info
levels:"`trace`debug`info`warn`error"
.t.eq["unknown level";.t.catch[{loglevel`loud}];"loglevel: unrecognized level `loud, expecting one of ",levels]
.t.eq["empty symbol";.t.catch[{loglevel`}];"loglevel: unrecognized level `, expecting one of ",levels]
.t.eq["above 4";.t.catch[{loglevel 5}];"loglevel: level 5 out of range, expecting 0-4 (",levels,")"]
.t.eq["below 0";.t.catch[{loglevel -1}];"loglevel: level -1 out of range, expecting 0-4 (",levels,")"]
.t.eq["float";.t.catch[{loglevel 1.0}];"loglevel: expected a level: one of ",levels," or 0-4"]
.t.eq["boolean";.t.catch[{loglevel 1b}];"loglevel: expected a level: one of ",levels," or 0-4"]
.t.eq["list";.t.catch[{loglevel`info`debug}];"loglevel: expected a level: one of ",levels," or 0-4"]
.t.eq["errors leave the level";loglevel[];`info]

/ ---- route ----
.t.eq["default route";logto[];`stderr]
.t.eq["setting answers null";logto`none;::]
.t.eq["none";logto();`none]
logto`
.t.eq["empty symbol is none";logto[];`none]
logto`stderr
.t.eq["back to stderr";logto[];`stderr]
.t.eq["unknown name";.t.catch[{logto`nosuchfn}];"logto: `nosuchfn is not a q function"]
notfn:42
.t.eq["name of a non-function";.t.catch[{logto`notfn}];"logto: `notfn is not a q function"]
.t.ok["a number";.t.catch[{logto 42}] like "logto: expected `stderr, `none (or `), or a q function or its name, given *"]
.t.eq["errors leave the route";logto[];`stderr]

msgs:()
keep:{[l;m] msgs::msgs,enlist(l;m)}
logto keep
.t.eq["route is the function";logto[];keep]

/ debug: objects made and freed, with class and id
loglevel`debug
t:tensor 1 2 3; i:string first t
free t
.t.eq["debug: tensor made and freed";msgs;((`debug;"made tensor ",i);(`debug;"freed tensor ",i))]
msgs:()
v:vector(1 2;3 4); j:string first v
free v
.t.eq["debug: vector";msgs;((`debug;"made vector ",j);(`debug;"freed vector ",j))]

/ info: none of that
loglevel`info
msgs:()
t:tensor 1 2 3; free t
.t.eq["info: nothing from make and free";msgs;()]

/ trace: every call by name, around the debug lines of what it makes and frees
loglevel`trace
msgs:()
t:tensor 1 2; i:string first t
free t
loglevel`info
.t.eq["trace: calls by name";msgs;((`trace;"tensor");(`debug;"made tensor ",i);(`trace;"free");(`debug;"freed tensor ",i);(`trace;"loglevel"))]

/ debug: every error signalled to q, as q sees it (q has it already: not kept above debug)
loglevel`debug
msgs:()
e1:@[loglevel;`loud;{x}]
e2:@[tensor;`nope;{x}]
.t.eq["debug: both errors logged as signalled";msgs;((`debug;e1);(`debug;e2))]
.t.ok["error text names the function";e2 like "tensor: *"]
loglevel`info
msgs:()
e3:@[tensor;`nope;{x}]
.t.eq["info: signalled errors not kept";msgs;()]
loglevel`error
msgs:()
t:tensor 1 2; free t
.t.eq["error: no trace or debug";msgs;()]

/ warn: libtorch's own warnings (TORCH_WARN), here for resizing a non-empty output tensor
loglevel`warn
msgs:()
a:tensor 1 2e; o:tensor 0 0 0e
add(a;a;o)
.t.eq["warn: libtorch's warning, in libtorch's words";msgs;enlist(`warn;.e.resizewarn)]
.t.eq["the op still ran";tensor o;.e.resized]
msgs:()
free o; o:tensor 0 0 0e
loglevel`error
add(a;a;o)
.t.eq["error level: warnings not kept";msgs;()]
free(a;o)

/ a route function that calls ktorch: those calls log to stderr, not back into the function
busy:{[l;m] msgs::msgs,enlist(l;m); tensorcount[]}
logto busy
loglevel`trace
msgs:()
t:tensor 1 2; i:string first t
loglevel`info
free t
.t.eq["no recursion into the route";msgs;((`trace;"tensor");(`debug;"made tensor ",i);(`trace;"loglevel"))]

/ a route function given by name, looked up for each message
logto`keep
.t.eq["route is the name";logto[];`keep]
loglevel`debug
msgs:()
t:tensor 1 2; i:string first t
.t.eq["named route";msgs;enlist(`debug;"made tensor ",i)]
keep:{[l;m] msgs::msgs,enlist(m;l)}
free t
.t.eq["the name is looked up again";last msgs;("freed tensor ",i;`debug)]
keep:{[l;m] msgs::msgs,enlist(l;m)}

/ a route function that signals an error does not break ktorch (stderr gets those messages)
logto {[l;m] '"route broken"}
t:tensor 1 2 3
.t.eq["ktorch works on";tensor t;1 2 3]
free t
.t.ok["error of a ktorch call still reaches q";.t.catch[{tensor`nope}] like "tensor: *"]
/ a function of the wrong rank fails the same way
logto {[x] x}
t:tensor 4 5
.t.eq["ktorch works with a rank error in the route";tensor t;4 5]
free t

/ a route function that changes the route while it runs
msgs:()
once:{[l;m] msgs::msgs,enlist(l;m); logto`none}
logto once
t:tensor 1 2; i:string first t
.t.eq["first message reaches it";msgs;enlist(`debug;"made tensor ",i)]
.t.eq["then the route is none";logto[];`none]
free t
.t.eq["none drops";msgs;enlist(`debug;"made tensor ",i)]

/ back to the defaults
logto`stderr
loglevel`info
.t.eq["stderr again";logto[];`stderr]
.t.eq["info again";loglevel[];`info]
.t.eq["nothing left";count obj[];0]
.t.done[]
