/ A minimal tickerplant (the publishing half of KX's tick.q): a subscriber calls .u.sub over a
/ sync message and gets the table's schema; every update is then published to it as an async
/ message (`upd;table;rows), which its `upd` runs. The feed is a new day of trades
/ (tick/data.q), sent on the timer once a subscriber is there: 1,000 updates of one row, then
/ ten of 100 rows, then (`end;rows sent). It ends when its last subscriber goes. It also serves
/ the history, as a historical database's process would: .u.dates, and .u.hist[d] a date's trades.
/ Start: qhost examples/tick/tp.q -p PORT (-p 0W: any free port; the port is printed first).
dir:{$[count w:where x="/";(1+last w)#x;""]} string .z.f
system"l ",dir,"data.q"
-1 string system"p";
.u.dates:2024.03.01+til 20
parts:.u.dates!day each .u.dates
.u.hist:{parts x}

trade:([]time:`timestamp$();ret1:`float$();ret2:`float$();imb:`float$();spread:`float$();move:`float$())
.u.w:`int$()                                            / the subscribers' handles
.u.sub:{[t;s] if[not t~`trade; 'string t]; `.u.w set .u.w,.z.w; if[1=count .u.w; system"t 5"]; 0#trade}
.u.pub:{[t;x] {[t;x;h] neg[h](`upd;t;x)}[t;x] each .u.w;}
.z.pc:{`.u.w set .u.w except x; if[0=count .u.w; exit 0]}

/ the feed: the updates as row ranges of a new day, 100 messages a tick
feed:(features,`move)#day 2024.04.01
cuts:(til 1000),1000+100*til 10                        / each update's first row
ends:1_cuts,count feed
sent:0
.z.ts:{
  k:sent+til 100&count[cuts]-sent;
  {.u.pub[`trade;`time xcols update time:.z.p from feed cuts[x]+til ends[x]-cuts x]} each k;
  sent::sent+count k;
  if[sent=count cuts; {neg[x](`end;count feed)} each .u.w; system"t 0"; system"P 17";
    -1 "published ",string[count feed]," rows in ",string[count cuts]," updates: ",-3!(sum feed`ret1;sum feed`move)]}
