/ The main job: fit y = 2x + 1 + noise by gradient descent. Forward pass, loss and gradients run in
/ libtorch through ktorch; q drives the loop and updates the two parameters.
{key[x]set'x}(`ktorch 2:`fns,1)[];
-1 "ktorch ",version[`ktorch],", libtorch ",version[()],", cuda: ",string version`cuda;

seed 42
n:256
x:tensor(`linspace;-1;1;n;`double)                 / inputs, in libtorch
noise:tensor(`randn;n;`double)
y:1+(2*tensor x)+0.1*tensor noise                  / targets as q data: 2x+1+noise/10
free noise

w:0.0; b:0.0; lr:0.5
step:{[i]
  W:tensor(w;`grad); B:tensor(b;`grad);           / parameters for this step
  wx:mul(W;x); p:add(wx;B);                        / prediction w*x+b
  d:add(p;neg y);                                  / residuals
  dd:mul(d;d); l:mean dd;                          / mean squared error
  backward l;
  loss:tensor l;
  `w set w-lr*grad W; `b set b-lr*grad B;          / gradient step in q
  free(W;B;wx;p;d;dd;l);                           / every handle made here
  if[0=i mod 20; -1 "step ",(string i),"  loss ",string loss];
  loss}
losses:step each til 100
-1 "fitted w=",(string w),"  b=",string b;
-1 "loss fell from ",(string first losses)," to ",string last losses;
if[not (0.05>abs w-2)&(0.05>abs b-1); '"fit failed"];
free x
if[0<tensorcount[]; '"tensors left: ",string tensorcount[]];
\\
