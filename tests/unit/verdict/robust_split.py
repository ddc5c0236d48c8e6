# SPDX-License-Identifier: MIT
# Independent robust line of test_sized (stdlib only): each side's two
# decision runs are one value (mean of log y), then Hodges-Lehmann and
# exact two-sided Mann-Whitney as scipy.stats.mannwhitneyu (method exact).
import math, itertools, statistics
order=[0,1,1,0,1,0,0,1,1,0,0,1,0,1,1,0]
vals=[100.0,105.2,104.1,100.9,106.3,99.5,101.2,103.8,106.0,100.4,99.8,104.9,101.5,107.1,105.5,100.2]
A=[math.log(v) for v,o in zip(vals,order) if o==0]
B=[math.log(v) for v,o in zip(vals,order) if o==1]
ra=[(A[0]+A[1])/2]+A[2:]; rb=[(B[0]+B[1])/2]+B[2:]
hl=statistics.median([b-a for a in ra for b in rb])
print("hl_pct %.10g" % (100*math.expm1(hl)))
na,nb=len(ra),len(rb)
u1=sum(1 for a in ra for b in rb if a>b)  # U of x = A
U=max(u1,na*nb-u1)
allv=list(range(na+nb)); cnt=0; tot=0
# exact null distribution of U for x: ranks subsets
from collections import Counter
dist=Counter()
for comb in itertools.combinations(range(na+nb),na):
    s=set(comb)
    u=sum(1 for i in comb for j in range(na+nb) if j not in s and i>j)
    dist[u]+=1
tot=sum(dist.values())
p=min(1,2*sum(c for u,c in dist.items() if u>=U)/tot)
print("mw_p %.10g" % p, na, nb, u1)
# every run as it is (before)
hl0=statistics.median([b-a for a in A for b in B]); print("hl_all_pct %.10g" % (100*math.expm1(hl0)))
