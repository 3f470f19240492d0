/ On a CUDA machine (scripts/gpu-run.sh): setting`dropadd, a `residual` block whose sequential
/ block ends in `drop`, with the dropout and the residual add in one NVRTC kernel and the
/ gradient's mask recomputed in the backward kernel (src/cxx/dropout_add.cpp). Its random numbers
/ are drawn as ATen's dropout draws them, from the same generator state, so the check is exact:
/ with the same seed, the output, the input's and every parameter's gradient, and the next random
/ numbers drawn are bit-identical to the setting off (ATen's dropout, then the add).
/ - fp32, bf16 autocast and fp16 autocast; 25600x512 (char.q's GPT: 13 groups of 4 a thread on
/   an H100's grid), 1000x1000, 64x36, 77x12, and 77x13 (13 x 77 is odd: ATen's 4-wide path does
/   not apply, so the unfused layers run); p .1, .5;
/ - the kernels are seen by name in `profile` with the setting on, not off;
/ - evaluation (no dropout), a backward pass recorded for higher derivatives (`create: the
/   kernel's mask, ATen's dropout backward), and a recorded training step (CUDA graph) whose
/   replays give the setting off's losses.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
/ a sequential holding a residual whose block is a linear layer of n features then drop p
blk:{[n;p] module(`sequential; (`residual; seq(`sequential;(`linear;n;n);(`drop;p))))}
val:{r:tensor x; free x; r}
/ y, dx, the parameters' gradients and 5 random numbers drawn after, with the setting on or off
run:{[on;ac;r;c;p]
  setting`dropadd,on; seed 11;
  q:blk[c;p]; to(q;`cuda);
  x:tensor(`randn;r,c;`cuda`grad); g:tensor(`randn;r,c;`cuda);
  seed 12;
  setting`autocast,ac; y:forward(q;x); setting`autocast,`none;
  backward(y;g);
  ps:{parm(x;y)}[q]each parmnames q;
  z:(tensor y;grad x),(grad each ps),enlist val tensor(`rand;5;`cuda);
  free each (q;x;y;g),ps; setting`dropadd,1b; z}
case:{[ac;r;c;p]
  name:string[ac]," ",string[r],"x",string[c]," p ",string p;
  a:run[0b;ac;r;c;p]; u:run[1b;ac;r;c;p];
  -1 name,": identical y, dx, dweight, dbias, next rand: "," " sv string u~'a;
  .t.ok[name," as ATen's dropout and add, bit for bit";u~a];
  }
shapes:(25600 512;1000 1000;64 36;77 12;77 13)
{case[`none;x 0;x 1;.1]}each shapes;
{case[`bf16;x 0;x 1;.1]}each shapes;
{case[`fp16;x 0;x 1;.1]}each 2#shapes;
case[`none;1000;1000;.5]; case[`bf16;64;36;.5]

/ the kernels ran with the setting on, not off (profile's CUDA rows)
kernels:{[on]
  setting`dropadd,on;
  q:blk[512;.5]; to(q;`cuda); x:tensor(`randn;256 512;`cuda`grad);
  profile`start; y:forward(q;x); backward(y;256 512#1e); sync(); p:profile`stop;
  free(x;y;q); setting`dropadd,1b;
  exec name from p where device=`cuda}
on:kernels 1b; off:kernels 0b
.t.ok["fused kernels ran with the setting on";all `ktorch_dropadd_fwd`ktorch_dropadd_bwd in on]
.t.ok["no fused kernel with the setting off";not any `ktorch_dropadd_fwd`ktorch_dropadd_bwd in off]

/ evaluation: no dropout, as off
ev:{[on] setting`dropadd,on; seed 4; q:blk[64;.5]; to(q;`cuda); x:tensor(`randn;32 64;`cuda);
  r:evaluate(q;x); free(q;x); setting`dropadd,1b; r}
.t.ok["evaluate: as the setting off";ev[1b]~ev 0b]

/ `create: the backward pass recorded (ATen's dropout backward with the kernel's mask): the
/ first derivatives of the setting off
cr:{[on] setting`dropadd,on; seed 8; q:blk[32;.3]; to(q;`cuda);
  x:tensor(`randn;16 32;`cuda`grad); y:forward(q;x); backward(y;16 32#1e;`create);
  r:grad x; nograd x; free(q;x;y); setting`dropadd,1b; r}
.t.ok["create: first derivatives as the setting off";cr[1b]~cr 0b]

/ a recorded training step under bf16 autocast (CUDA graph): the replays run the kernels, drawing
/ from the generator's state at each replay, and give the losses of the setting off, bit for bit
GX:"e"$256 64#(256*64)?1f; GY:"e"$256 8#(256*8)?1f
gstep:{[on]
  setting`dropadd,on; seed 9; setting`autocast,`bf16;
  q:module(`sequential;enlist(`linear;64;256);(`residual;seq(`sequential;(`layernorm;256);(`linear;256;256);(`drop;.1)));enlist(`linear;256;8));
  to(q;`cuda); m:model(q;loss`mse;opt(`sgd;q;.01)); g:graph(m;GX;GY);
  profile`start; l:replay g; sync(); p:profile`stop; free l;
  ls:{[g;i] l:replay g; r:first raze tensor l; free l; r}[g] each til 10;
  free(g;m); setting`autocast,`none; setting`dropadd,1b;
  (ls;exec name from p where device=`cuda)}
ga:gstep 0b; gu:gstep 1b
-1 "recorded step losses, off: ",(" " sv string ga 0),"; dropadd: "," " sv string gu 0;
.t.ok["recorded step replays the fused kernels";all `ktorch_dropadd_fwd`ktorch_dropadd_bwd in gu 1]
.t.ok["recorded step: the losses of the setting off, bit for bit";gu[0]~ga 0]
.t.ok["recorded step: losses finite";all 0w>gu 0]
.t.ok["on by default";setting`dropadd]
.t.done[]
