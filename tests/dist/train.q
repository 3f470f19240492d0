/ Two ranks train the same model with Gloo (tests/dist.rs starts one qhost per rank with RANK,
/ WORLD_SIZE, MASTER_ADDR, MASTER_PORT set). Each rank also trains, alone, a reference copy on
/ the union of both ranks' shards (the whole step's data, mean loss: the average of the two
/ shards' gradients); after every step the synchronised model must equal the reference to 1e-12
/ in float64, and the ranks must hold identical parameters. The model averages its gradients in
/ four small buckets during the backward pass (overlap, DDP's way); a copy of it that averages
/ them after the backward pass (option overlap 0b) must take exactly the same steps, and so must
/ a copy whose gradients are views of its buckets (option views) with a smaller first bucket
/ (option first). Prints "ok" at the end.
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit(`gloo;20)
r:distrank[]; w:distsize[]
fail:{-2 "rank ",string[r],": FAIL ",x; exit 1}
/ each rank starts from different parameters: distmodel gives both rank 0's
seed 10+r
pv:{p:parms x; v:raze over value dict p; free p; v}
net:{q:module seq(`sequential;(`linear;4;8);`tanh;(`linear;8;2)); to(q;`double); q}
q:net[]; m:model(q;loss`mse;opt(`sgd;q;.1;.9))
train(m;`batchsize`clipnorm;(8;.05))
/ buckets of at most 104 bytes: the gradients of 3.bias, 3.weight, 1.bias, 1.weight (16, 128,
/ 64, 256 bytes) go in 4 buckets, each all-reduced as soon as the backward pass has made it
distmodel(m;`bucket;104%1048576)
p0:pv m
/ the same model averaging after the backward pass (one bucket)
q3:net[]; p:parms m; copyparms(q3;p); free p
m3:model(q3;loss`mse;opt(`sgd;q3;.1;.9))
train(m3;`batchsize`clipnorm;(8;.05))
distmodel(m3;`overlap;0b)
/ the same model with gradients as views of its buckets, the first bucket 16 bytes, the others 200
q4:net[]; p:parms m; copyparms(q4;p); free p
m4:model(q4;loss`mse;opt(`sgd;q4;.1;.9))
train(m4;`batchsize`clipnorm;(8;.05))
distmodel(m4;`views`first`bucket;(1b;16%1048576;200%1048576))
/ the reference starts from rank 0's parameters (those m now holds)
q2:net[]; p:parms m; copyparms(q2;p); free p
ref:model(q2;loss`mse;opt(`sgd;q2;.1;.9))
train(ref;`batchsize`clipnorm;(16;.05))
/ 16 samples a step: rank 0 trains on rows 0 2 4 .., rank 1 on rows 1 3 5 ..
runstep:{[i]
  X:16 4#sin 0.37*i+til 64; Y:16 2#cos 0.11*i+til 32;
  data(m;X;Y); data(ref;X;Y); data(m3;X;Y); data(m4;X;Y);
  l:run m; lr:run ref; l3:run m3; l4:run m4;
  a:pv m; b:pv ref;
  if[not (a~pv m3) & l=l3; fail "step ",string[i],": overlapped and after-backward averaging differ"];
  if[not (a~pv m4) & l=l4; fail "step ",string[i],": gradients as bucket views differ"];
  d:max abs a-b;
  if[not d<1e-12; fail "step ",string[i],": parameters differ from the reference by ",string d];
  if[not 1e-12>abs l-lr; fail "step ",string[i],": loss ",string[l]," but the reference's is ",string lr];
  g:allgather a;
  if[not all g~\:a; fail "step ",string[i],": the ranks' parameters differ"];
  -1 "step ",string[i]," diff ",string d;
  }
runstep each til 12;
/ q's own loop (backward, step), as char.q trains: backward averages the gradients
mstep:{[i]
  X:16 4#sin 0.29*i+til 64; Y:16 2#cos 0.13*i+til 32; j:r+2*til 8;
  backward(m;X j;Y j); step m; backward(ref;X;Y); step ref; backward(m3;X j;Y j); step m3;
  backward(m4;X j;Y j); step m4;
  a:pv m; d:max abs a-pv ref;
  if[not a~pv m3; fail "backward/step ",string[i],": overlapped and after-backward averaging differ"];
  if[not a~pv m4; fail "backward/step ",string[i],": gradients as bucket views differ"];
  if[not d<1e-12; fail "backward/step ",string[i],": parameters differ from the reference by ",string d];
  if[not all allgather[a]~\:a; fail "backward/step ",string[i],": the ranks' parameters differ"];
  -1 "backward/step ",string[i]," diff ",string d;
  }
mstep each til 3;
if[not 0<max abs pv[m]-p0; fail "no training"];
/ several batches a pass, shuffled by the model's seed: ranks stay identical
train(m;`batchsize`shuffle;(4;1b))
data(m;40 4#sin til 160;40 2#cos til 80)
do[3; run m; a:pv m; if[not all allgather[a]~\:a; fail "shuffled pass: the ranks' parameters differ"]];
/ metrics are reduced across ranks: the same loss on both
train(m;`metrics;`loss`batchloss)
res:run m
if[not all allgather[raze res]~\:raze res; fail "the ranks report different losses"];
if[not 1e-12>abs res[0]-avg res 1; fail "the loss is not the mean batch loss"];
distmodel(m;0b)
free(m;m3;m4;ref)
barrier[]
distend[]
-1 "ok";
exit 0
