/ The model of examples/ticks.q: an MLP trained from a history a date at a time for `epochs`
/ epochs, dates shuffled each epoch; `l` the loss by epoch. Needs tick/data.q's `features`,
/ `epochs`, `dates` and `history`, a function of a date answering that date's trades (a select
/ from a partitioned database; a table held in memory; another process's, over IPC).
{key[x]set'x}(`ktorch 2:`fns,1)[];
seed 42
setting(`threads;1)                                     / a small network: one thread is fastest
/ the model, its columns named by an empty table; training reads each date while the last trains
q:module seq(`sequential;(`linear;4;32);`relu;(`linear;32;1))
m:model(q;loss`mse;opt(`adam;q;0.01))
train(m;`batchsize`shuffle;(128;1b))
train(m;0#history first dates;features;`move)
l:{run(m;history;neg[count dates]?dates)} each til epochs
