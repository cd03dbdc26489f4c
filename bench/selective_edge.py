"""Selection-valid intervals at a weak direction: a one-dimensional simulation beside
bench/data_fission_edge.py (the same model).

Along a direction u of the released X'X~ its strength is a~ = a + s e, and the pivot
P(t) = u'X'y~ - a~ t is Gaussian with variance V(t) = c0 + s^2 t^2 at the true component t. The
library prints where a~ is at least 3 sds, and the printed intervals are read on the selected
releases. Conditioning on the selection repairs that (Lee, Sun, Sun and Taylor 2016; Tian and
Taylor 2018 for a randomised selection): for fixed t, e = g P + R with g = Cov(P, e s) / V(t) =
-s^2 t / V(t), and S = a~ - g P is independent of P and sufficient for a, so given S the law of P
is N(0, V(t)) weighted by the probability that the rule selects a~ = S + g P. The set of t whose
observed P lies in the middle 95% of that law covers t with probability 0.95 given the selection,
whatever a. Rules compared (share of releases printing a bounded set, its coverage of t):
- "as printed": the hard rule a~ >= 3 s, Fieller's set (the library's construction, unconditional);
- "given a~ >= c": the hard rule at c sds (3 as the library; 2 and 1), its conditional set (a
  truncated Gaussian);
- "randomised, tau 1": the rule a~ + tau s w >= 3 s (w ~ N(0, 1) drawn afresh), its conditional
  set (a Gaussian weighted by Phi((S + g P - 3 s) / (tau s))), reading all of a~;
- "no rule": Fieller's set wherever it is bounded (no selection but its own boundedness).
A set reaching the grid's ends is unbounded: it does not print, so the printed sets of a
conditional rule are selected a second time, on their own boundedness. t = 6, c0 = s = 1.

    /usr/bin/python3 bench/selective_edge.py [--releases 2000]
"""

import argparse

import numpy as np
from scipy.special import log_ndtr, ndtr

from data_fission_edge import fieller

ALPHA = 0.05


def upper_tail_hard(z, g, s_stat, a_min, sd):
    """P(Z >= z | g sd Z >= a_min - S), Z standard normal: the truncated law's upper tail."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        edge = (a_min - s_stat) / (g * sd)
        log_sf = lambda x: log_ndtr(-x)  # noqa: E731
        up = np.where(g > 0, np.exp(log_sf(np.maximum(z, edge)) - log_sf(edge)),
                      np.where(g < 0, 1 - np.exp(log_ndtr(np.minimum(z, edge)) - log_ndtr(edge)),
                               np.exp(log_sf(z))))
    return np.nan_to_num(up, nan=0.5)


def upper_tail_soft(z, g, s_stat, a_min, sd, tau_s):
    """P(Z >= z) under N(0, 1) weighted by Phi((S + g sd Z - a_min) / tau_s)."""
    def weight(x):
        return ndtr((s_stat[:, None] + (g * sd)[:, None] * x - a_min) / tau_s)
    # Both integrals on one grid of Z, so that their ratio is exact at the ends.
    xs = np.linspace(-9, 9, 721)
    dx = xs[1] - xs[0]
    dens = np.exp(-0.5 * xs ** 2) / np.sqrt(2 * np.pi)
    w = weight(xs[None, :]) * dens[None, :] * dx  # t x grid
    cum = np.cumsum(w[:, ::-1], axis=1)[:, ::-1]  # sum over x >= grid point
    idx = np.clip(np.searchsorted(xs, z), 0, len(xs) - 1)
    tail = cum[np.arange(len(z)), idx]
    total = cum[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(tail / total, nan=0.5)


def conditional_set(a_obs, b, c0, s, ts, rule, tau=None, a_min=3.0):
    v = c0 + s * s * ts ** 2
    sd = np.sqrt(v)
    p = b - a_obs * ts
    g = -s * s * ts / v
    s_stat = a_obs - g * p
    z = p / sd
    if rule == "hard":
        up = upper_tail_hard(z, g, s_stat, a_min * s, sd)
    else:
        up = upper_tail_soft(z, g, s_stat, a_min * s, sd, tau * s)
    ok = (up >= ALPHA / 2) & (up <= 1 - ALPHA / 2)
    if not ok.any():
        return True, np.nan, np.nan
    if ok[0] or ok[-1]:
        return False, np.nan, np.nan
    i = np.flatnonzero(ok)
    return True, ts[i[0]], ts[i[-1]]


RULES = (("given a~ >= 3", "hard", None, 3.0), ("given a~ >= 2", "hard", None, 2.0),
         ("given a~ >= 1", "hard", None, 1.0), ("randomised, tau 1", "soft", 1.0, 3.0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    s, c0, t = 1.0, 1.0, 6.0
    ts = np.linspace(-60, 60, 2401)
    for a in (1.0, 2.0, 3.0, 4.0, 5.0, 7.0):
        n = args.releases
        released = a + s * rng.standard_normal(n)
        b = a * t + np.sqrt(c0) * rng.standard_normal(n)
        w = rng.standard_normal(n)
        bounded, lo, hi = fieller(released, b, c0, s * s)
        fieller_hit = bounded & (lo <= t) & (t <= hi)
        cells = {}

        def tally(name, shown, hit):
            cells[name] = (shown.mean(), hit[shown].mean() if shown.any() else np.nan)

        tally("as printed", (released >= 3 * s) & bounded, fieller_hit)
        tally("no rule", bounded, fieller_hit)
        for name, rule, tau, a_min in RULES:
            shown = np.zeros(n, dtype=bool)
            hit = np.zeros(n, dtype=bool)
            for i in range(n):
                if rule == "hard" and released[i] < a_min * s:
                    continue
                if rule == "soft" and released[i] + tau * s * w[i] < a_min * s:
                    continue
                ok, low, high = conditional_set(released[i], b[i], c0, s, ts, rule, tau, a_min)
                shown[i] = ok and np.isfinite(low)
                hit[i] = shown[i] and low <= t <= high
            tally(name, shown, hit)
        print(f"strength {a:g} sds | " + " | ".join(
            f"{k}: {v[0]:.3f} {v[1]:.3f}" for k, v in cells.items()), flush=True)


if __name__ == "__main__":
    main()
