"""Scikit-learn style estimators over private releases: covariance, PCA, linear regression.

They follow scikit-learn's conventions (constructor arguments are the parameters, ``fit`` returns
``self``, fitted attributes end in ``_``, ``get_params``/``set_params``) without importing
scikit-learn, so they drop into pipelines and grid searches of people used to scikit-learn and
diffprivlib. Each ``fit`` accumulates the Gram matrix of norm-bounded rows in a
:class:`~dpcov.GramAccumulator`, makes ONE release with the chosen mechanism, and derives
everything else by post-processing (no further privacy cost). The receipt of the release is kept
in ``receipt_``; it and ``n_clipped_`` are the curator's (proofs/public_receipt.md): publish
``receipt_.public()``.

Privacy parameters: ``epsilon``, ``delta`` and ``bound`` (B, a public bound on the Euclidean norm
of each data row, chosen without looking at the data). Rows over the bound are scaled down by the
library and counted in ``n_clipped_``. The number of rows is treated as public, as under the
default replace-one neighbour relation.

Centering and intercepts use a constant column: each row [x] becomes [c, x] with c = B, whose
norm is at most sqrt(2) B, so a single release of the augmented Gram matrix gives both the
(noisy) column sums and the second moments. The augmented rows are built chunk by chunk
(explicit copies of at most ``CHUNK_ROWS`` rows); without centering the data are read in place.

``random_state``: None draws the noise from the operating system's entropy (the only choice for a
private release); an int seeds a reproducible generator (experiments and tests only: the receipt
records ``seed_fixed = 1``); a :class:`~dpcov.Rng` is used and advanced.
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from . import estimators as _est
from .gram import GramAccumulator
from .ols import ols_jl
from .postprocess import psd_project
from .rng import as_rng

CHUNK_ROWS = 8192
"""Rows per augmented chunk copied while accumulating with a constant column."""


def _as_2d(X, name: str = "X") -> np.ndarray:
    """The input as a 2-D float64 array (array-likes are converted, as in scikit-learn)."""
    arr = np.asarray(X, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got shape {arr.shape}")
    return arr


def _accumulate(gram: GramAccumulator, blocks, bound: float, policy) -> None:
    """Add every block of rows to ``gram`` with the bound and policy."""
    for block in blocks:
        gram.add_rows(block, bound, policy)


def _augmented_blocks(constant: float, X: np.ndarray, y: np.ndarray | None):
    """Chunks of [constant, X, (y)]; the copies are explicit and bounded by CHUNK_ROWS rows."""
    for start in range(0, X.shape[0], CHUNK_ROWS):
        stop = min(start + CHUNK_ROWS, X.shape[0])
        parts = [np.full((stop - start, 1), constant), X[start:stop]]
        if y is not None:
            parts.append(y[start:stop, None])
        yield np.hstack(parts)


class _Estimator:
    """get_params / set_params / repr from the constructor's signature, as in scikit-learn."""

    @classmethod
    def _param_names(cls):
        """The constructor's parameter names, in order."""
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.name != "self"]

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters and their current values."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set constructor parameters (unknown names raise ``ValueError``); returns ``self``."""
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"invalid parameter {key!r} for {type(self).__name__}; valid: "
                                 + ", ".join(valid))
            setattr(self, key, value)
        return self

    def __repr__(self):
        """The class name with every parameter, as scikit-learn prints estimators."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _release_gram(self, blocks, dim: int, bound: float):
        """Accumulate ``blocks`` and release once; returns (release, n, clipped, receipt)."""
        options = dict(self.mechanism_options or {})
        rng = as_rng(self.random_state)
        with GramAccumulator(dim) as gram:
            _accumulate(gram, blocks, bound, self.policy)
            info = gram.info()
            released, receipt = gram.release(self.mechanism, self.epsilon, self.delta, rng,
                                             **options)
        return released, info, receipt


class PrivateCovariance(_Estimator):
    """Differentially private covariance (and mean) from one release of the Gram matrix.

    Args:
        epsilon, delta: the privacy budget of the release.
        bound: public bound B on the Euclidean norm of each row of X.
        mechanism: any Gram-releasing mechanism name or id (default ``"analyze_gauss"``).
        assume_centered: if True, release X^T X / n as the covariance (no mean); if False
            (default), release the Gram matrix of [B, x] rows and centre with the noisy mean.
        psd: project the covariance onto the positive semidefinite cone (default True).
        policy: what the library does with rows over the bound: ``"clip"`` (default),
            ``"reject"`` or ``"drop"``.
        random_state: None (OS entropy), an int seed (not private), or a :class:`~dpcov.Rng`.
        mechanism_options: dict of mechanism options (e.g. ``{"rank": 3}`` for IEV).

    Fitted attributes: ``covariance_``, ``location_``, ``second_moment_`` (the released matrix),
    ``receipt_``, ``n_samples_``, ``n_features_in_``, ``n_clipped_``.
    """

    def __init__(self, epsilon=1.0, delta=1e-6, bound=1.0, mechanism="analyze_gauss",
                 assume_centered=False, psd=True, policy="clip", random_state=None,
                 mechanism_options=None):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.mechanism = mechanism
        self.assume_centered = assume_centered
        self.psd = psd
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options

    def fit(self, X, y=None):
        """Release the covariance of the rows of ``X`` (``y`` is ignored). Returns ``self``."""
        X = _as_2d(X)
        n, d = X.shape
        B = float(self.bound)
        if self.assume_centered:
            released, info, receipt = self._release_gram([X], d, B)
            rows = max(info.rows, 1)
            location = np.zeros(d)
            covariance = released / rows
        else:
            released, info, receipt = self._release_gram(_augmented_blocks(B, X, None), d + 1,
                                                         math.hypot(B, B))
            rows = max(info.rows, 1)
            location = released[0, 1:] / (B * rows)
            # Both terms are exactly symmetric (products commute in IEEE arithmetic), so the
            # difference is too, as the post-processing functions require.
            covariance = released[1:, 1:] / rows - np.outer(location, location)
        if self.psd:
            covariance = psd_project(covariance, inplace=True)
        self.second_moment_ = released
        self.covariance_ = covariance
        self.location_ = location
        self.receipt_ = receipt
        self.n_samples_ = info.rows
        self.n_clipped_ = info.clipped
        self.n_features_in_ = d
        return self

    def get_precision(self) -> np.ndarray:
        """The pseudo-inverse of ``covariance_`` (post-processing)."""
        return np.linalg.pinv(self.covariance_, hermitian=True)


class PrivatePCA(_Estimator):
    """Differentially private PCA: top components of a :class:`PrivateCovariance` release.

    Args:
        n_components: number of components k (default: all).
        epsilon, delta, bound, mechanism, policy, random_state, mechanism_options: as for
            :class:`PrivateCovariance`.
        center: subtract the (noisy) mean (default True).

    Fitted attributes: ``components_`` (k x d, rows are components), ``explained_variance_``,
    ``explained_variance_ratio_`` (of the private covariance projected onto the PSD cone:
    max(eigenvalue, 0) over the sum of the positive eigenvalues, each in [0, 1]), ``mean_``, ``covariance_``, ``receipt_``, ``n_components_``,
    ``n_features_in_``, ``n_samples_``.
    """

    def __init__(self, n_components=None, epsilon=1.0, delta=1e-6, bound=1.0,
                 mechanism="analyze_gauss", center=True, policy="clip", random_state=None,
                 mechanism_options=None):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.n_components = n_components
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.mechanism = mechanism
        self.center = center
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options

    def fit(self, X, y=None):
        """Release the covariance of ``X`` once and keep its top components. Returns ``self``."""
        cov = PrivateCovariance(epsilon=self.epsilon, delta=self.delta, bound=self.bound,
                                mechanism=self.mechanism, assume_centered=not self.center,
                                psd=False, policy=self.policy, random_state=self.random_state,
                                mechanism_options=self.mechanism_options).fit(X)
        d = cov.n_features_in_
        k = d if self.n_components is None else int(self.n_components)
        values, vectors, ratio = _est.pca_top_k(cov.covariance_, k)
        self.components_ = np.ascontiguousarray(vectors.T)
        self.explained_variance_ = values
        self.explained_variance_ratio_ = ratio
        self.mean_ = cov.location_
        self.covariance_ = cov.covariance_
        self.receipt_ = cov.receipt_
        self.n_components_ = k
        self.n_features_in_ = d
        self.n_samples_ = cov.n_samples_
        return self

    def transform(self, X) -> np.ndarray:
        """Project ``X`` on the components: (X - mean_) @ components_.T."""
        return (_as_2d(X) - self.mean_) @ self.components_.T

    def fit_transform(self, X, y=None) -> np.ndarray:
        """``fit(X)`` then ``transform(X)``."""
        return self.fit(X).transform(X)

    def inverse_transform(self, Z) -> np.ndarray:
        """Map component scores back to feature space: Z @ components_ + mean_."""
        return _as_2d(Z, "Z") @ self.components_ + self.mean_


class PrivateLinearRegression(_Estimator):
    """Differentially private least squares / ridge regression with standard errors, t-values,
    p-values and confidence intervals, all post-processing of one release.

    The rows [x_i, y_i] (with a constant column c = B in front when ``fit_intercept``) are
    accumulated into a Gram matrix and released once; the regression is then solved from the
    release (``dpcov_regression_fit``) with ``ridge`` added to the features' diagonal. With
    ``mechanism="ols_jl"`` it runs Sheffet's private OLS by projection instead
    (``dpcov_ols_jl``; needs ``projection_rows``, ridge must be 0; may refuse with
    :class:`~dpcov.errors.RefusedError`), whose intervals have exact coverage of the non-private
    OLS estimate. With a Gram release (Analyze Gauss, ...) the intervals are plug-in and have no
    coverage guarantee.

    A noisy release can make X'X + ridge I indefinite: ``fit`` then raises
    :class:`~dpcov.errors.NotPositiveDefiniteError` whose message gives the smallest eigenvalue and
    the ridge penalty that would fix it.

    Args:
        epsilon, delta: privacy budget.
        bound: public bound B on the Euclidean norm of each row [x_i, y_i].
        fit_intercept: add an (unpenalised) intercept (default True).
        ridge: penalty lambda >= 0 on the unnormalised scale of X'X (default 0: OLS).
        level: confidence level of the intervals (default 0.95).
        mechanism: ``"analyze_gauss"`` (default), another Gram mechanism, or ``"ols_jl"``.
        projection_rows: r for ``"ols_jl"``.
        policy, random_state, mechanism_options: as for :class:`PrivateCovariance`.

    Fitted attributes: ``coef_``, ``intercept_``, ``params_`` ([intercept,] coefficients),
    ``std_errors_``, ``t_values_``, ``p_values_``, ``conf_int_`` (p x 2), aligned with
    ``params_``; ``summary_``, ``receipt_``, ``n_samples_``, ``n_clipped_``, ``n_features_in_``.
    """

    def __init__(self, epsilon=1.0, delta=1e-6, bound=1.0, fit_intercept=True, ridge=0.0,
                 level=0.95, mechanism="analyze_gauss", projection_rows=None, policy="clip",
                 random_state=None, mechanism_options=None):
        """Store the parameters unchanged (validated at ``fit``), as scikit-learn requires."""
        self.epsilon = epsilon
        self.delta = delta
        self.bound = bound
        self.fit_intercept = fit_intercept
        self.ridge = ridge
        self.level = level
        self.mechanism = mechanism
        self.projection_rows = projection_rows
        self.policy = policy
        self.random_state = random_state
        self.mechanism_options = mechanism_options

    def fit(self, X, y):
        """Release once and fit the regression of ``y`` on ``X``. Returns ``self``."""
        X = _as_2d(X)
        y = np.asarray(y, dtype=np.float64)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-D with {X.shape[0]} entries, got shape {y.shape}")
        n, p_f = X.shape
        B = float(self.bound)
        offset = 1 if self.fit_intercept else 0
        dim = p_f + 1 + offset
        if self.fit_intercept:
            blocks, row_bound = _augmented_blocks(B, X, y), math.hypot(B, B)
        else:
            blocks, row_bound = (np.hstack([X[s:s + CHUNK_ROWS], y[s:s + CHUNK_ROWS, None]])
                                 for s in range(0, n, CHUNK_ROWS)), B
        features = np.arange(offset, offset + p_f, dtype=np.int64)
        label = dim - 1
        intercept_column = 0 if self.fit_intercept else -1
        options = dict(self.mechanism_options or {})
        rng = as_rng(self.random_state)
        with GramAccumulator(dim) as gram:
            _accumulate(gram, blocks, row_bound, self.policy)
            info = gram.info()
            if str(self.mechanism).lower() == "ols_jl":
                if self.projection_rows is None:
                    raise ValueError("mechanism 'ols_jl' needs projection_rows")
                result = ols_jl(gram.matrix(), info.rows, row_bound, self.epsilon, self.delta,
                                rng, label, features, int(self.projection_rows),
                                intercept_column, self.level, **options)
                receipt = result.receipt
            else:
                released, receipt = gram.release(self.mechanism, self.epsilon, self.delta, rng,
                                                  **options)
                result = _est.regression_fit(released, info.rows, label, features,
                                             intercept_column, self.ridge, self.level)
        # The intercept column holds c = B, so its coefficient is the intercept divided by B.
        scale = np.ones(p_f + offset)
        if self.fit_intercept:
            scale[0] = B
        self.params_ = result.coefficients * scale
        self.std_errors_ = result.std_errors * scale
        self.t_values_ = result.t_values
        self.p_values_ = result.p_values
        self.conf_int_ = np.column_stack([result.ci_lower * scale, result.ci_upper * scale])
        self.intercept_ = float(self.params_[0]) if self.fit_intercept else 0.0
        self.coef_ = self.params_[offset:]
        self.summary_ = result.summary
        self.receipt_ = receipt
        self.n_samples_ = info.rows
        self.n_clipped_ = info.clipped
        self.n_features_in_ = p_f
        return self

    def predict(self, X) -> np.ndarray:
        """X @ coef_ + intercept_."""
        return _as_2d(X) @ self.coef_ + self.intercept_

    def score(self, X, y) -> float:
        """Coefficient of determination R^2 of ``predict(X)`` against ``y``."""
        y = np.asarray(y, dtype=np.float64)
        residual = y - self.predict(X)
        total = y - y.mean()
        return float(1.0 - residual @ residual / (total @ total))
