# SPDX-License-Identifier: MIT
# Design check for issue 23 item 3 (not yet the shipped rule): sized
# comparisons with no true effect, repeat {min 4, max 16, precision 2%},
# Welch's t on log values, 4,000 pairs per noise level, seed 5.
#  old:   the pilot's sd (4 runs per cell) decides n, the final Welch test
#         reuses it (today's procedure, simplified: no position term).
#  split: n is decided from the first two runs of each cell only (Helmert
#         contrast 1); the final se uses SS_all - SS_decide with n - 2 df
#         per cell, which is independent of the decision under normal
#         noise, and D uses all runs (Cox 1975, "A note on data-splitting
#         for the evaluation of significance levels", Biometrika 62(2);
#         the mean is orthogonal to every Helmert contrast).
# Run with the system interpreter that has numpy and scipy:
#   /usr/bin/python3 bench/sizing-split.py
# Sized comparison with no effect: min 4, max 16, precision 2%, Welch on logs.
# old: decide on pilot sd, final Welch on all runs.
# split: decide on runs 1-2 of each cell (Helmert contrast 1), final se from
# SS_all - SS_decide (df n-2 per cell), D from all runs.
import numpy as np
from scipy import stats
rng=np.random.default_rng(5)
def hw(sa,sb,n,dfx):
    v=sa*sa+sb*sb
    df=dfx(n)*v*v/(sa**4+sb**4)
    return np.expm1(stats.t.ppf(.975,df)*np.sqrt(v/n))
def need(sa,sb,dfx):
    for n in range(4,17):
        if hw(sa,sb,n,dfx)<=.02: return n
    return 16
for sig in (0.01,0.015,0.02):
  res={}
  for mode in ('old','split'):
    fp=stop=fpst=0;runs=0;D=4000
    for d in range(D):
        a=rng.normal(0,sig,16);b=rng.normal(0,sig,16)
        if mode=='old':
            n=need(a[:4].std(ddof=1),b[:4].std(ddof=1),lambda n:n-1)
        else:
            n=need(abs(a[0]-a[1])/np.sqrt(2),abs(b[0]-b[1])/np.sqrt(2),lambda n:n-2)
        A=a[:n];B=b[:n]
        if mode=='old':
            p=stats.ttest_ind(B,A,equal_var=False).pvalue
        else:
            ssa=((A-A.mean())**2).sum()-((A[:2]-A[:2].mean())**2).sum()
            ssb=((B-B.mean())**2).sum()-((B[:2]-B[:2].mean())**2).sum()
            va=ssa/(n-2)/n;vb=ssb/(n-2)/n
            df=(va+vb)**2/(va*va/(n-2)+vb*vb/(n-2))
            p=2*stats.t.sf(abs(B.mean()-A.mean())/np.sqrt(va+vb),df)
        r=p<.05;fp+=r;runs+=2*n
        if n==4: stop+=1;fpst+=r
    print(f"sigma {sig} {mode}: fp {fp/D:.3f} stop@pilot {stop/D:.2f} fp|pilot {fpst/max(stop,1):.3f} mean runs {runs/D:.1f}")
