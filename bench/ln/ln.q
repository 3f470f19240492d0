/ Layer norm forward + backward, ATen's against setting`fusedln (the NVRTC backward of
/ src/cxx/fused_ln.cpp), on CUDA: rows x features (default 25600 512, char.q's GPT: 200 x 128
/ tokens of 512 features), float32, weight and bias. For each: wall ms a step (n steps queued
/ without a host wait, then one sync; the GPU runs behind the q loop, so this is GPU time as long
/ as the host launches faster) and the GPU kernel time of one step from `profile` with each
/ kernel's name. Run from the repository root on a GPU machine (scripts/gpu-run.sh's setup):
/   .carry/qhost bench/ln/ln.q [rows features [steps]]
{key[x]set'x}(`ktorch 2:`fns,1)[];
a:"J"$.z.x; r:$[2<=count a;a 0;25600]; f:$[2<=count a;a 1;512]; n:$[3<=count a;a 2;200]
/ (globals in capitals: x and y inside a lambda are its arguments)
Q:module enlist(`layernorm;f); to(Q;`cuda)
X:tensor(`randn;r,f;`cuda`grad); DY:tensor(`randn;r,f;`cuda)
step:{Y:forward(Q;X); backward(Y;DY); free Y}
wall:{[fused] setting`fusedln,fused; do[20;step[]]; sync(); t:.z.p; do[n;step[]]; sync(); (1e-6*"j"$.z.p-t)%n}
kern:{[fused] setting`fusedln,fused; step[]; sync(); profile`start; step[]; sync(); p:profile`stop;
  select name,total from p where device=`cuda}
-1 "layer norm forward+backward, ",string[r],"x",string[f]," float32, ",string[n]," steps; device ",(cudainfo 0)`name;
res:{[fused]
  w:wall fused; k:kern fused;
  -1 $[fused;"fused (setting`fusedln on)";"ATen (setting`fusedln off)"],": ",string[w]," ms a step wall, ",string[1e-3*sum k`total]," ms of kernels:";
  {-1 "  ",string[x`name],": ",string[1e-3*x`total]," ms"} each k;
  w}
w0:res 0b; w1:res 1b
-1 "fused / ATen wall: ",string w1%w0;
exit 0
