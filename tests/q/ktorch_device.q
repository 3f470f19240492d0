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
/ cudadevice, cudadevices, sync
.t.eq["device count";cudadevices[];version`cudadevices]
.t.eq["device names";cudadevices();$[n:cudadevices[];`cuda,`$"cuda:",/:string til n;`symbol$()]]
.t.eq["sync() returns null";sync();::]
.t.eq["sync cpu is nothing";sync`cpu;::]
.t.eq["sync: bad arg";.t.catch[{sync 1.5}];"sync: expected (), a device, a device index, or a tensor, vector or dictionary"]
.t.eq["sync: unknown device";.t.catch[{sync`tpu}];"sync: unrecognized device `tpu"]
.t.eq["sync: absent device";.t.catch[{sync 9}];"sync: CUDA device 9 not available (",string[cudadevices[]]," device(s))"]
if[not version`cuda;
  .t.eq["no gpu: cudadevice";.t.catch[{cudadevice()}];"cudadevice: no CUDA device available"];
  .t.eq["no gpu: pinned";.t.catch[{tensor(1 2;`pinned)}];"tensor: pinned memory needs a CUDA device"];
  t:tensor 1 2 3;
  .t.eq["no gpu: to cuda refused";.t.catch[{to(t;`cuda)}];"to: CUDA device 0 not available (0 device(s))"];
  .t.eq["no gpu: tensor unchanged";(device t;tensor t);(`cpu;1 2 3)];
  free t];
if[version`cuda;
  .t.eq["current device";cudadevice();`cuda:0];
  .t.eq["bad device name";.t.catch[{cudadevice`cuda}];"cudadevice: unrecognized CUDA device, expected cuda with valid device number, e.g. `cuda:0"];
  .t.eq["set device";cudadevice`cuda:0;::];
  y:tensor 1 2 3e;
  to(y;`cuda);
  .t.eq["seed session: to cuda";device y;`cuda:0];
  .t.eq["values after the move";tensor y;1 2 3e];
  c:copyto(y;`cpu`double);
  .t.eq["copyto back";(device c;tensor c);(`cpu;1 2 3f)];
  .t.eq["copy is new";device y;`cuda:0];
  p:tensor(4 5 6e;`pinned);
  .t.eq["pinned";pinned p;1b];
  to(p;`cuda;1b); sync p;
  .t.eq["async copy";(device p;tensor p);(`cuda:0;4 5 6e)];
  v:vector(1 2;3 4e);
  to(v;`cuda);
  .t.eq["vector to cuda";device v;`cuda:0`cuda:0];
  e:tensor();
  to(e;y);
  .t.eq["example tensor";(device e;dtype e);(`cuda:0;`float)];
  .t.eq["sync tensor";sync y;::];
  .t.eq["sync vector";sync v;::];
  .t.eq["sync index";sync 0;::];
  free(y;c;p;v;e)];
.t.eq["nothing left";tensorcount[];0]
.t.done[]
