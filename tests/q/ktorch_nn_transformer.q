/ Stacks of transformer layers (layers-rnn.md): encoder, decoder and transformer, each made from a
/ definition, given PyTorch's weights by full name with `parm`, rebuilt from its state, run and
/ compared with PyTorch's outputs (tests/q/gen/nn_transformer.py writes them to
/ tests/q/data/nn_transformer_expected.q).
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/nn_transformer_expected.q

/ r and e agree within 1e-4 (relative), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-4*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
f32:{"e"$x}
/ a module of definition d given PyTorch's parameters p (full names), rebuilt from its state: the
/ rebuilt module's state must be the same
mk:{[d;p] m:module d; .t.eq[string[first d]," parmnames";parmnames m;key p]; {[m;k;v] parm(m;k;"e"$v)}[m]'[key p;value p];
 s:state m; free m; m:module s; .t.eq[string[first d]," state round trip";state m;s]; m}
/ first module type of a definition table or dictionary
pt:{[m;k] t:parm(m;k); r:tensor t; free t; r}

/ ---------------------------------------------------------------------------------------------
/ encoder: the layer given is copied `layers times into a list keyed `layers, the norm keyed `norm
d:((`encoder;2);enlist(`encoderlayer;4;2;8;0.0);enlist(`layernorm;4))
m:module d
.t.eq["encoder tree";(module m)`depth`module`name;(0 1 2 2 1;`encoder`modulelist`encoderlayer`encoderlayer`layernorm;``layers`0`1`norm)]
.t.eq["encoder options";first (module m)`options;(enlist`layers)!enlist 2]
P:parms m
v:dict P
.t.ok["copies start with the same values";v[`layers.0.linear1.weight]~v[`layers.1.linear1.weight]]
free P
parm(m;`layers.0.linear1.bias;8#0e)
.t.ok["copies have their own parameters";not pt[m;`layers.0.linear1.bias]~pt[m;`layers.1.linear1.bias]]
free m
m:mk[d;.p.enc]
.t.ok["encoder";near[evaluate(m;f32 .i.src);.e.enc]]
.t.ok["encoder with masks";near[evaluate(m;f32 .i.src;f32 .i.srcmask;.i.srcpad);.e.encmask]]
.t.ok["encoder with padding mask only (empty mask)";near[evaluate(m;f32 .i.src;0#0e;2 5#0b);.e.enc]]
free m
m:mk[((`encoder;3);enlist(`encoderlayer;4;2;8;0.0;`gelu));.p.enc3]
.t.ok["encoder, 3 gelu layers, no norm";near[evaluate(m;f32 .i.src);.e.enc3]]
free m
m:module((`encoder;1);enlist(`layernorm;4);enlist(`encoderlayer;4;2;8))
.t.eq["encoder: norm first, layers still first";childnames m;`layers`norm]
free m
m:module((`encoder;2);enlist(`encoderlayer;`mylayer;4;2;8);enlist(`layernorm;`mynorm;4))
/ PyTorch's named_modules of TransformerEncoder(TransformerEncoderLayer(4,2,8),2,norm=LayerNorm(4)): the layers' parts are children
.t.eq["encoder: children named, keys still PyTorch's";names m;`layers`layers.0`layers.0.self_attn`layers.0.self_attn.out_proj`layers.0.linear1`layers.0.dropout`layers.0.linear2`layers.0.norm1`layers.0.norm2`layers.0.dropout1`layers.0.dropout2`layers.1`layers.1.self_attn`layers.1.self_attn.out_proj`layers.1.linear1`layers.1.dropout`layers.1.linear2`layers.1.norm1`layers.1.norm2`layers.1.dropout1`layers.1.dropout2`norm]
free m

/ ---------------------------------------------------------------------------------------------
/ decoder
m:mk[((`decoder;2);enlist(`decoderlayer;4;2;8;0.0;`gelu);enlist(`layernorm;4));.p.dec]
.t.ok["decoder";near[evaluate(m;f32 .i.tgt;f32 .i.mem);.e.dec]]
.t.ok["decoder with masks";near[evaluate(m;f32 .i.tgt;f32 .i.mem;f32 .i.tgtmask;0#0e;.i.tgtpad;.i.srcpad);.e.decmask]]
free m

/ ---------------------------------------------------------------------------------------------
/ transformer: encoder and decoder made from its options
m:module`transformer
.t.eq["transformer default options";(module m)[`options]0;`in`heads`elayers`dlayers`dim`dropout`fn!(512;8;6;6;2048;0.1;`relu)]
.t.eq["transformer default parameter count";count parmnames m;184]
.t.eq["transformer children";childnames m;`encoder`decoder]
free m
m:mk[enlist(`transformer;4;2;2;1;8;0.0);.p.tfm]
.t.ok["transformer";near[evaluate(m;f32 .i.src;f32 .i.tgt);.e.tfm]]
.t.ok["transformer with masks";near[evaluate(m;f32 .i.src;f32 .i.tgt;f32 .i.srcmask;f32 .i.tgtmask;0#0e;.i.srcpad;.i.tgtpad;.i.srcpad);.e.tfmmask]]
free m
/ an encoder given replaces the one made
m:module((`transformer;4;2;2;1;8;0.0);((`encoder;3);enlist(`encoderlayer;4;2;16)))
.t.eq["transformer custom encoder";sum (module m)[`module]=`encoderlayer;3i]
.t.eq["transformer custom encoder first";childnames m;`encoder`decoder]
.t.eq["transformer custom encoder layer";count pt[m;`encoder.layers.0.linear1.bias];16]
free m

/ ---------------------------------------------------------------------------------------------
/ errors
.t.eq["encoder: wrong child";err[module;((`encoder;2);enlist(`linear;2;3))];"module: encoder: cannot add linear module, expected encoderlayer or layernorm"]
.t.eq["decoder: encoder layer child";err[module;((`decoder;2);enlist(`encoderlayer;4;2))];"module: decoder: cannot add encoderlayer module, expected decoderlayer or layernorm"]
.t.eq["encoder: two layers";err[module;((`encoder;2);enlist(`encoderlayer;4;2);enlist(`encoderlayer;4;2))];"module: encoder: cannot add encoderlayer module, layers already defined"]
.t.eq["encoder: two norms";err[module;((`encoder;2);enlist(`layernorm;4);enlist(`layernorm;4))];"module: encoder: cannot add layernorm module, layer norm already defined"]
.t.eq["encoder: negative layers";err[module;enlist(`encoder;-1)];"module: encoder: non-negative number of layers must be defined"]
.t.eq["encoder: layers required";err[module;`encoder];"module: encoder: no value given for option `layers"]
.t.eq["encoder: layers a long";err[module;enlist(`encoder;2.5)];"module: encoder layers: expected long scalar, given float scalar"]
t:((0;(`encoder;3));(1;`modulelist`layers);(2;(`encoderlayer;4;2));(2;(`encoderlayer;4;2)))
.t.eq["encoder: copies not matching layers";err[module;t];"module: encoder: layers expected as a list of 3 encoderlayer modules"]
m:module enlist(`encoder;2)
.t.eq["encoder: missing layer";err[evaluate;(m;f32 .i.src)];"evaluate: encoder: no encoderlayer defined"]
free m
.t.eq["transformer: wrong child";err[module;((`transformer;4;2);enlist(`linear;2;3))];"module: transformer: cannot add linear module, expected encoder or decoder"]
.t.eq["transformer: bad heads";err[module;enlist(`transformer;4;0)];"module: transformer: positive number of heads required"]
.t.eq["transformer: heads not dividing";err[module;enlist(`transformer;4;3)];"module: transformer: encoderlayer: model dimension of 4 not divisible by 3 heads"]

.t.eq["no module left";count obj[];0]
/ the layers' parts are child modules, as in libtorch and ktorch (modules.rst:855, pointers.rst:165;
/ the names are PyTorch's named_children of TransformerEncoderLayer/TransformerDecoderLayer)
m:module enlist(`transformer;4;2;1;1;8;0.0)
.t.eq["encoder layer's parts";names(m;`encoder.layers.0);`self_attn`self_attn.out_proj`linear1`dropout`linear2`norm1`norm2`dropout1`dropout2]
c:children(m;`decoder.layers.0)
.t.eq["decoder layer's parts and their parameters";parmnames each c;`self_attn`multihead_attn`linear1`dropout`linear2`norm1`norm2`norm3`dropout1`dropout2`dropout3!(`in_proj_weight`in_proj_bias`out_proj.weight`out_proj.bias;`in_proj_weight`in_proj_bias`out_proj.weight`out_proj.bias;`weight`bias;`symbol$();`weight`bias;`weight`bias;`weight`bias;`weight`bias;`symbol$();`symbol$();`symbol$())]
free each value c;
a:child(m;`decoder.layers.0.multihead_attn)
.t.eq["str of an attention part (modules.rst:1151)";str a;"torch::nn::MultiheadAttention(\n  (out_proj): torch::nn::Linear(in_features=4, out_features=4, bias=true)\n)"]
.t.eq["a definition shows a layer as one row";exec module from module m;`transformer`encoder`modulelist`encoderlayer`layernorm`decoder`modulelist`decoderlayer`layernorm]
free(a;m)
/ ktorch's selfattention: norm, in, drop, out (kmodules.rst:1385)
a:module enlist(`selfattention;256;4;0.2;1b)
.t.eq["str of selfattention";str a;"knn::SelfAttention(dim=256, heads=4, dropout=0.2, norm=true)(\n  (norm): torch::nn::LayerNorm([256], eps=1e-05, elementwise_affine=true)\n  (in): torch::nn::Linear(in_features=256, out_features=768, bias=false)\n  (drop): torch::nn::Dropout(p=0.2, inplace=false)\n  (out): torch::nn::Linear(in_features=256, out_features=256, bias=true)\n)"]
s:state a; free a; a:module s
.t.eq["selfattention state round trip";state a;s]
free a
.t.done[]
