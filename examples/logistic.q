/ Logistic regression: two overlapping clouds of points, one linear layer and a binary cross
/ entropy on its logit (`bcelogit1`), trained by a ktorch model. Arguments: epochs (default 100).
{key[x]set'x}(`ktorch 2:`fns,1)[];
args:.z.x
epochs:$[count args;"J"$args 0;100]
seed 11
n:200
c0:flip(-1+n?2f;-1+n?2f)                          / class 0 around (0,0)
c1:flip(1+-1+n?2f;1.5+-1+n?2f)                    / class 1 around (1,1.5)
X:"e"$c0,c1
Y:"e"$flip enlist(n#0),n#1                         / targets as a column: n x 1
q:module enlist(`linear;2;1)
m:model(q;loss`bcelogit1;opt(`sgd;q;.5))
train(m;`batchsize`shuffle;(40;1b))
train(m;X;Y)
l:{run m} each til epochs
p:raze evaluate(m;X)                                / logits
a:100*avg (p>0)=raze Y
-1 "loss ",(string first l)," -> ",(string last l),"; training accuracy ",(string a),"%";
if[(epochs>=100)&a<85; '"logistic: accuracy below 85%"];
free m
if[count obj[]; '"objects left"];
\\
