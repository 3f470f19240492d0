/ Error texts are not interned (issue #18): q's symbols are never freed, so a loop trapping
/ errors whose text changes (sizes, positions, values) must not grow the symbol table. A million
/ trapped errors, each with its own text; q's own count of symbols, .Q.w[]`syms, before and after.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
t:tensor 1 2 3e
f:{@[{batch(t;x)};x;{x}]}
.t.eq["the text names the function and the value";f 5;"batch: size 5 not in the range 1-2 (tensor size is 3 for dimension 0)"]
.t.eq["each text its own";f 6;"batch: size 6 not in the range 1-2 (tensor size is 3 for dimension 0)"]
s0:.Q.w[]`syms
/ ten rounds of 100,000 calls, each size (so each text) new: 3 .. 1,000,002
ok:{[i] r:f each 3+(i*100000)+til 100000; all r like "batch: size * not in the range 1-2*"} each til 10
.t.ok["a million errors trapped, each its own text";all ok]
s1:.Q.w[]`syms
.t.ok["symbol count grows by no more than a constant";(s1-s0)<10]
free t
.t.done[]
