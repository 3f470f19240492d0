/ Recurrent, attention, transformer, embedding and bilinear modules (layers-rnn.md): each made from
/ a definition, given PyTorch's weights through `module state`, run and compared with PyTorch's
/ outputs (tests/q/gen/nn_rnn.py writes them to tests/q/data/nn_rnn_expected.q).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/nn_rnn_expected.q

/ r and e agree within 1e-4 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-4*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
/ a module of definition d with parameters p (PyTorch's, as doubles), its state round trip checked
mk:{[d;p] m:module d; s:state m; free m; s[`parms]:"e"$p; m:module s; .t.eq[string[s`module]," state round trip";state m;s]; m}
f32:{"e"$x}
/ values of a vector or tensor handle, freeing it
pv:{p:parms x; r:dict p; free p; r}
val:{r:$[`vector~class x;vector x;tensor x]; free x; r}

/ ---------------------------------------------------------------------------------------------
/ recurrent layers: (output; hidden state) or (output; hidden state; cell state)
m:mk[enlist(`rnn;3;4);.p.rnn]
.t.eq["rnn options";(module m)`options;`in`hidden`layers`fn`bias`batchfirst`dropout`bi!(3;4;1;`tanh;1b;0b;0f;0b)]
.t.eq["rnn parmnames";parmnames m;`weight_ih_l0`weight_hh_l0`bias_ih_l0`bias_hh_l0]
.t.ok["rnn";near[evaluate(m;f32 .i.rnn);.e.rnn]]
.t.ok["rnn with hidden state";near[evaluate(m;f32 .i.rnn;f32 .i.rnnh);.e.rnnh]]
r:forward(m;f32 .i.rnn;f32 .i.rnnh)
.t.eq["rnn forward gives a vector";class r;`vector]
.t.ok["rnn forward";near[val r;.e.rnnh]]
free m
m:mk[enlist(`rnn;3;4;2;`relu;`batchfirst`bi!11b);.p.rnn2]
.t.eq["rnn bidirectional parmnames";-4#parmnames m;`weight_ih_l1_reverse`weight_hh_l1_reverse`bias_ih_l1_reverse`bias_hh_l1_reverse]
.t.eq["rnn options not default";(module(m;0b))`options;`in`hidden`layers`fn`batchfirst`bi!(3;4;2;`relu;1b;1b)]
.t.ok["rnn relu, 2 layers, batch first, bidirectional";near[evaluate(m;f32 .i.rnn2);.e.rnn2]]
free m
m:mk[enlist(`gru;3;4;2);.p.gru]
.t.ok["gru";near[evaluate(m;f32 .i.gru;f32 .i.gruh);.e.gru]]
/ dropout between layers: training mode differs from evaluation
m2:module enlist(`gru;3;4;2;`dropout,0.5)
r:forward(m2;f32 .i.gru)
.t.ok["gru dropout in training";not near[first val r;first evaluate(m2;f32 .i.gru)]]
.t.eq["gru: 3 inputs";err[evaluate;(m2;f32 .i.gru;f32 .i.gruh;f32 .i.gruh)];"evaluate: gru: forward expects 1 to 2 inputs, given 3"]
free m2
free m
m:mk[enlist(`lstm;3;4;`bias`bi!01b);.p.lstm]
.t.eq["lstm parmnames";parmnames m;`weight_ih_l0`weight_hh_l0`weight_ih_l0_reverse`weight_hh_l0_reverse]
.t.ok["lstm: output, hidden, cell";near[evaluate(m;f32 .i.lstm;f32 .i.lstmh;f32 .i.lstmc);.e.lstm]]
.t.ok["lstm unbatched";near[evaluate(m;f32 .i.lstm1);.e.lstm1]]
.t.eq["lstm without cell state";err[evaluate;(m;f32 .i.lstm;f32 .i.lstmh)];"evaluate: lstm: initial hidden state and cell state expected together, given hidden state only"]
free m
.t.eq["rnn: bad hidden size";err[module;enlist(`rnn;3;0)];"module: rnn: hidden size should be greater than zero"]
.t.eq["rnn: bad fn";err[module;enlist(`rnn;3;4;1;`gelu)];"module: rnn fn: expected one of `tanh`relu, given symbol scalar"]
.t.eq["gru: no fn";err[module;enlist(`gru;3;4;(enlist`fn)!enlist`relu)];"module: gru: unrecognized option `fn"]
.t.eq["lstm: bad dropout";err[module;enlist(`lstm;3;4;`dropout,2.0)];"module: lstm: dropout should be a number in range [0, 1] representing the probability of an element being zeroed, given 2"]

/ ---------------------------------------------------------------------------------------------
/ embeddings
m:mk[enlist(`embed;10;3;`padindex,1);.p.embed]
.t.eq["embed options";(module m)`options;`rows`cols`padindex`maxnorm`p`scale`sparse!(10;3;1;::;2f;0b;0b)]
.t.ok["embed";near[evaluate(m;.i.embed);.e.embed]]
free m
m:mk[enlist(`embed;10;3;`maxnorm,1.0);.p.embednorm]
.t.ok["embed with max norm";near[evaluate(m;.i.embed);.e.embednorm]]
.t.ok["max norm renormalises the weights";near[pv[m]`weight;.e.embednormw]]
free m
m:mk[enlist(`embedbag;10;3;`mode`sum);.p.bag]
.t.ok["embedbag sum, offsets";near[evaluate(m;.i.bag;.i.bago);.e.bag]]
.t.ok["embedbag per-sample weights";near[evaluate(m;.i.bag;.i.bago;f32 .i.bagw);.e.bagw]]
free m
m:mk[enlist(`embedbag;10;3;`mode`mean);.p.bag]
.t.ok["embedbag mean, 2-d input";near[evaluate(m;(1 2 4;4 3 9));.e.bagmean]]
.t.eq["embedbag mean: no weights";err[evaluate;(m;.i.bag;.i.bago;f32 .i.bagw)];"evaluate: embedbag: per-sample weights only supported with mode `sum, not `mean"]
free m
m:mk[enlist(`embedbag;10;3;`mode`max);.p.bag]
.t.ok["embedbag max";near[evaluate(m;.i.bag;.i.bago);.e.bagmax]]
free m
m:mk[enlist(`embedpos;6;3);.p.embedpos]
.t.ok["embedpos";near[evaluate(m;.i.pos);.e.embedpos]]
free m
m:mk[enlist(`embedseq;10;3;6);.p.embedseq]
.t.eq["embedseq parmnames";parmnames m;`tok.weight`pos.pos]
.t.ok["embedseq";near[evaluate(m;.i.pos);.e.embedseq]]
free m
.t.eq["embed: bad rows";err[module;enlist(`embed;0;3)];"module: embed: positive rows required, given 0"]
.t.eq["embed: bad padding index";err[module;enlist(`embed;10;3;`padindex,10)];"module: embed: padding index 10 must be within the number of rows, 10"]
.t.eq["embedseq: bad length";err[module;enlist(`embedseq;10;3;0)];"module: embedseq: positive length required, given 0"]

/ ---------------------------------------------------------------------------------------------
/ bilinear, module and functional form
m:mk[enlist(`bilinear;3;2;4);.p.bilinear]
.t.ok["bilinear";near[evaluate(m;f32 .i.bilinear1;f32 .i.bilinear2);.e.bilinear]]
free m
P:.p.bilinear
.t.ok["bilinear(x;y;w;b)";near[bilinear(.i.bilinear1;.i.bilinear2;P`weight;P`bias);.e.bilinear]]
.t.ok["bilinear(x;y;w)";near[bilinear(.i.bilinear1;.i.bilinear2;P`weight);.e.bilinear-\:P`bias]]
t:tensor .i.bilinear1
r:bilinear(t;.i.bilinear2;P`weight;P`bias)
.t.eq["bilinear of a tensor: a tensor";class r;`tensor]
.t.ok["bilinear tensor values";near[tensor r;.e.bilinear]]
free(r;t)
.t.eq["bilinear: arg count";err[bilinear;(1 2f;3 4f)];"bilinear: expected (input1;input2;weight;[bias]), given 2 arguments"]
.t.eq["bilinear: bad sizes";err[module;enlist(`bilinear;3;0;4)];"module: bilinear: positive input sizes required"]

/ ---------------------------------------------------------------------------------------------
/ multihead attention (sequence first): (output; weights averaged over heads)
m:mk[enlist(`attention;4;2);.p.attn]
.t.eq["attention parmnames";parmnames m;`in_proj_weight`in_proj_bias`out_proj.weight`out_proj.bias]
.t.ok["attention";near[evaluate(m;f32 .i.attnq;f32 .i.attnk;f32 .i.attnv);.e.attn]]
.t.ok["attention unbatched";near[evaluate(m;f32 .i.attnq[;0];f32 .i.attnk[;0];f32 .i.attnv[;0]);.e.attn1]]
.t.ok["attention with masks";near[evaluate(m;f32 .i.attnq;f32 .i.attnk;f32 .i.attnv;.i.attnpm;1b;f32 .i.attnam);.e.attnmask]]
.t.ok["attention without weights";near[evaluate(m;f32 .i.attnq;f32 .i.attnk;f32 .i.attnv;.i.attnpm;0b;f32 .i.attnam);first .e.attnmask]]
free m
m:mk[enlist(`attention;4;2;`addbias`addzero`kdim`vdim!(1b;1b;3;5));.p.attn2]
.t.eq["attention kdim,vdim parmnames";parmnames m;`q_proj_weight`k_proj_weight`v_proj_weight`in_proj_bias`bias_k`bias_v`out_proj.weight`out_proj.bias]
.t.ok["attention: extra biases, zero attention, key and value sizes";near[evaluate(m;f32 .i.attnq;f32 .i.attn2k;f32 .i.attn2v);.e.attn2]]
free m
.t.eq["attention: heads";err[module;enlist(`attention;4;3)];"module: attention: embedding dimension of 4 not divisible by 3 heads"]
m:mk[enlist(`selfattention;4;2;`norm,1b);.p.selfattn]
.t.eq["selfattention parmnames";parmnames m;`norm.weight`norm.bias`in.weight`out.weight`out.bias]
.t.ok["selfattention";near[evaluate(m;f32 .i.selfattn);.e.selfattn]]
.t.ok["selfattention with a larger mask";near[evaluate(m;f32 .i.selfattn;f32 .i.selfmask);.e.selfmask]]
/ gradients of the input and of every parameter (q, k and v are views of one projection)
x:tensor(f32 .i.selfattn;`grad); y:forward(m;x;f32 .i.selfmask); backward(y;f32 .i.selfg)
ps:{parm(m;x)}each`norm.weight`norm.bias`in.weight`out.weight`out.bias
.t.ok["selfattention gradients";near[grad each enlist[x],ps;.e.selfgrad]]
free each(x;y),ps;
free m
.t.eq["selfattention: heads";err[module;enlist(`selfattention;4;0)];"module: selfattention: positive number of heads required"]

/ ---------------------------------------------------------------------------------------------
/ transformer layers
m:mk[enlist(`encoderlayer;4;2;8;0.0);.p.enc]
.t.eq["encoderlayer options";(module m)`options;`in`heads`dim`dropout`fn!(4;2;8;0f;`relu)]
.t.eq["encoderlayer parmnames";parmnames m;key .p.enc]
.t.ok["encoderlayer";near[evaluate(m;f32 .i.enc);.e.enc]]
.t.ok["encoderlayer with masks";near[evaluate(m;f32 .i.enc;f32 .i.encmask;.i.encpm);.e.encmask]]
free m
m:mk[enlist(`decoderlayer;4;2;8;0.0;`gelu);.p.dec]
.t.eq["decoderlayer parmnames";parmnames m;key .p.dec]
.t.ok["decoderlayer";near[evaluate(m;f32 .i.enc;f32 .i.mem);.e.dec]]
free m
.t.eq["encoderlayer: bad fn";err[module;enlist(`encoderlayer;4;2;8;0.1;`tanh)];"module: encoderlayer fn: expected one of `relu`gelu, given symbol scalar"]

.t.eq["no module left";count obj[];0]
.t.done[]
