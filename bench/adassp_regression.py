"""AdaSSP against the Analyze Gauss + ridge regression, on the diabetes data and on a Gaussian
linear model (issue 15's measurements).

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/adassp_regression.py [RUNS] [RATE_RUNS]

Diabetes (data/diabetes.csv, 442 rows): every column mapped to [-1, 1] with the public bounds of
data/diabetes_bounds.csv; ten regressors (||x|| <= sqrt(10)) and the label (|y| <= 1); run r
splits the rows 80/20 with seed r, fits on the 80% at epsilon in {0.5, 1, 2, 4}, delta = 1e-6,
and reports the coefficient error ||theta - theta_OLS(train)||_2 (intercept included) and the
test R^2 on the 20%. Methods:
- adassp: dpcov.PrivateLinearRegression(bound=sqrt(10)) with its defaults (AdaSSP, intercept as
  a constant 1 in the bound; a tenth of epsilon chooses a bound below sqrt(10) near the 0.95
  quantile of the rows' norms, privately, and the rows above it are clipped; the rest releases
  X'X, X'y, lambda_min and y'y, the last for the noise-aware intervals: four shares);
- adassp_point: the same with intervals=False (the paper's three statistics, a third each);
- adassp_worst_case: adassp with bound_epsilon=0 (the whole budget to AdaSSP with the worst-case
  bound sqrt(10): the default before the private bound);
- ag_ridge_before: the estimator as it was before AdaSSP: Analyze Gauss release of the Gram
  matrix of [B, x, y] rows (B = sqrt(11) bounds ||[x, y]||, so the rows have norm <= sqrt(2) B),
  then ridge regression from the release; the public ridge is the noise-level penalty
  2 sigma sqrt(d) of the receipt (with ridge 0 the release is indefinite in most runs);
  fits that still fail (NotPositiveDefiniteError) count as R^2 = 0 and are tallied;
- ag_ridge_one: the same with the intercept as a constant 1 column (rows [1, x, y], bound
  sqrt(1 + 10 + 1)).
With RATE_RUNS, also the rate of test R^2 > 0 of the default AdaSSP and of bound_epsilon=0 over
RATE_RUNS splits at epsilon 1 and 2 (point fits only, 199 bootstrap draws: the intervals do not
change the fit), with a 95% normal interval.
Synthetic: n = 10000 training and 10000 test rows, d = 10, x ~ N(0, I / (4 d)), theta a random
unit vector, y = x theta + N(0, 0.1^2); bounds ||x|| <= 1, |y| <= 1; epsilon = 1; test MSE of
AdaSSP against OLS over RUNS runs.
"""

import sys
import warnings

import numpy as np

import dpcov


def load_diabetes():
    data = np.genfromtxt("data/diabetes.csv", delimiter=",", names=True)
    bounds = np.genfromtxt("data/diabetes_bounds.csv", delimiter=",", names=True, dtype=None,
                           encoding="utf-8")
    names = data.dtype.names
    lo = {str(b[0]): float(b[1]) for b in bounds}
    hi = {str(b[0]): float(b[2]) for b in bounds}
    cols = [2 * (np.asarray(data[n], dtype=float) - lo[n]) / (hi[n] - lo[n]) - 1 for n in names]
    table = np.column_stack(cols)
    return table[:, :-1], table[:, -1]


def ols(X, y):
    design = np.column_stack([np.ones(len(y)), X])
    return np.linalg.lstsq(design, y, rcond=None)[0]


def r2(theta, X, y):
    pred = theta[0] + X @ theta[1:]
    return 1.0 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2)


def ag_ridge(X, y, eps, seed, constant, bound):
    """Analyze Gauss release of [c, x, y] rows and ridge from it; None if indefinite."""
    rows = np.column_stack([np.full(len(y), constant), X, y])
    d = rows.shape[1]
    rng = dpcov.Rng(seed)
    with dpcov.GramAccumulator(d) as gram:
        gram.add_rows(rows, bound, "clip")
        released, receipt = gram.release("analyze_gauss", eps, 1e-6, rng)
    ridge = 2 * receipt.sigma * np.sqrt(d)
    try:
        fit = dpcov.regression_fit(released, len(y), d - 1, np.arange(1, d - 1), 0, ridge, 0.95)
    except dpcov.NotPositiveDefiniteError:
        return None
    theta = fit.coefficients.copy()
    theta[0] *= constant  # the intercept column holds c
    return theta


def diabetes(runs):
    X, y = load_diabetes()
    B = np.sqrt(X.shape[1])
    print(f"Diabetes: n = {len(y)} (80% train), d = {X.shape[1]}, delta = 1e-6, {runs} runs; "
          "median [10%, 90%] over runs")
    print(f"{'eps':>4} {'method':>16} {'coef error':>26} {'test R^2':>26} {'R^2>0':>6} {'failed':>6}")
    for eps in (0.5, 1.0, 2.0, 4.0):
        res = {m: ([], [], 0) for m in ("adassp", "adassp_point", "adassp_worst_case",
                                        "ag_ridge_before", "ag_ridge_one")}
        for r in range(runs):
            perm = np.random.default_rng(r).permutation(len(y))
            cut = int(0.8 * len(y))
            tr, te = perm[:cut], perm[cut:]
            exact = ols(X[tr], y[tr])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = dpcov.PrivateLinearRegression(epsilon=eps, bound=B, label_bound=1.0,
                                                    random_state=1000 + r).fit(X[tr], y[tr])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "no noise-aware intervals" at small epsilon
                point = dpcov.PrivateLinearRegression(epsilon=eps, bound=B, label_bound=1.0,
                                                      intervals=False,
                                                      random_state=1000 + r).fit(X[tr], y[tr])
                worst = dpcov.PrivateLinearRegression(epsilon=eps, bound=B, label_bound=1.0,
                                                      bound_epsilon=0.0,
                                                      random_state=1000 + r).fit(X[tr], y[tr])
            thetas = {"adassp": est.params_, "adassp_point": point.params_,
                      "adassp_worst_case": worst.params_,
                      "ag_ridge_before": ag_ridge(X[tr], y[tr], eps, 2000 + r,
                                                  np.sqrt(B * B + 1), np.sqrt(2 * (B * B + 1))),
                      "ag_ridge_one": ag_ridge(X[tr], y[tr], eps, 3000 + r, 1.0,
                                               np.sqrt(B * B + 2))}
            for m, theta in thetas.items():
                err, score, failed = res[m]
                if theta is None:
                    res[m] = (err, score + [0.0], failed + 1)
                    continue
                err.append(np.linalg.norm(theta - exact))
                score.append(r2(theta, X[te], y[te]))
        for m, (err, score, failed) in res.items():
            q = lambda v: (f"{np.median(v):8.3g} [{np.quantile(v, 0.1):7.3g}, {np.quantile(v, 0.9):7.3g}]"
                           if v else f"{'-':>26}")
            positive = sum(s > 0 for s in score)
            print(f"{eps:4g} {m:>16} {q(err):>26} {q(score):>26} {positive:>3}/{len(score):<2} {failed:>6}")
    base = [r2(ols(X[p[:353]], y[p[:353]]), X[p[353:]], y[p[353:]])
            for p in (np.random.default_rng(r).permutation(len(y)) for r in range(runs))]
    print(f"non-private OLS test R^2: median {np.median(base):.3f}")


def diabetes_rate(runs):
    X, y = load_diabetes()
    for eps in (1.0, 2.0):
        for share in (0.1, 0.0):
            scores = []
            for r in range(runs):
                perm = np.random.default_rng(r).permutation(len(y))
                tr, te = perm[:353], perm[353:]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est = dpcov.PrivateLinearRegression(
                        epsilon=eps, bound=np.sqrt(X.shape[1]), label_bound=1.0,
                        bound_epsilon=share, n_bootstrap=199,
                        random_state=1000 + r).fit(X[tr], y[tr])
                scores.append(r2(est.params_, X[te], y[te]))
            rate = np.mean(np.array(scores) > 0)
            half = 1.96 * np.sqrt(rate * (1 - rate) / runs)
            print(f"eps {eps:g}, bound_epsilon {share:g}: test R^2 > 0 in {rate:.3f} +- {half:.3f} "
                  f"of {runs} runs, median R^2 {np.median(scores):.3f}")


def synthetic(runs):
    n, d = 10000, 10
    ratios = []
    for r in range(runs):
        gen = np.random.default_rng(500 + r)
        theta = gen.normal(size=d)
        theta /= np.linalg.norm(theta)
        Xtr, Xte = (gen.normal(size=(n, d)) / (2 * np.sqrt(d)) for _ in range(2))
        ytr = Xtr @ theta + gen.normal(scale=0.1, size=n)
        yte = Xte @ theta + gen.normal(scale=0.1, size=n)
        exact = ols(Xtr, ytr)
        mse_ols = np.mean((yte - exact[0] - Xte @ exact[1:]) ** 2)
        est = dpcov.PrivateLinearRegression(epsilon=1.0, bound=1.0, label_bound=1.0,
                                            random_state=4000 + r).fit(Xtr, ytr)
        mse = np.mean((yte - est.predict(Xte)) ** 2)
        ratios.append(mse / mse_ols)
    print(f"Synthetic n = {n}, d = {d}, epsilon = 1, delta = 1e-6, {runs} runs: AdaSSP test MSE / "
          f"OLS test MSE median {np.median(ratios):.3f}, max {np.max(ratios):.3f}, "
          f"runs within 1.5x: {sum(x <= 1.5 for x in ratios)}/{runs}")


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    diabetes(runs)
    if len(sys.argv) > 2:
        diabetes_rate(int(sys.argv[2]))
    synthetic(runs)
