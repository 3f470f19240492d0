/ Deep learning where kdb+ data lives (docs/tables.md): a model trained from a history of trades
/ a date at a time, then scoring each update as a subscriber's `upd` would, in one process (the
/ two-process tickerplant version waits for qhost's IPC).
/ Arguments: epochs (default 20).
{key[x]set'x}(`ktorch 2:`fns,1)[];
args:.z.x
epochs:$[count args;"J"$args 0;20]
seed 42
setting(`threads;1)                                     / a small network: one thread is fastest

/ the history: 20 dates of 2,000 trades, four features, the next move to predict
n:2000; dates:2024.03.01+til 20
day:{[d] t:([]date:n#d;ret1:n?1f;ret2:n?1f;imb:n?1f;spread:n?1f); t:update ret1:ret1-0.5,ret2:ret2-0.5,imb:imb-0.5 from t;
  update move:(0.8*ret1)-(0.3*ret2)+(1.5*imb*spread)+0.05*(n?1f)-0.5 from t}
parts:dates!day each dates                            / one table per date, as a partitioned database
features:`ret1`ret2`imb`spread

/ the model, its columns named by an empty table; training reads each date while the last trains
q:module seq(`sequential;(`linear;4;32);`relu;(`linear;32;1))
m:model(q;loss`mse;opt(`adam;q;0.01))
train(m;`batchsize`shuffle;(128;1b))
train(m;0#parts first dates;features;`move)
l:{run(m;{parts x};neg[count dates]?dates)} each til epochs   / dates shuffled each epoch
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
