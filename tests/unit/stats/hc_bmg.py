# SPDX-License-Identifier: MIT
# HC2 with the Bell-McCaffrey df of a working covariance Omega that has
# one variance per side (STATS_SE_HC2_BMG, reports/stats/ols.c), straight
# from the definition with the full n x n hat matrix: the figures
# test_stats.c checks. numpy + scipy (Debian python3-numpy python3-scipy):
#   /usr/bin/python3 tests/unit/stats/hc_bmg.py
import numpy as np
from scipy import stats

def hc2_bmg(X, y, j):
    n, k = X.shape
    A = np.linalg.inv(X.T @ X)
    b = A @ X.T @ y
    e = y - X @ b
    H = X @ A @ X.T
    M = np.eye(n) - H
    h = np.diag(H)
    a = (A @ X.T)[j]
    w = a / np.sqrt(1 - h)              # HC2: var = sum w_i^2 e_i^2
    var = np.sum(w**2 * e**2)
    side = X[:, j] != 0
    # working variance per side, unbiased under Omega = diag(s_side):
    # E[sum_{i in g} e_i^2] = sum_g' s_g' sum_{i in g, l in g'} M_il^2
    m = np.array([[np.sum(M[np.ix_(side == g, side == q)]**2)
                   for q in (False, True)] for g in (False, True)])
    ss = np.array([np.sum(e[side == g]**2) for g in (False, True)])
    sg = np.maximum(np.linalg.solve(m, ss), 0)
    s = np.where(side, sg[1], sg[0])
    B = np.diag(w) @ M @ np.diag(s) @ M @ np.diag(w)
    lam = np.linalg.eigvalsh(B)
    df = lam.sum()**2 / (lam**2).sum()
    se = np.sqrt(var)
    q = stats.t.ppf(0.975, df)
    p = 2 * stats.t.sf(abs(b[j] / se), df)
    return b[j], se, df, p, b[j] - q * se, b[j] + q * se

y = np.array([4.61, 4.63, 4.70, 4.60, 4.64, 4.58, 4.66, 4.62, 4.75, 4.63,
              4.65, 4.69])
g = np.array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1], float)
pos = np.arange(12.0)
ses = np.array([0] * 6 + [1] * 6, float)
one = np.ones(12)
for name, X in (("no sessions", np.column_stack([one, g, pos - pos.mean()])),
                ("sessions", np.column_stack([one, g, pos - pos.mean(),
                                              ses]))):
    print(name, "HC2-BMG b se df p lo hi:",
          " ".join("%.10f" % v for v in hc2_bmg(X, y, 1)))

# Two sides alone: HC2 is Welch's variance and the df Welch-Satterthwaite's.
ya = y[g == 0]; yb = y[g == 1]
va = ya.var(ddof=1) / len(ya); vb = yb.var(ddof=1) / len(yb)
welch_df = (va + vb)**2 / (va**2 / (len(ya) - 1) + vb**2 / (len(yb) - 1))
print("two sides HC2-BMG:", " ".join("%.10f" % v for v in
      hc2_bmg(np.column_stack([one, g]), y, 1)))
print("Welch: se %.10f df %.10f" % (np.sqrt(va + vb), welch_df))

# The verdict's balanced cases (tests/unit/verdict/test_verdict.c): log
# values, X = [1, side, position (centred: the same fit)], then the
# sessions case with one session term.
order = [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0]
vals = [100.0, 105.2, 104.1, 100.9, 106.3, 99.5, 101.2, 103.8, 106.0, 100.4,
        99.8, 104.9, 101.5, 107.1, 105.5, 100.2]
p16 = np.arange(16.0)
X = np.column_stack([np.ones(16), order, p16 - p16.mean()])
print("test_hc3 8 + 8 HC2-BMG b se df:",
      " ".join("%.13g" % v for v in hc2_bmg(X, np.log(vals), 1)[:3]))
order = [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0]
vals = [100.3, 99.8, 100.1, 99.6, 100.25, 99.95, 103.3605, 102.691,
        103.1545, 102.897, 103.206, 102.7425]
X = np.column_stack([np.ones(12), order, pos - pos.mean(), ses])
print("test_sessions HC2-BMG b se df:",
      " ".join("%.13g" % v for v in hc2_bmg(X, np.log(vals), 1)[:3]))
