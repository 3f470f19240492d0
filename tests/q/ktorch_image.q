/ Image utilities: makegrid against a transcription of torchvision's make_grid
/ (tests/q/gen/image.py, which also writes the input images), png files checked by their bytes
/ (signature and header; src/io/image.rs's unit test decodes the pixels), and errors.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/image_expected.q
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}

/ makegrid on q arrays gives q arrays: the python cases (input; rows; cols; padding; pad value)
.t.eq["rows, columns from the image count";makegrid(.e.a;2);.e.rows]
.t.eq["rows and columns";makegrid(.e.a;2;3);.e.rowscols]
.t.eq["no padding";makegrid(.e.a;1;5;0);.e.nopad]
.t.eq["pad value, empty cell padded";makegrid(.e.a;3;2;1;9);.e.padvalue]
.t.eq["fewer cells than images";makegrid(.e.a;2;2;1);.e.fewer]
.t.eq["null rows, rows from the image count";makegrid(.e.a;0N;2);.e.cols]
.t.eq["RGB floats, float pad value";makegrid(.e.b;2;2;1;.5);.e.rgb]
.t.eq["one-channel images as RGB";makegrid(.e.c;2;2);.e.gray4]
.t.eq["two channels kept";makegrid(.e.d;1;3;1;7);.e.twochannel]
.t.eq["defaults: padding 2, pad value 0";makegrid(.e.a;2;3;2;0);.e.rowscols]

/ a tensor gives a tensor
t:tensor .e.b
g:makegrid(t;2;2;1;.5)
.t.eq["tensor in, tensor out";class g;`tensor]
.t.eq["tensor result";tensor g;.e.rgb]
.t.eq["tensor input unchanged";tensor t;.e.b]
free(t;g)

/ makegrid errors
.t.eq["2-dimensional input";err[makegrid;(.e.a 0;2)];"makegrid: expected 3 or 4-dimensional input, 2 dimension(s) given"]
.t.eq["both null";err[makegrid;(.e.a;0N;0N)];"makegrid: both rows & columns cannot be null"]
.t.eq["zero rows";err[makegrid;(.e.a;0)];"makegrid: rows must be positive, given 0"]
.t.eq["negative columns";err[makegrid;(.e.a;2;-1)];"makegrid: columns must be positive, given -1"]
.t.eq["float rows";err[makegrid;(.e.a;2.5)];"makegrid: rows must be a long, given float scalar"]
.t.eq["negative padding";err[makegrid;(.e.a;2;2;-1)];"makegrid: padding must be a non-negative long, given long scalar"]
.t.eq["symbol pad value";err[makegrid;(.e.a;2;2;1;`x)];"makegrid: pad value must be a number, given symbol scalar"]
.t.eq["too many args";err[makegrid;(.e.a;1;2;3;4;5)];"makegrid: expected (input array/tensor; rows; cols; padding; pad value), 2-5 args, given 6 arguments"]

/ png: the file (directories made as needed), its PNG signature and header:
/ width, height (4-byte big-endian), bit depth 8, color type (0 gray, 4 gray+alpha, 2 RGB, 6 RGBA)
dir:`:/tmp/ktorch_image_test
f:` sv dir,`sub`gray.png
header:{[f] b:read1 f; (8#b;16_26#b)}
sig:0x89504e470d0a1a0a
.t.eq["file name";f;`:/tmp/ktorch_image_test/sub/gray.png]
@[hdel;;::]each(f;` sv dir,`sub;dir);
.t.eq["png returns the file name";png(f;1 3 4#til 12);f]
.t.eq["gray header";header f;(sig;0x00000004000000030800)]
.t.ok["file size";(hcount[f]=count read1 f) and hcount[f]>57]
.t.eq["file name without colon";png(`$1_string f;2 2 3#200);`$1_string f]
.t.eq["gray+alpha header";header f;(sig;0x00000003000000020804)]
t:tensor(3 2 5#30*til 30;`float)
png(f;t)
.t.eq["RGB tensor header";header f;(sig;0x00000005000000020802)]
free t
png(f;4 1 2#255)
.t.eq["RGBA header";header f;(sig;0x00000002000000010806)]
png(f;makegrid(.e.a;2;3))
.t.eq["a grid written: 3 x 10 x 17 RGB";header f;(sig;0x000000110000000a0802)]

/ png errors
.t.eq["2-dimensional image";err[png;(f;3 4#0)];"png: expected 3-dimensional image, channels x height x width, given 2-dimensional input"]
.t.eq["5 channels";err[png;(f;5 2 2#0)];"png: expected 1-4 channels (gray, gray+alpha, RGB, RGBA), given 5"]
e:reshape(t:tensor 0#0;1 0 2)
.t.eq["empty image";err[png;(f;e)];"png: image height of 0 cannot be written"]
free(t;e)
.t.eq["file name a string";err[png;("x.png";1 2 2#0)];"png: expected (PNG file name; image array/tensor), file name a symbol, given char list"]
.t.eq["one arg";err[png;f];"png: expected (PNG file name; image array/tensor), given symbol scalar"]
hdel f; hdel ` sv dir,`sub; hdel dir
.t.eq["nothing left";count obj[];0]
.t.done[]
