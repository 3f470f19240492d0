/ A wide ResNet (WRN-16-4: pre-activation basic blocks, widths 64 128 256, 1x1 shortcut
/ convolutions where the shape changes) trained on CIFAR-shaped data (3x32x32 images, 10
/ classes, random: only throughput is measured) by `run m`, one epoch of batches per call, on
/ qhost: `qhost bench/cnn/resnet.q DEVICE CONFIG EPOCHS WARMUP [BATCH IMAGES]` (128 5120).
/ CONFIG: `fp32` (TF32 off for cuDNN too: PyTorch's `torch.backends.cudnn.allow_tf32` is on by
/ default, and so is libtorch's), `tf32` (setting`tf32 and `cudnntf32), `bf16` (TF32 and setting`autocast`bf16),
/ `bf16cl` (as bf16, images and convolution weights channels-last), `fp16cl` (autocast fp16 with
/ gradscale, channels-last). SMALL=1 in the environment: a small net (a smoke test on the CPU).
/ Prints: `resnet CONFIG EPOCHS SECONDS IMAGES LOSS`.
{key[x]set'x}(`ktorch 2:`fns,1)[];
a:.z.x; c:`$a 0; cfg:`$a 1; k:"J"$a 2; wu:"J"$a 3
if[cfg in`tf32`bf16`bf16cl`fp16cl; setting`tf32,1b; setting`cudnntf32,1b]
if[cfg=`fp32; setting`tf32,0b; setting`cudnntf32,0b]
if[cfg in`bf16`bf16cl; setting`autocast,`bf16]
if[cfg in`fp16cl; setting`autocast,`fp16]
cl:cfg in`bf16cl`fp16cl
seed 42
N:5120; B:128; w:4; r:32
if[5<count a; B:"J"$a 4; N:"J"$a 5]
if[not ""~getenv`SMALL; N:64; B:16; w:1; r:8]

/ head and tail are `seqnest`: ktorch refuses a sequential inside a sequential (knn.cpp)
/ pre-activation block: bn-relu-conv-bn-relu-conv, plus x or a 1x1 convolution of x
blk:{[i;o;s]
 q1:seq(`sequential; (`batchnorm2d;i); `relu; (`conv2d;i;o;3;s;1;`bias,0b); (`batchnorm2d;o); `relu; (`conv2d;o;o;3;1;1;`bias,0b));
 $[(i=o)&s=1; (`residual;q1); (`residual;q1;seq(`sequential; (`conv2d;i;o;1;s;0;`bias,0b)))]}
W:16,w*16 32 64
head:seq(`seqnest; (`conv2d;3;W 0;3;1;1;`bias,0b))
tail:seq(`seqnest; (`batchnorm2d;W 3); `relu; (`adaptavg2d;1 1); `flatten; (`linear;W 3;10))
q:module (`sequential; head; blk[W 0;W 1;1]; blk[W 1;W 1;1]; blk[W 1;W 2;2]; blk[W 2;W 2;1]; blk[W 2;W 3;2]; blk[W 3;W 3;1]; tail)
if[c in cudadevices(); setting`benchmark,1b]
to(q;c)
if[cl; to(q;`channel2d)]
m:model(q; loss`ce; opt(`sgd;q;.1;.9))
if[cfg in`fp16cl; gradscale(m;1b)]
x:tensor(`randn;N,3,r,r;c)
if[cl; to(x;`channel2d)]
y:tensor(`randint;10;N;c)
train(m;`batchsize`shuffle!(B;0b))
train(m;x;y)
do[wu; l:run m]
sync c
t0:.z.p
do[k; l:run m]
sync c
t1:.z.p
-1 " " sv ("resnet";string cfg;string k;string 1e-9*"j"$t1-t0;string N;string l);
exit 0
