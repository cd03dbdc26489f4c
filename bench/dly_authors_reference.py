#!/usr/bin/python3
"""The authors' own curves for Dong, Liang, Yi (NeurIPS 2022), Figs. 1 and 2(b), as numbers.

The authors published their figures as images only, and their repository
(github.com/hkustDB/PrivateCovariance) commits the scripts that drew them but no result file. This
script runs their published functions (imported from a checkout of that repository, nothing of it
copied here) at the settings of the scripts the README maps to the figures, and prints the mean
Frobenius error of their GaussCov, SeparateCov and AdaptiveCov per (n, d), with the standard error
and median over the runs, as JSON; and of the two with the eigenvector pairing the paper states
(SeparateEigh, AdaptiveEigh: separate_eigh below), which isolate the one place where their code and
the paper differ in a way the errors show. bench/dly_vs_authors.py compares dpcov against the result.

Settings, as in test_d_N1.py (Fig. 1: N = 1, every row of norm 1; n in {1000, 4000, 16000}) and
test_d.py (Fig. 2(b): Zipf row norms, s = 3, N = 4, n = 50000): rho = 0.1, r = 1, beta = 0.1,
d in {10, 20, 30, 50, 70, 100, 200, 400, 800}, 50 runs, the dataset of run k at the j-th d from
their seed list entry k * 9 + j (gen_synthetic_data_fix), the error ||X^T X / n - release||_F.
Their scripts also run the exponential mechanism and CoinPress between the data and the three
mechanisms; this script does not (they are not compared, and at d = 800 they take most of the
time), so the noise comes from other points of the same generators: the same distribution, not
the same draws. Their noise is not reproducible in any case (AdaptiveCov's trace and sparse vector
draw from numpy's unseeded generator).

Needs python3-torch (Debian), numpy, scipy and scikit-learn.

  /usr/bin/python3 bench/dly_authors_reference.py CHECKOUT FIGURE [runs] [n ...] > out.json
  FIGURE: 1 or 2b. DLY_MAX_D=D in the environment skips the d above D (a quick check).
"""
import json
import math
import os
import sys
import time


def main():
    checkout, figure = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    if figure == "1":
        script, zipf_buckets, ns = "test_d_N1.py", 1, [1000, 4000, 16000]
    elif figure == "2b":
        script, zipf_buckets, ns = "test_d.py", 4, [50000]
    else:
        sys.exit("FIGURE must be 1 or 2b")
    if len(sys.argv) > 4:
        ns = [int(a) for a in sys.argv[4:]]
    ds = [10, 20, 30, 50, 70, 100, 200, 400, 800]
    if "DLY_MAX_D" in os.environ:
        ds = [d for d in ds if d <= int(os.environ["DLY_MAX_D"])]

    sys.path.insert(0, checkout)
    os.chdir(checkout)  # their modules open nothing, but keep any relative path theirs
    import torch
    import adaptive.algos
    from adaptive.algos import AdaptiveCov, GaussCov, SeparateCov
    from functions import gen_synthetic_data_fix

    torch.set_num_threads(1)
    speed_up_wigner_matrix()
    speed_up_bincounts()
    seeds = seed_list(os.path.join(checkout, script))
    m = 9  # their seed index k * m + j uses the full d grid
    full_ds = [10, 20, 30, 50, 70, 100, 200, 400, 800]

    class Args:  # the fields AdaptiveCov reads from parse_args()
        total_budget, beta, r = 0.1, 0.1, 1.0

    points = []
    for n in ns:
        for d in ds:
            j = full_ds.index(d)
            errors = {k: [] for k in ("Gauss", "Separate", "Adaptive", "SeparateEigh",
                                      "AdaptiveEigh")}
            started = time.time()
            for k in range(runs):
                x = gen_synthetic_data_fix(d, n, 3, zipf_buckets, seed=seeds[k * m + j])
                cov = torch.mm(x.t(), x) / n
                args = Args()
                args.n, args.d = n, d
                releases = {
                    "Gauss": GaussCov(x.clone(), n, d, 0.1, b_fleig=True),
                    "Separate": SeparateCov(x.clone(), n, d, 0.1, b_fleig=True),
                    "Adaptive": AdaptiveCov(x.clone(), args),
                    "SeparateEigh": separate_eigh(x.clone(), n, d, 0.1),
                }
                adaptive.algos.SeparateCov = separate_eigh_clamped
                releases["AdaptiveEigh"] = AdaptiveCov(x.clone(), args)
                adaptive.algos.SeparateCov = SeparateCov
                for name, release in releases.items():
                    errors[name].append(float(torch.norm(cov - release, "fro")))
            point = {"n": n, "d": d, "runs": runs}
            for name, values in errors.items():
                point[name] = summary(values)
            points.append(point)
            print(f"n={n} d={d} {time.time() - started:.0f}s "
                  + " ".join(f"{k}={point[k]['mean']:.5f}" for k in errors),
                  file=sys.stderr, flush=True)
    json.dump({"figure": figure, "script": script, "rho": 0.1, "r": 1.0, "beta": 0.1,
               "zipf_buckets": zipf_buckets, "points": points}, sys.stdout, indent=1)
    print()


def speed_up_wigner_matrix():
    """Their get_gauss_wigner_matrix fills the symmetric matrix in a Python double loop (seconds at
    d = 800). This one fills it from the same draws in the same order, checked bit for bit."""
    import torch
    import adaptive.algos
    import adaptive.utils

    def wigner(d):
        z = torch.normal(0, 1, size=(1, int(d * (d + 1) / 2)))
        rows, cols = torch.triu_indices(d, d)  # row-major, as their loop
        w = torch.empty([d, d])
        w[rows, cols] = z[0]
        w[cols, rows] = z[0]
        return w

    for d in (1, 2, 7, 30):
        torch.manual_seed(d)
        theirs = adaptive.utils.get_gauss_wigner_matrix(d)
        torch.manual_seed(d)
        assert torch.equal(theirs, wigner(d)), "the Wigner matrix differs from theirs"
    adaptive.algos.get_gauss_wigner_matrix = wigner


def speed_up_bincounts():
    """Their get_bincounts loops in Python over the n rows (minutes at n = 50000 over 50 runs).
    This one computes the same bucket of each row norm (float32, as theirs: l = -floor(log2 x),
    then l + 1 unless x > 2^-l, at least 1, counted below t) on the whole vector, checked equal to
    theirs on row norms at and around powers of two and on random ones."""
    import numpy as np
    import torch
    import adaptive.algos
    import adaptive.utils

    def bincounts(x_norm, n, t, k1=0):
        x = x_norm.reshape(-1)[:n].numpy().astype(np.float32)
        level = -np.floor(np.log2(x)).astype(np.int64)
        level += ~(x.astype(np.float64) > np.exp2(-level.astype(np.float64)))
        level = np.maximum(level, 1)
        counts = np.zeros(t)
        np.add.at(counts, level[level < t], 1)
        return counts

    generator = torch.Generator().manual_seed(1)
    powers = torch.tensor([2.0 ** -k for k in range(0, 60)])
    tricky = torch.cat([powers, torch.nextafter(powers, torch.zeros(1)),
                        torch.nextafter(powers, torch.full((1,), 2.0)),
                        torch.rand(5000, generator=generator) ** 8,
                        torch.rand(5000, generator=generator)]).to(torch.float32)
    for t in (3, 81):
        norms = tricky.reshape(-1, 1)
        assert np.array_equal(adaptive.utils.get_bincounts(norms, len(tricky), t),
                              bincounts(norms, len(tricky), t)), "bucket counts differ"
    adaptive.algos.get_bincounts = bincounts


def separate_eigh(x, n, d, rho, r=1.0):
    """Their SeparateCov with the pairing the paper states (Alg. 1): the noisy matrix's
    eigendecomposition, the i-th smallest noisy eigenvalue with the i-th eigenvector. Theirs takes
    an SVD of the noisy matrix, which is indefinite: for a negative eigenvalue the right singular
    vector is minus the left one, so U diag(lambda~) V^T adds -lambda~ u u^T there, and the
    pairing is by |eigenvalue|. Everything else (noise, scales, clamp to [0, r^2]) is theirs."""
    import numpy as np
    import torch
    from adaptive.algos import GaussCov
    from adaptive.utils import get_gauss_noise_vector

    cov = torch.mm(x.t(), x) / n
    cov_gauss = GaussCov(x, n, d, 0.5 * rho, r=r)
    _, vectors = torch.linalg.eigh(cov_gauss)
    values = torch.linalg.eigvalsh(cov)
    z = get_gauss_noise_vector(d)
    noisy = torch.clamp(values + r * r * np.sqrt(2) / n / np.sqrt(rho) * z, 0, r * r)
    return torch.mm(vectors, torch.mm(torch.diag(noisy), vectors.t()))


def separate_eigh_clamped(x, n, d, rho, r=1.0, b_fleig=True):
    """separate_eigh with SeparateCov's signature, for AdaptiveCov's call."""
    return separate_eigh(x, n, d, rho, r)


def seed_list(path):
    """The `seeds = [...]` literal of one of their scripts."""
    text = open(path).read()
    start = text.index("seeds = [") + len("seeds = [")
    return [int(s) for s in text[start:text.index("]", start)].replace("\n", "").split(",")]


def summary(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    ordered = sorted(values)
    median = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
    return {"mean": mean, "se": math.sqrt(var / n), "median": median}


if __name__ == "__main__":
    main()
