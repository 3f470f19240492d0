/ A small CNN on scikit-learn's 8x8 digits (1797 images; `scripts/digits.sh` exports them as a q
/ script), trained by a ktorch model on 1500 images and tested on the 297 held out.
/ Arguments: the data script (from scripts/digits.sh), epochs (default 30), 0 to switch the
/ progress lines off, a device (default cpu), a PNG file to write a grid of held-out digits to,
/ e.g. `qhost examples/digits.q ~/.cache/ktorch/digits.q 30 1 cpu /tmp/digits.png`.
{key[x]set'x}(`ktorch 2:`fns,1)[];
args:.z.x
if[not count args; '"usage: qhost examples/digits.q DATA.q [epochs] [progress] [device] [grid.png]"];
system "l ",args 0
epochs:$[1<count args;"J"$args 1;30]
progress:$[2<count args;"J"$args 2;1]
device:$[3<count args;`$args 3;`cpu]
grid:$[4<count args;hsym`$args 4;`]

seed 7
i:neg[count Y]?count Y                          / a fixed random order of the images (q's rand)
n:1500                                          / training images; the rest are held out
x:(count[X],1 8 8)#raze X%16e                   / images as 1 x 8 x 8, pixels scaled to 0-1
X0:x n#i; Y0:Y n#i; X1:x n _ i; Y1:Y n _ i

q:module seq(`sequential;
  (`conv2d;1;16;3;`pad,1); `relu; (`maxpool2d;2);          / 16 x 4 x 4
  (`conv2d;16;32;3;`pad,1); `relu; (`maxpool2d;2);         / 32 x 2 x 2
  `flatten; (`linear;128;10))
if[not device~`cpu; to(q;device)]                / data follows the module's device
m:model(q;loss`ce;opt(`adam;q;.005))
train(m;`batchsize`shuffle`metrics;(64;1b;`loss`accuracy))
train(m;X0;Y0)
test(m;X1;Y1); test(m;`metrics;`accuracy)
epoch:{[i] r:run m; if[progress&0=(i+1)mod 5; -1 "epoch ",(string i+1),"  loss ",(string r 0),"  training accuracy ",(string r 1),"%  held out ",(string testrun m),"%"]; r}
r:epoch each til epochs
a:testrun m
-1 "held-out accuracy after ",(string epochs)," epochs on ",(string device),": ",(string a),"% of ",(string count Y1)," digits";
if[(epochs>=30)&a<95; '"digits: held-out accuracy below 95%"];
/ the first 32 held-out digits, 4 rows of 8, white on black
if[not null grid; -1 "digits written to ",1_string png(grid;makegrid(255e*32#X1;4;8))];
free m
if[count obj[]; '"objects left: ",string count obj[]];
\\
