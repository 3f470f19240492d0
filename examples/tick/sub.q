/ A subscriber scoring every update (docs/pipelines.md): it trains the model of examples/ticks.q
/ (tick/model.q) from the history the publisher serves, a date at a time over IPC, subscribes to
/ the tickerplant (tick/tp.q) for trades, and its upd scores each update's new rows with `score`
/ as they come, keeping rows and scores. At the end of the feed it checks the scores against
/ `evaluate` of the same model on every row it received, prints what it got, and exits.
/ Start: qhost examples/tick/sub.q PORT [epochs]
args:.z.x
port:"J"$args 0
epochs:$[1<count args;"J"$args 1;20]
dir:{$[count w:where x="/";(1+last w)#x;""]} string .z.f
system"l ",dir,"data.q"

/ the history, a date at a time from the publisher's process: run calls history for the next date
/ while the model trains on the last
h:hopen port
dates:h".u.dates"
history:{h(".u.hist";x)}
s:.z.p
system"l ",dir,"model.q"
-1 "training loss by epoch: ",-3!l;
-1 "trained on ",string[epochs*count dates]," dates over IPC in ",string[`int$(.z.p-s)%1e6]," ms";

/ subscribe: the tickerplant answers the table's schema, then sends (`upd;`trade;rows) messages
got:h(".u.sub";`trade;`)
scores:`real$()
took:`long$()                                           / nanoseconds of each update's score
upd:{[t;x] if[t~`trade; s:.z.n; y:score(m;x); `took set took,`long$.z.n-s; `got set got,x; `scores set scores,y]}

/ the end of the feed: check, report, leave
end:{[n]
  if[n<>count got; '"sub: rows lost"];
  e:evaluate(m;got);
  diff:max abs scores-e`move;
  rmse:sqrt avg d*d:got[`move]-e`move;
  p50:{x (count x) div 2} asc took 1000#til count took;
  system"P 17";
  -1 "received ",string[count got]," rows in ",string[count took]," updates: ",-3!(sum got`ret1;sum got`move);
  system"P 7";
  -1 "score against evaluate, largest difference: ",string diff;
  -1 "rmse on the new day: ",string rmse;
  -1 "score of a one-row update, median: ",string[1e-3*p50]," us";
  free m;
  if[count obj[]; '"sub: objects left"];
  exit 0}
