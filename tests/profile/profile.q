/ ktorch's `profile` over the operations tests/py/profile_ref.py runs under torch.profiler:
/ prints `name<TAB>calls<TAB>shapes` for every aten operator, writes the Chrome trace to the
/ file named by the first argument. Run by tests/profile.rs.
{key[x]set'x}(`ktorch 2:`fns,1)[];
x:tensor 64 32#0.5e; w:tensor 32 16#0.25e; b:tensor 16#1e
profile(`start;`shapes`cpu)
do[2; y:mm(x;w); z:add(y;b); free(y;z)]
y:mm(x;w); z:add(y;b); free y
r:relu z
p:profile`stop
-1 {"\t" sv (string x`name; string x`calls; x`shapes)} each select from p where name like "aten::*";
/ the q calls themselves, as ranges (the reference has none: tests/profile.rs checks these apart)
-1 {"\t" sv (string x`name; string x`calls)} each select from p where name like "ktorch::*";
profile(`trace; hsym`$.z.x 0)
free(x;w;b;z;r)
exit 0
