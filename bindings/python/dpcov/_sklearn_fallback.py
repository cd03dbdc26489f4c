"""The small part of scikit-learn's estimator API the estimators use, for installations without
scikit-learn (dpcov/learn.py imports scikit-learn's own when it is there)."""

from __future__ import annotations

import inspect

import numpy as np


class NotFittedError(ValueError, AttributeError):
    """A method of an estimator was called before ``fit`` (as scikit-learn's)."""


class BaseEstimator:
    """get_params / set_params / repr from the constructor's signature."""

    @classmethod
    def _get_param_names(cls):
        """The constructor's parameter names, in order."""
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.name != "self"]

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters and their current values."""
        return {name: getattr(self, name) for name in self._get_param_names()}

    def set_params(self, **params):
        """Set constructor parameters (unknown names raise ``ValueError``); returns ``self``."""
        valid = self._get_param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {type(self).__name__}; "
                                 f"valid parameters are: {', '.join(valid)}")
            setattr(self, key, value)
        return self

    def __repr__(self):
        """The class name with every parameter."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"


class RegressorMixin:
    """``score``: the coefficient of determination R^2."""

    def score(self, X, y) -> float:
        """R^2 of ``predict(X)`` against ``y``."""
        y = np.asarray(y, dtype=np.float64)
        residual = y - self.predict(X)
        total = y - y.mean()
        return float(1.0 - residual @ residual / (total @ total))


class TransformerMixin:
    """``fit_transform``."""

    def fit_transform(self, X, y=None):
        """``fit(X, y)`` then ``transform(X)``."""
        return self.fit(X, y).transform(X)


def check_array(X, dtype=np.float64, force_all_finite=False):
    """X as a 2-D array of ``dtype`` with at least one row and one column."""
    if X is None:
        raise ValueError("Expected 2D array, got None")
    arr = np.asarray(X)
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported")
    arr = np.asarray(arr, dtype=dtype)
    if arr.ndim != 2:
        raise ValueError(f"Expected 2D array, got shape {arr.shape}")
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"Found array with shape {arr.shape}: at least 1 sample(s) and 1 "
                         f"feature(s) are required")
    return arr


def check_X_y(X, y, dtype=np.float64, force_all_finite=False, y_numeric=True):
    """X as by check_array, y as a 1-D float64 array of as many entries."""
    if y is None:
        raise ValueError("this estimator requires y to be passed, but the target y is None")
    X = check_array(X, dtype)
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be 1-D with {X.shape[0]} entries, got shape {y.shape}")
    return X, y


def check_is_fitted(estimator, attributes=None):
    """NotFittedError unless ``fit`` has set ``attributes`` (a name or a list of names), by
    default any fitted attribute (a name ending in ``_``)."""
    if attributes is not None:
        names = [attributes] if isinstance(attributes, str) else list(attributes)
        fitted = all(hasattr(estimator, name) for name in names)
    else:
        fitted = any(k.endswith("_") and not k.startswith("__") for k in vars(estimator))
    if not fitted:
        raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet; "
                             f"call 'fit' first")
