#!/usr/bin/env python3
# tests/data/stats/reference.py - the independent values asserted by
# tests/test_paired.c and tests/test_compare.c (the Welch-on-ln MDE),
# from plain Python 3 (math only; no GSL, no SciPy):
#   Student t CDF: composite Simpson integration of the t density
#   (lgamma from the math module), t quantiles by bisection on it, checked
#   against printed t tables (NIST/SEMATECH e-Handbook 1.3.6.7.2);
#   Wilcoxon signed-rank exact p: enumeration of all 2^n sign patterns;
#   normal tail: math.erfc.
# Run: python3 tests/data/stats/reference.py  (from the repository root)
import csv, itertools, math, os, statistics as st

HERE = os.path.dirname(os.path.abspath(__file__))

def t_pdf(x, df):
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
                    - 0.5 * math.log(df * math.pi)
                    - (df + 1) / 2 * math.log1p(x * x / df))

def t_sf(t, df, steps=200000):
    """P(T > t)"""
    a = abs(t); h = a / steps
    s = t_pdf(0, df) + t_pdf(a, df)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * t_pdf(i * h, df)
    area = s * h / 3
    return 0.5 - area if t >= 0 else 0.5 + area

def t_ppf(q, df):
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if 1 - t_sf(mid, df, 20000) < q: lo = mid
        else: hi = mid
    return (lo + hi) / 2

def norm_sf(z):
    return 0.5 * math.erfc(z / math.sqrt(2))

def paired_log(a, b):
    d = [math.log(y / x) for x, y in zip(a, b)]
    n = len(d); m = st.mean(d); s = st.stdev(d); se = s / math.sqrt(n)
    t = m / se; p = 2 * t_sf(abs(t), n - 1); q = t_ppf(0.975, n - 1)
    return dict(n=n, mean_log=m, sd_log=s, t=t, df=n - 1, p=p,
                change=math.expm1(m) * 100,
                lo=math.expm1(m - q * se) * 100, hi=math.expm1(m + q * se) * 100)

def welch_log(a, b):
    la = [math.log(x) for x in a]; lb = [math.log(x) for x in b]
    qa = st.variance(la) / len(la); qb = st.variance(lb) / len(lb)
    m = st.mean(lb) - st.mean(la); se = math.sqrt(qa + qb)
    df = (qa + qb) ** 2 / (qa * qa / (len(la) - 1) + qb * qb / (len(lb) - 1))
    t = m / se; p = 2 * t_sf(abs(t), df); q = t_ppf(0.975, df)
    return dict(t=t, df=df, p=p, change=math.expm1(m) * 100,
                lo=math.expm1(m - q * se) * 100, hi=math.expm1(m + q * se) * 100)

def mde_welch_log(a, b, alpha=0.05):
    """minimum detectable effect in % (80% power) of Welch on ln values"""
    la = [math.log(x) for x in a]; lb = [math.log(x) for x in b]
    qa = st.variance(la) / len(la); qb = st.variance(lb) / len(lb)
    se = math.sqrt(qa + qb)
    df = (qa + qb) ** 2 / (qa * qa / (len(la) - 1) + qb * qb / (len(lb) - 1))
    return math.expm1((t_ppf(1 - alpha / 2, df) + t_ppf(0.80, df)) * se) * 100

def midranks(v):
    """ranks of the values v (ties: mean rank)"""
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v); i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]: j += 1
        for k in range(i, j + 1): r[order[k]] = (i + j + 2) / 2
        i = j + 1
    return r

def wilcoxon_exact(d):
    nz = [x for x in d if x != 0]
    r = midranks([abs(x) for x in nz])
    w = sum(rk for rk, x in zip(r, nz) if x > 0)
    le = ge = 0
    for signs in itertools.product((0, 1), repeat=len(nz)):
        s = sum(rk for rk, g in zip(r, signs) if g)
        le += s <= w + 1e-9; ge += s >= w - 1e-9
    return w, min(1.0, 2 * min(le, ge) / 2 ** len(nz))

def wilcoxon_normal(d):
    nz = [x for x in d if x != 0]; n = len(nz)
    r = midranks([abs(x) for x in nz])
    w = sum(rk for rk, x in zip(r, nz) if x > 0)
    groups = {}
    for x in nz: groups[abs(x)] = groups.get(abs(x), 0) + 1
    tie = sum(t ** 3 - t for t in groups.values())
    mu = n * (n + 1) / 4; var = n * (n + 1) * (2 * n + 1) / 24 - tie / 48
    z = (abs(w - mu) - 0.5) / math.sqrt(var)
    return w, (2 * norm_sf(z) if z > 0 else 1.0)

def series(name, col='read_iops'):
    by = {}
    with open(os.path.join(HERE, name)) as f:
        for row in csv.DictReader(f):
            by.setdefault(int(row['round']), {})[row['variant']] = float(row[col])
    rounds = sorted(by)
    return [by[k]['a'] for k in rounds], [by[k]['b'] for k in rounds]

if __name__ == '__main__':
    print('t quantiles (tables: 2.262 2.776 2.093 4.303):',
          ['%.4f' % t_ppf(0.975, df) for df in (9, 4, 19, 2)])
    a, b = series('quiet.csv')
    print('paired log, quiet.csv rounds 1-10:', paired_log(a[:10], b[:10]))
    a, b = series('switching-load.csv')
    print('paired log, switching-load.csv rounds 1-10:', paired_log(a[:10], b[:10]))
    B24 = {}
    with open(os.path.join(HERE, 'B24.csv')) as f:
        for row in csv.DictReader(f):
            B24.setdefault(row['variant'], []).append(float(row['kiops']))
    print('welch log, B24:', welch_log(B24['kernel-A'], B24['kernel-B']))
    print('MDE welch log, B24:', mde_welch_log(B24['kernel-A'], B24['kernel-B']))
    print('sd of ln values, B24 kernel-A:',
          st.stdev([math.log(x) for x in B24['kernel-A']]) * 100)
    a, b = series('quiet.csv')
    d = [math.log(y / x) for x, y in zip(a[:12], b[:12])]
    print('wilcoxon exact, quiet.csv rounds 1-12:', wilcoxon_exact(d))
    d = [3, -1, 2, 0, 2, -2, 5, 4, 0, 1, 2, -4]
    print('wilcoxon exact, zeros and ties', d, wilcoxon_exact(d))
    d = [math.log(y / x) for x, y in zip(a[:40], b[:40])]
    print('wilcoxon normal, quiet.csv rounds 1-40:', wilcoxon_normal(d))
    d = [((i * 7) % 11) - 5 for i in range(30)]
    print('wilcoxon normal, ties and zeros', d, wilcoxon_normal(d))
    # tests/test_paired.c test_model_rounds: rounds 1, 2, 4, 6 matched
    a = [1000.0, 1020.0, 1010.0, 995.0]
    b = [x * math.exp(dd) for x, dd in zip(a, [0.01, 0.03, 0.02, 0.04])]
    print('paired log, model rounds 1 2 4 6:', paired_log(a, b))
    print('wilcoxon exact, model rounds:',
          wilcoxon_exact([math.log(y / x) for x, y in zip(a, b)]))
