/ The main job, as far as ktorch goes today: load ktorch into q and report what it runs on.
{key[x]set'x}(`ktorch 2:`fns,1)[];
-1 "ktorch ",version[`ktorch],", libtorch ",version();
show version`all;
show setting();
\\
