"""Data fission against selection at a weak direction: a one-dimensional simulation.

Along a direction u of the released X'X~ its strength is a~ = a + s e (s the noise sd of u'Eu), and
the pivot u'X'y~ - a~ t is Gaussian with variance c0 + s^2 t^2 at the true component t. The library
prints where a~ (de-noised) is at least 3 sds and hulls the interval with Fieller's set for t
(proofs/bootstrap_worlds.md): the printed releases are selected on the same noise the interval
reads. Data fission splits a Gaussian release into two independent ones: with W drawn afresh from
the noise's law, a~ + tau s w decides and a~ - s w / tau (noise variance s^2 (1 + 1 / tau^2))
gives the interval. Printed: the share of releases printing and the coverage of t by the printed
Fieller sets, for the rule on the release ("same") and fissions at tau = 1 and 2 (decision at 3,
or 2, sds of its own noise), and tau = 2 deciding on the fission but reading the whole release
("decide only").

    /usr/bin/python3 bench/data_fission_edge.py
"""

import numpy as np

Z = 1.959964


def fieller(a, b, c0, c2):
    """(bounded, low, high) of {t : (b - a t)^2 <= Z^2 (c0 + c2 t^2)}."""
    qa = a * a - Z * Z * c2
    qb = -2.0 * a * b
    qc = b * b - Z * Z * c0
    disc = qb * qb - 4.0 * qa * qc
    ok = (qa > 0) & (disc >= 0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    return ok, (-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)


def main(releases: int = 400_000) -> None:
    rng = np.random.default_rng(1)
    s, c0 = 1.0, 1.0
    for t in (1.0, 6.0):
        for a in (0.0, 1.0, 2.0, 3.0, 4.0, 5.0):
            e, w = rng.standard_normal(releases), rng.standard_normal(releases)
            b = a * t + np.sqrt(c0) * rng.standard_normal(releases)
            released = a + s * e
            rules = [
                ("same", released >= 3 * s, released, s),
                ("tau 2", released + 2 * s * w >= 3 * s * np.sqrt(5), released - s * w / 2,
                 s * np.sqrt(1.25)),
                ("tau 2, 2 sds", released + 2 * s * w >= 2 * s * np.sqrt(5),
                 released - s * w / 2, s * np.sqrt(1.25)),
                ("tau 1", released + s * w >= 3 * s * np.sqrt(2), released - s * w,
                 s * np.sqrt(2)),
                ("decide only", released + 2 * s * w >= 3 * s * np.sqrt(5), released, s),
            ]
            cells = []
            for name, decide, strength, sd in rules:
                bounded, lo, hi = fieller(strength, b, c0, sd * sd)
                shown = decide & bounded
                cover = ((lo <= t) & (t <= hi))[shown].mean() if shown.any() else float("nan")
                cells.append(f"{name}: {shown.mean():.4f} {cover:.3f}")
            print(f"t {t:g}, strength {a:g} sds | " + " | ".join(cells))


if __name__ == "__main__":
    main()
