/ The trades of examples/ticks.q and of the tickerplant (examples/tick): n trades a day, four
/ features and the next move to predict, which depends on them (and a little noise).
n:2000
features:`ret1`ret2`imb`spread
day:{[d] t:([]date:n#d;ret1:n?1f;ret2:n?1f;imb:n?1f;spread:n?1f); t:update ret1:ret1-0.5,ret2:ret2-0.5,imb:imb-0.5 from t;
  update move:(0.8*ret1)-(0.3*ret2)+(1.5*imb*spread)+0.05*(n?1f)-0.5 from t}
