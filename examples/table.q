/ A regression fed from a kdb+ table: the features and target are columns, the model is trained
/ by ktorch, and its predictions are written back into the table as a new column.
/ Arguments: epochs (default 200).
{key[x]set'x}(`ktorch 2:`fns,1)[];
args:.z.x
epochs:$[count args;"J"$args 0;200]
seed 5
n:500
t:([]x1:n?10f;x2:n?5f;x3:n?1f)
t:update y:3+(2*x1)+(-1.5*x2)+(0.5*x3)+0.1*(n?1f)-0.5 from t  / y = 3 + 2x1 - 1.5x2 + 0.5x3 + noise
X:"e"$flip t`x1`x2`x3                               / n x 3 inputs from the table's columns
Y:"e"$flip enlist t`y                               / n x 1 targets
q:module enlist(`linear;3;1)
m:model(q;loss`mse;opt(`adam;q;.1))
train(m;`batchsize`shuffle;(50;1b))
train(m;X;Y)
l:{run m} each til epochs
t:update pred:raze evaluate(m;X) from t            / predictions back into the table
show 5#t
w:(parm(m;`weight));b:parm(m;`bias)
coef:raze tensor w; c0:first tensor b; free(w;b)
-1 "fitted: ",(string c0)," + ",(", " sv string coef)," (truth 3 + 2, -1.5, 0.5)";
rmse:sqrt avg d*d:t[`y]-t`pred
-1 "rmse ",string rmse;
if[(epochs>=200)&(rmse>0.2)|0.1<max abs coef-2 -1.5 0.5; '"table: fit failed"];
free m
if[count obj[]; '"objects left"];
\\
