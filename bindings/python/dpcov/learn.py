"""Scikit-learn style estimators over private releases: covariance, PCA, linear regression.

They are scikit-learn estimators (``sklearn.base.BaseEstimator`` subclasses when scikit-learn is
installed; the same interface without it): constructor arguments are the parameters, ``fit``
returns ``self``, fitted attributes end in ``_``, ``get_params``/``set_params``/``clone`` work,
methods of an unfitted estimator raise ``NotFittedError``, and ``check_estimator`` passes (the
regression declares scikit-learn's ``poor_score`` tag: binding README). Each ``fit`` makes ONE private release and derives
everything else by post-processing (no further privacy cost); the release and its receipt stay on
the fitted estimator (``release_``, ``receipt_``), so later computations spend nothing.

Inputs are what scikit-learn accepts: lists, integers, float32, strided or non-contiguous arrays
are converted once to float64 (the low-level API keeps its no-silent-copy rule). A NaN or an
infinity is reported at the user's own (0-based) row and column, before anything is released.
The receipt and ``n_clipped_`` are the curator's (proofs/public_receipt.md): publish
``receipt_.public()``.

Privacy parameters: ``epsilon``, ``delta`` and ``bound`` (B, a public bound on the Euclidean norm
of each row of X, chosen without looking at the data). Rows over the bound are handled by
``policy``: ``"clip"`` (scaled down to norm B and counted in ``n_clipped_``), ``"reject"`` (an
error naming the row and the bound) or ``"drop"`` (refused under replace-one, whatever the rows:
dropping would make the public n depend on the data). The library bounds the rows: each fit hands
its raw rows to it in chunks. The number of rows is treated as public, as under the default
replace-one neighbour relation. Under add/remove neighbours
(``mechanism_options={"neighbour": "add_remove"}``, or ``neighbour="add_remove"`` for the
regression) n is private: every fitted attribute but the curator's (``receipt_``,
``n_clipped_``) depends on the data only through the release, a count where one is needed being
the release's own (its constant column: n + noise), and ``n_samples_`` is that released count;
a fit that needs n but releases no count is refused before anything is released
(bindings/python/tests/test_neighbour_outputs.py).

``random_state``: None draws the noise from the library's default generator (seeded from the
operating system's entropy: the only choice for a private release);
an int seed is reproducible and not private if the seed is known (experiments and tests only):
every clone, copy or pickle of the estimator holds the same seed and so draws the same noise, and
two fits on neighbouring datasets give away X^T X - X'^T X' exactly (the receipt records
``seed_fixed = 1`` and each fit warns with a :class:`~dpcov.learn.SeededNoiseWarning`); a
:class:`~dpcov.Rng` is used and advanced (a seeded one, copied with the estimator, repeats its
noise as an int does and warns alike).
"""

from __future__ import annotations

import contextlib
import math
import numbers
import reprlib
import warnings

import numpy as np

from . import _arrays
from . import estimators as _est
from . import column_bounds as _column_bounds
from .adassp import AdasspAnswer, AdasspFit as AdasspFitType
from .adassp_units import UNITS_NO_INTERVALS, adassp_units_fit, balanced_x_bound
from .adassp import (CALIBRATIONS, NEIGHBOURS, adassp_bootstrap_intervals, adassp_fit,
                     adassp_intervals, adassp_plan, adassp_sandwich_intervals, sandwich_plan)
from .forecast import adassp_default_fit, regression_forecast
from .centring import centre_second_moment
from .errors import (DpcovError, NotPositiveDefiniteError, PreconditionError, at_share,
                     caller_stacklevel, rows_of_caller)
from .exact import exact_plan
from ._generated import DPCOV_INTERVAL_DRAWS, DPCOV_PCA_AUTO_BOUND_QUANTILE
from .gram import (GramAccumulator, _has_exact_numerics, check_unit_column,
                   coefficient_factors, numerics_value, unit_ids)
from .ledger import PrivacyLeakWarning, active_accountant, release_in_steps, warn_refit
from .ols import bootstrap_draws_check, ols_intervals, ols_jl
from .mechanism import plan
from .private_bound import (AUTO_BOUND_GRID, AUTO_BOUND_QUANTILE, BOUND_STEP_SHARE,
                            bound_step_rest, choose_bound, choose_bound_from, quantile_target,
                            tighten_bound_rows, unit_histogram)
from .registry import mechanism_info
from .postprocess import constant_rescale, gram_estimate, psd_project
from .rng import Rng, as_rng
from .robust import ROBUST, meat_plan, release_meat
from .types import Neighbour, Receipt, enum_value, mechanism_id

try:  # scikit-learn is optional: the estimators work without it, and are its own with it.
    from sklearn.base import BaseEstimator, RegressorMixin, TransformerMixin
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_array, check_is_fitted, check_X_y
except ImportError:  # pragma: no cover - exercised only where scikit-learn is absent
    from ._sklearn_fallback import (BaseEstimator, NotFittedError, RegressorMixin,
                                    TransformerMixin, check_array, check_is_fitted, check_X_y)

__all__ = ["NotFittedError", "PrivateCovariance", "PrivateLinearRegression", "PrivatePCA",
           "SeededNoiseWarning"]

CHUNK_ROWS = 8192
"""Rows per augmented chunk copied while accumulating."""

POLICIES = ("clip", "reject", "drop")
"""Accepted ``policy`` values."""


def _release_rng(random_state, stacklevel: int) -> Rng:
    """The generator of a fit's release, with a SeededNoiseWarning when it is seeded (an int, or
    a seeded :class:`~dpcov.Rng`): the seed travels with every clone, copy and pickle of the
    estimator (scikit-learn's ``clone`` in cross-validation makes one per fold), so clones fitted
    on neighbouring datasets draw the same noise and the difference of their releases is the
    exact difference of the Gram matrices."""
    rng = as_rng(random_state)
    if rng.seed_fixed:
        warnings.warn(f"random_state={random_state!r} is a fixed seed: the release is reproducible "
                      f"and not private to anyone who knows the seed, and every clone, copy or "
                      f"pickle of this estimator draws the same noise (two fits on neighbouring "
                      f"data give away the difference of their Gram matrices exactly); use "
                      f"random_state=None for a private release", SeededNoiseWarning,
                      stacklevel=stacklevel)
    return rng


def _choice(value, allowed, name: str) -> str:
    """``value`` lower-cased, '-' read as '_' (the command line's "add-remove"), if it is one of
    ``allowed``; ValueError naming them otherwise."""
    key = value.strip().lower().replace("-", "_") if isinstance(value, str) else None
    if key in allowed:
        return key
    raise ValueError(f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}")


def _first_non_finite(arr: np.ndarray, name: str) -> None:
    """ValueError naming the first NaN or infinity of ``arr`` by its (0-based) row and column."""
    finite = np.isfinite(arr)
    if finite.all():
        return
    where = tuple(int(i) for i in np.argwhere(~finite)[0])
    value = arr[where]
    text = "NaN" if np.isnan(value) else ("inf" if value > 0 else "-inf")
    position = (f"row {where[0]}, column {where[1]}" if len(where) == 2 else f"row {where[0]}")
    raise ValueError(f"Input {name} contains {text} at {position} (0-based); "
                     f"remove or impute it before fitting")


def _unreadable(a, name: str, ndim: int, error: Exception, otherwise=None) -> str:
    """Why scikit-learn refused ``a`` (with ``error``), in words that never quote its values
    (its own messages do: "array=[...]", "could not convert string to float: '...'"): its own
    only where ``a`` holds no value or is sparse (refused as such); ``otherwise()`` where ``a``
    itself reads (the fault is elsewhere)."""
    if _sparse(a):
        return str(error)
    problem = _arrays.describe_unreadable(a, name, ndim)
    if problem:
        return problem
    try:
        empty = np.asarray(a).size == 0
    except (ValueError, TypeError):
        empty = False
    if empty:
        return str(error)
    return (otherwise() if otherwise else "") or (
        f"{name} ({type(a).__name__}) cannot be read as rows of real numbers; pass a dense 2-D "
        f"array of numbers")


def _sparse(a) -> bool:
    """Whether ``a`` is a SciPy sparse matrix or array (scikit-learn's refusal names only that)."""
    try:
        from scipy.sparse import issparse
    except ImportError:  # pragma: no cover - SciPy comes with scikit-learn
        return False
    return issparse(a)


def _read_rows(X, name: str = "X") -> np.ndarray:
    """``X`` as scikit-learn's check_array reads it (float64, 2-D, feature names kept by the
    caller), refused in words that never quote its values; the error is raised outside the
    check's so that no traceback chain carries them either."""
    try:
        return check_array(X, dtype=np.float64, force_all_finite=False)
    except (ValueError, TypeError) as error:
        problem = _unreadable(X, name, 2, error)
    raise _arrays.refusal_type(X)(problem)


def _read_labelled_rows(X, y):
    """``X`` and ``y`` as check_X_y reads them, then y as float64, refused as ``_read_rows``."""
    try:
        X, y = check_X_y(X, y, dtype=np.float64, force_all_finite=False, y_numeric=True)
        return X, _arrays.real_array(y, "y", 1)
    except (ValueError, TypeError) as error:
        problem = _unreadable(X, "X", 2, error, lambda: _label_problem(X, y))
        kind = _arrays.refusal_type(X)
    raise kind(problem)


def _label_problem(X, y) -> str:
    """Why ``y`` does not go with the readable ``X``, without quoting a value of either."""
    if y is None:
        return "this estimator requires y to be passed, but the target y is None"
    problem = _arrays.describe_unreadable(y, "y", 1)
    if problem and np.ndim(np.asarray(y, dtype=object)) == 2 and np.shape(y)[1] == 1:
        problem = _arrays.describe_unreadable(y, "y", 2)  # a column is read as scikit-learn does
    return problem or (f"y must hold one value per row of X: X has shape {np.shape(X)}, y has "
                       f"shape {np.shape(y)}")


def _check_bounds_pair(bounds, message: str) -> None:
    """ValueError ``message`` unless ``bounds`` is a pair (a scalar has no length)."""
    try:
        pair = not isinstance(bounds, (str, bytes)) and len(bounds) == 2
    except TypeError:  # no length: a number
        pair = False
    if not pair:
        raise ValueError(f"{message}; got {reprlib.repr(bounds)}")


def _validate_X(est, X, reset: bool, names_from=None) -> np.ndarray:
    """X as a finite 2-D float64 array (one conversion, as scikit-learn does), its feature names
    (of a DataFrame: ``names_from``, by default ``X``) kept at fit and checked after it."""
    if hasattr(est, "_check_feature_names"):
        est._check_feature_names(X if names_from is None else names_from, reset=reset)
    X = _read_rows(X)
    if not (X.flags.c_contiguous or X.flags.f_contiguous):
        # The library reads rows in place in either layout, not from any strides.
        X = np.ascontiguousarray(X)
    _first_non_finite(X, "X")
    if hasattr(est, "_check_n_features"):
        est._check_n_features(X, reset=reset)
    elif reset:
        est.n_features_in_ = X.shape[1]
    return X


def _n_private(options) -> bool:
    """Whether ``mechanism_options`` ask for add/remove neighbours, under which the number of rows
    is private (a value the library refuses is left to the release to name)."""
    try:
        return (enum_value(Neighbour, dict(options or {}).get("neighbour", 0))
                == Neighbour.ADD_REMOVE)
    except (KeyError, ValueError, TypeError):
        return False


def _public_rows(receipt, rows: int) -> int:
    """The number of rows where the release's neighbour relation makes it public (replace-one),
    else 0: take the count from the release's constant column (``centre_second_moment``)."""
    return 0 if receipt.neighbour == Neighbour.ADD_REMOVE else rows


class ClippingWarning(UserWarning):
    """Rows were over the norm bound and were scaled down to it (the count is the curator's)."""


class SeededNoiseWarning(UserWarning):
    """A release drew its noise from a fixed seed (an int ``random_state`` or a seeded
    :class:`~dpcov.Rng`): reproducible, not private if the seed is known, and repeated by every
    clone, copy or pickle of the estimator."""


def _neighbour_name(n_private: bool) -> str:
    """The neighbour relation a fit's rows are bounded for (the drop policy is refused under
    replace-one by the library, whatever the rows)."""
    return "add_remove" if n_private else "replace_one"


def _refused_row(error: DpcovError, start: int, bound: float, label_bound=None):
    """The library's refusal of a row under ``policy='reject'`` as a ValueError naming the user's
    row (``start`` + the chunk's row, which the library returns as data) and the bound it broke.
    The message names no value of the row: tracebacks reach shared notebooks and worker logs."""
    refusal = getattr(error, "refusal", None)
    if getattr(error, "row", None) is None or refusal is None or refusal.norm_rest == 0.0:
        return error
    i = start + error.row
    if refusal.label:
        return ValueError(f"y[{i}] is outside [-label_bound, label_bound] with "
                          f"label_bound = {label_bound} (policy='reject')")
    return ValueError(f"row {i} of X (0-based, X[{i}]) has Euclidean norm > bound = {bound} "
                      f"(policy='reject'); raise the bound or use policy='clip'")


def _accumulate(gram: GramAccumulator, X: np.ndarray, y=None, bound=None, label_bound=None):
    """Hands the raw rows of X (and y as a last column) to ``gram`` in chunks of CHUNK_ROWS; the
    library bounds them. A refused row is reported at the user's row index."""
    for start in range(0, X.shape[0], CHUNK_ROWS):
        stop = min(start + CHUNK_ROWS, X.shape[0])
        chunk = X[start:stop] if y is None else np.column_stack((X[start:stop], y[start:stop]))
        try:
            gram.add_raw_rows(chunk)
        except DpcovError as e:
            refused = _refused_row(e, start, bound, label_bound)
            if refused is e:
                raise
            raise refused from None
    return gram


def _noise_mean_removed(released, receipt):
    """The release's estimate of G, what every estimate reads (``second_moment_`` keeps the
    release): the release less the mean its mechanism adds (``gram_estimate``, the kernel's one
    rule; proofs/gram_estimate.md). The additive Wishart adds dof * scale * I on average, the JL
    ridge w^2 I, and the inverse Wishart releases (G + w^2 I) / (m - d - 1) on average; read as
    drawn they inflate a covariance's diagonal, a count read off the constant column and, in a
    regression, act as a ridge penalty."""
    return gram_estimate(released, receipt)[0]


def _centred(unbiased, constant: float, rows: int):
    """``(location, covariance, count)`` of a release whose column 0 held ``constant``
    (``centre_second_moment``; ``rows`` public or 0). Where the released count is below 1 (the
    noise swamps the number of rows, add/remove) the refusal is an output, as in the
    regressions: NaN location and covariance and a warning, while the release, paid for, stays
    in ``second_moment_`` for any other post-processing."""
    try:
        return centre_second_moment(unbiased, 0, constant, rows)
    except PreconditionError as e:
        d = unbiased.shape[0] - 1
        warnings.warn(f"no location and no covariance (NaN): {e}; the release is kept in "
                      f"second_moment_ (its budget is spent)", UserWarning,
                      stacklevel=caller_stacklevel())
        return np.full(d, np.nan), np.full((d, d), np.nan), np.nan


def _warn_clipped(clipped: int, rows: int, bound: float, n_public: bool) -> None:
    """Clipping is never silent: the count (the accumulator's, the curator's) and, only when
    ``n_public`` (replace-one), the number of rows."""
    if not clipped:
        return
    total = f" of {rows}" if n_public else ""
    warnings.warn(f"{clipped}{total} rows are over the bound {bound:g} and were scaled "
                  "down to it, which shrinks the release towards 0"
                  + (" (EVERY row: the bound is far below the data's scale)"
                     if n_public and clipped == rows else "")
                  + "; curator only: the count is not for publication", ClippingWarning,
                  stacklevel=caller_stacklevel())


def _is_auto(bound) -> bool:
    """Whether ``bound`` asks for a privately chosen bound ("auto", any case and spacing)."""
    return isinstance(bound, str) and bound.strip().lower() == "auto"


def _check_auto_policy(bound, policy: str) -> None:
    """A private bound is chosen near a quantile, so some rows lie above it by design: refusing
    them (``policy='reject'``) would fail the fit after the bound step had spent its share."""
    if _is_auto(bound) and policy == "reject":
        raise ValueError("bound='auto' chooses a bound with some rows above it by design, which "
                         "policy='reject' refuses after the bound step has spent its budget: use "
                         "policy='clip' (the default) with 'auto', or a public bound with reject")


def _check_mechanism(mechanism, extra=()) -> None:
    """ValueError naming the mechanisms when ``mechanism`` is not one."""
    if isinstance(mechanism, str) and mechanism.strip().lower() in extra:
        return
    try:
        mechanism_id(mechanism)
    except (KeyError, ValueError, TypeError):
        from .types import Mechanism
        names = [m.name.lower() for m in Mechanism] + list(extra)
        raise ValueError(f"mechanism must be one of {', '.join(repr(n) for n in names)}; "
                         f"got {mechanism!r}") from None


DEFAULT_BOUND = 1.0
"""The norm bound used when neither ``bound`` nor ``bounds`` is given (with a warning)."""

PCA_AUTO_QUANTILE = DPCOV_PCA_AUTO_BOUND_QUANTILE
"""The quantile of the rows' norms that ``PrivatePCA(bound="auto")`` aims at: far in the tail, so
that the rows it clips barely move the covariance and ``subspace_error_`` covers the distance to
the data's own subspace, not only to that of the clipped rows (at 0.95 it held in 0.70 of releases
on heavy-tailed rows; tests/bindings test_pca_auto_bound.py)."""


ERRORS = ("robust", "homoscedastic")
"""Accepted values of ``PrivateLinearRegression.errors``."""

HOMOSCEDASTIC = ("assumes a linear model with constant error variance, given the design; "
                 "heteroscedastic or misspecified data can make it too narrow")
"""What the noise-aware bootstrap intervals assume, stated in ``inference_``."""

DEFERRED = ("intervals='deferred': the statistics they need were released, noise_aware_intervals() "
            "computes them")
"""``inference_`` of a fit with ``intervals="deferred"``."""

DEFERRED_ANSWERS = {method: AdasspAnswer(*([None] * 6), method=method)
                    for method in ("bootstrap", "posterior")}
"""The robust fit's rule with ``intervals="deferred"`` (``_robust_supported``), which computes no
interval: the method that would answer, "bootstrap" (the meat is released) or "posterior" (it is
not)."""


def _is_flag(value) -> bool:
    """Whether ``value`` is a bool (Python's or NumPy's)."""
    return isinstance(value, (bool, np.bool_))


def _check_flags(est, *names: str) -> None:
    """ValueError unless each parameter ``names`` of ``est`` is True or False: a string such as
    'no' is truthy and would ask for the opposite of what it says."""
    for name in names:
        value = getattr(est, name)
        if not _is_flag(value):
            raise ValueError(f"{name} must be True or False, got {value!r}")


def _check_numbers(est, privacy_unit) -> None:
    """ValueError for a privacy parameter given as a bool or a string (True would be read as 1,
    "1" parsed), a k that is not a whole number >= 1, or a k without ``privacy_unit``, which
    would give row-level protection to a caller who asked for units."""
    for name in ("epsilon", "delta", "bound", "label_bound"):
        value = getattr(est, name, None)
        # A bound's other strings are named with their choices where it is read, and a bound of
        # None is the default's warning.
        privacy = name in ("epsilon", "delta")
        if isinstance(value, (bool, np.bool_)) or (privacy and (
                isinstance(value, str) or (value is None and hasattr(est, name)))):
            raise ValueError(f"{name} must be a number, got {value!r}")
    k = getattr(est, "max_rows_per_unit", None)
    if k is None:
        return
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real) or k != int(k) or k < 1:
        raise ValueError(f"max_rows_per_unit must be a whole number >= 1, got {k!r}")
    if privacy_unit is None:
        raise ValueError("max_rows_per_unit applies to a fit by privacy unit: pass "
                         "fit(..., privacy_unit=ids), or drop max_rows_per_unit for row level")


def _defaulted_bound(value, what: str, advice: str, stacklevel: int = 4,
                     auto: bool = False) -> float:
    """``value``, or DEFAULT_BOUND with a PrivacyLeakWarning naming the options when the caller
    gave none: a bound must come from knowledge of the data's domain, not a default."""
    if value is not None:
        try:
            return float(value)
        except (TypeError, ValueError):
            problem = (f"{what} must be a number > 0{' or ' + repr('auto') if auto else ''}, "
                       f"got {value!r}")
        raise ValueError(problem)
    warnings.warn(f"no {what} given: using {what}={DEFAULT_BOUND:g}, which says nothing about your "
                  f"data's units; {advice}", PrivacyLeakWarning, stacklevel=stacklevel)
    return DEFAULT_BOUND


def _norm_bound(est) -> float:
    """``est.bound`` (the norm bound of each row), or DEFAULT_BOUND with a warning."""
    return _defaulted_bound(est.bound, "bound", "pass bounds=(lower, upper) (public per-column "
                            "ranges in your units) or bound=B (on the Euclidean norm of each row)",
                            auto=True)


def _warn_clamped(clamped: int) -> None:
    """Clamping to ``bounds`` is never silent (the count is the curator's)."""
    if clamped:
        warnings.warn(f"{clamped} values were outside their bounds and were clamped to them, "
                      "which biases the release towards the ranges; curator only: the count is "
                      "not for publication", ClippingWarning, stacklevel=4)


class _Estimator(BaseEstimator):
    """The shared release step."""

    def _forget_fit(self) -> bool:
        """Forgets the attributes of the previous fit, so that a fit that fails leaves none of
        them beside its own (a release drawn before the failure stays, as drawn). Returns
        whether there was a previous release: fitting again spends the budget again."""
        released = hasattr(self, "receipt_")
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)
        return released

    def _release_gram(self, gram: GramAccumulator, rng: Rng, epsilon=None):
        """Release once from ``gram`` with ``rng`` (``_release_rng``: it warns of a seed) and
        ``epsilon`` (by default the estimator's), and free it; returns (release, info,
        receipt)."""
        options = dict(self.mechanism_options or {})
        epsilon = self.epsilon if epsilon is None else epsilon
        with gram:
            info = gram.info()
            released, receipt = gram.release(self.mechanism, epsilon, self.delta, rng, **options)
        return released, info, receipt

    def _releases_exactly(self) -> bool:
        """Whether this fit's release has exact numerics (a mechanism the registry gives them,
        and ``numerics="exact"``)."""
        return numerics_value(self.numerics) == 1 and _has_exact_numerics(self.mechanism)

    def _bounded_gram(self, cols: int, epsilon=None, **bounding) -> GramAccumulator:
        """A bounded accumulator for this fit's release of ``self.mechanism`` with ``epsilon``
        (by default the estimator's) in ``self.numerics`` (checks the mechanism and warns on a
        refit first)."""
        _check_mechanism(self.mechanism)
        return GramAccumulator.bounded(
            cols, mechanism=self.mechanism, epsilon=self.epsilon if epsilon is None else epsilon,
            delta=self.delta, numerics=self.numerics, **bounding)

    @contextlib.contextmanager
    def _auto_bound(self, X: np.ndarray, dim: int, rng, units=None):
        """``bound="auto"``: yields (B, the release's epsilon) for the release made in the
        block. B is chosen from the rows' norms, eps_B-DP with eps_B = BOUND_STEP_SHARE *
        epsilon, by the sparse vector scan over the CLI's grid (1e-6 to 1e9 at ratio 1.25;
        dpcov.private_bound.choose_bound), aiming at the 0.95 quantile (the target floor(0.05 n)
        uses n: replace-one only) or, with ``bound_clipped``, at that public number of rows above
        B (no n: either neighbour relation); the release spends the rest (``bound_step_rest``).
        An active accountant is checked for both steps before either draws, then charged for
        each, or for both as one release by an advanced ledger
        (:func:`dpcov.ledger.release_in_steps`, as the command line). With ``units`` (the int64
        unit id of each row, ``gram.unit_ids``) each unit counts once, by its largest row norm
        (proofs/private_bound.md, "Privacy units"), and the target counts units: as the command
        line's ``--bound auto --privacy-unit``."""
        options = dict(self.mechanism_options or {})
        clipped = self.bound_clipped
        if (clipped is None
                and str(options.get("neighbour", "replace_one")).replace("-", "_") != "replace_one"):
            raise ValueError("bound='auto' aims at a quantile of the public number of rows, which "
                             "add_remove keeps private: give bound_clipped (a public number of "
                             "rows above the bound, no n needed), a public bound or bounds")
        epsilon = float(self.epsilon)
        bound_epsilon = BOUND_STEP_SHARE * epsilon
        rest = bound_step_rest(epsilon, bound_epsilon)
        released = None
        def share():
            return at_share(self.mechanism, rest, epsilon, "the private bound's step spends "
                             "the rest; a public bound gives the release all of it")

        with share():
            if active_accountant() is not None:
                # The release's own plan: an exact release is charged its exact constants.
                planner = exact_plan if self._releases_exactly() else plan
                released = planner(self.mechanism, dim, X.shape[0], 1.0, rest, self.delta,
                                   **options)
                released = released[0] if planner is exact_plan else released
        with share(), release_in_steps(bound_epsilon, released):
            if units is None:
                chosen = choose_bound(X, bound_epsilon, rng, quantile=AUTO_BOUND_QUANTILE,
                                      clipped=clipped, **AUTO_BOUND_GRID)
            else:
                chosen = choose_bound_from(lambda grid: unit_histogram(X, units, grid),
                                           None, bound_epsilon, rng,
                                           quantile=AUTO_BOUND_QUANTILE, clipped=clipped,
                                           **AUTO_BOUND_GRID)
            self.bound_ = chosen
            yield chosen, rest


class PrivateCovariance(_Estimator):
    """Differentially private covariance (and mean) from one release of the Gram matrix.

    Args:
        epsilon, delta: the privacy budget of the release.
        bound: public bound B on the Euclidean norm of each row of X (default: 1, with a
            PrivacyLeakWarning when ``bounds`` is not given either), or ``"auto"``: B chosen
            from the data, differentially private, with a tenth of ``epsilon``
            (``BOUND_STEP_SHARE``) near the 0.95 quantile of the rows' norms (replace-one;
            ``bound_`` after fit; the receipt's epsilon is the release's share; rows above B are
            clipped with a ClippingWarning). The choice is the sparse vector scan of
            :func:`dpcov.private_bound.scan` (proofs/private_bound.md, "The scan").
        bound_clipped: with ``bound="auto"``, aim at this public number of rows above B instead
            of the 0.95 quantile (the CLI's ``--bound-clipped``). It needs no n, so the bound step
            is also eps_B-DP under ``mechanism_options={"neighbour": "add_remove"}``, where the
            estimates divide by the released count (see below).
        bounds: ``(lower, upper)``, public per-column ranges of X in its own units (scalars or
            one value per column). Each column is mapped to [-1, 1] (values outside are
            clamped: ClippingWarning), a constant 1 is put in front, and the Gram matrix of
            those rows is released with norm bound sqrt(d + 1) (proofs/column_bounds.md);
            ``second_moment_`` is then the release's estimate of the second moment of [1, x]
            mapped to the user's units (its noise mean removed, its constant entry rescaled to
            the 1 it held: post-processing, unlike the release as drawn that the other paths
            keep), and the mean and covariance are in the user's units. Excludes ``bound``.
        mechanism: any Gram-releasing mechanism name or id (default ``"analyze_gauss"``). The
            estimates read the release's estimate of the Gram matrix (:func:`dpcov.gram_estimate`:
            the additive Wishart's, the JL ridge's and the inverse Wishart's noise mean removed,
            unbiased; IEV's and Kapralov-Talwar's release as drawn, whose bias has no closed
            form); ``second_moment_`` is the release itself.
        assume_centered: if True, release X^T X / n as the covariance (no mean); if False
            (default), release the Gram matrix of [B, x] rows and centre with the noisy mean.
            Under add/remove the count is the released one, B^-2 times the constant column's
            entry (``centre_second_moment`` with n = 0); ``assume_centered=True`` releases no
            count and is refused there (ValueError) unless ``bounds`` is given (whose rows
            [1, z] always carry one).
        psd: project the covariance onto the positive semidefinite cone (default True).
        policy: rows over the bound: ``"clip"`` (default), ``"reject"`` or ``"drop"``.
        random_state: None (the default generator, private); an int seed: not private if known,
            reproducible, and shared by clones, which repeat its noise (a fit warns); or a
            :class:`~dpcov.Rng`.
        mechanism_options: dict of mechanism options (e.g. ``{"rank": 3}`` for IEV).
        numerics: ``"exact"`` (default: analyze_gauss and laplace_sym are released with
            floating-point-safe numerics, rows on an integer grid, exact integer Gram matrix,
            discrete noise; about 5-15% more error) or ``"idealized"`` (floating-point noise).
            Other mechanisms are idealized either way; ``receipt_.numerics`` says which (1 exact,
            0 idealized).
        max_rows_per_unit: k, the rows kept per privacy unit when ``fit`` is given
            ``privacy_unit`` (docs/privacy-units.md); None otherwise.

    ``fit(X, privacy_unit=column)`` protects units (people) instead of rows: at most
    ``max_rows_per_unit`` rows of each unit are kept (chosen at random with the release's
    generator), the release is at the unit bound, and the count is always the released one (the
    number of rows is private at unit level); analyze_gauss or laplace_sym with ``bound`` only.

    Fitted attributes: ``covariance_``, ``location_``, ``second_moment_`` (the released matrix),
    ``constant_`` (the value the constant column held: B, or B rounded to the grid of exact
    numerics; 1 with ``bounds``, whose release is mapped as if it held exactly 1; None when
    ``assume_centered``),
    ``receipt_`` (the curator's: publish ``receipt_.public()``), ``n_samples_`` (the number of
    rows under replace-one; under add/remove the released count, a noisy float, never the exact
    n), ``n_features_in_``, ``n_clipped_`` (the curator's). The estimates read the release minus
    its noise's mean (the additive Wishart's dof * scale * I; 0 for the other mechanisms);
    ``second_moment_`` is the release as drawn (with ``bounds``, its estimate in the user's
    units: above). Where the released count is below 1 (add/remove:
    the noise swamps the number of rows) a refusal is an output: ``location_``,
    ``covariance_`` and ``n_samples_`` are NaN, a UserWarning says why, and the release stays
    in ``second_moment_`` and ``receipt_`` (its budget is spent).
    """

    def __init__(self, epsilon=1.0, delta=1e-6, bound=None, mechanism="analyze_gauss",
                 assume_centered=False, psd=True, policy="clip", random_state=None,
                 mechanism_options=None, bounds=None, bound_clipped=None, numerics="exact",
                 max_rows_per_unit=None):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.numerics = numerics
        self.max_rows_per_unit = max_rows_per_unit
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.bounds = bounds
        self.bound_clipped = bound_clipped
        self.mechanism = mechanism
        self.assume_centered = assume_centered
        self.psd = psd
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options

    def fit(self, X, y=None, privacy_unit=None):
        """Release the covariance of the rows of ``X`` (``y`` is ignored); with
        ``privacy_unit`` (one value per row) at the level of those units. Returns ``self``."""
        _check_flags(self, "assume_centered", "psd")
        _check_numbers(self, privacy_unit)
        if self._forget_fit():
            warn_refit(self)
        X = _validate_X(self, X, reset=True)
        if privacy_unit is not None:
            return self._fit_units(X, privacy_unit)
        if self.bounds is not None:
            return self._fit_bounds(X)
        n_private = _n_private(self.mechanism_options)
        if n_private and self.assume_centered:
            raise ValueError("assume_centered=True (PrivatePCA: center=False) divides by the "
                             "number of rows, which mechanism_options={'neighbour': 'add_remove'} "
                             "keeps private, and its release holds no count: centre (the count "
                             "comes from the released constant column) or give "
                             "bounds=(lower, upper)")
        policy = _choice(self.policy, POLICIES, "policy")
        d = X.shape[1]
        _check_auto_policy(self.bound, policy)
        rng = _release_rng(self.random_state, 3)
        epsilon = None
        with contextlib.ExitStack() as steps:  # a bound step and the release: one block
            if _is_auto(self.bound):
                # The release's bounding checked by the library before the bound step spends
                # (drop under replace-one is refused whatever the bound).
                self._bounded_gram(d, bound=1.0, policy=policy,
                                   neighbour=_neighbour_name(n_private),
                                   constant=0.0 if self.assume_centered else 1.0).close()
                B, epsilon = steps.enter_context(
                    self._auto_bound(X, d + (0 if self.assume_centered else 1), rng))
            elif self.bound_clipped is not None:
                raise ValueError("bound_clipped applies to bound='auto' only")
            else:
                B = _norm_bound(self)
            # Centred: rows [B, x] as the CLI's --add-constant (sqrt(2) B rounded up, x kept a
            # few ulps within B), bounded by the library.
            gram = self._bounded_gram(d, epsilon, bound=B, policy=policy,
                                      neighbour=_neighbour_name(n_private),
                                      constant=0.0 if self.assume_centered else B)
            _accumulate(gram, X, bound=B)
            held = gram.held_constant(B)
            released, info, receipt = self._release_gram(gram, rng, epsilon)
        rows, clipped = info.rows, info.clipped
        if policy == "clip":
            _warn_clipped(clipped, rows, B, not n_private)
        unbiased = _noise_mean_removed(released, receipt)
        if self.assume_centered:
            location = np.zeros(d)
            covariance = unbiased / max(rows, 1)
        else:
            # Under add/remove the count is the released B^2 n + noise over B^2.
            location, covariance, count = _centred(unbiased, held, _public_rows(receipt, rows))
        if self.psd and np.isfinite(covariance).all():
            covariance = psd_project(covariance, inplace=True)
        self.second_moment_ = released
        self.constant_ = None if self.assume_centered else held
        self.covariance_ = covariance
        self.location_ = location
        self.receipt_ = receipt
        self.n_samples_ = rows if _public_rows(receipt, rows) else count
        self.n_clipped_ = clipped
        return self

    def _fit_units(self, X: np.ndarray, privacy_unit):
        """``fit`` at the level of privacy units: one release of the rows [B, x] kept per unit."""
        if self.max_rows_per_unit is None:
            raise ValueError("privacy_unit needs max_rows_per_unit (k, the rows kept per unit)")
        if self.bounds is not None or self.assume_centered:
            raise ValueError("privacy_unit takes a bound (a number or 'auto') and centring: "
                             "bounds= and assume_centered=True are not available with units")
        check_unit_column(privacy_unit, X.shape[0])
        policy = _choice(self.policy, POLICIES, "policy")
        _check_auto_policy(self.bound, policy)
        d = X.shape[1]
        rng = _release_rng(self.random_state, 4)
        order, ids = unit_ids(privacy_unit)
        epsilon = None
        with contextlib.ExitStack() as steps:  # a bound step and the release: one block
            if _is_auto(self.bound):
                self._bounded_gram(d, bound=1.0, policy=policy,
                                   neighbour=_neighbour_name(_n_private(self.mechanism_options)),
                                   constant=1.0, max_rows_per_unit=self.max_rows_per_unit).close()
                B, epsilon = steps.enter_context(self._auto_bound(X[order], d + 1, rng, units=ids))
            elif self.bound_clipped is not None:
                raise ValueError("bound_clipped applies to bound='auto' only")
            else:
                B = _norm_bound(self)
            gram = self._bounded_gram(d, epsilon, bound=B, policy=policy,
                                      neighbour=_neighbour_name(_n_private(self.mechanism_options)),
                                      constant=B, max_rows_per_unit=self.max_rows_per_unit)
            with rows_of_caller(lambda row: int(order[row])):
                gram.add_unit_rows(X[order], ids, rng)
            gram.finish_units()
            held = gram.held_constant(B)
            released, info, receipt = self._release_gram(gram, rng, epsilon)
        if policy == "clip":
            _warn_clipped(info.clipped, 0, B, n_public=False)
        # The rows kept are private at unit level: the count is the released one.
        location, covariance, count = _centred(_noise_mean_removed(released, receipt), held, 0)
        if self.psd and np.isfinite(covariance).all():
            covariance = psd_project(covariance, inplace=True)
        self.second_moment_ = released
        self.constant_ = held
        self.covariance_ = covariance
        self.location_ = location
        self.receipt_ = receipt
        self.n_samples_ = count
        self.n_clipped_ = info.clipped
        self.n_units_truncated_ = info.truncated
        return self

    def _fit_bounds(self, X: np.ndarray):
        """``fit`` with public per-column bounds: one release of the scaled rows [1, z]."""
        if self.bound is not None or self.bound_clipped is not None:
            raise ValueError("bound (or bound_clipped) and bounds exclude each other: with bounds "
                             "the norm bound of the scaled rows is sqrt(d + 1)")
        _check_bounds_pair(self.bounds, "bounds must be (lower, upper)")
        d = X.shape[1]
        lower = _arrays.per_column(self.bounds[0], "bounds[0] (lower)", d, "the columns of X")
        upper = _arrays.per_column(self.bounds[1], "bounds[1] (upper)", d, "the columns of X")
        gram = self._bounded_gram(d, lower=lower, upper=upper,
                                  neighbour=_neighbour_name(_n_private(self.mechanism_options)))
        _accumulate(gram, X)
        held = gram.held_constant(1.0)
        scaled, info, receipt = self._release_gram(gram, _release_rng(self.random_state, 4))
        scaled = constant_rescale(_noise_mean_removed(scaled, receipt), 0, held, 1.0)
        rows = info.rows
        _warn_clamped(info.clamped)
        # Centred in the scaled units, where the noise was added, then mapped: x = c + h z.
        # Under add/remove the count is the released constant column's (n + noise).
        centre, half = lower / 2 + upper / 2, upper / 2 - lower / 2
        mean_z, cov_z, count = _centred(scaled, 1.0, _public_rows(receipt, rows))
        if self.assume_centered:
            location = np.zeros(d)
            user = _column_bounds.transform(scaled, lower, upper, "user")
            covariance = user[1:, 1:] / count
        else:
            location = centre + half * mean_z
            covariance = cov_z * np.outer(half, half)
        if self.psd and np.isfinite(covariance).all():
            covariance = psd_project(covariance, inplace=True)
        self.second_moment_ = _column_bounds.transform(scaled, lower, upper, "user")
        self.constant_ = 1.0
        self.covariance_ = covariance
        self.location_ = location
        self.receipt_ = receipt
        self.n_samples_ = rows if _public_rows(receipt, rows) else count
        self.n_clipped_ = info.clamped
        return self

    def get_precision(self) -> np.ndarray:
        """The pseudo-inverse of ``covariance_`` (post-processing)."""
        check_is_fitted(self, "covariance_")
        if not np.isfinite(self.covariance_).all():  # no covariance (the released count < 1)
            return np.full_like(self.covariance_, np.nan)
        return np.linalg.pinv(self.covariance_, hermitian=True)


def _components(n_components, d: int) -> int:
    """The number of components k asked for, checked: a whole number in [1, d] (None: d)."""
    if n_components is None:
        return d
    whole = (isinstance(n_components, (numbers.Integral, np.integer)) and
             not isinstance(n_components, bool))
    if not whole or not 1 <= int(n_components) <= d:
        raise ValueError(f"n_components must be a whole number in [1, {d}] (the number of "
                         f"columns of X), got {n_components!r}; a share of the variance "
                         f"(scikit-learn's 0 < n_components < 1) is not supported")
    return int(n_components)


class PrivatePCA(TransformerMixin, _Estimator):
    """Differentially private PCA: top components of a :class:`PrivateCovariance` release.

    Args:
        n_components: number of components k (default: all).
        epsilon, delta, bound, bounds, bound_clipped, mechanism, policy, random_state,
            mechanism_options, numerics: as for :class:`PrivateCovariance` (exact numerics by
            default for analyze_gauss and laplace_sym), except that ``bound="auto"`` without
            ``bound_clipped`` aims at the ``PCA_AUTO_QUANTILE`` (0.999) quantile of the rows'
            norms (floor(n / 1000) rows above B), not 0.95: ``subspace_error_`` bounds the
            distance to the top-k subspace of the rows as clipped at B, and far in the tail the
            clipped rows barely move it, so that it also holds against the data's own
            covariance (measured: 1.0 of releases on heavy-tailed rows where 0.95 gave 0.70;
            d = 5, n = 1e5, epsilon = 4). The price is a larger B, so more noise.
        center: subtract the (noisy) mean (default True).

    Fitted attributes: ``components_`` (k x d, rows are components), ``explained_variance_``
    (the top k eigenvalues of the private covariance projected onto the PSD cone: a direction
    the noise swamps reads 0; on the scale of the covariance with divisor n, where
    scikit-learn's PCA divides by n - 1), ``explained_variance_ratio_`` (of the same projection:
    max(eigenvalue, 0) over the sum of the positive eigenvalues, each in [0, 1]), ``mean_``,
    ``covariance_`` (projected onto the PSD cone, as :class:`PrivateCovariance`'s by default;
    the projection moves no eigenvector), ``second_moment_`` (the release as drawn, as
    :class:`PrivateCovariance`'s), ``receipt_``, ``n_components_``,
    ``n_features_in_``, ``n_samples_`` (as for :class:`PrivateCovariance`: the released count
    under add/remove, where the centred bound also takes its count from the release; where
    that count is below 1, every estimate is NaN, as :class:`PrivateCovariance`'s, and
    ``second_moment_`` keeps the release),
    ``bound_`` (with ``bound="auto"``: the bound chosen privately, publishable) and
    ``n_clipped_`` (rows scaled down to the bound; the curator's count, not for publication),
    and ``subspace_error_``: how far the top-k subspace of
    ``covariance_`` can be from that of the bounded rows' covariance (the data's own where no
    row is over the bound; clipped rows move it, and ``n_clipped_`` says how many were), with
    probability about 0.95
    over the noise (a :class:`~dpcov.estimators.SubspaceErrorBound`: ``sin_theta_bound`` on
    ||sin Theta||_2, the noise norm, the eigengap, ``swamped``; no privacy cost). Centred
    (the default) it is the plug-in bound of :func:`~dpcov.pca_centred_subspace_error_bound`
    (the noise norm of the centring simulated at the release; coverage measured in
    tests/statistical/pca_centred_bound_test.cpp), uncentred that of
    :func:`~dpcov.pca_subspace_error_bound`. A UserWarning says when the noise swamps the
    signal (the eigengap is below twice the noise norm: the components may be arbitrary).
    ``None`` (with the reason in ``subspace_error_reason_``) for a mechanism without a known
    noise law (supported: analyze_gauss, laplace_sym, wishart_additive), with ``bounds`` (the
    covariance is mapped to the data's units, which changes the subspace) or when the noise
    swamps the count. The noise draws use ``random_state`` (seeded with an int: stream 1 of
    that seed, apart from the release's).
    """

    def __init__(self, n_components=None, epsilon=1.0, delta=1e-6, bound=None,
                 mechanism="analyze_gauss", center=True, policy="clip", random_state=None,
                 mechanism_options=None, bounds=None, bound_clipped=None, numerics="exact"):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.numerics = numerics
        self.n_components = n_components
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.bounds = bounds
        self.bound_clipped = bound_clipped
        self.mechanism = mechanism
        self.center = center
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options

    def fit(self, X, y=None):
        """Release the covariance of ``X`` once and keep its top components. Returns ``self``."""
        _check_flags(self, "center")
        _check_numbers(self, None)
        if self._forget_fit():
            warn_refit(self)
        X = _validate_X(self, X, reset=True)
        d = X.shape[1]
        k = _components(self.n_components, d)  # before the release: a refusal spends nothing
        clipped = self.bound_clipped
        if (_is_auto(self.bound) and clipped is None
                and not _n_private(self.mechanism_options)):
            # n is public under replace-one: the far-tail target is a count, as bound_clipped.
            clipped = quantile_target(PCA_AUTO_QUANTILE, X.shape[0])
        cov = PrivateCovariance(epsilon=self.epsilon, delta=self.delta, bound=self.bound,
                                mechanism=self.mechanism, assume_centered=not self.center,
                                psd=False, policy=self.policy, random_state=self.random_state,
                                mechanism_options=self.mechanism_options,
                                bounds=self.bounds, bound_clipped=clipped,
                                numerics=self.numerics)
        with warnings.catch_warnings(record=True) as raised:
            warnings.simplefilter("always")
            cov.fit(X)
        for w in raised:  # the release's warnings, at the caller's line
            warnings.warn(w.message, w.category, stacklevel=caller_stacklevel())
        if np.isfinite(cov.covariance_).all():
            values, vectors, ratio = _est.pca_top_k(cov.covariance_, k)
            # Those of the covariance projected onto the PSD cone, as the ratios: a negative
            # eigenvalue (a direction the noise swamps) reads 0. The projection moves no
            # eigenvector.
            values, covariance = np.maximum(values, 0.0), psd_project(cov.covariance_)
        else:  # no covariance (cov warned why): NaN components, the release kept
            values, vectors, ratio = np.full(k, np.nan), np.full((d, k), np.nan), np.full(k, np.nan)
            covariance = cov.covariance_
        self.components_ = np.ascontiguousarray(vectors.T)
        self.explained_variance_ = values
        self.explained_variance_ratio_ = ratio
        self.mean_ = cov.location_
        self.covariance_ = covariance
        self.second_moment_ = cov.second_moment_
        self.receipt_ = cov.receipt_
        self.n_components_ = k
        self.n_samples_ = cov.n_samples_
        for name in ("bound_", "n_clipped_"):  # the bound chosen (public), the curator's count
            if hasattr(cov, name):
                setattr(self, name, getattr(cov, name))
        self._subspace_error(cov, k)
        return self

    def _subspace_error(self, cov: PrivateCovariance, k: int) -> None:
        """``subspace_error_`` from the release as drawn (post-processing), with a warning when
        the noise swamps the signal."""
        self.subspace_error_, self.subspace_error_reason_ = None, None
        if self.bounds is not None:
            self.subspace_error_reason_ = ("the covariance was mapped to the data's units "
                                           "(bounds), which changes the subspace")
            return
        seed = self.random_state
        rng = Rng(int(seed), 1) if isinstance(seed, (int, np.integer)) else as_rng(seed)
        try:
            if self.center:
                # The constant column held B, the norm bound the release used (bound="auto":
                # the privately chosen one), rounded to the grid with exact numerics.
                err = _est.pca_centred_subspace_error_bound(
                    cov.second_moment_, cov.receipt_, k, rng, constant_column=0,
                    constant=cov.constant_, n=_public_rows(cov.receipt_, cov.n_samples_))
            else:
                err = _est.pca_subspace_error_bound(cov.second_moment_, cov.receipt_, k, rng)
        except (ValueError, DpcovError) as e:
            self.subspace_error_reason_ = str(e)
            return
        self.subspace_error_ = err
        if err.swamped:
            warnings.warn(f"the privacy noise swamps the signal: the eigengap {err.eigengap:.3g} "
                          f"is below twice the noise norm {err.noise_norm:.3g}, so the "
                          f"{k} components may be arbitrary (subspace_error_)", UserWarning,
                          stacklevel=caller_stacklevel())

    def transform(self, X) -> np.ndarray:
        """Project ``X`` on the components: (X - mean_) @ components_.T."""
        check_is_fitted(self, "components_")
        return (_validate_X(self, X, reset=False) - self.mean_) @ self.components_.T

    def inverse_transform(self, Z) -> np.ndarray:
        """Map component scores back to feature space: Z @ components_ + mean_."""
        check_is_fitted(self, "components_")
        Z = _read_rows(Z, "Z")
        if Z.shape[1] != self.n_components_:
            raise ValueError(f"Z has {Z.shape[1]} columns, but this PrivatePCA has "
                             f"{self.n_components_} components")
        _first_non_finite(Z, "Z")
        return Z @ self.components_ + self.mean_

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """The names of the output columns, ``privatepca0`` to ``privatepca{k-1}`` (scikit-learn's
        convention for a transformer whose outputs are new features)."""
        check_is_fitted(self, "components_")
        if input_features is not None and len(input_features) != self.n_features_in_:
            raise ValueError(f"input_features has {len(input_features)} names, but this "
                             f"PrivatePCA was fitted on {self.n_features_in_} features")
        return np.asarray([f"privatepca{i}" for i in range(self.n_components_)], dtype=object)


NO_RELEASED_COUNT = ("neighbour='add_remove' keeps the number of rows private, and without an "
                     "intercept the release holds no count for the inference: set "
                     "fit_intercept=True (the intercept column's released entry is n + noise)")
"""The refusal of an add/remove fit that needs n but releases no count."""


def _conclusive_only(result, conclusive: np.ndarray):
    """The one outcome of every surface for a coefficient whose interval covers every value that
    matters (dpcov_adassp_intervals): no interval (NaN) where ``conclusive`` is False, and where
    a prior decides or the chains did not converge no standard error or p-value either (the
    posterior's are no more the release's than its interval). Returns (std_errors, p_values,
    conf_int, (unconverged, prior_decides, unbounded))."""
    size = conclusive.size
    flags = [np.asarray(getattr(result, name, ()), dtype=bool)
             for name in ("unconverged", "prior_decides", "unbounded")]
    unconverged, prior, unbounded = (f if f.size == size else np.zeros(size, dtype=bool)
                                     for f in flags)
    undecided = unconverged | prior
    std_errors, p_values = (np.where(undecided, np.nan, np.asarray(v, dtype=float))
                            for v in (result.std_errors, result.p_values))
    conf_int = np.column_stack([result.ci_lower, result.ci_upper]).astype(float)
    conf_int[~conclusive] = np.nan
    return std_errors, p_values, conf_int, (unconverged, prior, unbounded)


def released_count_too_small(count: int, p: int) -> str:
    """Why an add/remove fit refuses when its released count is at most the ``p`` coefficients
    (as ``dpcov regress`` says it): the inference needs n - p >= 1 and may read only the count."""
    return (f"the released count of rows (the constant column's entry: n + noise) is {count}, at "
            f"most the {p} coefficients: the privacy noise swamps the count; a larger epsilon "
            f"or more rows")


def _stating_rows(receipt, n: int):
    """``receipt`` stating ``n`` rows: the bootstrap reads n from the receipt, which under
    add/remove holds the curator's exact n; ``n`` is then the released count."""
    if receipt.n == n:
        return receipt
    struct = receipt.to_struct()
    struct.n = n
    return Receipt(struct)


MECHANISMS_REGRESSION = ("adassp", "ols_jl")
"""Regression-specific values of ``PrivateLinearRegression.mechanism`` (besides the Gram
mechanisms)."""


def _robust_gram(mechanism) -> bool:
    """Whether the registry gives the Gram mechanism's release the bootstrap and robust
    (sandwich) intervals of its regression (``DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM``: its noise
    law is known, release_noise.hpp); the command line reads the same bit."""
    return "robust_gram" in mechanism_info(mechanism_id(mechanism)).inference


class PrivateLinearRegression(RegressorMixin, _Estimator):
    """Differentially private linear regression, by default AdaSSP (Yu-Xiang Wang, UAI 2018,
    Alg. 2: sufficient statistics X'X and X'y perturbed once, ridge chosen from a private
    lambda_min; ``dpcov_adassp_fit``, proofs/adassp.md). A fit never fails for a
    positive-definiteness reason and never spends the budget twice.

    Rows are fitted balanced: ||x|| <= ``bound`` = B and |y| <= ``label_bound`` = B_y, and the
    library fits [1, x sqrt(d) / B, y / B_y] (regressors of norm <= sqrt(1 + d), every column on
    the intercept's scale, whatever the units) and maps the coefficients, standard errors and
    intervals back to the data's units by ``unit_factors_`` (proofs/balanced_rows.md).

    Other mechanisms: any Gram mechanism (e.g. ``"analyze_gauss"``) releases the Gram matrix of
    the balanced rows [1, x sqrt(d) / B, y / B_y] (norm <= sqrt(2 + d)) and solves the regression
    with ``ridge`` from it; ``"ols_jl"`` runs Sheffet's private OLS by projection (needs
    ``projection_rows``; may refuse).

    The bound: ``bound`` is public and often a worst case (sqrt(d) for columns mapped to
    [-1, 1]) far above most rows' norms, while AdaSSP's noise grows with the bound squared. With
    ``intervals=False`` AdaSSP therefore spends by default ``bound_epsilon`` (a tenth) of
    ``epsilon`` choosing a bound ``bound_ <= bound`` near the ``bound_quantile`` (0.95) of the
    rows' norms (the exponential mechanism over the 13 public candidates bound / 1.25^k,
    k = 0..12: :func:`dpcov.private_bound.tighten_bound`), clips the rows above it, and runs
    AdaSSP with the rest of the budget (basic composition: (epsilon, delta) in all; the receipt
    holds AdaSSP's share). With the intervals (the default) the release uses ``bound`` as given
    (``bound_epsilon`` defaults to 0): clipping a twentieth of the rows biases the statistics by
    an amount that does not shrink with n, which no interval from the release can see, so at
    large n such intervals miss the coefficients (docs/regression_intervals.md).
    ``bound_epsilon=0`` uses ``bound`` as given. Replace-one only (the target count uses
    the public n): under add/remove ``bound_epsilon`` defaults to 0. An active :class:`~dpcov.BudgetAccountant` is charged (epsilon, delta) for
    the whole AdaSSP fit (checked before any noise is drawn; basic accounting, a zCDP ledger refuses
    it).

    Uncertainty: ``std_errors_``, ``p_values_`` and ``conf_int_`` account for the sampling AND the
    privacy noise (parametric bootstrap from the mechanism's noise law, no further privacy cost:
    ``dpcov_adassp_bootstrap_intervals`` for AdaSSP, which then also releases y'y inside the same
    (epsilon, delta); ``dpcov_ols_bootstrap_intervals`` for analyze_gauss, laplace_sym and
    wishart_additive; ols_jl's own intervals). ``inference_`` says which, or why there are none
    (the noise swamps the data, or ``ridge > 0``): then they are NaN. For AdaSSP they are intervals
    for beta from the unregularised released statistics, so not centred on the ridge-shrunk
    ``coef_``. The table that treats the release as exact data is computed only with
    ``plug_in=True`` (``plug_in_``, labelled, with no test decision).

    Args:
        epsilon, delta: privacy budget.
        bound: public bound B on the Euclidean norm of each row of X (default 1, with a
            PrivacyLeakWarning: a bound must come from the data's domain).
        label_bound: public bound on |y| (default 1, with a PrivacyLeakWarning).
        bound_epsilon: share of ``epsilon`` spent on a private bound below ``bound`` (AdaSSP
            only; default None: 0 with the intervals, 0.1 with ``intervals=False``; 0 to use
            ``bound`` as given). A share > 0 with the intervals leaves the clipping bias out of
            them, and ``inference_`` says so.
        bound_quantile: the quantile of the rows' norms that bound aims at (default 0.95).
        small_n: where AdaSSP's bootstrap refuses (the noise swamps X'X), ``"posterior"``
            (default): the noise-aware posterior of :func:`dpcov.adassp.adassp_intervals`
            answers instead, and a coefficient is conclusive only where its interval does not
            cover every value that matters (homoscedastic errors: with robust errors the fit
            also releases y'y for it, and it answers where the released X'X~ does not support
            the robust bootstrap); or ``"refuse"``: NaN intervals and a warning (the robust fit
            then releases no y'y). Its coverage is measured (docs/regression_intervals.md);
            ``inference_`` and ``interval_method_`` name the method used.
        errors: the errors AdaSSP's intervals allow for (AdaSSP with intervals only):
            ``"robust"`` (default) or ``"homoscedastic"``. Robust: the sandwich intervals
            (``dpcov_adassp_robust_intervals``, proofs/sandwich.md), valid for heteroscedastic
            errors and, for the least-squares projection, a misspecified mean; AdaSSP spends
            0.8 of (epsilon, delta) (with y'y for the posterior, ``small_n="posterior"``) and a
            second pass over the rows releases the meat sum r_i^2 x_i x_i' by Analyze Gauss
            with the other 0.2 (``meat_``, ``meat_receipt_``; both charged to an active
            accountant). Where the forecast at the public n expects no interval even for rows
            on their bounds, the homoscedastic path runs instead; where the released X'X~ does
            not support the bootstrap (``dpcov_adassp_intervals`` answers with its posterior)
            the meat is not released and that posterior answers, labelled homoscedastic
            (``errors_``); ``inference_`` says which first. Homoscedastic: the bootstrap above,
            which assumes constant error variance and a linear mean. The Gram mechanisms
            with a known noise law (analyze_gauss, laplace_sym, wishart_additive; ``ridge`` 0)
            take the same split: the release at 0.8, the meat at 0.2, and the robust
            intervals of ``dpcov_ols_intervals``; the others keep the homoscedastic bootstrap
            (``errors_`` says which). There a coefficient along a direction of X'X too weak
            for the release to bound it gets a NaN interval and ``conclusive_`` False, with a
            warning naming it, and the others keep their intervals.
        bounds: ``(lower, upper)``, public per-column ranges of the columns of X and, last, of y
            in their own units (AdaSSP with an intercept only; replaces ``bound`` and
            ``label_bound``; no bound step): each column is mapped to [-1, 1] before AdaSSP,
            and ``coef_``, ``intercept_``, ``std_errors_`` and ``conf_int_`` come back in the
            data's units (the intercept's interval NaN). ``bound_`` is then the norm bound of
            the scaled rows [1, z_x].
        fit_intercept: add an intercept (default True).
        mechanism: ``"adassp"`` (default), a Gram mechanism, or ``"ols_jl"``.
        rho: AdaSSP's failure probability of the ridge (default 0.05).
        calibration: AdaSSP's constants, ``"joint_analytic"`` (default) or ``"paper"``.
        neighbour: the neighbour relation, ``"replace_one"`` (default) or ``"add_remove"``
            (AdaSSP's, and passed on to a Gram mechanism or ols_jl). Under add/remove n is
            private: the intervals and a Gram mechanism's fit use the count the release holds
            in its intercept column (n + noise, rounded) instead, so they need
            ``fit_intercept=True`` (refused without it, before anything is released, except
            AdaSSP with ``intervals=False``, whose point estimate needs no n).
        ridge: penalty lambda >= 0 for the Gram mechanisms (AdaSSP chooses its own: must be 0).
        level: confidence level of the intervals (default 0.95).
        intervals: compute the noise-aware intervals (default True; for AdaSSP, False releases
            only its three statistics, each with a third of the budget instead of a quarter).
            With True, AdaSSP first asks the forecast (:func:`dpcov.regression_forecast`, from
            public values at the public n, replace-one) whether intervals are expected even for
            rows on their bounds; if not, y'y is not released and ``inference_`` says why
            (``"always"`` releases it all the same). ``"deferred"`` releases exactly what
            True releases, with the same split of the budget (so ``coef_`` is True's for the
            same ``random_state``), but computes no interval at ``fit`` (NaN, ``inference_``
            says so): :meth:`noise_aware_intervals` computes them when asked. For fits whose
            intervals are not read (model selection, scoring many splits): the small-n
            posterior costs seconds per fit at d = 10. Where robust errors need the rule of
            "Robust or the posterior" (docs/regression_intervals.md), it is decided by the
            bootstrap alone, which is what decides it with True too.
        n_bootstrap: bootstrap draws of the noise-aware intervals (default 999,
            ``DPCOV_INTERVAL_DRAWS``).
        plug_in: also keep the plug-in inference of a Gram mechanism (``plug_in_``; default False).
        projection_rows: r for ``"ols_jl"``.
        policy, random_state, mechanism_options: as for :class:`PrivateCovariance`.
        numerics: as for :class:`PrivateCovariance`, for the Gram mechanisms (AdaSSP and ols_jl
            are idealized).
        max_rows_per_unit: k, the rows kept per privacy unit when ``fit`` is given
            ``privacy_unit`` (AdaSSP only); None otherwise. ``fit(X, y, privacy_unit=ids)``
            protects units (people) instead of rows: at most k rows of each unit are kept (at
            random, by the library's accumulator of units) and AdaSSP runs with every
            sensitivity k times the row-level one (proofs/adassp_units.md), ``neighbour``
            naming how units differ. Such a fit has no intervals (NaN, ``inference_`` says why,
            and a warning when they were asked for): they need a public number of independent
            rows. ``n_samples_`` is then None and ``n_units_truncated_`` counts the rows left
            out by k (the curator's).

    Fitted attributes: ``coef_``, ``intercept_``, ``params_`` ([intercept,] coefficients),
    ``bound_`` (the norm bound the release used: private, publishable),
    ``release_`` (AdaSSP: the :class:`~dpcov.AdasspFit` with the released X'X~ and X'y~; Gram
    mechanisms: the released matrix), ``receipt_`` (the curator's), ``n_samples_`` (the number of
    rows under replace-one; under add/remove the released count of the intercept column, a
    noisy float, or None without an intercept or for ols_jl), ``n_clipped_`` (the curator's),
    ``errors_`` ("robust" or "homoscedastic": what the intervals allow for); with robust errors
    ``meat_`` (the released meat) and ``meat_receipt_`` (its Analyze Gauss receipt, the
    curator's: publish ``meat_receipt_.public()``);
    ``n_features_in_``, ``std_errors_``, ``p_values_``, ``conf_int_`` (one row [lower, upper] per
    entry of ``params_``), ``inference_``, ``interval_method_`` ("bootstrap", "posterior", "t" or
    None), ``conclusive_``; ``summary_`` for ``"ols_jl"``; ``plug_in_`` with
    ``plug_in=True`` (its coefficients' table in the data's units, its ``summary`` and
    ``summary_`` of the balanced rows' label y / label_bound); ``forecast_`` (AdaSSP at a public
    n, else None: the :func:`~dpcov.regression_forecast` of the fit that ran, a slope's with the
    intercept, or the one that decided not to release y'y; public values only, as ``dpcov
    regress`` prints it).

    The rows are fitted as balanced rows [1, x sqrt(d) / B, y / B_y] (proofs/balanced_rows.md),
    so the fit does not depend on the units of X and y: ``unit_factors_`` are the public factors
    (one per entry of ``params_``) by which the coefficients, standard errors and interval ends on
    them were mapped to the data's units; ``release_`` and ``receipt_`` are the balanced rows'
    (at row level ``release_.coefficients`` too: ``params_`` is them times ``unit_factors_``; a
    fit at the level of privacy units keeps ``adassp_units_fit``'s, already in the data's units).
    """

    def __init__(self, epsilon=1.0, delta=1e-6, bound=None, label_bound=None, fit_intercept=True,
                 mechanism="adassp", rho=0.05, calibration="joint_analytic",
                 neighbour="replace_one", ridge=0.0, level=0.95, intervals=True, n_bootstrap=DPCOV_INTERVAL_DRAWS,
                 plug_in=False, projection_rows=None, policy="clip", random_state=None,
                 mechanism_options=None, bound_epsilon=None, bound_quantile=AUTO_BOUND_QUANTILE,
                 numerics="exact", bounds=None, small_n="posterior", errors="robust",
                 max_rows_per_unit=None):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.max_rows_per_unit = max_rows_per_unit
        self.errors = errors
        self.small_n = small_n
        self.bounds = bounds
        self.numerics = numerics
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.label_bound = label_bound
        self.fit_intercept = fit_intercept
        self.mechanism = mechanism
        self.rho = rho
        self.calibration = calibration
        self.neighbour = neighbour
        self.ridge = ridge
        self.level = level
        self.intervals = intervals
        self.n_bootstrap = n_bootstrap
        self.plug_in = plug_in
        self.projection_rows = projection_rows
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options
        self.bound_epsilon = bound_epsilon
        self.bound_quantile = bound_quantile

    def fit(self, X, y, privacy_unit=None):
        """Release once and fit the regression of ``y`` on ``X``; with ``privacy_unit`` (one
        value per row) at the level of those units. Returns ``self``."""
        _check_flags(self, "fit_intercept")
        _check_numbers(self, privacy_unit)
        if not (_is_flag(self.intervals) or
                (isinstance(self.intervals, str) and self.intervals in ("always", "deferred"))):
            raise ValueError(f"intervals must be True, False, 'always' or 'deferred', got "
                             f"{self.intervals!r}")
        if self.intervals and self.intervals != "deferred":
            # Before the release: draws the intervals would refuse spend nothing.
            bootstrap_draws_check(self.level, self.n_bootstrap)
        if self._forget_fit():
            warn_refit(self)
        try:
            y_arr = np.asarray(y)
        except (ValueError, TypeError):  # ragged: refused below, in words
            y_arr = np.asarray(None)
        if y is not None:
            # Before scikit-learn's check, which would not say where the value is.
            if y_arr.dtype.kind in "fc" and (y_arr.ndim == 1 or y_arr.shape[1:] == (1,)):
                _first_non_finite(y_arr.reshape(-1), "y")
        given = X
        X, y = _read_labelled_rows(X, y)
        _first_non_finite(X, "X")
        _first_non_finite(y, "y")
        X = _validate_X(self, X, reset=True, names_from=given)
        self.errors_ = "homoscedastic"  # the Gram mechanisms' bootstrap; AdaSSP decides below
        self.forecast_ = None  # AdaSSP's, where n is public
        self.__dict__.pop("plug_in_", None)  # this fit's table only, mapped to the data's units
        if privacy_unit is not None:
            return self._fit_units(X, y, privacy_unit)
        if self.bounds is not None:
            return self._fit_bounds(X, y)
        with contextlib.ExitStack() as steps:  # a bound step and the fit: one block
            return self._fit_rows(X, y, steps)

    def _fit_rows(self, X: np.ndarray, y: np.ndarray, steps: contextlib.ExitStack):
        """``fit`` on rows under a norm bound; ``steps`` holds the context of the releases
        (``_accountant_steps``) until the fit returns."""
        policy = _choice(self.policy, POLICIES, "policy")
        mechanism = str(self.mechanism).strip().lower() if isinstance(self.mechanism, str) \
            else self.mechanism
        _check_mechanism(mechanism, MECHANISMS_REGRESSION)
        options, n_private = self._neighbour_options(mechanism)
        B = _defaulted_bound(self.bound, "bound", "pass bound=B, a public bound on the "
                             "Euclidean norm of each row of X in your units", 3)
        B_y = _defaulted_bound(self.label_bound, "label_bound", "pass label_bound=, a public "
                               "bound on |y| in your units", 3)
        if not (B > 0 and math.isfinite(B)) or not (B_y > 0 and math.isfinite(B_y)):
            raise ValueError(f"bound and label_bound must be finite and > 0, got bound = "
                             f"{self.bound!r}, label_bound = {self.label_bound!r}")
        rng = _release_rng(self.random_state, 3)
        epsilon = float(self.epsilon)
        constant = 1.0 if self.fit_intercept else 0.0
        # Balanced rows [1, x sqrt(d) / B, y / B_y]: the fit does not depend on the units of X
        # and y; their norm bounds do not depend on B or B_y.
        p_f = X.shape[1]
        bound_x = balanced_x_bound(p_f, self.fit_intercept)
        # The Gram mechanisms' release, exact by default; AdaSSP and ols_jl read the matrix.
        # With robust errors the release gets the fit's share and the meat the rest.
        split = self._gram_split(mechanism, bound_x, options)
        ridge = 0.0 if mechanism in MECHANISMS_REGRESSION else self._balanced_ridge(
            coefficient_factors(p_f + 1, B, constant, B_y, balanced=True)[-1] / B_y)
        release = {} if mechanism in MECHANISMS_REGRESSION else {
            "mechanism": mechanism,
            "epsilon": self.epsilon if split is None else split.fit_epsilon,
            "delta": self.delta if split is None else split.fit_delta, "numerics": self.numerics}
        gram = _accumulate(GramAccumulator.bounded(
            X.shape[1] + 1, B, policy, _neighbour_name(n_private), constant, label_bound=B_y,
            balanced=True, **release), X, y, B, B_y)
        clipped = gram.info().clipped
        moved = False  # AdaSSP's bound moved below the public one
        if mechanism == "adassp":
            self._check_adassp_options()
            self._decide_errors(X.shape[1] + (1 if self.fit_intercept else 0), bound_x, 1.0,
                                X.shape[0], n_private)
            steps.enter_context(self._accountant_steps(
                X.shape[1] + (1 if self.fit_intercept else 0), bound_x, 1.0))
            B, epsilon, moved = self._tightened(X, B, rng)
            if moved:
                # The rows clipped to the private bound below the user's: clipping at B then at
                # B' < B is clipping at B' (same direction); the count is of rows over B'.
                gram.close()
                gram = _accumulate(GramAccumulator.bounded(
                    X.shape[1] + 1, B, "clip", _neighbour_name(n_private), constant,
                    label_bound=B_y, balanced=True), X, y, B, B_y)
                clipped = gram.info().clipped
        if policy == "clip" or moved:  # at the bound the rows were clipped to
            _warn_clipped(clipped, gram.info().rows, B, not n_private)
        self.bound_ = B
        offset = 1 if self.fit_intercept else 0
        factors = coefficient_factors(p_f + 1, B, constant, B_y, balanced=True)
        dim = p_f + offset + 1
        features = np.arange(p_f + offset, dtype=np.int64)
        label = dim - 1
        row_bound = gram.info().bound
        with gram:
            rows = gram.info().rows
            if mechanism == "adassp" and self.errors_ == "robust":
                self._fit_robust(gram.matrix(), label, features, bound_x, 1.0, epsilon, rng,
                                 np.column_stack((X, y)), {
                                     "bound": B, "policy": "clip" if moved else policy,
                                     "neighbour": _neighbour_name(n_private),
                                     "constant": constant, "label_bound": B_y,
                                     "balanced": True},
                                 self._clipping_assumption(B, moved), rows)
            elif mechanism == "adassp":
                self._fit_adassp(gram.matrix(), label, features, bound_x, 1.0, epsilon, rng,
                                 None if n_private else rows)
                self._noise_aware(lambda: self._adassp_intervals(
                    self._inference_rows(rows), rng, offset - 1, self.level, self.n_bootstrap),
                    "noise-aware: {method} from AdaSSP's noise law, for beta from "
                    "the unregularised released statistics (not centred on the ridge coef_); "
                    + self._clipping_assumption(B, moved) + HOMOSCEDASTIC)
            elif mechanism == "ols_jl":
                if self.projection_rows is None:
                    raise ValueError("mechanism 'ols_jl' needs projection_rows")
                result = ols_jl(gram.matrix(), rows, row_bound, self.epsilon, self.delta, rng,
                                label, features[offset:], self.projection_rows,
                                0 if self.fit_intercept else -1, self.level, **options)
                self.release_ = None
                self.params_ = result.coefficients
                self.receipt_ = result.receipt
                self._keep_intervals(result, "ols_jl: t intervals of OLS on the privately "
                                     "projected data (Sheffet 2017)")
                self.summary_ = result.summary
            else:
                with at_share(mechanism, release["epsilon"], epsilon,
                               "the robust intervals' meat spends the rest; "
                               "errors='homoscedastic' gives the release all of it") \
                        if split is not None else contextlib.nullcontext():
                    if split is not None:
                        self._check_gram_accountant(mechanism, dim, row_bound, split, options,
                                                    1 if n_private else rows)
                    released, receipt = gram.release(mechanism, release["epsilon"],
                                                      release["delta"], rng, **options)
                if self.fit_intercept:
                    released = constant_rescale(released, 0, gram.held_constant(1.0), 1.0)
                self.release_, self.receipt_ = released, receipt
                n = self._inference_rows(rows)
                result = self._gram_fit(released, receipt, n, label, features[offset:], ridge)
                if result is None:
                    pass  # refused: NaN coefficients and intervals, inference_ says why
                elif split is None:
                    self._gram_inference(result, released, _stating_rows(receipt, n), label,
                                         features[offset:], rng)
                else:
                    self._keep_plug_in(result)
                    self._gram_robust(released, _stating_rows(receipt, n), label,
                                      features[offset:], rng, np.column_stack((X, y)), {
                                          "bound": B, "policy": policy,
                                          "neighbour": _neighbour_name(n_private),
                                          "constant": constant, "label_bound": B_y,
                                          "balanced": True},
                                      bound_x, split)
        self._in_data_units(factors)
        self.intercept_ = float(self.params_[0]) if self.fit_intercept else 0.0
        self.coef_ = self.params_[offset:]
        self.n_samples_ = self._released_count() if n_private else rows
        self.n_clipped_ = clipped
        self._label_errors()
        return self

    def _balanced_ridge(self, slope_factor: float) -> float:
        """The user's ridge, a penalty on the coefficients in the data's units, on the balanced
        rows: lambda a^2, ``a`` a slope's factor over B_y (sqrt(d) / B). Checked before any
        release: ValueError for a ridge that is not a finite number >= 0, or whose value on the
        balanced rows overflows."""
        lam = self.ridge
        if isinstance(lam, bool) or not isinstance(lam, numbers.Real) or \
                not (math.isfinite(lam) and lam >= 0):
            raise ValueError(f"ridge must be a finite number >= 0, got {lam!r}")
        if lam == 0:
            return 0.0
        balanced = float(lam) * slope_factor * slope_factor
        if not math.isfinite(balanced):
            raise ValueError(f"ridge = {lam!r} on coefficients in the data's units is "
                             f"{lam!r} x (sqrt(d) / bound)^2 on the balanced rows the library "
                             f"fits, which overflows: give the data in larger units")
        return balanced

    def _in_data_units(self, factors: np.ndarray) -> None:
        """Maps the fit on the balanced rows to the data's units by the public ``factors``
        (``coefficient_factors``, kept as ``unit_factors_``): coefficients, standard errors,
        interval ends and the plug-in table (post-processing; p-values are unchanged)."""
        self.unit_factors_ = factors
        self.params_ = self.params_ * factors
        self.std_errors_ = self.std_errors_ * factors
        self.conf_int_ = self.conf_int_ * factors[:, None]
        if getattr(self, "plug_in_", None) is not None:
            table = dict(self.plug_in_)
            table["std_errors"] = np.asarray(table["std_errors"]) * factors
            table["conf_int"] = np.asarray(table["conf_int"]) * factors[:, None]
            self.plug_in_ = table

    def _fit_bounds(self, X: np.ndarray, y: np.ndarray):
        """AdaSSP with ``bounds = (lower, upper)``, public ranges of the columns of X and, last,
        of y: every column mapped to [-1, 1] by the library's column bounds (rows [1, z_x, z_y],
        none clipped; values outside a range clamped, with a warning), B_X the norm bound of
        [1, z_x] and |z_y| <= 1. Fitted there, where the noise is added, and mapped back to the
        data's units (post-processing, proofs/column_bounds.md): a slope b_j on z_j is
        h_y b_j / h_j on x_j, with its standard error and interval; the intercept is
        c_y + h_y a - sum_j slope_j c_j, whose interval is not a map of the others (NaN)."""
        if self.bound is not None or self.label_bound is not None:
            raise ValueError("bounds and bound / label_bound exclude each other: with bounds the "
                             "norm bounds of the scaled rows follow from the number of columns")
        if str(self.mechanism).strip().lower() != "adassp" or not self.fit_intercept:
            raise ValueError("bounds needs mechanism 'adassp' and fit_intercept=True (the map to "
                             "[-1, 1] is affine, so the model needs its intercept)")
        _check_bounds_pair(self.bounds, "bounds must be (lower, upper), one entry per column "
                                        "of X and one for y, last")
        p = X.shape[1]
        columns = "the columns of X, then y"
        lower = _arrays.per_column(self.bounds[0], "bounds[0] (lower)", p + 1, columns)
        upper = _arrays.per_column(self.bounds[1], "bounds[1] (upper)", p + 1, columns)
        self._check_adassp_options()
        options, n_private = self._neighbour_options("adassp")
        bound_x = _column_bounds.norm_bound(p)
        self._decide_errors(p + 1, bound_x, 1.0, X.shape[0], n_private, tighten=False)
        # No bound step: the check is all, and the releases charge themselves.
        self._accountant_steps(p + 1, bound_x, 1.0, tighten=False)
        rng = _release_rng(self.random_state, 3)
        gram = _accumulate(GramAccumulator.bounded(p + 1, neighbour=_neighbour_name(n_private),
                                                   lower=lower, upper=upper), X, y)
        with gram:
            info = gram.info()
            _warn_clamped(info.clamped)
            if self.errors_ == "robust":
                self._fit_robust(gram.matrix(), p + 1, np.arange(p + 1, dtype=np.int64), bound_x,
                                 1.0, float(self.epsilon), rng, np.column_stack((X, y)), {
                                     "neighbour": _neighbour_name(n_private), "lower": lower,
                                     "upper": upper},
                                 "on the columns mapped to [-1, 1] by bounds, mapped to the "
                                 "data's units (the intercept's interval is NaN); ", info.rows)
            else:
                self._fit_adassp(gram.matrix(), p + 1, np.arange(p + 1, dtype=np.int64), bound_x,
                                 1.0, float(self.epsilon), rng, None if n_private else info.rows)
                self._noise_aware(lambda: self._adassp_intervals(
                    self._inference_rows(info.rows), rng, 0, self.level, self.n_bootstrap),
                    "noise-aware: {method} from AdaSSP's noise law on the columns "
                    "mapped to [-1, 1] by bounds, for beta from the unregularised released "
                    "statistics, mapped to the data's units (the intercept's interval is NaN); "
                    + HOMOSCEDASTIC)
        self._label_errors()
        centre, half = lower / 2 + upper / 2, upper / 2 - lower / 2
        factor = half[-1] / half[:-1]
        self.params_ = np.concatenate(([centre[-1] + half[-1] * self.params_[0]
                                        - np.sum(self.params_[1:] * factor * centre[:-1])],
                                       self.params_[1:] * factor))
        self.std_errors_ = np.concatenate(([np.nan], self.std_errors_[1:] * factor))
        self.p_values_ = np.concatenate(([np.nan], self.p_values_[1:]))
        self.conf_int_ = np.vstack(([np.nan, np.nan], self.conf_int_[1:] * factor[:, None]))
        self.unit_factors_ = np.concatenate(([np.nan], factor))
        self.bound_ = bound_x
        self.intercept_ = float(self.params_[0])
        self.coef_ = self.params_[1:]
        self.n_samples_ = self._released_count() if n_private else info.rows
        self.n_clipped_ = info.clamped
        return self

    def _fit_units(self, X: np.ndarray, y: np.ndarray, privacy_unit):
        """``fit`` at the level of privacy units: AdaSSP on at most ``max_rows_per_unit`` rows of
        each unit (:func:`dpcov.adassp_units.adassp_units_fit`, proofs/adassp_units.md), with no
        intervals (``UNITS_NO_INTERVALS``: NaN and a warning when they were asked for)."""
        if self.max_rows_per_unit is None:
            raise ValueError("privacy_unit needs max_rows_per_unit (k, the rows kept per unit)")
        mechanism = str(self.mechanism).strip().lower()
        if mechanism != "adassp" or self.bounds is not None or self.bound_epsilon:
            raise ValueError("privacy_unit takes mechanism 'adassp' with a public bound: "
                             "bounds= and bound_epsilon > 0 (a row-level bound step) are not "
                             "available with units")
        if self.ridge != 0 or self.mechanism_options:
            raise ValueError("mechanism 'adassp' chooses its ridge privately and takes no "
                             "mechanism_options: ridge must be 0")
        B = _defaulted_bound(self.bound, "bound", "pass bound=B, a public bound on the "
                             "Euclidean norm of each row of X in your units", 4)
        B_y = _defaulted_bound(self.label_bound, "label_bound", "pass label_bound=, a public "
                               "bound on |y| in your units", 4)
        units = adassp_units_fit(
            X, y, privacy_unit, self.max_rows_per_unit, B, B_y, float(self.epsilon),
            float(self.delta), _release_rng(self.random_state, 4), self.fit_intercept,
            _choice(self.policy, POLICIES, "policy"),
            _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour"),
            _choice(self.calibration, tuple(CALIBRATIONS), "calibration"), self.rho)
        self.params_, self.release_, self.receipt_ = (units.fit.coefficients, units.fit,
                                                      units.fit.receipt)
        self._no_intervals(UNITS_NO_INTERVALS)
        if self.intervals:
            warnings.warn(f"no noise-aware intervals: {UNITS_NO_INTERVALS}", UserWarning,
                          stacklevel=3)
        offset = 1 if self.fit_intercept else 0
        self.bound_, self.errors_ = B, None
        self.unit_factors_ = units.unit_factors
        self.intercept_ = float(self.params_[0]) if self.fit_intercept else 0.0
        self.coef_ = self.params_[offset:]
        self.n_samples_ = None  # the rows kept are private at unit level
        self.n_clipped_, self.n_units_truncated_ = units.clipped, units.truncated
        return self

    def _neighbour_options(self, mechanism):
        """(the mechanism options, whether n is private): ``neighbour`` is AdaSSP's relation and
        is passed on to a Gram mechanism or ols_jl (a different one in ``mechanism_options`` is
        refused). Under add/remove a fit that needs n and has no intercept, whose release would
        hold no count, is refused here, before anything is released."""
        neighbour = _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour")
        options = dict(self.mechanism_options or {})
        if mechanism == "adassp":
            n_private = neighbour == "add_remove"
            needs_n = bool(self.intervals)
        else:
            if neighbour != "replace_one":
                if "neighbour" in options and not _n_private(options):
                    raise ValueError(f"neighbour={self.neighbour!r} and mechanism_options' "
                                     f"neighbour {options['neighbour']!r} differ")
                options["neighbour"] = neighbour
            n_private = _n_private(options)
            needs_n = mechanism != "ols_jl"
        if n_private and needs_n and not self.fit_intercept:
            raise ValueError(NO_RELEASED_COUNT)
        return options, n_private

    def _released_count(self):
        """The count the release holds in its intercept column (rows [1, x, y]: n + noise), read
        off the release's estimate of G (a Gram mechanism's noise mean removed, as every
        estimate reads it), or None (no intercept, or ols_jl, which keeps no release)."""
        if not self.fit_intercept or self.release_ is None:
            return None
        m = self.release_.released_xtx if isinstance(self.release_, AdasspFitType) \
            else _noise_mean_removed(self.release_, self.receipt_)
        return float(m[0, 0])

    def _inference_rows(self, rows: int) -> int:
        """n for the inference: ``rows``, public under replace-one; under add/remove the
        released count, rounded (post-processing), or a ValueError when there is none."""
        if self.receipt_.neighbour != Neighbour.ADD_REMOVE:
            return rows
        count = self._released_count()
        if count is None:
            raise ValueError(NO_RELEASED_COUNT)
        return int(round(count))

    def _adassp_intervals(self, n, rng, intercept_column, level, draws):
        """AdaSSP's noise-aware intervals: the bootstrap, and with ``small_n="posterior"`` the
        posterior where the bootstrap refuses."""
        if self.small_n == "posterior":
            return adassp_intervals(self.release_, n, rng, intercept_column, level, draws)
        return adassp_bootstrap_intervals(self.release_, n, rng, level, draws)

    def _check_adassp_options(self) -> None:
        """ValueError for AdaSSP options that cannot work, before any noise is drawn or any
        budget charged."""
        if self.small_n not in ("refuse", "posterior"):
            raise ValueError(f"small_n must be 'refuse' or 'posterior', got {self.small_n!r}")
        if self.errors not in ERRORS:
            raise ValueError(f"errors must be one of {', '.join(map(repr, ERRORS))}, got "
                             f"{self.errors!r}")
        if self.ridge != 0:
            raise ValueError(f"mechanism 'adassp' chooses its ridge privately: ridge must be 0, "
                             f"got {self.ridge!r}")
        if self.mechanism_options:
            raise ValueError("mechanism 'adassp' takes no mechanism_options; its options are "
                             "rho, calibration and neighbour")
        calibration = _choice(self.calibration, tuple(CALIBRATIONS), "calibration")
        if calibration == "paper" and self.intervals:
            raise ValueError("calibration 'paper' has no share of the budget for y'y, which the "
                             "noise-aware intervals need: set intervals=False or use "
                             "calibration 'joint_analytic'")
        share = self._bound_share()
        if not 0.0 <= share < 1.0:
            raise ValueError(f"bound_epsilon must be in [0, 1), got {self.bound_epsilon!r}")
        if share > 0.0 and _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour") != "replace_one":
            raise ValueError("bound_epsilon > 0 aims at a quantile of the public number of rows, "
                             "which add_remove keeps private: set bound_epsilon=0")

    def _accountant_steps(self, p: int, bound_x: float, bound_y: float, tighten: bool = True):
        """Refuse, before any noise is drawn, a fit the active accountant (dpcov.ledger) cannot
        afford in full, and return the context of its releases. The bound step (pure,
        ``bound_epsilon * epsilon``; charged by ``tighten_bound``) and AdaSSP (the rest, with
        ``delta``; charged by ``adassp_fit`` with its plan's zCDP rho or (epsilon, delta)) are
        (epsilon, delta)-DP by basic composition; robust errors' meat is a release of its own.
        AdaSSP's plan is taken at the public bound: its rho and (epsilon, delta) do not depend on
        the bounds (proofs/adassp.md, "zCDP"). With a bound step the context is
        :func:`~dpcov.ledger.release_in_steps`: an advanced ledger, whose first charge fixes the
        per-release budget, takes the bound step and the fit as one release, as the command
        line charges them. Without a bound step the check is all: a null context."""
        budget = active_accountant()
        if budget is None:
            return contextlib.nullcontext()
        epsilon, share = float(self.epsilon), self._bound_share() if tighten else 0.0
        spent = share * epsilon
        if share != 0.0:
            epsilon = bound_step_rest(epsilon, spent)
        neighbour = _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour")
        calibration = _choice(self.calibration, tuple(CALIBRATIONS), "calibration")
        later = []
        if self.errors_ == "robust":
            split = sandwich_plan(bound_x, bound_y, epsilon, self.delta)
            fit = adassp_plan(p, bound_x, bound_y, split.fit_epsilon, split.fit_delta, neighbour,
                              calibration, self.rho, self.small_n == "posterior")
            later.append(meat_plan(p, split, neighbour))
        else:
            fit = adassp_plan(p, bound_x, bound_y, epsilon, self.delta, neighbour, calibration,
                              self.rho, bool(self.intervals),
                              without_lambda_min=self._without_lambda_min())
        if share == 0.0:
            budget.check_all([fit] + later)
            return contextlib.nullcontext()
        return release_in_steps(spent, fit, later)

    def _decide_errors(self, p: int, bound_x: float, bound_y: float, rows: int,
                       n_private: bool, tighten: bool = True) -> None:
        """The default fit's decisions from public values at the public bound
        (:func:`dpcov.adassp_default_fit`, the library's rules, as ``dpcov regress`` takes them):
        ``_small_n_split``, why the fit drops AdaSSP's lambda_min step, or None; whether y'y is
        released for the intervals (read by ``_fit_adassp``); ``errors_``: "robust" with
        ``errors="robust"`` and the intervals on, unless the forecast at the public n expects no
        interval even for rows on their bounds: then the meat is not released and the fit takes
        the homoscedastic path, whose ``inference_`` says why (robust intervals need X'X~
        positive definite as the bootstrap does)."""
        self.errors_ = "homoscedastic"
        self._robust_skipped = None
        self._small_n_split = None
        share = self._bound_share() if tighten else 0.0
        epsilon = bound_step_rest(float(self.epsilon), share * float(self.epsilon)) if share \
            else float(self.epsilon)
        self._decision = adassp_default_fit(
            p, bound_x, bound_y, epsilon, self.delta, math.nan if n_private else rows,
            self.level, intervals=self.intervals, robust=self.errors == "robust",
            small_n_posterior=self.small_n == "posterior",
            neighbour=_choice(self.neighbour, tuple(NEIGHBOURS), "neighbour"),
            calibration=_choice(self.calibration, tuple(CALIBRATIONS), "calibration"),
            rho=self.rho)
        if self._decision.small_n_split:
            self._small_n_split = (
                f"budget: X'X, X'y and y'y without AdaSSP's lambda_min step (a larger share of "
                f"epsilon each, the ridge at its public bound), from public values: at n = "
                f"{rows} the plan expects the small-n posterior to answer (the bootstrap from "
                f"about n = {math.ceil(self._decision.rows_for_bootstrap)}), where the released "
                f"lambda_min would be 0")
        if self._decision.robust_skipped:
            self._robust_skipped = (f"robust intervals not attempted: the forecast expects "
                                    f"none at n = {rows}")
        if self._decision.robust:
            self.errors_ = "robust"

    def _fit_robust(self, g, label, features, bound_x, bound_y, epsilon, rng, raw_rows,
                    bounding: dict, clipping: str, rows: int) -> None:
        """AdaSSP at its share of (epsilon, delta), then the meat of the rows (``raw_rows``
        bounded by ``bounding`` as the fit read them) at its coefficients, released by Analyze
        Gauss at the meat's share, then the robust intervals (proofs/sandwich.md). With
        ``small_n="posterior"`` the fit also releases y'y, and the meat is released only where
        the released statistics support the bootstrap (``_robust_supported``)."""
        neighbour = _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour")
        split = sandwich_plan(bound_x, bound_y, epsilon, self.delta)
        # y'y for the posterior, which answers where the release does not support the bootstrap:
        # the library's decision (dpcov_adassp_default_fit), as on the command line.
        fallback = self._decision.release_label_square
        fit = adassp_fit(g, label, features, bound_x, bound_y, split.fit_epsilon,
                         split.fit_delta, rng, neighbour=neighbour,
                         calibration=_choice(self.calibration, tuple(CALIBRATIONS),
                                             "calibration"), rho=self.rho,
                         release_label_square=fallback)
        self.params_, self.release_, self.receipt_ = fit.coefficients, fit, fit.receipt
        self._intervals_skipped = None
        n_private = _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour") == "add_remove"
        self._keep_forecast(None if n_private else rows, None)
        answer = self._robust_supported(rows, rng) if fallback else None
        if answer is not None and answer.method != "bootstrap":
            self._homoscedastic_answer(answer, clipping, split.meat_share)
            return
        self.meat_, self.meat_receipt_ = release_meat(raw_rows, bounding, fit.coefficients,
                                                      bound_x, split, neighbour, rng)
        robust = lambda: adassp_sandwich_intervals(fit, self.meat_, rng, self.level,  # noqa: E731
                                                   self.n_bootstrap, self.meat_receipt_)
        if answer is not None and self.intervals != "deferred":
            try:
                result = robust()
            except DpcovError:
                # The robust bootstrap's worlds refused where the rule's did not (a released
                # X'X~ near the edge): the rule's homoscedastic intervals answer, labelled.
                self._homoscedastic_answer(answer, clipping, None)
                return
            robust = lambda: result  # noqa: E731
        self._noise_aware(robust,
            f"noise-aware: robust (sandwich) parametric bootstrap from AdaSSP's noise law and the "
            f"released meat sum r_i^2 x_i x_i' (a {split.meat_share:g} share of epsilon and "
            f"delta, meat_receipt_), for beta from the unregularised released statistics (not "
            f"centred on the ridge coef_); " + clipping + ROBUST)

    def _robust_supported(self, rows: int, rng):
        """The homoscedastic answer of ``dpcov_adassp_intervals`` on the robust fit's release
        (post-processing): the rule, the same on every surface, that the released X'X~ supports
        the robust bootstrap where that function answers with its bootstrap (whose worlds need
        X'X~ + E positive definite as the sandwich's do); else its posterior answers and the
        meat is not released (docs/regression_intervals.md, "Robust or the posterior"). None when
        it refuses (too few rows for n). With ``intervals="deferred"`` only the bootstrap runs
        (from the same generator state), which decides the rule: ``DEFERRED_ANSWERS`` names the
        method that would answer."""
        n = self._inference_rows(rows)
        try:
            if self.intervals == "deferred":
                try:
                    adassp_bootstrap_intervals(self.release_, n, rng, self.level,
                                               self.n_bootstrap)
                    return DEFERRED_ANSWERS["bootstrap"]
                except PreconditionError:
                    return DEFERRED_ANSWERS["posterior"]
            return adassp_intervals(self.release_, n, rng, 0 if self.fit_intercept else -1,
                                    self.level, self.n_bootstrap)
        except DpcovError:
            return None

    def _homoscedastic_answer(self, answer, clipping: str, unspent_share) -> None:
        """The robust fit's homoscedastic ``answer`` as its intervals: ``errors_`` homoscedastic,
        ``inference_`` saying why robust did not answer and whether the meat's share was
        spent."""
        self.errors_ = "homoscedastic"
        spent = ("the meat was not released (its share of the budget unspent)"
                 if unspent_share is not None else "the released meat's bootstrap refused")
        self._robust_skipped = (f"robust intervals not given: the released X'X~ does not support "
                                f"the bootstrap, so {spent}; the intervals are the homoscedastic "
                                f"ones, from the fit's y'y")
        self._noise_aware(lambda: answer,
                          "noise-aware: {method} from AdaSSP's noise law at the robust fit's "
                          "share of the budget, for beta from the unregularised released "
                          "statistics (not centred on the ridge coef_); " + clipping
                          + HOMOSCEDASTIC)

    def _without_lambda_min(self) -> bool:
        """Whether this fit takes the small-n split (``_decide_small_n_split``)."""
        return self.__dict__.get("_small_n_split") is not None

    def _label_errors(self) -> None:
        """Says in ``inference_`` why robust intervals were asked for and not given, and why
        the fit dropped AdaSSP's lambda_min step."""
        split = self.__dict__.pop("_small_n_split", None)
        if split is not None:
            self.inference_ = f"{split}; {self.inference_}"
        why = self.__dict__.pop("_robust_skipped", None)
        if why is not None:
            self.inference_ = f"{why}; {self.inference_}"

    def _bound_share(self) -> float:
        """The share of ``epsilon`` spent on a private bound: ``bound_epsilon``, or by default
        none when the intervals are asked for (their statistics at the public bound: no clipping
        bias) or under add/remove (the step aims at a quantile of the public n), and
        ``BOUND_STEP_SHARE`` otherwise."""
        if self.bound_epsilon is None:
            add_remove = self.neighbour == "add_remove"
            return 0.0 if self.intervals or add_remove else BOUND_STEP_SHARE
        return float(self.bound_epsilon)

    @staticmethod
    def _clipping_assumption(bound: float, moved: bool) -> str:
        """What the AdaSSP intervals assume of the rows clipped at ``bound`` (``bound_``), which
        ``moved`` below the public bound or not."""
        if moved:
            return (f"assumes the rows clipped at the private bound {bound:.6g} do not move the "
                    "coefficients (that bias is not in the intervals: bound_epsilon=0 removes "
                    "it); ")
        return "at the public bound (no clipping beyond it); "

    def _tightened(self, X: np.ndarray, bound: float, rng):
        """(bound, AdaSSP's epsilon, whether the bound moved): the private choice of a bound
        below ``bound`` with a ``bound_epsilon`` share of ``epsilon`` (class docstring)."""
        share = self._bound_share()
        if share == 0.0:
            return bound, float(self.epsilon), False
        spent = share * float(self.epsilon)
        chosen = tighten_bound_rows(X, bound, spent, rng, float(self.bound_quantile))
        rest = bound_step_rest(float(self.epsilon), spent)
        return chosen, rest, chosen < bound

    def _fit_adassp(self, g, label, features, bound_x, bound_y, epsilon, rng, rows=None) -> None:
        """AdaSSP on the exact Gram matrix of the bounded rows with ``epsilon`` (options checked
        by ``_check_adassp_options``). y'y, which only the intervals use, is released unless the
        forecast at the public ``rows`` (None: n is private, no decision) expects no interval."""
        calibration = _choice(self.calibration, tuple(CALIBRATIONS), "calibration")
        neighbour = _choice(self.neighbour, tuple(NEIGHBOURS), "neighbour")
        self._intervals_skipped = None
        without = self._without_lambda_min()
        # y'y as _decide_errors decided it (at the public bound, before any bound step).
        deciding = self._decision.forecast if rows is not None else None
        if deciding is not None and self._decision.label_square_refused:
            self._intervals_skipped = self._no_intervals_forecast(deciding, rows)
        fit = adassp_fit(g, label, features, bound_x, bound_y, epsilon, self.delta, rng,
                         neighbour=neighbour, calibration=calibration, rho=self.rho,
                         release_label_square=bool(self.intervals)
                         and self._intervals_skipped is None, without_lambda_min=without)
        self.params_ = fit.coefficients
        self.release_ = fit
        self.receipt_ = fit.receipt
        self._keep_forecast(rows, deciding if self._intervals_skipped is not None else None)

    def _keep_forecast(self, rows, deciding) -> None:
        """``forecast_`` (public values only, as ``dpcov regress`` prints it): where n is public
        (``rows`` not None), the forecast of the fit that ran (``receipt_``: its share of the
        budget, y'y, its intercept), or ``deciding``, the forecast that decided not to release
        y'y, where that was the outcome; None where n is private."""
        if rows is None:
            self.forecast_ = None
        elif deciding is not None:
            self.forecast_ = deciding
        else:
            self.forecast_ = regression_forecast(self.receipt_, n=rows, level=self.level,
                                                 fill=1.0, intercept=bool(self.fit_intercept))

    def _no_intervals_forecast(self, f, rows: int) -> str:
        """Spend only on what is used: why y'y is not released where the forecast ``f`` at
        ``rows`` (the fit's plan with y'y, fill 1: the most favourable design) expects no
        noise-aware interval (then the fit keeps its share; docs/forecast.md). With
        ``small_n="posterior"`` an interval is also expected where the forecast's posterior
        prints one: its sampling share reaches the print rule's threshold and its half-width is
        below R_j (docs/forecast.md, "Will the posterior print?")."""
        posterior = self.small_n == "posterior"
        if posterior:
            needs = (f"the posterior prints from about n = "
                     f"{math.ceil(f.rows_for_posterior_intervals)}: sampling share "
                     f"{f.posterior_sampling_share:.3g} against "
                     f"{f.posterior_min_sampling_share:.3g}, half-width "
                     f"{f.posterior_half_width_over_range:.3g} x R_j")
        else:
            needs = (f"intervals from about n = {math.ceil(f.rows_for_intervals)}, expected "
                     f"width of a standardised coefficient {f.interval_width:.3g}")
        return (f"not attempted: the plan forecasts none at n = {rows} even with rows on their "
                f"bounds ({needs}), so y'y was not released and the fit kept its share of the "
                f"budget (intervals='always' spends it)")

    def _keep_intervals(self, result, inference: str, method: str = "t") -> None:
        """std_errors_, p_values_, conf_int_ from ``result`` and what they are: ``inference``
        in words, ``method`` ("bootstrap", "posterior" or ols_jl's "t") for programs."""
        self.interval_method_ = method
        self.std_errors_ = np.asarray(result.std_errors)
        self.p_values_ = np.asarray(result.p_values)
        self.conf_int_ = np.column_stack([result.ci_lower, result.ci_upper])
        self.inference_ = inference
        self.conclusive_ = np.asarray(getattr(result, "conclusive",
                                              np.ones(len(self.params_), dtype=bool)))

    def _no_intervals(self, why: str) -> None:
        """NaN intervals, and ``inference_`` saying why."""
        nan = np.full(len(self.params_), np.nan)
        self.std_errors_, self.p_values_ = nan, nan.copy()
        self.conf_int_ = np.column_stack([nan, nan])
        self.inference_ = f"none: {why}"
        self.interval_method_ = None
        self.conclusive_ = np.zeros(len(self.params_), dtype=bool)

    def _noise_aware(self, compute, inference: str) -> None:
        """The noise-aware intervals from ``compute()``, or NaN with a warning when the noise
        swamps the data (or the mechanism has no known noise law)."""
        if not self.intervals:
            self._no_intervals("intervals=False")
            return
        skipped = self.__dict__.pop("_intervals_skipped", None)  # set by this fit's _fit_adassp
        if skipped is not None:
            self._no_intervals(skipped)
            warnings.warn(f"no noise-aware intervals: {skipped}", UserWarning, stacklevel=3)
            return
        if self.intervals == "deferred":
            self._no_intervals(DEFERRED)
            return
        try:
            result = compute()
        except DpcovError as e:
            self._no_intervals(str(e))
            warnings.warn(f"no noise-aware intervals: {e}", UserWarning, stacklevel=3)
            return
        method = getattr(result, "method", "bootstrap")
        self._keep_intervals(result, inference.format(
            method="noise-aware posterior" if method == "posterior" else "parametric bootstrap"),
            method)
        if not self.conclusive_.all():
            self.std_errors_, self.p_values_, self.conf_int_, flags = _conclusive_only(
                result, self.conclusive_)
            unconverged, prior, unbounded = flags
            for which, why in ((~self.conclusive_ & ~unconverged & ~prior & ~unbounded,
                                "their intervals cover every value that matters"),
                               (unbounded, "they lie along a direction of X'X too weak against "
                                "the privacy noise for the release to bound them"),
                               (unconverged, "the posterior's chains did not converge for them"),
                               (prior, "a prior, not the release, decides their intervals")):
                if which.any():
                    warnings.warn(f"the release cannot support a conclusion about coefficients "
                                  f"{np.flatnonzero(which).tolist()}: {why} (conclusive_ is "
                                  f"False)", UserWarning, stacklevel=3)

    def _gram_split(self, mechanism, bound_x: float, options: dict):
        """The split of (epsilon, delta) between a Gram mechanism's release and the meat
        (``sandwich_plan``) when its intervals are robust: ``errors="robust"`` (the default), the
        intervals on, ``ridge`` 0 and a mechanism with a noise law the intervals read; else None
        (the homoscedastic bootstrap at the whole budget, ``errors_`` says so)."""
        errors = _choice(self.errors, ("robust", "homoscedastic"), "errors")
        if (mechanism in MECHANISMS_REGRESSION or errors != "robust" or not self.intervals
                or self.ridge != 0 or not _robust_gram(mechanism)):
            return None
        return sandwich_plan(bound_x, 1.0, float(self.epsilon), self.delta)

    def _check_gram_accountant(self, mechanism, dim, row_bound, split, options, n) -> None:
        """An active accountant must hold both releases (the fit's and the meat's) before the
        first is drawn, so that a budget with room for one only refuses here."""
        budget = active_accountant()
        if budget is None:
            return
        neighbour = _neighbour_name(_n_private(options))
        budget.check_all([plan(mechanism, dim, n, row_bound, split.fit_epsilon, split.fit_delta,
                               **options),
                          meat_plan(dim - 1, split, neighbour)])

    def _gram_robust(self, released, receipt, label, features, rng, raw_rows, bounding: dict,
                     bound_x: float, split) -> None:
        """The meat of the rows (bounded by ``bounding`` as the release read them) at the fit's
        coefficients, released by Analyze Gauss at the meat's share, then the robust intervals
        of the release, the meat's noise redrawn in every world (``dpcov_ols_robust_intervals``,
        proofs/sandwich.md)."""
        self.errors_ = "robust"
        neighbour = bounding["neighbour"]
        self.meat_, self.meat_receipt_ = release_meat(raw_rows, bounding, self.params_, bound_x,
                                                      split, neighbour, rng)
        intercept = 0 if self.fit_intercept else -1
        self._noise_aware(lambda: ols_intervals(
            released, receipt, label, features, rng, intercept, self.level, self.n_bootstrap,
            self.meat_, self.meat_receipt_),
            f"noise-aware: robust (sandwich) parametric bootstrap from the mechanism's noise law "
            f"and the released meat sum r_i^2 x_i x_i' (a {split.meat_share:g} share of epsilon "
            f"and delta, meat_receipt_); " + ROBUST)

    def _gram_fit(self, released, receipt, n, label, features, ridge):
        """The regression of the released matrix (``params_``), or None when its feature block
        is not positive definite after the noise. A refusal is an output, as on AdaSSP's path:
        NaN coefficients (least squares of an indefinite matrix has none) and NaN intervals, a
        warning, ``inference_`` saying why; no meat is released for intervals that cannot be
        given. The noise's mean is removed first (``_noise_mean_removed``): the coefficients
        then estimate beta, as the noise-aware intervals' centre does."""
        p = len(features) + (1 if self.fit_intercept else 0)
        if n <= p:  # a released count (add/remove): a public n this small is refused earlier
            self.params_ = np.full(p, np.nan)
            why = released_count_too_small(n, p)
            self._no_intervals(f"the release has no regression: {why}")
            warnings.warn(f"no coefficients and no intervals (NaN): {why}", UserWarning,
                          stacklevel=4)
            return None
        try:
            result = _est.regression_fit(_noise_mean_removed(released, receipt), n, label,
                                         features, 0 if self.fit_intercept else -1, ridge,
                                         self.level)
        except NotPositiveDefiniteError as e:
            self.params_ = np.full(len(features) + (1 if self.fit_intercept else 0), np.nan)
            self._no_intervals(f"the release has no least-squares coefficients: {e}")
            warnings.warn(f"no coefficients and no intervals (NaN): {e}", UserWarning,
                          stacklevel=4)
            return None
        self.params_ = result.coefficients
        return result

    def _keep_plug_in(self, result) -> None:
        """The table that treats a Gram mechanism's release as exact data, with ``plug_in=True``."""
        if self.plug_in:
            basis = "plug-in: treats the release as exact data (ignores the privacy noise)"
            if result.summary.rss_clamped:
                basis += ("; the release's residual sum of squares was negative (it is "
                          "indefinite) and was clamped to 0, so the standard errors are 0 and the "
                          "p-values 0 by construction, not from the data")
            self.plug_in_ = {
                "basis": basis,
                "std_errors": result.std_errors, "t_values": result.t_values,
                "p_values": result.p_values,
                "conf_int": np.column_stack([result.ci_lower, result.ci_upper]),
                "summary": result.summary}

    def _gram_inference(self, result, released, receipt, label, features, rng) -> None:
        """Noise-aware intervals of a Gram mechanism's release; the plug-in table on request."""
        intercept = 0 if self.fit_intercept else -1
        self._keep_plug_in(result)
        if self.ridge != 0:
            self._no_intervals("the noise-aware intervals are for OLS (ridge = 0)")
            return
        self._noise_aware(lambda: ols_intervals(
            released, receipt, label, features, rng, intercept, self.level, self.n_bootstrap),
            "noise-aware: parametric bootstrap from the mechanism's noise law; " + HOMOSCEDASTIC)

    def noise_aware_intervals(self, level=None, n_bootstrap=None, random_state=None):
        """Recompute the noise-aware intervals from the kept release at another ``level`` or
        number of draws (post-processing: no privacy cost). Returns (std_errors, p_values,
        conf_int); raises PreconditionError when the noise swamps the data. ``random_state``
        None on an estimator seeded with an int draws from that seed (its stream 2), so a seeded
        run is reproducible; otherwise as for the estimator. Where ``fit`` prints no interval
        for a coefficient (``conclusive_``), neither does this (NaN); a fit with a ridge, at the
        level of privacy units or by ``ols_jl`` has none to recompute (ValueError)."""
        check_is_fitted(self, "params_")
        if isinstance(self.release_, AdasspFitType) and self.release_.receipt.max_rows_per_unit:
            raise ValueError(f"no noise-aware intervals at the level of privacy units: "
                             f"{UNITS_NO_INTERVALS}")
        if self.release_ is not None and not isinstance(self.release_, AdasspFitType) \
                and self.ridge != 0:
            raise ValueError("the noise-aware intervals are for OLS (ridge = 0); this fit has "
                             f"ridge = {self.ridge!r}")
        level = self.level if level is None else level
        draws = self.n_bootstrap if n_bootstrap is None else n_bootstrap
        seed = self.random_state
        rng = (Rng(int(seed), 2) if random_state is None and isinstance(seed, (int, np.integer))
               else as_rng(random_state))
        if isinstance(self.release_, AdasspFitType) and self.errors_ == "robust":
            out = adassp_sandwich_intervals(self.release_, self.meat_, rng, level, draws,
                                            self.meat_receipt_)
        elif isinstance(self.release_, AdasspFitType):
            out = self._adassp_intervals(self._inference_rows(self.n_samples_), rng,
                                         0 if self.fit_intercept else -1, level, draws)
        elif self.release_ is not None:
            d = self.release_.shape[0]
            offset = 1 if self.fit_intercept else 0
            receipt = _stating_rows(self.receipt_, self._inference_rows(self.n_samples_))
            robust = self.errors_ == "robust"
            out = ols_intervals(self.release_, receipt, d - 1, np.arange(offset, d - 1), rng,
                                offset - 1, level, draws, self.meat_ if robust else None,
                                self.meat_receipt_ if robust else None)
        else:
            raise ValueError("ols_jl keeps no release: its intervals are fixed at fit")
        conclusive = np.asarray(getattr(out, "conclusive", np.ones(len(self.params_))),
                                dtype=bool)
        std_errors, p_values, conf_int, _ = _conclusive_only(out, conclusive)
        factors = self.unit_factors_
        return std_errors * factors, p_values, conf_int * factors[:, None]

    def predict(self, X) -> np.ndarray:
        """X @ coef_ + intercept_."""
        check_is_fitted(self, "coef_")
        return _validate_X(self, X, reset=False) @ self.coef_ + self.intercept_

    def _more_tags(self):
        """scikit-learn's ``poor_score`` tag: ``check_regressors_train`` runs every part but its
        R^2 > 0.5 on 200 rows, which the privacy noise at the default epsilon = 1 (and the
        clipping of rows of norm ~3 to the default bound 1) cannot reach (binding README)."""
        return {"poor_score": True}
