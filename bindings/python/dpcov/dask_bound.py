"""The private norm bound over a Dask array: a distributed histogram of row norms on the public grid.

Each partition measures its own rows' norms in the library (:func:`dpcov.private_bound.
row_histogram`, the norms measured as the Gram accumulator measures them) and returns only the
K + 1 counts per cell of the public grid; the counts add up the reduction tree, and the driver
runs the library's selection (``dpcov_private_bound_scan`` or ``dpcov_private_bound_select``)
on the summed histogram with its generator, which never leaves it. The histogram is private (it
moves inside the rows' trust boundary, like a Gram state); only the chosen B is published. The
same histogram and the same generator give the same B as the single-process
:func:`dpcov.private_bound.choose_bound`, whatever the partitions.

With privacy units the histogram counts each unit once, by the largest norm among its rows,
wherever they lie: a groupby of the partitions' partial maxima on the unit column
(:mod:`dpcov.dask_unit_histogram`), the B of the single-process
``PrivateCovariance(bound="auto").fit(X, privacy_unit=)`` with the same generator.
"""

from __future__ import annotations

import math

import dask.array as da
import numpy as np

from . import dask_frame, private_bound
from .dask import BOUNDING_FORMS, EXACT_MECHANISMS, dask_release, on_rows, row_partitions
from .dask_unit_histogram import add_counts, unit_norm_histogram
from .dask_units import MEMORY_BUDGET, check_unit_options, check_unit_proof
from .errors import at_share
from .gram import NUMERICS, GramAccumulator, numerics_value
from .ledger import active_accountant, release_in_steps
from .mechanism import PARAM_FIELDS
from .plan import Plan
from .private_bound import (AUTO_BOUND_GRID, AUTO_BOUND_QUANTILE, BOUND_STEP_SHARE,
                            bound_step_rest)
from .types import Receipt


def norm_histogram(x: da.Array, candidates: np.ndarray, split_every: int = 2) -> np.ndarray:
    """The histogram of the row norms of the n x d Dask array ``x`` over ``candidates``: each
    partition's counts (``dpcov_private_bound_histogram``) summed by a tree reduction. Private:
    pass it only to :func:`dpcov.private_bound.scan` or :func:`~dpcov.private_bound.select`."""
    candidates = np.ascontiguousarray(candidates, dtype=np.float64)

    def counts(block):  # the grid reaches a worker process as a view, possibly unaligned
        return private_bound.row_histogram(block, np.require(candidates, requirements=["C", "A"]))

    return row_partitions(x).reduction(on_rows(counts, True), add_counts,
                                       split_every=split_every).compute()


def public_rows(x: da.Array) -> int:
    """n, the number of rows of ``x``, which a quantile target uses (public under replace-one);
    refused when Dask does not know it (rows of unknown chunk sizes)."""
    n = x.shape[0]
    if not isinstance(n, int) and not (isinstance(n, float) and math.isfinite(n)):
        raise ValueError("the number of rows of x is unknown (x.compute_chunk_sizes() finds it); "
                         "or give clipped=, a public target that needs no n")
    return int(n)


def dask_private_bound(x: da.Array, epsilon: float, rng, quantile: float = AUTO_BOUND_QUANTILE,
                       lo: float = AUTO_BOUND_GRID["lo"], hi: float = AUTO_BOUND_GRID["hi"],
                       ratio: float = AUTO_BOUND_GRID["ratio"], clipped=None,
                       rule: str = "scan", split_every: int = 2, columns=None,
                       privacy_unit=None, groups=None, spill_dir=None,
                       memory_budget: int = MEMORY_BUDGET) -> float:
    """B for the rows of the Dask array ``x`` (or of the ``columns`` of a DataFrame), eps-DP, as
    :func:`dpcov.private_bound.choose_bound` chooses it (the same arguments, the same B with the
    same generator) from the histogram of :func:`norm_histogram`. An active
    :class:`dpcov.BudgetAccountant` is charged the pure epsilon.

    With ``privacy_unit`` (a Dask array of whole-number ids, one per row; for a DataFrame the
    name of its unit column, whole numbers or strings) the histogram counts units, each once by
    the largest norm among all its rows (:func:`dpcov.dask_unit_histogram.unit_norm_histogram`:
    each partition's largest cell per unit, not its rows, through spill files under
    ``spill_dir`` in ``groups`` groups of at most ``memory_budget`` bytes each), and the target is a number of units (the quantile's, of the U units): the B of
    ``PrivateCovariance(bound="auto").fit(X, privacy_unit=)`` in one process, whatever the
    partitions (proofs/private_bound.md, "Privacy units"). Every row of a unit counts, not only
    the k a release keeps, so k plays no part here."""
    if privacy_unit is not None:
        def histogram_of(candidates):
            return unit_norm_histogram(x, privacy_unit, candidates, groups, split_every,
                                       spill_dir, memory_budget, columns)
        n = None  # the quantile's n is U, the number of units the histogram counts
    else:
        rows = dask_frame.as_rows(x, columns)
        if clipped is not None:
            n = 0
        else:  # a frame's n is counted (dpcov.dask_frame); an array's must be known
            n = dask_frame.row_count(rows) if dask_frame.is_frame(x) else public_rows(rows)

        def histogram_of(candidates):
            return norm_histogram(rows, candidates, split_every)
    return private_bound.choose_bound_from(histogram_of, n, epsilon, rng, quantile, lo, hi,
                                           ratio, clipped, rule)


# The options of the unit groupby that the bound's histogram of units shares with the release.
UNIT_GROUPBY = ("groups", "spill_dir", "memory_budget")


def dask_release_auto(x: da.Array, epsilon: float, delta: float, rng,
                      mechanism="analyze_gauss", clipped=None, split_every: int = 2,
                      columns=None, **params):
    """``(release, B)``: the release of :func:`dpcov.dask.dask_release` at a bound B chosen by
    :func:`dask_private_bound`, as ``PrivateCovariance(bound="auto")`` splits the budget: B with
    ``BOUND_STEP_SHARE`` of ``epsilon`` by the scan over the grid 1e-6 to 1e9 at ratio 1.25,
    aiming at the 0.95 quantile of the norms (replace-one: the target uses n) or, with
    ``clipped``, at that public number of rows above B (either relation); the release spends the
    rest, rounded down so that the two never exceed ``epsilon``. The rows are read twice (the
    histogram, then the Gram states), and the generator is used in the same order as the
    single-process :func:`dpcov.private_bound.choose_bound` then :func:`dpcov.release_rows`.
    With ``privacy_unit`` and ``max_rows_per_unit`` B is chosen from the histogram of units
    (``clipped`` then a number of units, the quantile one of the units) with the groupby options
    ``groups``, ``spill_dir`` and ``memory_budget`` of the release of units that follows
    (:func:`dpcov.dask_units.dask_unit_release`); a mechanism without a unit proof is refused
    before any task runs. An active :class:`dpcov.BudgetAccountant` is checked for both steps
    before either draws, then charged each, or both as one release by an advanced ledger
    (:func:`dpcov.ledger.release_in_steps`, as ``PrivateCovariance(bound="auto")`` and the
    command line)."""
    units = params.get("privacy_unit")
    if {"privacy_unit", "max_rows_per_unit"} & set(params):
        check_unit_options(units, params.get("max_rows_per_unit"))
        check_unit_proof(mechanism)
    if clipped is None and str(params.get("neighbour", "replace_one")).replace("-", "_") \
            != "replace_one":
        raise ValueError("a quantile target uses the number of rows, which add_remove keeps "
                         "private: give clipped (a public number of rows above the bound)")
    bound_epsilon = BOUND_STEP_SHARE * float(epsilon)
    rest = bound_step_rest(float(epsilon), bound_epsilon)
    groupby = {key: params[key] for key in UNIT_GROUPBY if units is not None and key in params}
    released = None

    def share():
        return at_share(mechanism, rest, float(epsilon), "the private bound's step spends the "
                        "rest; a public bound gives the release all of it")

    # The release's spec checked before the bound step draws (the statement checks it too).
    with share():
        if active_accountant() is not None:
            released = release_statement(x, mechanism, rest, delta, columns, params)
        else:
            check_release_spec(release_columns(x, columns, params), mechanism, rest, delta,
                               params)
    with share(), release_in_steps(bound_epsilon, released):
        bound = dask_private_bound(x, bound_epsilon, rng, quantile=AUTO_BOUND_QUANTILE,
                                   clipped=clipped, split_every=split_every, columns=columns,
                                   privacy_unit=units, **AUTO_BOUND_GRID, **groupby)
        return dask_release(x, bound, rest, delta, rng, mechanism, split_every=split_every,
                            columns=columns, **params), bound


def release_columns(x, columns, params) -> int:
    """The number of columns the release reads: ``x``'s, or a frame's ``columns`` from its
    metadata, as the release picks them (its unit column left out)."""
    units = params.get("privacy_unit")
    if dask_frame.is_frame(x):
        unit = (units,) if units is not None and np.isscalar(units) else ()
        return len(dask_frame.numeric_columns(x, columns, exclude=unit))
    return int(x.shape[1])


def check_release_spec(cols: int, mechanism, epsilon: float, delta: float, params) -> int:
    """The release's bounding as the library checks it, at B = 1 and before anything is drawn
    (a policy the neighbour relation or units refuse, a bad bounding form): the bounded rows'
    d. ``policy="reject"`` is refused first: the bound is chosen with rows above it by design."""
    policy = params.get("policy", "clip")
    if policy == "reject":
        raise ValueError("an automatic bound is chosen with some rows above it by design, which "
                         "policy='reject' refuses after the bound step has spent its budget: use "
                         "policy='clip' (the default), or a public bound with reject")
    spec = {key: params[key] for key in BOUNDING_FORMS if key in params}
    if "max_rows_per_unit" in params:
        spec["max_rows_per_unit"] = params["max_rows_per_unit"]
    with GramAccumulator.bounded(cols, 1.0, policy, params.get("neighbour", "replace_one"),
                                 mechanism=mechanism, epsilon=epsilon, delta=delta,
                                 numerics=params.get("numerics", "exact"), **spec) as shape:
        return shape.info().dim


def release_statement(x, mechanism, epsilon: float, delta: float, columns, params) -> Receipt:
    """What the release of :func:`dask_release_auto` will state, planned before the bound step
    draws (``dpcov_plan_create`` at B = 1 with n counted at the release, as the command line
    plans ``--bound auto``): its epsilon, delta and rho do not depend on B or n. The bounded
    rows' d comes from an accumulator of the same bounding, which holds no row; a frame's
    columns from its metadata, as the release picks them (its unit column left out)."""
    cols = release_columns(x, columns, params)
    dim = check_release_spec(cols, mechanism, epsilon, delta, params)
    options = {key: value for key, value in params.items() if key in PARAM_FIELDS}
    exact = (numerics_value(params.get("numerics", "exact")) == NUMERICS["exact"]
             and mechanism in EXACT_MECHANISMS)
    with Plan(mechanism, dim, 0, 1.0, epsilon, delta, exact=exact, **options) as planned:
        return planned.receipt()
