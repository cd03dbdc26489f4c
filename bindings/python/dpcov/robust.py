"""Robust (sandwich) noise-aware intervals for AdaSSP (proofs/sandwich.md): the meat
sum_i r_i^2 x_i x_i' at the fit's coefficients, released by Analyze Gauss with its own share of the
budget, replaces the homoscedastic sampling noise of the bootstrap. Used by
:class:`~dpcov.PrivateLinearRegression` with ``errors="robust"`` (its default)."""

from __future__ import annotations

import numpy as np

from .adassp import SandwichBudget, sandwich_rows
from .gram import GramAccumulator, bound_rows
from .mechanism import plan

CHUNK_ROWS = 65536
"""Rows bounded and turned into meat rows at a time (memory O(chunk), whatever n)."""

ROBUST = ("robust to heteroscedastic errors and, for the least-squares projection, to a "
          "misspecified mean (sandwich variance; residuals clipped at 2 label_bound)")
"""What the robust intervals assume, stated in ``inference_``."""


def meat_plan(p: int, budget: SandwichBudget, neighbour: str):
    """The public receipt of the meat's Analyze Gauss release of p x p, what an accountant checks
    before the fit (its constants do not depend on n)."""
    return plan("analyze_gauss", p, 1, budget.meat_row_bound, budget.meat_epsilon,
                budget.meat_delta, neighbour=neighbour)


def release_meat(rows: np.ndarray, bounding: dict, beta0: np.ndarray, bound_x: float,
                 budget: SandwichBudget, neighbour: str, rng):
    """(meat, receipt): the meat of the raw rows ``rows`` ([x, y]) bounded as the fit read them
    (``bounding``: the keyword arguments of :func:`dpcov.gram.bound_rows`), at the fit's
    coefficients ``beta0``, released by Analyze Gauss at (meat_epsilon, meat_delta) with exact
    numerics. An active accountant is checked and charged by the release."""
    p = len(beta0)
    gram = GramAccumulator.bounded(p, budget.meat_row_bound, "clip", neighbour,
                                   mechanism="analyze_gauss", epsilon=budget.meat_epsilon,
                                   delta=budget.meat_delta)
    with gram:
        for start in range(0, rows.shape[0], CHUNK_ROWS):
            bounded, _ = bound_rows(rows[start:start + CHUNK_ROWS], **bounding)
            gram.add_raw_rows(sandwich_rows(bounded, beta0, bound_x, budget.residual_bound))
        return gram.release("analyze_gauss", budget.meat_epsilon, budget.meat_delta, rng,
                            neighbour=neighbour)
