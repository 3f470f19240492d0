/ The calls the KX-library check makes (scripts/kx-libe.sh): ktorch functions with several argument
/ forms, run here on qhost and, from calls.hex, on KX's own k.h library (libe.so, tests/kx/host.c).
/ Each line written: the function, then `ok` and the result serialised (-8!) as hex, or `error`
/ and the error's text.
/ usage: qhost tests/kx/calls.q DIR   (writes DIR/calls.hex: the calls serialised, and DIR/qhost.txt)
dir:first .z.x
{key[x]set'x}(`ktorch 2:`fns,1)[];
C:(
 (`tensor;1 2 3f);(`tensor;1 2 3);(`tensor;1 2 3e);(`tensor;0101b);(`tensor;1 2 3h);(`tensor;1 2 3i);(`tensor;0x0102);
 (`tensor;2 3#til 6);(`tensor;(1 2;3 4));(`tensor;42);(`tensor;1.5);(`tensor;`nope);(`tensor;"abc");
 (`tensor;enlist 1);(`tensor;enlist 2);(`tensor;enlist 1);(`dtype;enlist 1);(`device;enlist 1);(`size;enlist 8);
 (`mul;(enlist 1;enlist 1));(`tensor;enlist 20);(`add;(1 2 3f;4 5 6f));(`add;(1 2;3 4));(`mean;1 2 3 4f);
 (`Sum;(2 2#1 2 3 4;0));(`matmul;(2 2#1 2 3 4f;2 2#5 6 7 8f));(`relu;-1 0 1f);(`sigmoid;0 1f);
 (`vector;(1 2;3 4 5e));(`vector;enlist 30);(`dict;`a`b!(1 2;3 4e));(`tensor;enlist 32);
 (`help;`dtype);(`help;`ktype);(`help;`linear);(`options;`sgd);(`help;`optimizer);(`callbacks;::);
 (`setting;`mps);(`setting;`alloptions);(`version;::);(`module;enlist(`linear;2;1));(`str;enlist 33);
 (`options;enlist 33);(`opt;(`sgd;enlist 33));(`opt;enlist 34);(`help;enlist 34);(`obj;::);(`class;enlist 34);
 (`obj;1);(`free;enlist 34);(`free;enlist 34);(`free;::);(`obj;::));
/ then every function of fns in the four one-argument forms (::), a long, a float vector and a
/ symbol, except those that write files or change the log (logto, loglevel), start processes or
/ threads or wait on others (dist*, async, await, ready), answer addresses (ptr, sptr), write a
/ file (png), and `use`, whose call with (::) qhost does not implement ('nyi)
skip:`use`logto`loglevel`async`await`ready`ptr`sptr`png`distinit`distfree`distmodel`allreduce`broadcast`barrier`allgather`reducescatter`gather`scatter`send`recv`isend`irecv
fnames:(key(`ktorch 2:`fns,1)[]) except skip
C,:raze{((x;::);(x;1);(x;1 2 3f);(x;`x))} each fnames
(hsym`$dir,"/calls.hex") 0: enlist raze string -8!C;
hex:{raze string -8!x}
f:{[c] r:.[{(1b;(value x)y)};c;{(0b;x)}]; $[r 0;string[c 0]," ok ",hex r 1;string[c 0]," error ",r 1]}
(hsym`$dir,"/qhost.txt") 0: f each C;
exit 0
