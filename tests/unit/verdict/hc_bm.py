# SPDX-License-Identifier: MIT
# Plain-python OLS with HC2/HC3 and Bell-McCaffrey df (full n x n hat
# matrix, no numpy): the figures test_verdict.c checks; run: python3 hc_bm.py
import math
def inv(A):
    n=len(A); M=[row[:]+[1.0 if i==j else 0.0 for j in range(n)] for i,row in enumerate(A)]
    for c in range(n):
        p=max(range(c,n),key=lambda r:abs(M[r][c])); M[c],M[p]=M[p],M[c]
        piv=M[c][c]; M[c]=[v/piv for v in M[c]]
        for r in range(n):
            if r!=c:
                f=M[r][c]; M[r]=[a-f*b for a,b in zip(M[r],M[c])]
    return [row[n:] for row in M]
def fit(X,y,j,kind):
    n=len(X);k=len(X[0])
    XtX=[[sum(X[r][a]*X[r][b] for r in range(n)) for b in range(k)] for a in range(k)]
    A=inv(XtX)
    Xty=[sum(X[r][a]*y[r] for r in range(n)) for a in range(k)]
    beta=[sum(A[a][b]*Xty[b] for b in range(k)) for a in range(k)]
    e=[y[r]-sum(X[r][a]*beta[a] for a in range(k)) for r in range(n)]
    H=[[sum(X[r][a]*A[a][b]*X[s][b] for a in range(k) for b in range(k)) for s in range(n)] for r in range(n)]
    aj=[sum(A[j][b]*X[r][b] for b in range(k)) for r in range(n)]
    d=1 if kind=='HC2' else 2
    w2=[aj[r]**2/(1-H[r][r])**d for r in range(n)]
    var=sum(w2[r]*e[r]**2 for r in range(n))
    M=[[(1.0 if r==s else 0.0)-H[r][s] for s in range(n)] for r in range(n)]
    w=[math.sqrt(v) for v in w2]
    Om=[[w[r]*M[r][s]*w[s] for s in range(n)] for r in range(n)]
    tr=sum(Om[r][r] for r in range(n)); tr2=sum(Om[r][s]*Om[s][r] for r in range(n) for s in range(n))
    return beta[j], math.sqrt(var), tr*tr/tr2
def hc3_case(drop=None):
    order=[0,1,1,0,1,0,0,1,1,0,0,1,0,1,1,0]
    vals=[100.0,105.2,104.1,100.9,106.3,99.5,101.2,103.8,106.0,100.4,99.8,104.9,101.5,107.1,105.5,100.2]
    X=[];y=[]
    for i,(g,v) in enumerate(zip(order,vals)):
        if i==drop: continue
        X.append([1.0,float(g),float(i)]); y.append(math.log(v))
    return X,y
def ses_case():
    order=[0,1,1,0,1,0,0,1,1,0,1,0]
    vals=[100.3,99.8,100.1,99.6,100.25,99.95,103.3605,102.691,103.1545,102.897,103.206,102.7425]
    X=[[1.0,float(g),float(i),1.0 if i>=6 else 0.0] for i,g in enumerate(order)]
    return X,[math.log(v) for v in vals]
X,y=hc3_case(); print("hc3 case HC3 (statsmodels 0.004845103223):", "%.12g %.12g df %.12g"%fit(X,y,1,'HC3'))
print("hc3 case HC2:", "%.12g %.12g df %.12g"%fit(X,y,1,'HC2'))
X,y=ses_case(); print("ses HC3 (statsmodels 0.002123593425):", "%.12g %.12g df %.12g"%fit(X,y,1,'HC3'))
print("ses HC2:", "%.12g %.12g df %.12g"%fit(X,y,1,'HC2'))
X,y=hc3_case(drop=15); print("hc3 case minus run 15 (8+7) HC3:", "%.12g %.12g df %.12g"%fit(X,y,1,'HC3'))
