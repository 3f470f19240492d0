/ ktorch session functions: version, config, setting, seed, and the guard's error messages.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];

.t.eq["version() is libtorch's version";version();"2.11.0"]
.t.eq["version[] is ktorch's numeric form";version[];2.11]
.t.eq["version`libtorch";version`libtorch;"2.11.0"]
.t.eq["version`ktorch";version`ktorch;"0.1.0"]
.t.eq["version`all keys";key version`all;`ktorch`libtorch`cuda`cudadevices]
.t.eq["cuda flag agrees with setting";version`cuda;setting`cuda]
.t.eq["device count agrees with setting";version`cudadevices;setting`cudadevices]
.t.ok["no devices without cuda";$[version`cuda;0<version`cudadevices;0=version`cudadevices]]
.t.ok["bad version arg names the function";.t.catch[{version`nope}] like "version: *"]

.t.eq["config() starts with libtorch's banner";first config();"PyTorch built with:"]
.t.ok["config() holds the parallel info";any config[()] like "*at::get_num_threads*"]

s:setting()
.t.eq["setting() names";key s;`mkl`openmp`threads`interopthreads`mps`cuda`magma`cudnn`cudnnversion`cudadevices`benchmark`deterministic`cudnndeterministic`stackframe`alloptions`complexfirst`tf32`cudnntf32`matmulprecision`autocast`autocastcpu`fused`fusedcpu`sdpa`sdpflash`sdpmemeff`sdpcudnn`sdpmath`clipread`fusedln`precast`lncast`dropadd`lnres]
/ PyTorch 2.11's defaults: torch.backends.cuda.flash_sdp_enabled(), mem_efficient_sdp_enabled(),
/ cudnn_sdp_enabled(), math_sdp_enabled() are all True
.t.eq["sdp backends on by default";raze s`sdpflash`sdpmemeff`sdpcudnn`sdpmath;1111b]
/ with flash and math off no CPU kernel is left: libtorch refuses the attention
setting`sdpflash,0b; setting`sdpmath,0b
q:module enlist(`selfattention;4;2;0.0); xa:tensor "e"$2 3 4#24?1f
.t.ok["no sdp backend: an error";(@[{forward x;0b};(q;xa);{x like"forward: No viable backend*"}])]
setting`sdpflash,1b; setting`sdpmath,1b
.t.ok["backends back on";2 3 4~size y:forward(q;xa)]
free(q;xa;y)
.t.ok["threads positive";0<s`threads]
n:s`threads
setting(`threads;1)
.t.eq["threads set to 1";setting`threads;1]
setting`threads,2
.t.eq["threads set to 2 with the `name,value form";setting`threads;2]
setting(`threads;n)
/ ktorch's levels (config.rst): 0 off, 1 warn only, 2 error
.t.eq["deterministic off by default";setting`deterministic;0]
setting`deterministic,1
.t.eq["deterministic warn only";setting`deterministic;1]
setting`deterministic,2
.t.eq["deterministic error";setting`deterministic;2]
setting(`deterministic;1b)
.t.eq["deterministic on (a boolean: error)";setting`deterministic;2]
.t.throws["deterministic level 3";{setting`deterministic,3};"setting: deterministic: use 0-turn off, 1-warn only, 2-error if non-deterministic algorithm"]
setting(`deterministic;0b)
.t.eq["deterministic off";setting`deterministic;0]
/ `mps (ktorch.cpp getsetting: globalContext().hasMPS(), after interopthreads in ktorch.h's cset):
/ Apple's Metal, absent from Linux builds of libtorch (PyTorch: torch.backends.mps.is_available() is False)
.t.eq["mps: none on Linux";setting`mps;0b]
.t.eq["read-only mps";.t.catch[{setting(`mps;1b)}];"setting: cannot set flag for mps"]
.t.eq["read-only cuda";.t.catch[{setting(`cuda;1b)}];"setting: cannot set flag for cuda"]
.t.eq["unknown setting";.t.catch[{setting`nope}];"setting: unrecognized setting `nope"]
.t.ok["threads needs a positive long";.t.catch[{setting(`threads;-1)}] like "setting: *positive*"]

/ seed: the same seed gives the same numbers
seed 7; a:tensor(`rand;4); seed 7; b:tensor(`rand;4)
.t.eq["seed repeats rand";tensor a;tensor b]
.t.ok["rand in [0,1)";all (0<=tensor a)&1>tensor a]
free(a;b)
.t.ok["seed needs a long";.t.catch[{seed`x}] like "seed: *"]
/ setting`clipread,0b (issue 31): clip answers null and scales as with the read, by
/ max/(norm+1e-6) (PyTorch's clip_grad_norm_); the norm of 6 8 is 10
w:tensor(3 4f;`grad); y:mul(w;w); z:Sum y; backward z
setting`clipread,0b
.t.eq["clipread off: clip answers null";clip(w;1);::]
.t.eq["clipread off: gradients scaled";grad w;6 8f*1%10+1e-6]
setting`clipread,1b
.t.ok["clipread on: clip answers the norm";1e-12>abs(clip(w;.5))-10%10+1e-6]
free(w;y;z)
/ setting`fusedln (issue 31): on by default; on, layer norm on the CPU is computed as before
/ (the fused backward is for CUDA tensors): the same output and gradients, bit for bit, from the
/ layernorm module and from selfattention's norm
.t.eq["fusedln on by default";setting`fusedln;1b]
.t.ok["fusedln expects a boolean";.t.catch[{setting`fusedln,1}] like "setting: *boolean*"]
LX:"e"$-1+2*4 6 8#192?1f; LG:"e"$4 6 8#192?1f
lncase:{[on;d]
  setting`fusedln,on; seed 5; q:module d; x:tensor(LX;`grad);
  y:forward(q;x); backward(y;LG);
  r:(tensor y;grad x),grad each ps:{parm(x;y)}[q]each parmnames q;
  free each (q;x;y),ps; setting`fusedln,1b; r}
.t.eq["fusedln on the cpu: layernorm unchanged";lncase[1b;enlist(`layernorm;8)];lncase[0b;enlist(`layernorm;8)]]
.t.eq["fusedln on the cpu: selfattention's norm unchanged";lncase[1b;enlist(`selfattention;8;2;0f;1b)];lncase[0b;enlist(`selfattention;8;2;0f;1b)]]
setting`fusedln,0b
.t.eq["fusedln off";setting`fusedln;0b]
setting`fusedln,1b
/ setting`lncast and setting`dropadd (issue 31): off and on by default; both are for CUDA
/ (tests/q/gpu/ktorch_lncast.q, ktorch_dropadd.q): on the CPU, under autocastcpu too, layer norm
/ answers float32 and a residual block ending in dropout is computed as before, bit for bit
.t.eq["lncast off by default";setting`lncast;0b]
.t.eq["dropadd on by default";setting`dropadd;1b]
.t.eq["lnres on by default";setting`lnres;1b]
.t.ok["lncast expects a boolean";.t.catch[{setting`lncast,1}] like "setting: *boolean*"]
.t.ok["dropadd expects a boolean";.t.catch[{setting`dropadd,`x}] like "setting: *boolean*"]
lccase:{[on] setting`lncast,on; setting`autocastcpu,1b; seed 5; q:module enlist(`layernorm;8); x:tensor(LX;`grad);
  y:forward(q;x); setting`autocastcpu,0b; backward(y;LG);
  r:(dtype y;tensor y;grad x),grad each ps:{parm(x;y)}[q]each parmnames q;
  free each (q;x;y),ps; setting`lncast,0b; r}
.t.eq["lncast on the cpu: layer norm unchanged";lccase 1b;lccase 0b]
dacase:{[on] setting`dropadd,on; seed 5;
  q:module(`sequential;(`residual;seq(`sequential;(`linear;8;8);(`drop;.3))));
  x:tensor(LX;`grad); seed 6; y:forward(q;x); backward(y;LG);
  r:(tensor y;grad x),grad each ps:{parm(x;y)}[q]each parmnames q;
  free each (q;x;y),ps; setting`dropadd,1b; r}
.t.eq["dropadd on the cpu: residual with dropout unchanged";dacase 1b;dacase 0b]
lrcase:{[on] setting`lnres,on; seed 5;
  q:module(`sequential;(`residual;seq(`sequential;(`layernorm;8);(`linear;8;8);(`drop;.3))));
  x:tensor(LX;`grad); seed 6; y:forward(q;x); backward(y;LG);
  r:(tensor y;grad x),grad each ps:{parm(x;y)}[q]each parmnames q;
  free each (q;x;y),ps; setting`lnres,1b; r}
.t.eq["lnres on the cpu: residual block unchanged";lrcase 1b;lrcase 0b]
.t.ok["dropadd on the cpu: some dropped";0<sum 0=raze over (first dacase 1b)-LX]
.t.done[]
