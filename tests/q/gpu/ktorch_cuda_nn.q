/ On a CUDA machine (scripts/gpu-run.sh): modules, optimizers and models on `cuda give the CPU's
/ results. Each module is built on the CPU, copied through its state, moved to cuda, and both
/ are run on the same input.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-3*1|abs e)>abs r-e}
/ evaluate definition d on inputs x (a list) on the cpu and on cuda; a module without parameters
/ stays on the cpu (inputs of q data go where its parameters are), so give those a cuda tensor
oncuda:{(string device x) like "cuda*"}
both:{[d;x] c:module d; g:module state c; to(g;`cuda); p:oncuda g;
  xg:$[p;x;{tensor(x;`cuda)} each x];
  r:(evaluate (enlist c),x;evaluate (enlist g),xg); dev:$[p;device g;device first xg];
  if[not p; free each xg]; free(c;g); (dev;r)}
check:{[name;d;x] r:both[d;enlist x]; .t.eq[name," on cuda";r 0;`cuda:0]; .t.ok[name," cuda = cpu";near . r 1]}
seed 1
X:"e"$2 3 8 8#(2*3*64)?1f
check["mlp";seq(`sequential;(`linear;8;16);`relu;(`linear;16;4));"e"$5 8#40?1f]
check["conv2d";enlist(`conv2d;3;4;3;`pad,1);X]
check["maxpool2d";enlist(`maxpool2d;2);X]
check["batchnorm2d";enlist(`batchnorm2d;3);X]
check["layernorm";enlist(`layernorm;8);X]
check["gelu";`gelu;X]
check["embed";enlist(`embed;10;4);2 5#til 10]
check["transpose";enlist(`transpose;1;2);X]
r:both[enlist(`lstm;8;6);enlist "e"$4 2 8#64?1f]
.t.ok["lstm cuda = cpu";near . r 1]
r:both[enlist(`attention;8;2);("e"$3 2 8#48?1f;"e"$3 2 8#48?1f;"e"$3 2 8#48?1f)]
.t.ok["attention cuda = cpu";near . r 1]
/ a model trained on cuda from the same start as on the cpu ends with the same parameters
q1:module seq(`sequential;(`linear;2;8);`tanh;(`linear;8;3))
q2:module state q1
to(q2;`cuda)
m1:model(q1;loss`ce;opt(`adam;q1;.01))
m2:model(q2;loss`ce;opt(`adam;q2;.01))
XY:("e"$20 2#40?1f;20?3)
{[m;xy] train(m;`batchsize`metrics;(5;`loss`accuracy)); train(m;xy 0;xy 1)}[;XY] each (m1;m2);
r1:{run m1} each til 5
r2:{run m2} each til 5
.t.ok["model losses cuda = cpu";near[r1[;0];r2[;0]]]
p1:parms m1; p2:parms m2
.t.ok["model parameters cuda = cpu after 5 epochs";near[dict p1;dict p2]]
.t.eq["parameters stayed on cuda";distinct value device p2;enlist`cuda:0]
free(p1;p2;m1;m2)
/ recurrent modules on cuda put their weights in one buffer at the first call, as libtorch's
/ flatten_parameters (one storage for all: no copy and no warning at each call), and train as on
/ the cpu: an lstm and a gru of 7 series of 4 steps, trained 5 epochs from the same start (the
/ loss on the output sequence, a model's first output)
seqm:{[k] enlist(k;`r;3;6;`batchfirst,1b)}
{[k]
  c:module seqm k; g:module state c; to(g;`cuda);
  X:"e"$7 4 3#84?1f; Y:"e"$7 4 6#168?1f;
  mc:model(c;loss`mse;opt(`sgd;c;.1)); mg:model(g;loss`mse;opt(`sgd;g;.1));
  {[m;x;y] train(m;`batchsize`shuffle;(7;0b)); train(m;x;y)}[;X;Y] each (mc;mg);
  lc:{run x}each 5#enlist mc; lg:{run x}each 5#enlist mg;
  .t.ok[string[k]," losses cuda = cpu";near[lc;lg]];
  .t.ok[string[k]," parameters cuda = cpu";near[dict pc:parms mc;dict pg:parms mg]];
  w:{[m;n] parm(m;n)}[mg] each parmnames mg;
  .t.eq[string[k]," weights in one cuda buffer";count distinct sptr each w;1];
  free w; free(pc;pg;mc;mg)} each `lstm`gru;
/ a callback module on cuda
c:module seq((`callback;`cb;`f);(`linear;`a;4;2))
to(c;`cuda)
f:{[m;x] kforward(m;`a;x)}
y:forward(c;"e"$3 4#til 12)
.t.eq["callback output on cuda";device y;`cuda:0]
free(c;y)
/ a module without parameters or buffers runs where its input is (ktorch's C++ moves only q
/ arrays, to the module's device: the CPU for such a module); its output equals the CPU's
xc:tensor(`randn;5 7); x:tensor(tensor xc;`cuda)
r:module seq(`sequential; `relu; (`reshape;35))
y:forward(r;x)
.t.eq["parameterless module: output on the input's cuda";device y;`cuda:0]
.t.eq["parameterless module: cuda output = cpu output";tensor y;evaluate(r;xc)]
free y
/ its autocast is its input's device's: a bf16 autocast on cuda gives bf16 from `matmul`
setting`autocast,`bf16
b:tensor(`randn;7 3;`cuda); a:module`matmul; y:forward(a;x;b)
.t.eq["parameterless module under cuda autocast: bf16 on cuda";(device y;dtype y);(`cuda:0;`bfloat)]
setting`autocast,`none
free(y;a;b)
/ a module with parameters still moves a cpu tensor input to its device
l:module enlist(`linear;7;2); to(l;`cuda)
y:forward(l;xc)
.t.eq["module on cuda: cpu tensor input moved, output on cuda";device y;`cuda:0]
free(y;l;r;x;xc)
.t.eq["nothing left";count obj[];0]
.t.done[]
