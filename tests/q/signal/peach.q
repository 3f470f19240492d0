/ ktorch under peach (run by qhost/tests/interrupt.rs as `qhost tests/q/signal/peach.q -s 2`, as
/ q -s 2): secondary threads run ktorch calls; a callback module, which calls q, answers a q
/ error there instead of calling q off the main thread (KX: only the main thread may call k).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
.t.ok["secondary threads";0<system"s"]
f:{[m;x]relu x}
cb:module enlist(`callback;`cb;`f)
.t.eq["on the main thread";evaluate(cb;-1 2e);0 2e]
r:{@[evaluate;(cb;x);{x}]} peach (-1 2e;3 -4e)
msg:"evaluate: callback: module `cb calls q function `f, which only q's main thread may do (not inside peach or another thread)"
.t.eq["in peach: an error naming the module and the reason";r;(msg;msg)]
.t.eq["the main thread still calls it";evaluate(cb;3 -4e);3 0e]
r:{t:tensor x; u:mul(t;t); r:tensor u; free(t;u); r} peach (1 2e;3 4e;5 6e;7 8e)
.t.eq["tensor math in peach";r;(1 4e;9 16e;25 36e;49 64e)]
free cb
.t.eq["nothing left";count obj[];0]
.t.done[]
