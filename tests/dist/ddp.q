/ Two ranks against PyTorch's DistributedDataParallel (tests/py/dist_ddp.py, run first by
/ tests/dist.rs with the same rendezvous variables): the same model, initial parameters, data,
/ shards and steps, trained with distmodel; after every step this rank's parameters and buffers
/ must equal DDP's same rank's. Prints "ok" at the end.
/   qhost tests/dist/ddp.q CASE DIR
/ bn:  float64, batchnorm: rank 0's buffers are broadcast before each forward (DDP's default
/      broadcast_buffers), so each rank's running statistics are rank 0's updated by its own
/      batch; tolerance 1e-12.
/ amp: float32 under autocast bf16 on the CPU (setting`autocast`bf16 and setting`autocastcpu),
/      gradients clipped to norm .05 after the average; tolerance 1e-6 (the same libtorch
/      kernels: equal in practice), and the run must differ from DDP's run without autocast
/      (fp32) by far more: autocast is really on.
/ bf16: float32 without autocast, gradients all-reduced as bfloat16 (distmodel option
/      `compress, DDP's bf16_compress_hook), clipped as amp; tolerance 1e-6, and the run must
/      differ from the float32 all-reduce's (fp32) by far more: compression is really on.
{key[x]set'x}(`ktorch 2:`fns,1)[];
case:`$.z.x 0; dir:.z.x 1
distinit(`gloo;20)
r:distrank[]
fail:{-2 "rank ",string[r],": FAIL ",x; exit 1}
expect:{[c] l:read0 hsym`$dir,"/",c,"-",string[r],".txt"; (`$" " vs first l;"F"$" " vs' 1_l)}
E:expect string case
bn:case=`bn
seed 5+r
q:module $[bn; seq(`sequential;(`linear;4;8);(`batchnorm1d;8);`tanh;(`linear;8;2));
              seq(`sequential;(`linear;4;16);`tanh;(`linear;16;2))]
if[bn; to(q;`double)]
if[not parmnames[q]~E 0; fail "parameter names ",(-3!parmnames q)," but DDP's are ",-3!E 0]
/ rank 0 starts from dist_ddp.py's parameters, rank 1 from its own: distmodel gives it rank 0's
init:{[q] p:parms q; c:dict p; free p;
  v:{[x;j] k:til count raze x; v:((((7*k)+3*j) mod 13)-6)%16; $[0=type x;(count x;count first x)#v;v]}'[value c;til count c];
  d:dict key[c]!v; copyparms(q;d); free d}
if[r=0; init q]
m:model(q;loss`mse;opt(`sgd;q;.1;.9))
train(m;`batchsize;8)
amp:case=`amp
if[not bn; train(m;`clipnorm;.05)]
if[amp; setting`autocast`bf16; setting`autocastcpu,1b]
$[case=`bf16; distmodel(m;`compress;`bf16); distmodel m]
ty:$[bn;`double;`float]
xy:{[i] k:til 64; x:16 4#((((5*k)+3*i) mod 17)-8)%8; k:til 32; y:16 2#((((3*k)+7*i) mod 11)-5)%4; (x;y)}
vals:{p:parms m; v:raze over value dict p; free p; b:buffers m; w:$[count d:dict b;raze over value d;()]; free b; "f"$v,w}
tol:$[bn;1e-12;1e-6]
check:{[i] d:xy i; if[not bn; d:"e"$d]; data(m;d 0;d 1); run m;
  v:vals[]; e:E[1;i];
  if[not count[v]=count e; fail "step ",string[i],": ",string[count v]," values, DDP's ",string count e];
  d:max abs v-e;
  if[not d<tol; fail "step ",string[i],": largest difference from DDP ",string d];
  -1 "step ",string[i]," largest difference from DDP ",string d;
  }
check each til count E 1;
if[not bn;
  F:expect "fp32";
  f:max abs vals[]-last F 1;
  -1 "largest difference from DDP in float32 ",$[amp;"without autocast ";"without compression "],string f;
  if[not f>20*tol; fail $[amp;"autocast";"compression"]," made no difference: ",string f]];
distmodel(m;0b)
free m
setting`autocast`none; setting`autocastcpu,0b
barrier[]
distend[]
-1 "ok";
exit 0
