/ Two ranks against PyTorch's ZeroRedundancyOptimizer with DistributedDataParallel
/ (tests/py/dist_zero.py, run first by tests/dist.rs with the same rendezvous variables): the same
/ float64 model, initial parameters, data, shards, optimizer and clipping (norm .05), trained
/ with `distmodel` option `shard`. After every step this rank's parameters must equal PyTorch's
/ same rank's to 1e-12, and after training this rank's optimizer state must be the size of
/ ZeroRedundancyOptimizer's on the same rank (both partition the parameters alike: largest
/ first, each to the rank of fewest elements so far). Prints "ok" at the end.
/   qhost tests/dist/zero.q CASE DIR     (CASE adam or sgd)
{key[x]set'x}(`ktorch 2:`fns,1)[];
case:`$.z.x 0; dir:.z.x 1
distinit(`gloo;20)
r:distrank[]
fail:{-2 "rank ",string[r],": FAIL ",x; exit 1}
l:read0 hsym`$dir,"/",string[case],"-",string[r],".txt"
S:"J"$" " vs first l; E:"F"$" " vs' 1_l
seed 5+r
q:module seq(`sequential;(`linear;6;16);`tanh;(`linear;16;16);`tanh;(`linear;16;16);`tanh;(`linear;16;16);`tanh;(`linear;16;3))
to(q;`double)
/ rank 0 starts from dist_zero.py's parameters, rank 1 from its own: distmodel gives it rank 0's
init:{[q] p:parms q; c:dict p; free p;
  v:{[x;j] k:til count raze x; v:((((7*k)+3*j) mod 13)-6)%16; $[0=type x;(count x;count first x)#v;v]}'[value c;til count c];
  d:dict key[c]!v; copyparms(q;d); free d}
if[r=0; init q]
m:model(q;loss`mse;$[case=`adam; opt(`adam;q;.01); opt(`sgd;q;.1;.9)])
train(m;`batchsize`clipnorm;(16;.05))
distmodel(m;`shard;1b)
xy:{[i] k:til 192; x:32 6#((((5*k)+3*i) mod 17)-8)%8; k:til 96; y:32 3#((((3*k)+7*i) mod 11)-5)%4; (x;y)}
pv:{p:parms m; v:raze over value dict p; free p; v}
check:{[i] d:xy i; data(m;d 0;d 1); run m;
  v:pv[]; e:E i;
  if[not count[v]=count e; fail "step ",string[i],": ",string[count v]," values, PyTorch's ",string count e];
  d:max abs v-e;
  if[not d<1e-12; fail "step ",string[i],": largest difference from ZeroRedundancyOptimizer ",string d];
  -1 "step ",string[i]," largest difference from ZeroRedundancyOptimizer ",string d;
  }
check each til count E;
/ this rank's state: its partition's tensors (8 bytes an element), and for adam a step count
/ a parameter (ktorch counts each as 8 bytes)
o:opt m; b:bytes o; free o
want:(8*S 0)+$[case=`adam;8*S 1;0]
if[not b=want; fail "optimizer state ",string[b]," bytes, ZeroRedundancyOptimizer's on this rank ",string[S 0]," elements of ",string[S 1]," parameters (",string[want]," bytes)"];
-1 "optimizer state bytes ",string[b],", as ZeroRedundancyOptimizer's on this rank";
distmodel(m;0b)
free m
barrier[]
distend[]
-1 "ok";
exit 0
