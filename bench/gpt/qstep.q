/ q's own time in char.q's training step (issue 31), each piece alone and the whole loop with
/ the ktorch calls replaced by cheap q stand-ins: microseconds per run, on the CPU that runs it.
/ `qhost bench/gpt/qstep.q` (QHOST_FAST=0: qhost's generic paths only);
/ `qhost bench/gpt/qstep.q ktorch`: also the loop with backward's arguments made tensors (CPU).
R:2000
tm:{[e] 1000*(system"t:",string[R]," ",e)%R}
t:200000?65; n:128; i:200?count[t]-1+n
x:t i+\:til n+1
s:`ep`it`lr ! (2; ceiling(count[t]-1+n)%200; 0.0006)
s,:`e`t`r`i`l ! 5#0
s,:enlist[`ls]!enlist 0#0e
lrdecay:{x[`lr] * .1|.5*1+cos %/[@[x[`it]*-1 0+x`e`ep; 0; +; x`i]]*acos -1}
j:i+\:til n+1; y:1_'x
P:("i+\\:til n+1";"t j";"t i+\\:til n+1";"-1_'x";"1_'x";"raze y";"raze 1_'x";"s[`l]:1e";"s[`i]+:1";"s[`r]:lrdecay s";"lrdecay s";"s,enlist[`ls]!enlist s[`ls],s`l")
{-1 (24$x),string tm x} each P;
iter:{[m;t;u;n;s;i]
 x:t i+\:til n+1;
 nograd m;
 s[`l]:backward(m; (-1_'x;u); raze 1_'x);
 s[`i]+:1;
 s[`r]:lrdecay s;
 clip(m;1);
 lr(m;s`r); step m; s,enlist[`ls]!enlist s[`ls],s`l}
nograd:{x}; backward:{count x 1;1e}; clip:{x}; lr:{x}; step:{x}
I:{[t;n;w;x] w?count[t]-1+n}[t;n;200]each til 2000
s0:s
-1 (24$"iter/ (stand-ins)"),string 1000*(system"t s:iter[0;t;0;n]/[s;I]")%count I;
if[`ktorch in`$.z.x;
 {key[x]set'x}(`ktorch 2:`fns,1)[];
 y:-1_'x; z:raze 1_'x;
 -1 (24$"free tensor -1_'x"),string tm"free tensor y";
 -1 (24$"free tensor raze 1_'x"),string tm"free tensor z";
 nograd:{x}; clip:{x}; lr:{x}; step:{x};
 backward:{a:tensor x[1;0]; b:tensor x 2; free a; free b; 1e};
 s:s0;
 -1 (24$"iter/ (tensors made)"),string 1000*(system"t s:iter[0;t;0;n]/[s;I]")%count I]
exit 0
