/ Sharded optimizer state (distmodel option `shard, ZeRO as PyTorch's ZeroRedundancyOptimizer)
/ on 2 or 3 ranks with Gloo (tests/dist.rs starts one qhost per rank with RANK, WORLD_SIZE,
/ MASTER_ADDR, MASTER_PORT set). For every optimizer of ktorch with state per parameter, a
/ sharded model and an unsharded one (gradients all-reduced) start from the same parameters and
/ train on the same data: through `run` (two batches a pass, with the training options'
/ clipping), through q's own loop (`backward`, `clip`, `step`, as char.q) and through `backstep`.
/ After every step the sharded model's loss and parameters must equal the unsharded one's to
/ 1e-12 (float64), the norms `clip` answers must be equal, and every rank must hold the same
/ parameters. After training, each rank's optimizer state (`bytes` of the model's optimizer)
/ must be its shard's alone: the ranks' bytes add up to the unsharded optimizer's exactly, and
/ each rank holds about 1/N of them. LBFGS (no state per parameter) is refused. Prints "ok".
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit(`gloo;30)
r:distrank[]; w:distsize[]
fail:{-2 "rank ",string[r],": FAIL ",x; exit 1}
say:{if[r=0; -1 x]}
pv:{p:parms x; v:raze over value dict p; free p; v}
/ parameters of 96 16 256 16 256 16 256 16 48 3 elements: shards of near-equal size
net:{q:module seq(`sequential;(`linear;6;16);`tanh;(`linear;16;16);`tanh;(`linear;16;16);`tanh;(`linear;16;16);`tanh;(`linear;16;3)); to(q;`double); q}
/ each optimizer, and the clipping each is trained with (sgd: two groups, each clipped alone)
mk:`sgd`adam`adamw`rmsprop`adagrad`lamb!(
  {o:opt(`sgd;(x;`0`2`4`6);.1;.9); opt(o;1;(x;`8);.05); o};
  {opt(`adam;x;.01)};
  {opt(`adamw;x;.01)};
  {opt(`rmsprop;x;.01)};
  {opt(`adagrad;x;.1)};
  {opt(`lamb;x;.01)})
clips:`sgd`adam`adamw`rmsprop`adagrad`lamb!(
  (`clipnorm`clipgroup;(.05;1b));
  (`clipnorm;.05);
  (`clipnorm;(.05;0w));
  (`clipvalue;.01);
  (`clipnorm;(.05;1f));
  (`clipnorm;.05))
/ adam's shards travel in buckets of at most 1000 bytes (several collectives a step)
bucket:`sgd`adam`adamw`rmsprop`adagrad`lamb!(25;1000%1048576;25;25;25;25)
xy:{[i] (32 6#sin 0.37*i+til 192;32 3#cos 0.11*i+til 96)}
same:{[k;m;m2;l;l2;what]
  a:pv m; d:max abs a-pv m2;
  if[not d<1e-12; fail string[k],": ",what,": parameters differ from the unsharded model's by ",string d];
  if[not all 1e-12>abs l-l2; fail string[k],": ",what,": loss ",(-3!l)," but the unsharded model's is ",-3!l2];
  if[not all allgather[a]~\:a; fail string[k],": ",what,": the ranks' parameters differ"];
  d}
case:{[k]
  seed 10+r;
  q:net[]; m:model(q;loss`mse;mk[k] q);
  train(m;`batchsize;8); train (m;clips[k]0;clips[k]1);
  distmodel(m;`shard`bucket;(1b;bucket k));
  q2:net[]; p:parms m; copyparms(q2;p); free p;
  m2:model(q2;loss`mse;mk[k] q2);
  train(m2;`batchsize;8); train (m2;clips[k]0;clips[k]1);
  distmodel m2;
  p0:pv m;
  / run: 32 samples a step, 32 div w for each rank, in batches of 8
  d:{[k;m;m2;i] v:xy i; data(m;v 0;v 1); data(m2;v 0;v 1); same[k;m;m2;run m;run m2;"run ",string i]}[k;m;m2] each til 3;
  / q's own loop: each rank its own rows, the gradients' norm taken across the ranks
  j:r+w*til 32 div w;
  n:{[k;m;m2;j;i] v:xy 10+i; l:backward(m;v[0]j;v[1]j); l2:backward(m2;v[0]j;v[1]j);
    c:clip(m;.05); c2:clip(m2;.05);
    if[not 1e-12>abs c-c2; fail string[k],": clip answers ",string[c]," but the unsharded model's norm is ",string c2];
    step m; step m2; same[k;m;m2;l;l2;"backward/step ",string i]; c}[k;m;m2;j] each til 2;
  if[not any n>.05; fail string[k],": the clipping never bit: norms ",-3!n];
  v:xy 20; l:backstep(m;v[0]j;v[1]j); l2:backstep(m2;v[0]j;v[1]j); d,:same[k;m;m2;l;l2;"backstep"];
  if[not 0<max abs pv[m]-p0; fail string[k],": no training"];
  / the optimizer state: each rank its shard's
  o:opt m; b:bytes o; free o; o:opt m2; b2:bytes o; free o;
  B:raze allgather enlist b;
  if[not b2=sum B; fail string[k],": the ranks' state adds up to ",string[sum B]," bytes, the unsharded optimizer's is ",string b2];
  if[(w>1)&not b<b2; fail string[k],": a rank holds all the state"];
  say string[k],": largest difference from unsharded ",string[max d],"; optimizer state bytes per rank ",(" " sv string B)," (",(" " sv string .01*floor .5+100*B%b2%w)," of 1/",string[w],"), unsharded ",string b2;
  free(m;m2);
  }
case each key mk;
/ LBFGS steps over every parameter at once: nothing per parameter to shard
q:net[]; m:model(q;loss`mse;opt(`lbfgs;q))
e:@[distmodel;(m;`shard;1b);{x}]
if[not e like "distmodel: shard: not for lbfgs*"; fail "lbfgs sharded: ",-3!e]
free m
barrier[]
distend[]
-1 "ok";
exit 0
