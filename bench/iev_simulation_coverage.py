"""Coverage of a simulation bootstrap for OLS from an IEV release (issue 15: "IEV by simulation
where feasible"), on the model of tests/statistical/ols_bootstrap_coverage_test.cpp: ten features,
x ~ N(0, I / 140), y = x' beta + N(0, 1/140), beta_j = +-0.1, B = 1, delta = 1e-6, the Gram matrix
of the n rows drawn as W_11(n, Sigma).

IEV's noise has no closed-form law, so each bootstrap world reruns IEV: from the release R, the
plug-in truth is X'X := R_XX, beta := R_XX^{-1} R_Xy, sigma^2 := (R_yy - R_Xy' beta) / (n - p);
a world draws X'y* = X'X beta + sigma L z (L L' = X'X) and y'y* = beta' X'X beta + 2 beta' sigma L z
+ sigma^2 chi2_n, releases the world's Gram matrix with IEV at the same (epsilon, B), and refits
OLS. The 95% interval of coordinate r mod 10 is the percentile interval of the refits, and the
"basic" one reflects it about the estimate. A repetition whose release has a singular feature
block has no interval (counted as not accepted).

Usage (from the repository root, after building; about 40 s at 100 repetitions, 199 draws):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/iev_simulation_coverage.py [REPS] [DRAWS]
"""

import sys
import warnings

import numpy as np
from scipy import stats

import dpcov
from dpcov import mechanism

P = 10
VARIANCE = 1.0 / 140.0
BETA = np.array([0.1 if j % 2 == 0 else -0.1 for j in range(P)])


def model_covariance() -> np.ndarray:
    sigma = np.zeros((P + 1, P + 1))
    sigma[:P, :P] = VARIANCE * np.eye(P)
    sigma[:P, P] = sigma[P, :P] = VARIANCE * BETA
    sigma[P, P] = VARIANCE * (BETA @ BETA + 1.0)
    return sigma


def iev(gram, n, epsilon, rng):
    return mechanism.release("iev", gram, n, 1.0, epsilon, 1e-6, rng).matrix


def world(xx, chol, beta, s, n, gen):
    """One bootstrap world's Gram matrix [X'X, X'y*; X'y*', y'y*] (fixed design)."""
    noise = s * (chol @ gen.standard_normal(P))
    out = np.empty((P + 1, P + 1))
    out[:P, :P] = xx
    out[:P, P] = out[P, :P] = xx @ beta + noise
    out[P, P] = beta @ xx @ beta + 2.0 * beta @ noise + s * s * gen.chisquare(n)
    return out


def setting(n, epsilon, reps, draws, seed):
    gen, rng = np.random.default_rng(seed), dpcov.Rng(seed)
    wishart = stats.wishart(df=n, scale=model_covariance())
    accepted = percentile = basic = 0
    widths = []
    for r in range(reps):
        gram = wishart.rvs(random_state=gen)
        released = iev((gram + gram.T) / 2, n, epsilon, rng)
        xx = released[:P, :P]
        try:
            chol = np.linalg.cholesky(xx)
            beta = np.linalg.solve(xx, released[:P, P])
        except np.linalg.LinAlgError:
            continue
        s = np.sqrt(max(released[P, P] - released[:P, P] @ beta, 0.0) / (n - P))
        refits = []
        for _ in range(draws):
            w = iev(world(xx, chol, beta, s, n, gen), n, epsilon, rng)
            try:
                refits.append(np.linalg.solve(w[:P, :P], w[:P, P]))
            except np.linalg.LinAlgError:
                pass
        j = r % P
        lo, hi = np.quantile(np.array(refits)[:, j], [0.025, 0.975])
        accepted += 1
        percentile += lo <= BETA[j] <= hi
        basic += 2 * beta[j] - hi <= BETA[j] <= 2 * beta[j] - lo
        widths.append(hi - lo)
    if accepted == 0:
        return f"| {epsilon:g} | {n} | 0/{reps} | n/a | n/a | n/a |"
    return (f"| {epsilon:g} | {n} | {accepted}/{reps} | {percentile / accepted:.3f} | "
            f"{basic / accepted:.3f} | {np.mean(widths):.4g} |")


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    draws = int(sys.argv[2]) if len(sys.argv) > 2 else 199
    warnings.simplefilter("ignore")  # the fixed seed's "not private" warning
    print(f"IEV simulation bootstrap, {reps} repetitions, {draws} draws, 95% intervals")
    print("| epsilon | n | accepted | percentile coverage | basic coverage | mean width |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in (1000, 10000, 100000):
        for epsilon in (0.5, 1.0):
            print(setting(n, epsilon, reps, draws, 7), flush=True)


if __name__ == "__main__":
    main()
