/ The history server of bench/tick/history.sh: 20 dates of N trades (examples/tick/data.q's
/ columns) held as one table per date, served a date at a time (.u.hist[d]), as a historical
/ database's process would. Prints its port first; ends when its client goes.
/ Start: qhost bench/tick/hdb.q N -p 0W
system"l examples/tick/data.q"
n:"J"$.z.x 0
.u.dates:2024.03.01+til 20
parts:.u.dates!day each .u.dates
.u.hist:{parts x}
.z.pc:{exit 0}
-1 string system"p";
