"""Coverage of the default regression's printed 95% intervals over generated models.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/interval_coverage.py [--fits R] [--models m,...] [--n n,...]
        [--d d,...] [--eps e,...] [--json FILE] [--option key=value ...]

Each cell (model, n, d, epsilon) runs R fits of dpcov.PrivateLinearRegression with its defaults
(bound = sqrt(d), label_bound = 1, delta = 1e-6; fit r seeded with r, its data with 10^6 + r) and
prints: the share of fits that print an interval, the coverage of every coefficient (intercept
included) by the printed intervals, the coverage of the worst-covered coefficient, and the
median width. A fit with no interval (NaN) is not counted in the coverage, only in the share; nor
is a fit that refuses (a Gram mechanism's release whose feature block is not positive definite).
Fit r draws the same noise seed r in every cell, so the cells of one mechanism share their noise
draws (scaled by each cell's constants, or, for the additive Wishart, from the same uniforms at
each epsilon's degrees of freedom), and a cell's sampling error in the noise is its neighbours'
too: a mechanism low in every cell may be one unlucky set of draws. --first R draws another.
wishart_additive on binary rows covered 0.934-0.938 in all four cells n in {1e4, 5e4} x epsilon
in {0.5, 1} from fits 0-199, and 0.949 (n = 5e4, epsilon 1, fits 1000-1199) and 0.954 (n = 1e4,
epsilon 0.5, fits 2000-2199) from others.
--json FILE keeps every cell's figures and, per method that answered ("bootstrap", "posterior",
...; "none" for fits without one), its fits and per coefficient its printed and covering
intervals: where a coefficient's misses come from.

Models, each mapped to the public domain [-1, 1] per column (a raw column z_j is clipped to the
public range [-c, c] and divided by c; the label likewise with its range c_y), so that
||x|| <= sqrt(d) and |y| <= 1 hold by construction:
- gaussian:  z ~ N(0, I), y = z beta + N(0, 1), c = 3;
- heavy:     z_j ~ Student t with 3 degrees of freedom, c = 10;
- hetero:    z ~ N(0, I), error sd proportional to |z_1| (sd |z_1|);
- ar1:       z ~ Gaussian AR(1) with correlation 0.9 between neighbouring columns;
- quadratic: y = z beta + (z_1^2 - 1) + N(0, 1) fitted without the square (misspecified);
- binary:    z_j in {-1, 1} with P(1) = 0.3, c = 1.
beta_j = (-1)^j / sqrt(d) (j = 1..d), c_y = 4 sd(y).

Other models (not in the default --models; name them to run them), each a way real data differ
from the models above. A column with public range [lo, hi] maps to 2 (z - lo) / (hi - lo) - 1:
- exponential: z_j ~ Exp(1), range [0, 8]: skewed regressors far from centred in the mapped space
  (mean -0.75), so the intercept depends on every slope through xbar;
- lognormal:   z_j ~ lognormal(0, 1), range [0, 20] (0.13% of values above it, clipped);
- skewerr:     z ~ N(0, I), errors (chi-square(1) - 1) / sqrt(2): skewed, mean 0, sd 1;
- scales:      z ~ N(0, I), range [-3, 3] for every column but the second's [-60, 60]: one column
  fills its range, one uses 5% of it (its mapped slope is 20 times as large, its standard error
  too);
- sparse:      z_j in {0, 1} with P(1) = 0.05, range [0, 1] (mapped to {-1, 1});
- strong:      z ~ N(0, I), errors N(0, 1/9): R^2 = 0.9;
- null:        z ~ N(0, I), beta = 0, errors N(0, 1);
- interaction: y = z beta + z_1 z_2 + N(0, 1) fitted without the product (misspecified; the
  projection is beta, the residual's variance grows with z_1^2 + z_2^2);
- collinear:   z ~ N(0, S), S_jk = 0.99 for j != k (equicorrelated), range [-3, 3];
- classlabel:  z ~ N(0, I), a class label y = +-1 with P(y = 1) = Phi(z beta), range [-1, 1]: a
  linear probability model (misspecified), every label on its bound, so the projection's
  residual sd is near B_Y;
- terr:        z ~ N(0, I), errors Student t with 3 degrees of freedom scaled to sd 1 (heavy-tailed
  errors, where `heavy` has heavy-tailed regressors);
- uniform:     z_j ~ U(-sqrt 3, sqrt 3), range [-sqrt 3, sqrt 3]: regressors that fill their range
  (E x_j^2 = 1/3, three times the Gaussian rows' 1/9);
- mixed:       z ~ N(0, I) with every other column (the first, third, ...) replaced by +-3 with
  probability 1/2 each: binary and continuous regressors together;
- outliers:    z ~ N(0, I), errors N(0, 1) and 1% of the labels shifted by +10 (most then clipped
  at c_y: the bound, not the model, decides them).
Every other label range is c_y = 4 sd(y) from the same public simulation.

The target of every interval is the
population least-squares coefficient of y on [1, x] of the mapped data (the projection, which is
beta / c scaled only where no clipping binds), computed once per (model, d) from 4 * 10^6 rows:
its own Monte Carlo error is below a tenth of the standard error at n = 5e4.

The count of fits R gives the coverage's sampling error: sqrt(0.95 * 0.05 / (R p)) for p
coefficients per fit if they were independent (0.0077 at R = 200, p = 4).

--band LO,HI tests issue 33's band: a cell fails when its printed coverage lies outside [LO, HI]
by more than its sampling error allows, one-sided exact binomial tails at the band's edge on k / 2
intervals (design effect 2: the coefficients of one fit are correlated); and so does each
coefficient of a cell on its own k intervals (one a fit: independent), since a pooled cell hides
one coefficient that misses (a slope covering 29 of 57 in a cell pooling 0.90-0.96). Each test
is at --family-alpha / (number of tests: cells and coefficients with an interval), so that cells
and coefficients covering at the band's edges fail together with probability at most
--family-alpha. --min-printed with --printed-from N applies only to the cells with n >= N.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings

import numpy as np
from scipy.stats import binom

import dpcov

MODELS = ("gaussian", "heavy", "hetero", "ar1", "quadratic", "binary")
RANGES = {"gaussian": 3.0, "heavy": 10.0, "hetero": 3.0, "ar1": 3.0, "quadratic": 3.0,
          "binary": 1.0}
OTHER_MODELS = ("exponential", "lognormal", "skewerr", "scales", "sparse", "strong", "null",
                "interaction", "collinear", "classlabel", "terr", "uniform", "mixed", "outliers")


def other_ranges(model: str, d: int):
    """(lo, hi): the public range of each raw column of an other model."""
    lo, hi = {"exponential": (0.0, 8.0), "lognormal": (0.0, 20.0), "sparse": (0.0, 1.0),
              "uniform": (-math.sqrt(3.0), math.sqrt(3.0))}.get(model, (-3.0, 3.0))
    lo, hi = np.full(d, lo), np.full(d, hi)
    if model == "scales" and d > 1:
        lo[1], hi[1] = -60.0, 60.0
    return lo, hi


def other_raw(model: str, n: int, d: int, rng: np.random.Generator):
    """(z, y_raw) of an other model, in raw units."""
    beta = np.array([(-1.0) ** j for j in range(1, d + 1)]) / math.sqrt(d)
    if model == "null":
        beta[:] = 0.0
    if model == "exponential":
        z = rng.exponential(size=(n, d))
    elif model == "lognormal":
        z = rng.lognormal(size=(n, d))
    elif model == "sparse":
        z = np.where(rng.random((n, d)) < 0.05, 1.0, 0.0)
    elif model == "collinear":
        z = math.sqrt(0.99) * rng.standard_normal((n, 1)) \
            + math.sqrt(0.01) * rng.standard_normal((n, d))
    elif model == "uniform":
        z = rng.uniform(-math.sqrt(3.0), math.sqrt(3.0), size=(n, d))
    else:
        z = rng.standard_normal((n, d))
    if model == "mixed":
        z[:, ::2] = np.where(rng.random((n, (d + 1) // 2)) < 0.5, 3.0, -3.0)
    if model == "skewerr":
        e = (rng.chisquare(1, n) - 1.0) / math.sqrt(2.0)
    elif model == "terr":
        e = rng.standard_t(3, n) / math.sqrt(3.0)
    else:
        e = rng.standard_normal(n) / (3.0 if model == "strong" else 1.0)
    y = z @ beta + e
    if model == "interaction":
        y += z[:, 0] * z[:, 1]
    if model == "outliers":
        y = np.where(rng.random(n) < 0.01, y + 10.0, y)
    if model == "classlabel":
        y = np.where(y > 0.0, 1.0, -1.0)  # P(y = 1) = P(e > -z beta) = Phi(z beta)
    return z, y


def raw(model: str, n: int, d: int, rng: np.random.Generator):
    """(z, y_raw): the model's regressors and label in raw units."""
    if model in OTHER_MODELS:
        return other_raw(model, n, d, rng)
    beta = np.array([(-1.0) ** j for j in range(1, d + 1)]) / math.sqrt(d)
    if model == "heavy":
        z = rng.standard_t(3, size=(n, d))
    elif model == "ar1":
        z = np.empty((n, d))
        z[:, 0] = rng.standard_normal(n)
        for j in range(1, d):
            z[:, j] = 0.9 * z[:, j - 1] + math.sqrt(1 - 0.81) * rng.standard_normal(n)
    elif model == "binary":
        z = np.where(rng.random((n, d)) < 0.3, 1.0, -1.0)
    else:
        z = rng.standard_normal((n, d))
    e = rng.standard_normal(n)
    if model == "hetero":
        e *= np.abs(z[:, 0])
    y = z @ beta + e
    if model == "quadratic":
        y += z[:, 0] ** 2 - 1.0
    return z, y


def label_range(model: str, d: int) -> float:
    """c_y = 4 sd(y), from a public simulation of the model (not of any user's data); a class
    label's range is its two values."""
    if model == "classlabel":
        return 1.0
    _, y = raw(model, 200_000, d, np.random.default_rng(7))
    return 4.0 * float(np.std(y))


def mapped(model: str, n: int, d: int, rng: np.random.Generator, c_y: float):
    z, y = raw(model, n, d, rng)
    if model in OTHER_MODELS:
        lo, hi = other_ranges(model, d)
        x = 2.0 * (z - lo) / (hi - lo) - 1.0
    else:
        x = z / RANGES[model]
    return np.clip(x, -1.0, 1.0), np.clip(y / c_y, -1.0, 1.0)


def truth(model: str, d: int, c_y: float, rows: int = 4_000_000) -> np.ndarray:
    """The population least-squares coefficients [intercept, slopes] of the mapped model."""
    rng = np.random.default_rng(99)
    xtx = np.zeros((d + 1, d + 1))
    xty = np.zeros(d + 1)
    for _ in range(rows // 500_000):
        x, y = mapped(model, 500_000, d, rng, c_y)
        a = np.column_stack([np.ones(len(y)), x])
        xtx += a.T @ a
        xty += a.T @ y
    return np.linalg.solve(xtx, xty)


def estimator_options(pairs) -> dict:
    """Estimator parameters from ``key=value`` strings, each value read as JSON."""
    return {k: json.loads(v) for k, v in (o.split("=", 1) for o in pairs)}


class Tally:
    """Intervals (one row [lower, upper] per coefficient, NaN or inf where none) against a target:
    the fits with any finite interval, and per coefficient the finite ones and those covering."""

    def __init__(self, target: np.ndarray):
        self.target = target
        self.fits = self.printed = 0
        self.hits = np.zeros(len(target))
        self.shown = np.zeros(len(target))
        self.widths: list = []

    def add(self, ci: np.ndarray) -> np.ndarray:
        ok = np.all(np.isfinite(ci), axis=1)
        self.fits += 1
        self.printed += bool(ok.any())
        self.hits += ok & (ci[:, 0] <= self.target) & (self.target <= ci[:, 1])
        self.shown += ok
        self.widths.extend((ci[ok, 1] - ci[ok, 0]).tolist())
        return ok

    @property
    def counted(self) -> int:
        return int(self.shown.sum())

    def coverage(self) -> float:
        return float(self.hits.sum() / self.counted) if self.counted else float("nan")

    def worst(self) -> float:
        seen = self.shown > 0
        return float(np.min(self.hits[seen] / self.shown[seen])) if seen.any() else float("nan")

    def median_width(self) -> float:
        return float(np.median(self.widths)) if self.widths else float("nan")


def recomputed(est) -> np.ndarray:
    """Every interval the fit's method computes, from a fresh stream of its seed; the printed
    ones where that stream's bootstrap refuses (a fit at the edge of what X'X~ supports: a few
    of the bootstrap's worlds not positive definite) or where no method answered."""
    if est.interval_method_ is None:
        return est.conf_int_
    try:
        return est.noise_aware_intervals()[2]
    except dpcov.DpcovError:
        return est.conf_int_


DESIGN_EFFECT = 2.0


def band_tails(hits: int, k: int, lo: float, hi: float,
               design_effect: float = DESIGN_EFFECT) -> tuple:
    """(P(at most the hits | rate lo), P(at least the hits | rate hi)) on k / design_effect
    intervals with the hits scaled alike: how far below lo and above hi the coverage lies."""
    k_eff = max(1, round(k / design_effect))
    h_eff = round(hits / design_effect)
    return float(binom.cdf(h_eff, k_eff, lo)), float(binom.sf(h_eff - 1, k_eff, hi))


def default_fit(model: str, n: int, d: int, eps: float, r: int, c_y: float, **options):
    """Fit r of a cell: the default PrivateLinearRegression (with `options`) on data seed
    10^6 + r, noise seed r; a refused fit has NaN coefficients and intervals."""
    x, y = mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
    est = dpcov.PrivateLinearRegression(epsilon=eps, delta=1e-6, bound=math.sqrt(d),
                                        label_bound=1.0, random_state=r, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(x, y)
    return est


def cell(model, n, d, eps, fits, target, c_y, options, unconditional=False, first=0,
         printed_only=False):
    printed, computed = Tally(target), Tally(target)
    by_method: dict = {}  # the printed intervals of each method that answered
    answered = 0
    for r in range(first, first + fits):
        est = default_fit(model, n, d, eps, r, c_y, **options)
        answered += est.interval_method_ is not None
        printed.add(est.conf_int_)
        by_method.setdefault(est.interval_method_ or "none", Tally(target)).add(est.conf_int_)
        # Every interval the method computed, the inconclusive ones too (printed as NaN): the
        # coverage of the method, apart from the rule that decides what is printed.
        if not printed_only:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                computed.add(recomputed(est))
    tally = computed if unconditional else printed
    return {"model": model, "n": n, "d": d, "epsilon": eps, "fits": fits,
            "printed": printed.printed / fits, "answered": answered / fits,
            "intervals": tally.counted,
            "coverage": tally.coverage(), "worst_coefficient": tally.worst(),
            "coefficient_coverage": (tally.hits / np.maximum(tally.shown, 1)).tolist(),
            "coefficient_intervals": tally.shown.tolist(),
            "median_width": tally.median_width(),
            "printed_share": float(printed.shown.sum() / (fits * len(target))),
            "hits": int(tally.hits.sum()),
            "printed_coverage": printed.coverage(), "computed_coverage": computed.coverage(),
            "methods": {m: {"fits": t.fits, "coefficient_hits": t.hits.tolist(),
                            "coefficient_intervals": t.shown.tolist()}
                        for m, t in by_method.items()},
            "computed_median_width": computed.median_width()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fits", type=int, default=200)
    ap.add_argument("--first", type=int, default=0,
                    help="the first fit's index r (fits r, r + 1, ...: their seeds as above)")
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated, of " + ", ".join(MODELS + OTHER_MODELS))
    ap.add_argument("--n", default="500,2000,10000,50000")
    ap.add_argument("--d", default="3,10")
    ap.add_argument("--eps", default="0.5,1,4")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check", default=None, metavar="LO,HI",
                    help="exit 1 unless every cell's coverage (where intervals were printed) is "
                         "in [LO, HI]")
    ap.add_argument("--min-intervals", type=int, default=0,
                    help="with --check, test only the cells with at least this many intervals "
                         "(fewer give a coverage too noisy to test)")
    ap.add_argument("--band", default=None, metavar="LO,HI",
                    help="exit 1 unless every cell's coverage is within [LO, HI] up to its "
                         "sampling error (see above)")
    ap.add_argument("--family-alpha", type=float, default=0.01,
                    help="with --band, the chance that cells covering at the band's edges fail")
    ap.add_argument("--min-printed", type=float, default=0.0,
                    help="with --check or --band, also exit 1 unless every cell's share of fits "
                         "that print an interval is at least this")
    ap.add_argument("--printed-from", type=int, default=0,
                    help="apply --min-printed only to the cells with n >= this")
    ap.add_argument("--min-answered", type=float, default=0.0,
                    help="with --check, also exit 1 unless every cell's share of fits whose "
                         "method answered (intervals computed, printed or not) is at least this")
    ap.add_argument("--unconditional", action="store_true",
                    help="check and tabulate as coverage every interval computed, also those "
                         "printed as NaN because they cover every value that matters (fits "
                         "without intervals still count as none); the share is of fits that "
                         "print one")
    ap.add_argument("--printed-only", action="store_true",
                    help="skip recomputing every interval (half the time where the posterior "
                         "answers); the computed columns are then NaN")
    ap.add_argument("--option", action="append", default=[],
                    help="an estimator parameter, key=value (value read as JSON)")
    args = ap.parse_args(argv)
    options = estimator_options(args.option)
    rows = []
    print("| model | n | d | epsilon | share with an interval | coverage | worst coefficient "
          "| median width | coefficients printed | printed coverage | computed coverage "
          "| computed median width |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for model in args.models.split(","):
        for d in (int(v) for v in args.d.split(",")):
            c_y = label_range(model, d)
            target = truth(model, d, c_y)
            for n in (int(float(v)) for v in args.n.split(",")):
                for eps in (float(v) for v in args.eps.split(",")):
                    row = cell(model, n, d, eps, args.fits, target, c_y, options,
                               args.unconditional, args.first, args.printed_only)
                    rows.append(row)
                    print(f"| {model} | {n} | {d} | {eps:g} | {row['printed']:.2f} | "
                          f"{row['coverage']:.3f} | {row['worst_coefficient']:.3f} | "
                          f"{row['median_width']:.3g} | {row['printed_share']:.2f} | "
                          f"{row['printed_coverage']:.3f} | {row['computed_coverage']:.3f} | "
                          f"{row['computed_median_width']:.3g} |", flush=True)
    bad, short = [], []
    if args.check:
        lo, hi = (float(v) for v in args.check.split(","))
        bad = [r for r in rows if r["intervals"] >= max(args.min_intervals, 1)
               and not lo <= r["coverage"] <= hi]
    if args.band:
        lo, hi = (float(v) for v in args.band.split(","))
        tested = [r for r in rows if r["intervals"] >= 1]
        coefficients = [(r, j, round(c * k), int(k)) for r in tested
                        for j, (c, k) in enumerate(zip(r["coefficient_coverage"],
                                                       r["coefficient_intervals"])) if k >= 1]
        alpha = args.family_alpha / max(1, len(tested) + len(coefficients))
        for r in tested:
            below, above = band_tails(r["hits"], r["intervals"], lo, hi)
            if min(below, above) < alpha:
                bad.append(r)
        for r, j, hits, k in coefficients:
            if min(band_tails(hits, k, lo, hi, design_effect=1.0)) < alpha:
                print(f"coefficient {j} covers {hits} of {k}, outside [{lo}, {hi}]: "
                      f"{r['model']} n = {r['n']} d = {r['d']} epsilon = {r['epsilon']}",
                      file=sys.stderr)
                if r not in bad:
                    bad.append(r)
    for r in bad:
        print(f"coverage {r['coverage']:.3f} of {r['intervals']} outside [{lo}, {hi}]: "
              f"{r['model']} n = {r['n']} d = {r['d']} epsilon = {r['epsilon']}", file=sys.stderr)
    if args.check or args.band:
        shares = (("printed", args.min_printed, "of fits print an interval", args.printed_from),
                  ("answered", args.min_answered, "of fits answered", 0))
        short = [(r, key, least, what) for key, least, what, first in shares for r in rows
                 if r["n"] >= first and r[key] < least]
        for r, key, least, what in short:
            print(f"{r[key]:.2f} {what}, below {least}: {r['model']} n = {r['n']} "
                  f"d = {r['d']} epsilon = {r['epsilon']}", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 1 if bad or short else 0


if __name__ == "__main__":
    sys.exit(main())
