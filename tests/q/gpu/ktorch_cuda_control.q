/ On a CUDA machine (scripts/gpu-run.sh): device facts and memory, streams, events, non-blocking
/ copies from pinned memory, and recorded graphs of a forward and of a training step, checked
/ against the same work run eagerly.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
free[];
err:{[f;x] @[f;x;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (r=e) or (1e-4*1|abs e)>abs r-e}

/ devices
i:cudainfo()
.t.eq["cudainfo(): a row per device";count i;cudadevices[]]
.t.eq["cudainfo columns";cols i;`device`name`capability`memory`processors`threads`warp`l2cache]
d:cudainfo 0
.t.ok["device name";0<count d`name]
.t.ok["capability 7.0 or more";7<=d`capability]
.t.ok["memory: GBs";1e9<d`memory]
.t.eq["warp size";d`warp;32]
.t.eq["cudainfo`cuda:0 is cudainfo 0";cudainfo`cuda:0;d]

/ memory: a 4MB tensor shows in allocated, and goes back to the cache when freed
emptycache[]
m0:cudamemory()
.t.eq["cudamemory keys";key m0;`allocated`reserved`maxallocated`maxreserved`free`total]
.t.ok["total is the device's memory";m0[`total]=d`memory]
t:tensor(`zeros;1000000;`cuda)
m1:cudamemory()
.t.ok["4MB allocated";(m1[`allocated]-m0`allocated) within 4000000 4100000]
.t.ok["reserved covers allocated";m1[`reserved]>=m1`allocated]
free t
m2:cudamemory()
.t.eq["freed: back to before";m2`allocated;m0`allocated]
.t.ok["peak kept";m2[`maxallocated]>=m1`allocated]
resetpeak()
.t.eq["resetpeak";(cudamemory[]`maxallocated);m2`allocated]
emptycache[]
.t.ok["emptycache returns cached memory";(cudamemory[]`reserved)<=m2`reserved]

/ streams and events: work on a side stream, ordered by events, timed by events
s:stream()
.t.eq["class of a stream";class s;`stream]
a:tensor(`randn;2000 2000;`cuda)
e0:event(); e1:event()
setstream s
record e0
b:mm(a;a)
record e1
setstream()
.t.eq["wait on an event";wait e1;::]
c:mm(b;a)
sync e1
.t.ok["event done after sync";query e1]
.t.ok["elapsed time from q, ms";0<elapsed(e0;e1)]
sync s
.t.ok["stream done after sync";query s]
c2:mm(a2:mm(a;a);a)
.t.ok["ordered by the event: same as on one stream";near[tensor c;tensor c2]]
g:getstream()
.t.eq["getstream: a handle";class g;`stream]
h:stream(`cuda:0;`high)
record(e0;h)
wait(e0;s)
sync h
.t.ok["record on a stream";query e0]
e2:event[]
.t.eq["elapsed needs recorded events";err[elapsed;(e0;e2)];"elapsed: both events must be recorded before their elapsed time is known"]
free each(a;b;c;a2;c2;e0;e1;e2;s;g;h)

/ non-blocking copy from pinned memory
p:tensor(1000000?1000f;`pinned)
.t.ok["pinned";pinned p]
gp:copyto(p;`cuda;1b)
sync gp
.t.eq["non-blocking copy from pinned memory";tensor gp;tensor p]
to(gp;`cpu;1b); sync()
.t.eq["non-blocking copy back";tensor gp;tensor p]
free(p;gp)

/ a forward recorded and replayed
seed 7
q:module seq(`sequential;(`linear;`a;4;16);`relu;(`linear;`b;16;3))
to(q;`cuda)
x:"e"$8 4#32?1f
f:graph(q;x)
.t.eq["class of a graph";class f;`graph]
o:replay f
.t.ok["replay: the forward's output";near[tensor o;evaluate(q;x)]]
x2:"e"$8 4#32?1f
o2:replay(f;x2)
.t.ok["replay with new inputs";near[tensor o2;evaluate(q;x2)]]
.t.ok["the output is the graph's: overwritten by the next replay";near[tensor o;evaluate(q;x2)]]
.t.eq["new shape refused";err[replay;(f;"e"$2 4#0f)];"replay: input 0: graph recorded Float [8, 4], given Float [2, 4]; shapes and types are fixed when recorded"]
.t.eq["new type refused";err[replay;(f;8 4#0f)];"replay: input 0: graph recorded Float [8, 4], given Double [8, 4]; shapes and types are fixed when recorded"]
to(q;`cpu)
.t.eq["parameters moved";err[replay;f];"replay: the module's parameters or buffers moved since recording (by to, or set); record again"]
free(o;o2;f;q)

/ a training step recorded, against the same steps run eagerly (3 recorded at warm-up, 5 replays)
mk:{seed 11; q:module seq(`sequential;(`linear;`a;2;8);`tanh;(`linear;`b;8;2)); to(q;`cuda); model(q;loss`ce;opt(`sgd;q;.1;.9))}
x:"e"$64 2#128?1f; y:64?2
m1:mk[]; l1:(); do[8; l1,:backstep(m1;x;y)]
m2:mk[]
g:graph(m2;x;y)
ls:(); do[5; l:replay g; ls,:tensor l; free l]
.t.ok["replayed steps train as eager ones";near[dict p2:parms m2;dict p1:parms m1]]
.t.ok["replayed losses are the eager ones";near[ls;-5#l1]]
l:replay(g;x;y); free l
train(m2;`clipvalue;.5)
.t.eq["clipping settings changed";err[replay;g];"replay: the model's optimizer or clipping settings changed since recording; record the step again"]
free m2
.t.eq["model freed";err[replay;g];"replay: the graph's model was freed"]
q3:module enlist(`linear;2;2); to(q3;`cuda)
m3:model(q3;loss`ce;opt(`adam;q3))
setting`fused,0b
.t.eq["adam refused without the fused kernels";err[graph;(m3;x;y)];"graph: the adam optimizer keeps its step count on the CPU, which a graph would freeze; training steps can be recorded with: sgd, and adam or adamw through the fused kernels (setting`fused, CUDA float/half/bfloat16 parameters)"]
setting`fused,1b
free(g;m1;m3;p1;p2)
.t.eq["all freed";count obj[];0]
.t.done[]
