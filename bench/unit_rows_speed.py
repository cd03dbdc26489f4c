"""dpcov_gram_add_unit_rows against dpcov_gram_add_raw_rows on the same rows, in one process:
250 000 x 50 uniform rows on [-0.2, 0.2], 3 rows per unit, k = 2 (every unit truncated, so the
sampler draws), exact Analyze Gauss at B = 1. Prints each call's seconds and their ratio, then
the SHA-256 of the exported unit state (its prefix): a change that keeps the output bits keeps it.

Usage (from the repository root, after building; not in any test suite):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/unit_rows_speed.py [repeats]
"""

import hashlib
import sys
import time

import numpy as np

import dpcov

N, D = 250_000, 50
SPEC = dict(bound=1.0, policy="clip", neighbour="replace_one", mechanism="analyze_gauss",
            epsilon=1.0, delta=1e-6, numerics="exact")


def main() -> None:
    x = np.random.default_rng(1).uniform(-0.2, 0.2, size=(N, D))
    ids = np.arange(N, dtype=np.int64) // 3
    state = b""
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        with dpcov.GramAccumulator.bounded(D, **SPEC) as g:
            start = time.perf_counter()
            g.add_raw_rows(x)
            raw = time.perf_counter() - start
        with dpcov.GramAccumulator.bounded(D, max_rows_per_unit=2, **SPEC) as g, \
                dpcov.Rng(7) as rng:
            start = time.perf_counter()
            g.add_unit_rows(x, ids, rng).finish_units()
            units = time.perf_counter() - start
            state = bytes(g.to_bytes())
        print(f"raw rows {raw:.3f} s, unit rows {units:.3f} s, ratio {units / raw:.1f}",
              flush=True)
    print("unit state sha256", hashlib.sha256(state).hexdigest()[:16])


if __name__ == "__main__":
    main()
