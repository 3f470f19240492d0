/ SIGINT during a long `run` (qhost/tests/interrupt.rs sends it once this script prints "go"):
/ the call ends with 'run: stop (KX reserves krr("stop") for q), the model's data is back to full size, and the
/ model trains on. Valid q: in kdb+, Ctrl-C does what the test's SIGINT does.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
seed 1
n:200000
X:"e"$(n;16)#(16*n)?1f
Y:n?2
q:module seq(`sequential;(`linear;16;256);`relu;(`linear;256;256);`relu;(`linear;256;2))
m:model(q;loss`ce;opt(`sgd;q;.01))
train(m;`batchsize`shuffle;(10;0b))
train(m;X;Y)
-1 "go";
e:@[run;m;{x}]
.t.eq["run ends with 'run: stop";e;"run: stop"]
.t.eq["the data is back to full size";datasize m;n]
train(m;1000#X;1000#Y)
r:run m
.t.ok["the next run trains";(-8h=type r)&r<1e6]
.t.eq["no batch left selected";datasize m;1000]
free m
.t.eq["nothing left";count obj[];0]
.t.done[]
