/ setting`precast (issue 31, src/nn/precast.rs): under autocast, the parameters of linear layers
/ and attention's projections cast to bf16 together at the start of each forward pass (one
/ concatenation, one cast) instead of one cast each at first use. On the CPU under
/ setting`autocastcpu (the same code as on CUDA): the losses, parameters and gradients of
/ training steps with the setting on equal, bit for bit, those with it off (the same rounding of
/ the same numbers); profile shows the casts gathered (a concatenation of the parameters, half
/ the aten::_to_copy calls a forward pass here).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];

.t.eq["precast off by default";setting`precast;0b]
.t.ok["precast expects a boolean";.t.catch[{setting`precast,1}] like "setting: *boolean*"]
.t.ok["precast listed";`precast in key setting[]]

/ char.q's GPT, small: token and position embedding, a block (attention with its layer norm,
/ then layer norm and the MLP, each a residual), the final layer norm and the decoder
gpt:{seed 3;
  q1:seq(`sequential; (`selfattention;16;2;0f;1b));
  q2:seq(`sequential; (`layernorm;16);(`linear;16;64;0b); `gelu; (`linear;64;16));
  q:`seqlist, enlist seq(`sequential; (`embedseq;11;16;6); (`drop;0f));
  q:q,enlist(`sequential; (`residual;q1); (`residual;q2));
  q:q,enlist seq(`sequential; (`layernorm;`norm;16); (`linear;`decode;16;11;0b); (`reshape;-1 11));
  module q}
X:{x mod 11} 4 6#til 24; Y:{x mod 11} 1+4 6#til 24
/ five training steps (AdamW, clip 1) with the setting `on`: losses, parameters, last gradients
train:{[on]
  setting`autocastcpu,1b; setting`autocast,`bf16; setting`precast,on;
  q:gpt[]; m:model(q; loss`ce; opt(`adamw;q;.01));
  L:{[m;i] nograd m; l:backward(m;X;raze Y); clip(m;1); step m; l}[m] each til 5;
  p:parms m; P:value dict p; free p;
  free m; setting`precast,0b; setting`autocast,`none; setting`autocastcpu,0b;
  (L;P)}
r1:train 1b; r0:train 0b
.t.ok["losses finite and falling";(all 0w>r0 0) and (last r0 0)<first r0 0]
.t.eq["precast: the same losses, bit for bit";r1 0;r0 0]
.t.eq["precast: the same parameters after five steps, bit for bit";r1 1;r0 1]

/ one forward and backward pass: output and every parameter's gradient the same
fb:{[on]
  setting`autocastcpu,1b; setting`autocast,`bf16; setting`precast,on;
  q:gpt[]; x:tensor X; y:forward(q;x); z:Sum y; backward z;
  G:{[q;k] t:parm(q;k); r:grad t; free t; r}[q] each key parmtypes q;
  o:tensor y; free(y;z;x); free q; setting`precast,0b; setting`autocast,`none; setting`autocastcpu,0b;
  (o;G)}
f1:fb 1b; f0:fb 0b
.t.eq["precast: forward output in bf16 as without";f1 0;f0 0]
.t.eq["precast: every parameter's gradient the same";f1 1;f0 1]
.t.ok["gradients there";all {not (::)~x} each f1 1]

/ the casts gathered: with the setting, one aten::cat of the parameters and fewer aten::_to_copy
prof:{[on]
  setting`autocastcpu,1b; setting`autocast,`bf16; setting`precast,on;
  q:gpt[]; x:tensor X; y:forward(q;x); free y;
  profile(`start;`cpu); y:forward(q;x); p:profile`stop;
  free(y;x); free q; setting`precast,0b; setting`autocast,`none; setting`autocastcpu,0b;
  exec sum calls by name from p where name in`aten::cat`aten::_to_copy}
c1:prof 1b; c0:prof 0b
-1 "profile with precast: ",(-3!c1),"; without: ",-3!c0;
/ (autocast's wrapper of cat records a second aten::cat inside the first: one call, two rows)
.t.ok["precast: the parameters concatenated (no cat without)";(0<c1`aten::cat) and not `aten::cat in key c0]
.t.ok["precast: fewer casts a forward pass";c1[`aten::_to_copy]<c0`aten::_to_copy]

/ a transformer encoder layer (its feed-forward's linear1 and linear2 cast together): output and
/ the gradients of the input and every parameter the same
EX:"e"$-1+(5;3;16)#(5*3*16)?2f
enc:{[on]
  setting`autocastcpu,1b; setting`autocast,`bf16; setting`precast,on; seed 4;
  q:module enlist(`encoderlayer;16;2;32;0f;`gelu); x:tensor(EX;`grad);
  y:forward(q;x); z:Sum y; backward z;
  G:{[q;k] t:parm(q;k); r:grad t; free t; r}[q] each key parmtypes q;
  r:(tensor y;grad x;G); free(y;z;x); free q; setting`precast,0b; setting`autocast,`none; setting`autocastcpu,0b; r}
e1:enc 1b; e0:enc 0b
.t.eq["precast: encoderlayer output, input and parameter gradients the same";e1;e0]

/ off autocast, the setting changes nothing (no casts to gather)
setting`precast,1b; q:gpt[]; x:tensor X; y:forward(q;x); a:tensor y; free(y;q)
setting`precast,0b; q:gpt[]; y:forward(q;x); b:tensor y; free(x;y;q)
.t.eq["precast without autocast: as without";a;b]
.t.done[]
