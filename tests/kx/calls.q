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
/ q IPC's messages as qhost writes them (-8!: the bytes its handles send), one a line: KX's library
/ reads each (d9) and writes it back (b9), which must give the same bytes (docs/pipelines.md)
W:(1i;enlist 1i;`byte$til 5;`a`b!2 3i;([]a:enlist 2i;b:enlist 3i);([a:enlist 2i]b:enlist 3i);
 (`upd;`trade;([]time:2#2024.04.01D10:00:00.000000001;sym:`a`b;ret1:0.1 -0.2;imb:1 2e;n:3 4;f:01b));
 (".u.sub";`trade;`);(`end;2000);"2+2";(`fn;2);("add";2;3);2024.04.01;12:34:56.789;0D01:02:03.000000004;
 `s;"c";0x2a;1h;0n;0Nj;0Wi;(::);(1;`a;"b";(2;3f));`a`b!(1 2;`x`y);0#0f;();(`a;());
 "G"$"0a369037-75d3-b24d-6721-5a1d44d4bed5")
(hsym`$dir,"/wire.hex") 0: {raze string -8!x} each W;
hex:{raze string -8!x}
f:{[c] r:.[{(1b;(value x)y)};c;{(0b;x)}]; $[r 0;string[c 0]," ok ",hex r 1;string[c 0]," error ",r 1]}
(hsym`$dir,"/qhost.txt") 0: f each C;
exit 0
