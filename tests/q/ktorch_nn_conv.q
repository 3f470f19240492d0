/ Convolution family (ktorch's knn/conv.h, pool.h, pad.h, fold.cpp, upsample.h): each module type
/ built from its definition, weights set through state, forward compared with PyTorch's output
/ (tests/q/gen/nn_conv.py), the state round trip, the functional forms and bad options.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/nn_conv_expected.q
free[];

/ r and e agree within 1e-5 (relative, at least 1e-5 absolute), element by element
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-5*1|abs e)>abs r-e}
err:{[f;a] @[{x y;""}[f];a;{x}]}
real:{$[0h=type x;.z.s each x;"e"$x]}

/ a module from case n's definition, with PyTorch's weights when the case has them
mk:{[n] m:module enlist D n; if[not n in key P;:m]; s:state m; free m; s[`parms]:real each P n; module s}
/ the forward of case n (seeded for fractional pooling) against PyTorch's
check:{[n]
  m:mk n;
  if[n in key S; seed S n];
  .t.ok[string[n]," forward";near[evaluate(m;real I n);E n]];
  .t.eq[string[n]," state round trip";state t:module state m;state m];
  .t.eq[string[n]," type";objtype m;first D n];
  free(m;t)}
check each key D;

/ forward with gradients: a conv's weight gets one
m:mk`c2reflect
r:forward(m;real I`c2reflect)
.t.ok["forward tracks gradients";not null gradfn r]
free(r;m)

/ options shown as defined, defaults filled in
m:module enlist D`c2same
.t.eq["conv2d options";(module m)`options;`in`out`size`stride`pad`dilate`groups`bias`padmode!(4;6;3;1;`same;2 1;2;1b;`zeros)]  / equal sizes as one value, as ktorch (modules.rst:74)
.t.eq["conv2d non-default options";module[(m;0b)]`options;`in`out`size`pad`dilate`groups!(4;6;3;`same;2 1;2)]
.t.eq["conv2d parameters";parmnames m;`weight`bias]
p:parms m; d:dict p; free p; w:d`weight; b:d`bias
.t.eq["conv2d weight size";(count w;count first w;count w[0;0];count w[0;0;0]);6 2 3 3]
.t.ok["conv2d weights in PyTorch's bound";all 1>=sqrt[18]*abs raze over (w;b)]
free m
m:module enlist(`convtranspose2d;4;2;3;`groups,2)
p:parms m; w:dict[p]`weight; free(p;m)
.t.eq["convtranspose2d weight size: in, out/groups, size";(count w;count first w);4 1]
m:module enlist D`max2
.t.eq["maxpool2d options";(module m)`options;`size`stride`pad`dilate`ceiling!(3 2;::;1 0;1 2;0b)]
free m

/ functional forms: the input, then the layer's options
fcheck:{[n] f:value first d:D n; if[n in key S; seed S n]; .t.ok[string[n]," functional";near[f(enlist real I n),1_d;E n]]}
fcheck each `max1`max2`max3`avg1`avg2`avg3`amax1`amax2`amax3`aavg1`aavg2`aavg3`lp1`lp2`fmax2`fmax3`pad`padreflect`padcircular`fold`unfold`in1`in2`in4`in6;
t:tensor real I`max2
r:maxpool2d(t;3 2;`pad`dilate!(1 0;1 2))
.t.eq["functional on a tensor";class r;`tensor]
.t.ok["functional tensor values";near[tensor r;E`max2]]
free(r;t)
.t.eq["pad by name";pad(1 2 3f;`pad`value!(1 1;9f));9 1 2 3 9f]
.t.eq["adaptmax1d";adaptmax1d(enlist enlist 1 5 2 0 3 4f;2);enlist enlist 5 4f]

/ fractional pooling: the same seed gives the same result, another seed another
x:real I`fmax2
m:module enlist D`fmax2
seed 7; r1:evaluate(m;x); seed 7; r2:evaluate(m;x); r3:evaluate(m;x)
.t.eq["fmaxpool2d seeded";r1;r2]
.t.ok["fmaxpool2d random";not r1~r3]
.t.eq["fmaxpool2d shape";(count r3;count r3 0;count r3[0;0];count r3[0;0;0]);2 3 4 3]
free m

/ ---------------------------------------------------------------------------------------------
/ bad options
.t.eq["conv: groups";err[module;enlist(`conv2d;3;4;3;`groups,2)];"module: conv2d: in_channels must be divisible by groups"]
.t.eq["conv: channels";err[module;enlist(`conv1d;0;4;3)];"module: conv1d: positive input and output channels required, given in=0, out=4"]
.t.eq["conv: size";err[module;enlist(`conv2d;1;1;0 2)];"module: conv2d: size must be positive, given [0, 2]"]
.t.eq["conv: size count";err[module;enlist(`conv2d;1;1;1 2 3)];"module: conv2d size: expected long scalar or list of 2 longs, given long list"]
.t.eq["conv: pad symbol";err[module;enlist(`conv2d;1;1;3;`pad,`full)];"module: conv2d pad: expected long scalar or list of 2 longs, or one of `same`valid, given symbol scalar"]
.t.eq["conv: same and stride";err[module;enlist(`conv1d;1;1;3;2;`same)];"module: conv1d: padding='same' is not supported for strided convolutions"]
.t.eq["conv: padmode";err[module;enlist(`conv1d;1;1;3;`padmode,`edge)];"module: conv1d padmode: expected one of `zeros`reflect`replicate`circular, given symbol scalar"]
.t.eq["convtranspose: padmode";err[module;enlist(`convtranspose1d;1;1;3;`padmode,`reflect)];"module: convtranspose1d padmode: expected one of `zeros, given symbol scalar"]
.t.eq["pool: no size";err[module;`maxpool2d];"module: maxpool2d: no value given for option `size"]
.t.eq["pool: pad too big";err[module;enlist(`maxpool1d;2;1;2)];"module: maxpool1d: pad should be non-negative and at most half of kernel size, given pad=[2], size=[2]"]
.t.eq["avgpool: divisor";err[module;enlist(`avgpool2d;2;`divisor,0)];"module: avgpool2d: divisor must be not zero"]
.t.eq["adapt: no size";err[module;enlist(`adaptavg2d;0N 0N)];"module: adaptavg2d: no output size"]
.t.eq["fmaxpool: both";err[module;enlist(`fmaxpool2d;2;3;0.5)];"module: fmaxpool2d: cannot specify both output size & output ratio"]
.t.eq["fmaxpool: neither";err[module;enlist(`fmaxpool2d;2)];"module: fmaxpool2d: no output size or ratio given"]
.t.eq["fmaxpool: ratio";err[module;enlist(`fmaxpool3d;2;::;1.5)];"module: fmaxpool3d: output ratio must be between 0 and 1, given [1.5, 1.5, 1.5]"]
.t.eq["pad: odd sizes";err[module;enlist(`pad;1 2 3)];"module: pad: 3 pad size(s) given, expected pairs for left,right or left,right,top,bottom.. etc"]
.t.eq["pad: mode";err[module;enlist(`pad;1 2;`edge)];"module: pad mode: expected one of `constant`reflect`replicate`circular, given symbol scalar"]
.t.eq["pad2d: count";err[module;enlist(`pad2d;1 2)];"module: pad2d pad: expected long scalar or list of 4 longs, given long list"]
.t.eq["fold: no size";err[module;enlist(`fold;4 5)];"module: fold: no value given for option `size"]
.t.eq["unfold: stride";err[module;enlist(`unfold;2;1;0;0)];"module: unfold: stride must be positive, given [0, 0]"]
.t.eq["upsample: neither";err[module;`upsample];"module: upsample: no output size or scale factor given"]
.t.eq["upsample: both";err[module;enlist(`upsample;4;2.0)];"module: upsample: both output size and scale factor given"]
.t.eq["upsample: mode";err[module;enlist(`upsample;4;::;`area)];"module: upsample mode: expected one of `nearest`linear`bilinear`bicubic`trilinear, given symbol scalar"]
.t.eq["upsample: align";err[module;enlist(`upsample;4;::;`nearest;1b)];"module: upsample: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"]
.t.eq["interpolate: rescale and size";err[module;enlist(`interpolate;4;::;`nearest;::;1b)];"module: interpolate: recompute_scale_factor is not meaningful with an explicit size"]
.t.eq["interpolate: mode and input";err[interpolate;(1 2 3f;4;::;`linear)];"interpolate: expected 3-d, 4-d or 5-d input, given 1-d"]
.t.eq["interpolate: bilinear of 3-d";err[interpolate;(enlist enlist 1 2 3f;4;::;`bilinear)];"interpolate: mode `bilinear not implemented for 3-d input"]
.t.eq["maxpool2d: bad functional option";err[maxpool2d;(enlist enlist 1 2f;`a)];"maxpool2d: maxpool2d size: expected long scalar or list of 2 longs, given symbol scalar"]
.t.eq["no module left";count obj[];0]
.t.done[]
