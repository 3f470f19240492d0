/ ktorch.q: load ktorch.so and define every ktorch function (`make install` puts this file in
/ $QHOME and ktorch.so in $QHOME/l64). Load it with \l (from $QHOME, or with its path):
/   q)\l ktorch.q                         / every function in the root namespace: tensor, model, ..
/ or into a namespace named first in .ktorch.ns:
/   q).ktorch.ns:`.nn; \l ktorch.q        / .nn.tensor, .nn.model, ..
/ It prints ktorch's and libtorch's versions and whether CUDA is there, and signals a clear
/ error when ktorch.so or the libtorch it needs cannot be found.
{[]
  ns:@[value;`.ktorch.ns;`];
  if[not -11h=type ns; '"ktorch.q: .ktorch.ns must be a symbol naming a namespace, e.g. `.nn"];
  fail:{[e]
    what:$[any e like/:("*libtorch*";"*libc10*";"*libcud*";"*libnv*");
      "the libtorch 2.11 that ktorch.so was installed with is missing (rerun make install, naming a torch lib folder in KTORCH_TORCH_LIB)";
      "ktorch.so not found: run make install (it goes into $QHOME/l64) or put it in the current directory"];
    '"ktorch.q: ",what,": ",e};
  d:@[{(`ktorch 2:(`fns;1))[]};::;fail];
  $[null ns; {key[x]set'x} d; (` sv' ns,'key d) set' value d];
  v:d`version;
  -1 "ktorch ",v[`ktorch],", libtorch ",v[()],", cuda: ",$[v`cuda;"yes, ",string[v`cudadevices]," device(s)";"no"];
  }[];
