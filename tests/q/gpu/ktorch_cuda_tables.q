/ On a CUDA machine (scripts/gpu-run.sh): tables to cuda (through pinned memory), a model on cuda
/ fed from a table's columns and from a data source, evaluate and score of a cuda module: each
/ gives what the same on the CPU gives (the CPU forms are checked against PyTorch in
/ tests/q/ktorch_tables.q).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-4*1|abs e)>abs r-e}
val:{r:tensor x; free x; r}
seed 3
t:([]a:til 1000;b:1000?1f;c:1000?1e)
h:tensor(t;`cuda)
.t.eq["tensor(t;`cuda): device";string device h;"cuda:0"]
.t.eq["tensor(t;`cuda): values";tensor h;flip "f"$value flip t]
free h
/ 4 MB and more: the streamed path into pinned memory
t:([]a:til 300000;b:300000?1f;c:300000?1e)
.t.eq["large table to cuda";val tensor(t;`cuda);flip "f"$value flip t]
/ the same model on the CPU and on cuda, trained from the table's columns
mk:{[d] seed 5; q:module seq(`sequential;(`linear;3;8);`relu;(`linear;8;1)); if[d~`cuda;to(q;`cuda)]; m:model(q;loss`mse;opt(`sgd;q;.05)); train(m;`batchsize;64); m}
t:([]x1:500?1f;x2:500?1f;x3:500?1f); t:update y:x1-x2+0.5*x3 from t
c:mk`cpu; g:mk`cuda
train(c;t;`x1`x2`x3;`y); train(g;t;`x1`x2`x3;`y)
.t.eq["cuda: data on cuda";string device a:input g;"cuda:0"]
free a
.t.ok["run on cuda as on the CPU";near[run g;run c]]
.t.ok["evaluate on cuda as on the CPU";near[evaluate[(g;t)]`y;evaluate[(c;t)]`y]]
.t.ok["score of a cuda model (its forward) as on the CPU";near[score(g;t);score(c;t)]]
.t.ok["score of a row on cuda";near[score(g;t 7);score(c;t 7)]]
/ a data source on cuda: chunks from q while the previous trains
f:{[i] t i+til 100}
.t.ok["run(m;f;args) on cuda as on the CPU";near[run(g;f;100*til 5);run(c;f;100*til 5)]]
.t.eq["run(m;f;args) on cuda: nothing kept";datasize g;0]
free(c;g)
.t.eq["all freed";count obj[];0]
.t.done[]
