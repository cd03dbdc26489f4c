"""How the private bound's scan lands for PCA's far-tail target, and what another split of its
epsilon between the threshold's noise and the queries' would change (measured, not built).

The scan (proofs/private_bound.md, "The scan") stops at the first candidate whose noisy count of
rows above it is at most the noisy target m; the library gives the threshold and every query
half of eps_B each (discrete Laplace, scale 2 / eps_B). At PCA's target (the 0.999 quantile:
m = floor(n / 1000)) a very negative threshold draw lets it run far past the data. This
simulates the rule with the threshold's share f of eps_B (scale 1 / (f eps_B); the queries'
1 / ((1 - f) eps_B)), checks the simulation at f = 1/2 against the library's own scan
(dpcov.private_bound.scan, the same rows), and tabulates, per cell, the share of choices in
[0.8 q, 2 q], above 10 q and below 0.8 q (q the target quantile of the rows' norms).

    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/scan_threshold_share.py [trials]
"""
import sys

import numpy as np

import dpcov
from dpcov import private_bound

EPS_B = 0.1  # a tenth of epsilon 1, the default share
SHARES = (0.5, 0.65, 0.75, 0.85)
CELLS = ((1000, 0.999), (10000, 0.999), (100000, 0.999), (10000, 0.95), (442, 0.95),
         (200, 0.95), (100, 0.95))


def discrete_laplace(gen, scale, size):
    """Integers with P(x) proportional to exp(-|x| / scale): a difference of geometrics."""
    r = np.exp(-1.0 / scale)
    return (gen.geometric(1 - r, size) - 1) - (gen.geometric(1 - r, size) - 1)


def simulated(counts_above, m, share, trials, gen):
    """Indices the scan with the threshold's share ``share`` of EPS_B chooses."""
    k = len(counts_above)
    tau = discrete_laplace(gen, 1 / (share * EPS_B), trials)
    nu = discrete_laplace(gen, 1 / ((1 - share) * EPS_B), (trials, k - 1))
    stop = counts_above[None, : k - 1] + nu <= m + tau[:, None]
    return np.where(stop.any(1), stop.argmax(1), k - 1)


def shares(bounds, q):
    return (np.mean((bounds >= 0.8 * q) & (bounds <= 2 * q)), np.mean(bounds > 10 * q),
            np.mean(bounds < 0.8 * q))


def main(trials):
    gen = np.random.default_rng(0)
    candidates = private_bound.grid()
    print("| n | quantile | m | share f | in [0.8q, 2q] | above 10q | below 0.8q |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n, quantile in CELLS:
        rows = gen.normal(size=(n, 5))
        norms = np.linalg.norm(rows, axis=1)
        q = np.quantile(norms, quantile)
        m = private_bound.quantile_target(quantile, n)
        above = np.array([(norms > b).sum() for b in candidates])
        counts = private_bound.row_histogram(rows, candidates)
        library = []
        with dpcov.Rng(1) as rng:
            for _ in range(min(trials, 1000)):
                library.append(private_bound.scan(counts, candidates, m, EPS_B, rng)[1])
        lib = shares(np.array(library), q)
        print(f"| {n} | {quantile} | {m} | library (1/2) | {lib[0]:.3f} | {lib[1]:.4f} | "
              f"{lib[2]:.3f} |")
        for f in SHARES:
            s = shares(candidates[simulated(above, m, f, trials, gen)], q)
            print(f"| {n} | {quantile} | {m} | {f} | {s[0]:.3f} | {s[1]:.4f} | {s[2]:.3f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
