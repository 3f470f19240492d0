/ A job that fails and resumes (tests/dist.rs, scripts/dist-launch.sh -r): six steps of an
/ allreduce; rank 0 saves the last step every rank finished into the folder given as argument;
/ on the first start (KTORCH_RESTART 0) rank 1 fails after step 3. The launcher then starts both
/ ranks again (KTORCH_RESTART 1, a fresh rendezvous port) and they resume from the saved step.
{key[x]set'x}(`ktorch 2:`fns,1)[];
distinit(`gloo;20)
me:distrank[]; a:"J"$getenv`KTORCH_RESTART; f:hsym`$(.z.x 0),"/step"
i:$[a>0; "J"$first read0 f; 0]
-1 "start ",(string a),": from step ",string i;
while[i<6;
 v:allreduce 1 2 3.0;
 i+:1;
 if[me=0; f 0: enlist string i];
 if[(a=0)&(me=1)&i=3; -1 "failing at step 3"; exit 3]]
-1 "done at step ",(string i),", sum ",-3!v;
distend[]
exit 0
