/ Devices, streams, events and graphs without a GPU (CI): every CUDA-only function gives a clear
/ error, the no-ops do nothing, and wrong objects are refused. The CUDA behaviour itself is
/ checked on the GPU machine by tests/q/gpu/ktorch_cuda_control.q; on a GPU this script checks
/ only what holds on any machine.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
gpu:0<cudadevices[]
err:{[f;x] @[f;x;{x}]}
t:tensor 1 2 3f
q:module enlist(`linear;2;1)
/ the same on every machine: other objects are refused, stale handles are errors
.t.eq["query a tensor";err[query;t];"query: expected a stream or event, given tensor"]
.t.eq["replay a tensor";err[replay;t];"replay: expected a graph, given tensor"]
.t.eq["record a module";err[record;q];"record: expected an event, given module"]
.t.eq["wait on a tensor";err[wait;t];"wait: expected an event, given tensor"]
.t.eq["elapsed needs two events";err[elapsed;t];"elapsed: expected (event;event)"]
.t.eq["graph needs its inputs";err[graph;q];"graph: expected (module;inputs) or (model;inputs;targets)"]
l:loss`mse
.t.eq["graph of a loss";err[graph;(l;t)];"graph: expected a module or model, given loss"]
.t.eq["setstream a tensor";err[setstream;t];"setstream: expected a stream, given tensor"]
.t.eq["stream priority";err[stream;(();`fast)];$[gpu;"stream: priority: unrecognized `fast, expected `high or `low";"stream: no CUDA device available"]]
.t.eq["emptycache is a no-op without cached memory";emptycache[];::]
.t.eq["sync() returns null";sync();::]
if[not gpu;
  .t.eq["stream without CUDA";err[stream;()];"stream: no CUDA device available"];
  .t.eq["stream on a device";err[stream;`cuda:0];"stream: no CUDA device available"];
  .t.eq["getstream without CUDA";err[getstream;()];"getstream: no CUDA device available"];
  .t.eq["setstream() without CUDA";err[setstream;()];"setstream: no CUDA device available"];
  .t.eq["event without CUDA";err[event;()];"event: no CUDA device available"];
  .t.eq["cudainfo without CUDA";err[cudainfo;()];"cudainfo: no CUDA device available"];
  .t.eq["cudamemory without CUDA";err[cudamemory;()];"cudamemory: no CUDA device available"];
  .t.eq["resetpeak without CUDA";err[resetpeak;()];"resetpeak: no CUDA device available"];
  .t.eq["graph of a forward without CUDA";err[graph;(q;t)];"graph: CUDA graphs need a GPU: no CUDA device available"];
  p:module enlist(`linear;2;1);
  m:model(p;loss`mse;opt(`sgd;p;.1));
  .t.eq["graph of a step without CUDA";err[graph;(m;t;t)];"graph: CUDA graphs need a GPU: no CUDA device available"];
  free m];
if[gpu;
  .t.eq["graph of a module on the CPU";err[graph;(q;t)];"graph: module is on cpu, CUDA graphs record work on a CUDA device"];
  .t.eq["cudainfo of a missing device";err[cudainfo;99];"cudainfo: CUDA device 99 not available (",string[cudadevices[]]," device(s))"]];
free(t;q;l)
.t.eq["all freed";count obj[];0]
.t.done[]
