"""What centring on a CoinPress private mean costs the CoinPress covariance (proofs/coinpress_mean.md,
"Centring"): the Mahalanobis error ||Sigma^-1/2 S Sigma^-1/2 - I||_F, 10%-trimmed mean of 100
trials, Sigma = I, rho = 0.5, K = 10 sqrt(d), t = 3 (issue 18's setting):
(a) rows with mean 0 and all of rho on the covariance (the mean known);
(b) the same rows shifted by 10 in every coordinate, dpcov.coinpress_centred_release (rho / 8 on
    the mean, prior radius 100 sqrt(d), scale sqrt(K); 7 rho / 8 on the covariance).

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/coinpress_centring.py
Committed output: bench/results/coinpress_centring.md.
"""
import numpy as np
from scipy import stats
import dpcov

for d, n in [(10, 3000), (10, 8000)]:
    k = 10 * np.sqrt(d)
    a, b = [], []
    gen = np.random.default_rng(d * n)
    with dpcov.Rng(seed=1) as rng:
        for _ in range(100):
            x = gen.standard_normal((n, d))
            a.append(np.linalg.norm(dpcov.coinpress_release(x, k, rng, rho=0.5).covariance - np.eye(d)))
            out = dpcov.coinpress_centred_release(x + 10.0, k, 100 * np.sqrt(d), rng, rho=0.5)
            b.append(np.linalg.norm(out.covariance - np.eye(d)))
    print(f"d={d} n={n}: known mean {stats.trim_mean(a, 0.1):.4f}, "
          f"centred on the private mean {stats.trim_mean(b, 0.1):.4f}")
