/ On a CUDA machine (scripts/gpu-run.sh): setting`lnres, a `residual` block whose sequential
/ block starts with layer norm (a `layernorm` module, or `selfattention` with its norm) computes
/ the norm itself and hands x on to the sum (src/cxx/fused_ln.cpp,
/ FusedLayerNormRes), so that x's two gradients are added by the fused backward kernel as it
/ writes dx rather than by autograd in a kernel of their own. The check is exact: with the same
/ seed, the output and the gradients of the input and of every parameter are bit-identical to the
/ setting off, and the backward pass runs one CUDA kernel fewer a block (`profile`).
/ Blocks of char.q's GPT (512 features): the feed-forward block (layernorm, linear, gelu, linear,
/ drop) and the attention block (selfattention with its norm, drop); fp32, bf16 autocast, bf16
/ autocast with setting`lncast; and a recorded training step of both blocks. With a fused dropout
/ (setting`dropadd, blocks ending in `drop` with 0<p<1) and without: blocks ending in `drop` 0
/ (bench/dist's GPT), blocks without `drop`, and blocks ending in `drop` .1 with dropadd off
/ (ATen's dropout, then the plain sum).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
mlp:{[d;p] (`sequential; (`residual; seq(`sequential;(`layernorm;d);(`linear;d;4*d);`gelu;(`linear;4*d;d);(`drop;p))))}
att:{[d;p] (`sequential; (`residual; seq(`sequential;(`selfattention;d;8;0f;1b);(`drop;p))))}
/ y, dx and every parameter's gradient, and the CUDA kernels the forward and backward pass ran
run:{[on;lc;ac;b;shape]
  setting`lnres,on; setting`lncast,lc; seed 11;
  q:module b; to(q;`cuda);
  x:tensor(`randn;shape;`cuda`grad); g:tensor(`randn;shape;`cuda);
  seed 12; sync();
  profile`start; setting`autocast,ac; y:forward(q;x); setting`autocast,`none;
  backward(y;g); sync(); p:profile`stop;
  ps:{parm(x;y)}[q]each parmnames q;
  z:(tensor y;grad x),grad each ps;
  free each (q;x;y;g),ps; setting`lnres,1b; setting`lncast,0b;
  (z;exec sum calls from p where device=`cuda)}
case:{[name;lc;ac;b;shape]
  a:run[0b;lc;ac;b;shape]; u:run[1b;lc;ac;b;shape];
  -1 name,": identical ",(" " sv string u[0]~'a 0),"; CUDA kernels ",string[u 1]," (off ",string[a 1],")";
  .t.ok[name," as apart, bit for bit";u[0]~a 0];
  .t.ok[name," one kernel fewer";u[1]<a 1];
  }
.t.eq["on by default";setting`lnres;1b]
case["feed-forward fp32";0b;`none;mlp[512;.1];8 128 512]
case["feed-forward bf16";0b;`bf16;mlp[512;.1];8 128 512]
case["feed-forward bf16 lncast";1b;`bf16;mlp[512;.1];8 128 512]
case["attention fp32";0b;`none;att[512;.1];4 128 512]
case["attention bf16 lncast";1b;`bf16;att[512;.1];4 128 512]
/ no fused dropout: the plain sum
mlp0:{[d] (`sequential; (`residual; seq(`sequential;(`layernorm;d);(`linear;d;4*d);`gelu;(`linear;4*d;d))))}
case["feed-forward drop 0 fp32";0b;`none;mlp[512;0f];8 128 512]
case["feed-forward drop 0 bf16";0b;`bf16;mlp[512;0f];8 128 512]
case["feed-forward without drop fp32";0b;`none;mlp0 512;8 128 512]
case["feed-forward without drop bf16 lncast";1b;`bf16;mlp0 512;8 128 512]
case["attention drop 0 fp32";0b;`none;att[512;0f];4 128 512]
case["attention drop 0 bf16";0b;`bf16;att[512;0f];4 128 512]
setting`dropadd,0b
case["feed-forward drop .1, dropadd off, fp32";0b;`none;mlp[512;.1];8 128 512]
case["attention drop .1, dropadd off, bf16";0b;`bf16;att[512;.1];4 128 512]
setting`dropadd,1b

/ a recorded training step of both blocks under bf16 autocast with lncast (CUDA graph): the
/ losses of the setting off, bit for bit
GX:"e"$32 16 64#(32*16*64)?1f; GY:"e"$32 16 64#(32*16*64)?1f
gstep:{[p;on]
  setting`lnres,on; setting`lncast,1b; seed 9; setting`autocast,`bf16;
  q:module(`sequential;(`residual;seq(`sequential;(`selfattention;64;4;0f;1b);(`drop;p)));(`residual;seq(`sequential;(`layernorm;64);(`linear;64;256);`gelu;(`linear;256;64);(`drop;p))));
  to(q;`cuda); m:model(q;loss`mse;opt(`adamw;q;.001)); g:graph(m;GX;GY);
  ls:{[g;i] l:replay g; r:first raze tensor l; free l; r}[g] each til 10;
  free(g;m); setting`autocast,`none; setting`lnres,1b; setting`lncast,0b;
  ls}
{[p]
  ga:gstep[p;0b]; gu:gstep[p;1b];
  w:"recorded step, drop ",string[p];
  -1 w," losses, off: ",(" " sv string ga),"; lnres: "," " sv string gu;
  .t.ok[w,": the losses of the setting off, bit for bit";gu~ga];
  .t.ok[w,": losses finite and falling";(all 0w>gu) and (last gu)<first gu]} each .1 0
.t.done[]
