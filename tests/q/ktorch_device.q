/ Devices: with CUDA, tensors made on the GPU compute there and come back exact; without it,
/ asking for CUDA is a clear error.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
if[version`cuda;
  t:tensor(1 2 3.0;`cuda`grad);
   .t.eq["on the gpu";device t;`cuda:0];
   .t.eq["values come back";tensor t;1 2 3f];
   tt:mul(t;t); m:mean tt;
   .t.eq["result stays on the gpu";device m;`cuda:0];
   backward m;
   .t.ok["gpu gradient 2x/3";all 1e-12>abs grad[t]-2*1 2 3.0%3];
   z:tensor(`zeros;2 2;`cuda:0`float);
   .t.eq["creation mode on the gpu";(device z;tensor z);(`cuda:0;(0 0e;0 0e))];
   .t.eq["every device counted";setting`cudadevices;version`cudadevices];
   free(t;tt;m;z)];
if[not version`cuda;
  .t.eq["no gpu: cuda refused";.t.catch[{tensor(1 2.0;`cuda)}];"tensor: CUDA device 0 not available (0 device(s))"];
  .t.eq["no gpu: device count 0";version`cudadevices;0]];
.t.eq["nothing left";tensorcount[];0]
.t.done[]
