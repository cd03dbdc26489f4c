"""The centred PCA subspace bound with exact numerics (the grid's rounding included,
proofs/grid_rounding.md) beside idealized numerics, and the actual distance to the rows' own
subspace: d = 5, B = 4 (no row clipped), columns with sd 0.5 to 0.05, k = 2, one fit per cell.

    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/pca_grid_rounding.py
"""
import warnings

import numpy as np

from dpcov.learn import PrivatePCA


def actual_distance(x: np.ndarray, components: np.ndarray, k: int) -> float:
    centred = x - x.mean(0)
    _, vectors = np.linalg.eigh(centred.T @ centred / len(x))
    u = vectors[:, -k:]
    v = components.T
    return float(np.linalg.svd(v - u @ (u.T @ v), compute_uv=False).max())


def main() -> None:
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(1)
    print("| n | epsilon | exact: bound / actual | idealized: bound / actual |")
    print("| --- | --- | --- | --- |")
    for n in (10_000, 100_000):
        x = rng.standard_normal((n, 5)) @ np.diag([3, 2, 1, 0.5, 0.3]) / 6
        for eps in (1, 4, 1e8):
            cells = []
            for numerics in ("exact", "idealized"):
                pca = PrivatePCA(n_components=2, epsilon=eps, delta=1e-6, bound=4.0,
                                 numerics=numerics, random_state=3).fit(x)
                cells.append(pca)
            text = [f"{p.subspace_error_.sin_theta_bound:.3g} / "
                    f"{actual_distance(x, p.components_, 2):.3g}" for p in cells]
            print(f"| {n} | {eps:g} | {text[0]} | {text[1]} |")


if __name__ == "__main__":
    main()
