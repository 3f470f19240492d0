/ Models between PyTorch and kdb+ (docs/pymodels.md). Run by `make example-pymodels`, which first
/ runs examples/pymodels/train_scorer.py (PyTorch trains a scorer and saves it) and afterwards
/ examples/pymodels/run_q_model.py (PyTorch runs the model this script trains).
/ Argument: the folder of the files (default /tmp/ktorch-pymodels).
/ 1. A scorer trained in PyTorch, loaded as TorchScript, scores a kdb+ table of rows; the
/    predictions go back into the table as a column, and equal PyTorch's on its own test batch.
/ 2. The reverse: a model trained here is saved as safetensors with PyTorch's names.
{key[x]set'x}(`ktorch 2:`fns,1)[];
dir:$[count .z.x;first .z.x;"/tmp/ktorch-pymodels"]
f:{`$":",dir,"/",x}

/ --- 1. PyTorch -> q
m:loadscript f"scorer.pt"
-1 "q: loaded scorer.pt: ",(" " sv string parmnames m);
seed 11
n:8
t:([]sym:n?`AAPL`MSFT`IBM;time:09:30:00.000+1000*til n;r1:n?1f;r5:n?1f;vr:1+n?1f;spread:1+n?3)
t:update r1:r1-0.5,r5:r5-0.5 from t
X:"e"$flip t`r1`r5`vr`spread                       / n x 4 features from the table's columns
t:update pred:raze evaluate(m;X) from t             / one call scores every row
show t
/ the same scorer on PyTorch's test batch: its predictions, to the bit
d:loadsafe f"features.safetensors"; x:(dict d)`x; free d
d:loadsafe f"pytorch_pred.safetensors"; y:(dict d)`y; free d
-1 "q: predictions on PyTorch's test batch equal PyTorch's: ",string y~evaluate(m;x);
if[not y~evaluate(m;x); '"pymodels: TorchScript predictions differ from PyTorch's"]
/ the state dict in a ktorch module of the same layers gives the same predictions
s:module seq(`sequential;(`linear;4;32);`relu;(`linear;32;32);`relu;(`linear;32;1))
loadsafe(s;f"scorer.safetensors")
-1 "q: ktorch sequential with the safetensors state gives the same: ",string y~evaluate(s;x);
free(m;s)

/ --- 2. q -> PyTorch
seed 3
n:2000
X:"e"$-1+2*(n;4)#(4*n)?1f
Y:"e"$flip enlist sum each X*\:0.5 -1 0.25 2
q:module seq(`sequential;(`linear;4;16);`tanh;(`linear;16;1))
mq:model(q;loss`mse;opt(`adam;q;.01))
train(mq;`batchsize`shuffle;(100;1b))
train(mq;X;Y)
l:{run mq} each til 100
-1 "q: trained 100 epochs, loss ",string last l;
savesafe(mq;f"qmodel.safetensors")
savesafe(`x`y!(10#X;evaluate(mq;10#X));f"qmodel_io.safetensors")
-1 "q: wrote qmodel.safetensors (",(" " sv string parmnames mq),") and 10 predictions";
free mq
if[count obj[]; '"objects left"];
\\
