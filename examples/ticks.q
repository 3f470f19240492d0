/ Deep learning where kdb+ data lives (docs/tables.md): a model trained from a history of trades
/ a date at a time, then scoring each update as a subscriber's `upd` would, in one process (the
/ two-process version over IPC: examples/tick, docs/pipelines.md).
/ Arguments: epochs (default 20).
args:.z.x
epochs:$[count args;"J"$args 0;20]
/ the data and the model, in examples/tick/ beside this script (the tickerplant's subscriber
/ trains the same one)
dir:{$[count w:where x="/";(1+last w)#x;""]} string .z.f
system"l ",dir,"tick/data.q"
dates:2024.03.01+til 20
parts:dates!day each dates                              / one table per date, as a partitioned database
history:{parts x}
system"l ",dir,"tick/model.q"
-1 "training loss by epoch: ",-3!l;
if[(epochs>=20)&last[l]>0.002; '"ticks: training failed"];

/ a feed: the subscriber's upd scores each update's rows and keeps them
scores:([]time:`timestamp$();ret1:`float$();move:`real$())
upd:{[t;x] if[t=`trade; `scores set scores,([]time:count[x]#.z.p;ret1:x`ret1;move:score(m;x))]}
feed:day 2024.04.01
s:.z.p
{upd[`trade;feed enlist x]} each til 1000            / 1,000 updates of one row each
us:1e-3*(.z.p-s)%1000
upd[`trade;1000_feed]                                    / one update of the other 1,000 rows
-1 "scored ",string[count scores]," rows: ",string[us]," us an update of one row (upd and all)";
/ the scores are the model's outputs, as evaluate gives them
e:evaluate(m;feed)
if[1e-5<max abs scores[`move]-e`move; '"ticks: score and evaluate differ"];
rmse:sqrt avg d*d:feed[`move]-e`move
-1 "new day's rmse ",string rmse;
if[(epochs>=20)&rmse>0.03; '"ticks: the model does not predict the new day"];
free m
if[count obj[]; '"objects left"];
\\
