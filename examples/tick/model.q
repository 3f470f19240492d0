/ The model of examples/ticks.q: a history of 20 dates (one table per date, as a partitioned
/ database gives them), an MLP trained from it a date at a time for `epochs` epochs, dates
/ shuffled each epoch; `l` the loss by epoch. Needs tick/data.q and `epochs`.
{key[x]set'x}(`ktorch 2:`fns,1)[];
seed 42
setting(`threads;1)                                     / a small network: one thread is fastest
dates:2024.03.01+til 20
parts:dates!day each dates
/ the model, its columns named by an empty table; training reads each date while the last trains
q:module seq(`sequential;(`linear;4;32);`relu;(`linear;32;1))
m:model(q;loss`mse;opt(`adam;q;0.01))
train(m;`batchsize`shuffle;(128;1b))
train(m;0#parts first dates;features;`move)
l:{run(m;{parts x};neg[count dates]?dates)} each til epochs
