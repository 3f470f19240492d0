/ The kdb+ C API as an extension sees it: qhost/testext (built by cargo, found in $QHOME/l64)
/ makes values with every k.h function; each check is what real q answers.
\l tests/q/lib/assert.q

L:{`testext 2:(x;y)}
atoms:L[`atoms;1]; vectors:L[`vectors;1]; dicts:L[`dicts;1]
fail:L[`fail;1]; oserr:L[`oserr;1]; trap:L[`trap;1]
callback:L[`callback;1]; apply:L[`apply;2]; dotfail:L[`dotfail;2]
refs:L[`refs;1]; same:L[`same;1]; interned:L[`interned;1]
ser:L[`ser;1]; deser:L[`deser;1]; roundtrip:L[`roundtrip;1]; isipc:L[`isipc;1]
dates:L[`dates;1]; misc:L[`misc;1]; mkdl:L[`mkdl;1]; add3:L[`add3;3]

/ atoms: ka kb ku kg kh ki kj ke kf kc ks ktj kd kz kt
a:atoms[]
.t.eq[`atomtypes;type each a;-1 -2 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 -17 -18 -19h]
.t.eq[`atoms;a;(1b;"G"$"00010203-0405-0607-0809-0a0b0c0d0e0f";0x12;3h;4i;5j;6.5e;7.25;"a";`sym;2000.01.01D00:00:00.000000001;2000.03m;2000.01.04;2000.01.05T12:00:00.000;0D00:00:00.000000005;00:06;00:00:07;00:00:00.008)]

/ vectors: ktn ja js jk jv kp kpn knk
.t.eq[`vectors;vectors[];(1 2 3i;`a`b;(1;"xy");10 20 30;"hello";1.5 2.5 3.5)]

/ dictionaries and tables: xD xT knt ktd
d:dicts[]
t:([]x:1 2 3;y:`p`q`r)
.t.eq[`xD;d 0;`a`b!1 2i]
.t.eq[`xT;d 1;t]
.t.eq[`knt;d 2;1!t]
.t.eq[`ktd;d 3;t]

/ errors: krr orr ee
.t.throws[`krr;{fail 0};"custom"]
.t.ok[`orr;.t.catch[{oserr 0}] like "open*No such file or directory"]
.t.eq[`ee;trap[];(-128h;"trapped";42)]

/ calling q from C: k(0,..) with and without arguments, its error object, dot
.t.eq[`k;callback 21;(3;42;"boom")]
r:apply[neg;5]
.t.eq[`dot;r 0;-5]
.t.eq[`kapply;r 1;-5]
r:apply[{x*x};3]
.t.eq[`dotlambda;r 0;9]
.t.eq[`kapplylambda;r 1;9]
.t.eq[`dotfail;dotfail[{'x};`oops];"oops"]

/ reference counts, identity, interning: r0 r1 ss sn
.t.eq[`refs;refs[];0 1 0 1i]
v:1 2 3
.t.eq[`same;same v;v]
.t.eq[`interned;interned[];1111b]

/ serialization: b9 d9 okx, against q's own -8! and -9!
vals:(1;`x;"G"$"00010203-0405-0607-0809-0a0b0c0d0e0f";"hello";`a`bc;(1;"xy";());`a`b!1 2;t;1!t;2000.01.01D00:00:00.000000001;0x0102;1b;3.5e)
{.t.eq[`$"b9_",string y;ser x;-8!x]}'[vals;til count vals];
{.t.eq[`$"d9_",string y;deser -8!x;x]}'[vals;til count vals];
{.t.eq[`$"roundtrip_",string y;roundtrip x;x]}'[vals;til count vals];
.t.eq[`b9long;ser 1;0x0100000011000000f90100000000000000]
.t.eq[`okx;isipc -8!`a`b;1b]
.t.eq[`okxbad;isipc 0x0102;0b]
.t.ok[`d9bad;0<count .t.catch {deser 0x01000000}]

/ dates: ymd dj
.t.eq[`dates;dates[];0 8825 -1 20000101 20240229 19991231i]
.t.eq[`ymd;(dates[])1;"i"$2024.02.29]

/ setm m9 ver (KX: "Returns an int as yyyymmdd", the release date .z.k)
.t.eq[`misc;misc[];0 1i,"I"$string[.z.k] except "."]

/ dl and 2: with rank 3
g:mkdl[]
.t.eq[`dltype;type g;112h]
.t.eq[`dl;g[1;2;3];6]
.t.eq[`rank3;add3[10;20;30];60]
.t.ok[`nolib;.t.catch[{`nosuchlib 2:(`f;1)}] like "*nosuchlib*"]
.t.ok[`nofn;.t.catch[{`testext 2:(`nosuchfn;1)}] like "*nosuchfn*"]

/ KX, C client for q: "If your C function, called from q, has nothing to return to q, it can
/ return (K)0"; the generic null is "K id=ka(101); id->g=0;"
nothing:L[`nothing;1]; identity:L[`identity;1]
.t.ok[`nothing;(::)~nothing[]]
.t.ok[`identity;(::)~identity[]]

/ orr: "the total message size (including both user and system error) is limited to 255
/ characters and is truncated if it exceeds this limit"
.t.eq[`orr255;.t.catch {L[`orrlong;1] 0};255#"x"]

/ krr keeps the pointer; a message in a buffer reused per error (as KX recommends) outlives
/ the call; 10^5 trapped errors with distinct texts, from C and from q, intern no symbol
/ (.Q.w[]`syms, the count of internalized symbols, does not grow)
krrbuf:L[`krrbuf;1]
.t.eq[`krrbuf;@[krrbuf;42;{x}];"error number 42"]
s0:s1:s2:s3:0
s0:.Q.w[]`syms
{@[krrbuf;x;{x}]} each til 100000;
s1:.Q.w[]`syms
{@[{'x};"q error ",string x;{x}]} each til 100000;
s2:.Q.w[]`syms
`$"capi new sym ",/:string 1 2;
s3:.Q.w[]`syms
.t.eq[`symsC;s1;s0]
.t.eq[`symsq;s2;s0]
.t.eq[`symscount;s3;s0+2]

/ vi (item j as a new reference; out of range the first item's type's null) and vk (collapse)
.t.eq[`vivk;L[`vivk;1] 10 20 30;(20;0N;1 2 3;([]a:1 2))]

.t.done[]
