/ LBFGS (torch.optim.LBFGS) through a model's `backstep`, which gives the optimizer a closure
/ (zero gradients, forward, mse, backward): the loss each step returns and the parameters after
/ each of three steps against PyTorch's (tests/q/gen/lbfgs.py), with and without the strong Wolfe
/ line search, with a history short enough to be truncated; the options and their errors.
\l tests/q/lib/assert.q
{key[x]set'x}(`ktorch 2:`fns,1)[];
\l tests/q/data/lbfgs_expected.q
free[];
err:{[f;a] @[{x y;""}[f];a;{x}]}
near:{[r;e] r:"f"$raze over r; e:"f"$raze over e; (count[r]=count e) and all (1e-9*1|abs e)>abs r-e}

/ the modules, given PyTorch's starting parameters (exact as reals), then made double
dbl:{to(x;`double); x}
lin:{m:module enlist(`linear;3;1); s:state m; free m; s[`parms]:"e"$.p.lin; dbl module s}
net:{m:module seq(`sequential;(`linear;3;4);`tanh;(`linear;4;1)); s:flip state m; free m;
  c:s`parms; c[1]:`weight`bias!"e"$.p.net`0.weight`0.bias; c[3]:`weight`bias!"e"$.p.net`2.weight`2.bias; s[`parms]:c; dbl module flip s}
/ three backsteps of a model of module q and an lbfgs optimizer with options opts:
/ (losses; parameters after each step)
steps:{[q;x;y;opts]
  m:model(q;loss`mse;opt[(`lbfgs;q),opts]);
  r:{[m;x;y;r;i] l:backstep(m;x;y); p:parms m; v:raze over value dict p; free p; r,enlist(l;v)}[m;x;y]/[();til 3];
  free m; (r[;0];r[;1])}
check:{[case;q;x;y;opts]
  r:steps[q;x;y;opts];
  .t.ok[string[case]," losses";near[r 0;L case]];
  .t.ok[string[case]," parameters after each step";near[r 1;P case]]}
check[`lin;lin[];.d.X;.d.Y;()]
check[`linh;lin[];.d.X;.d.Y;(.5;4;`history,2)]
check[`linw;lin[];.d.X;.d.Y;(1;5;`history`search!(2;`strong_wolfe))]
check[`net;net[];.d.X2;.d.Y2;(1;5;`history,3)]
check[`netw;net[];.d.X2;.d.Y2;(2;8;12;`history`search!(3;`strong_wolfe))]
/ the same steps as whole-batch epochs of `run m`, which gives the optimizer the same closure
runm:{[q;x;y;opts]
  m:model(q;loss`mse;opt[(`lbfgs;q),opts]); train(m;`batchsize;count x); train(m;x;y);
  r:{[m;r;i] l:run m; p:parms m; v:raze over value dict p; free p; r,enlist(l;v)}[m]/[();til 3];
  free m; (r[;0];r[;1])}
r:runm[net[];.d.X2;.d.Y2;(2;8;12;`history`search!(3;`strong_wolfe))]
.t.ok["run m: losses";near[r 0;L`netw]]
.t.ok["run m: parameters after each epoch";near[r 1;P`netw]]

/ options: ktorch's names and defaults; eval stored as iter*5/4 (libtorch's LBFGS constructor,
/ torch.optim.LBFGS: 25), no search column until a line search is given (kopt.cpp lbfgs: only if
/ line_search_fn has a value), and eval shown even without the flag (kopt.cpp: `if(a || o.max_eval())`)
q:lin[]
o:opt(`lbfgs;q)
d:opt o
.t.eq["optimizer type";d`optimizer;`lbfgs]
.t.eq["default options";d`options;([]lr:enlist 1f;iter:enlist 20;eval:enlist 25;gradtol:enlist 1e-7;changetol:enlist 1e-9;history:enlist 100)]
.t.eq["defaults not shown without the flag, eval always";cols (opt(o;0b))`options;enlist`eval]
free o
o:opt(`lbfgs;q;.5;10;12;1e-5;1e-8;5;`strong_wolfe)
.t.eq["options by position";first (opt o)`options;`lr`iter`eval`gradtol`changetol`history`search!(.5;10;12;1e-5;1e-8;5;`strong_wolfe)]
.t.eq["lr";lr o;enlist .5]
.t.eq["no state before a step";count first (state o)[`parms;`buffers];0]
.t.eq["step needs a closure";err[step;o];"step: LBFGS optimizer requires model, loss & inputs"]
.t.eq["a second group";err[opt;(o;1;();.1)];"opt: lbfgs: only one parameter group allowed, given group 1"]
free o
.t.eq["negative history";err[opt;(`lbfgs;q;`history,-1)];"opt: lbfgs: history must be positive, given -1"]
.t.eq["no iterations";err[opt;(`lbfgs;q;1;0)];"opt: lbfgs: iter must be positive, given 0"]
.t.eq["no evaluations";err[opt;(`lbfgs;q;`eval,0)];"opt: lbfgs: eval must be positive, given 0"]
.t.eq["negative rate";err[opt;(`lbfgs;q;-1f)];"opt: lbfgs: invalid learning rate: -1"]
.t.eq["unknown search";err[opt;(`lbfgs;q;`search,`armijo)];"opt: lbfgs search: expected one of `strong_wolfe, given symbol scalar"]
/ a model's step: the same error; an optimizer without parameters cannot step
m:model(q;loss`mse;opt(`lbfgs;q))
.t.eq["step of an lbfgs model";err[step;m];"step: LBFGS optimizer requires model, loss & inputs"]
free m
q:lin[]
m:model(q;loss`mse;opt`lbfgs)
.t.eq["no parameters";err[backstep;(m;.d.X;.d.Y)];"backstep: lbfgs: no parameters to optimize"]
free m
.t.eq["all freed";count obj[];0]
.t.done[]
