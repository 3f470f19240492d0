/ bench/tick/history.sh's trainer: the model of examples/tick/model.q trained from a history a
/ date at a time, first from another process over IPC (run's data source {h(".u.hist";x)}), then
/ from the same dates held in this process ({parts x}); epoch times side by side, and this
/ process's peak resident memory (VmHWM, /proc/self/status) before and after the IPC epochs
/ beside the history's size.
/ Start: qhost bench/tick/train.q PORT EPOCHS
{key[x]set'x}(`ktorch 2:`fns,1)[];
port:"J"$.z.x 0; epochs:"J"$.z.x 1
hwm:{l:first r where (r:read0`:/proc/self/status) like "VmHWM*"; "J"$l where l in "0123456789"}   / kB
features:`ret1`ret2`imb`spread
seed 42
setting(`threads;1)
h:hopen port
dates:h".u.dates"
q:module seq(`sequential;(`linear;4;32);`relu;(`linear;32;1))
m:model(q;loss`mse;opt(`adam;q;0.01))
train(m;`batchsize`shuffle;(256;1b))
train(m;0#h(".u.hist";first dates);features;`move)
m0:hwm[]
ms:{s:.z.p; run(m;{h(".u.hist";x)};neg[count dates]?dates); `int$(.z.p-s)%1e6} each til epochs
m1:hwm[]
parts:dates!{h(".u.hist";x)} each dates
size:sum{sum 8*count each value flip x} each value parts
held:{s:.z.p; run(m;{parts x};neg[count dates]?dates); `int$(.z.p-s)%1e6} each til epochs
ipc:min ms; mem:min held
-1 "history: ",string[count dates]," dates of ",string[count parts first dates]," rows, ",string[`int$size%1e6]," MB";
-1 "epoch over IPC ",string[ipc]," ms, held in memory ",string[mem]," ms: ",string[.01*`int$100*mem%ipc],"x held (best of ",string[epochs],")";
-1 "peak resident memory: ",string[`int$m0%1e3]," MB before the IPC epochs, ",string[`int$m1%1e3]," MB after (+",string[`int$(m1-m0)%1e3]," MB; the history is ",string[`int$size%1e6]," MB)";
free m
exit 0
