"""dpcov: differentially private second-moment and covariance matrices, from Python.

A thin ctypes binding over the dpcov C ABI (``libdpcov.so.0``); see ``bindings/python/README.md``.

- Handles: :class:`Rng` (generator and samplers), :class:`GramAccumulator`, :class:`Sketch`;
  each is a context manager with ``close()``.
- Mechanisms: :func:`plan`, :func:`release_rows` (from rows: exact numerics by default for
  analyze_gauss and laplace_sym), :func:`release`, :func:`release_gram`, :func:`log_density`,
  :func:`log_density_tested`; results carry a :class:`Receipt`.
- Post-processing, estimators, metrics, private OLS and the privacy auditor as functions.
- Scikit-learn style estimators: :class:`PrivateCovariance`, :class:`PrivatePCA`,
  :class:`PrivateLinearRegression`.
- Errors: every failed call raises a subclass of :class:`DpcovError` carrying the status code and
  the library's message.

NumPy arrays are passed to C in place with their layout (row- or column-major and a leading
dimension); arrays that cannot be are refused, never silently copied.
"""

from ._lib import C as _C
from ._lib import WRAPPED_FUNCTIONS
from .adassp import (AdasspFit, AdasspIntervals, AdasspReceipt, ProfileAnswer,
                     adassp_bootstrap_intervals, adassp_fit, adassp_params, adassp_plan,
                     adassp_profile_intervals)
from .adassp_units import adassp_units_fit
from .audit import (audit_coinpress_mean, audit_params, audit_rows_black_box, audit_rows_exact,
                    audit_rows_exact_pairs, audit_rows_units, audit_run, audit_run_pair,
                    audit_standard_rows, audit_units)
from .densities import (log_density_acg, log_density_inverse_wishart,
                        log_density_symmetric_gaussian, log_density_symmetric_laplace,
                        log_density_wishart)
from .errors import (ArgumentError, BufferTooSmallError, DataError, DimensionError, DpcovError,
                     EntropyError, IncompatibleError, InternalError, InvalidArgumentError,
                     LayoutError, NoConvergenceError, NonFiniteError, NormBoundError,
                     NotPositiveDefiniteError, NotPrivateError, NullPointerError,
                     NumericalError, NumericalFailureError, OutOfMemoryError, PreconditionError,
                     PrivacyError, RefusedError, ResourceError, Status, TooLargeError,
                     UnknownStatusError, UnmetPreconditionError)
from .dong_liang_yi import DlyRelease, dly_plan, dly_release
from .coinpress import (CoinpressCentredRelease, CoinpressMeanRelease, CoinpressRelease,
                        coinpress_centred_release, coinpress_centring_split, coinpress_mean_plan,
                        coinpress_mean_release, coinpress_plan, coinpress_release, zcdp_epsilon,
                        zcdp_rho)
from .unit_budget import unit_row_budget, unit_row_rho
from .unit_rows import zcdp_unit_release
from .estimators import (glasso_solve, metric_frobenius_error, metric_spectral_error,
                         metric_support_recovery, metric_vector_error, pca_subspace_distance,
                         pca_subspace_error_bound, pca_centred_subspace_error_bound,
                         pca_top_k, regression_fit)
from . import column_bounds
from .centring import centre_second_moment
from . import private_bound
from .exact import (ExactGram, ExactGrid, ExactRelease, exact_grid_value, exact_plan,
                    exact_release_rows)
from .gram import (GramAccumulator, coefficient_factors, constant_column_norm_bound,
                   release_rows)
from .plan import Plan
from .learn import (ClippingWarning, PrivateCovariance, PrivateLinearRegression, PrivatePCA,
                    SeededNoiseWarning)
from .forecast import (DefaultFit, RegressionForecast, SmallNSplit, adassp_default_fit,
                       adassp_small_n_split, regression_forecast)
from .mechanism import (Release, log_density, log_density_tested, mechanism_params, plan,
                        release, release_gram)
from .ols import (bootstrap_draws_check, ols_analyze_gauss, ols_analyze_gauss_intervals,
                  ols_bootstrap_intervals, ols_intervals, ols_jl, ols_sandwich_intervals)
from .registry import MechanismInfo, mechanism_info, mechanisms
from .private_glasso import (private_glasso_covariance, private_glasso_log_density,
                             private_glasso_plan, private_glasso_release)
from .postprocess import (analyze_gauss_shift, constant_rescale, eigenvalues_clip, gram_estimate,
                          psd_project, wishart_mean_subtract, wishart_shift)
from .ledger import (Accounting, BudgetAccountant, LedgerSpent, PrivacyLeakWarning,
                     ZcdpCharge, active_accountant)
from .rng import Rng, state_size
from .row_passes import RowPartial, RowSession, run_passes
from .sketch import Sketch
from .types import (AuditDataset, AuditFinding, AuditNeighbour, AuditNoise, AuditResult,
                    AuditRowsMechanism, AuditVerdict, BlackBoxResult, BlackBoxStatistic,
                    BoundPolicy, CoinpressMeanAuditResult, BudgetSplit, Calibration, GlassoStart, GramInfo,
                    LambdaMinScope, Layout, Mechanism, Neighbour, PrefixedReceipt, Receipt,
                    RECEIPT_N_WITHHELD, RECEIPT_PREFIX_FIELDS, RowsExactAuditResult,
                    SensitivityNorm, mechanism_name, receipt_prefix)


def status_string(status: int) -> str:
    """Name of a status code, e.g. ``"DPCOV_E_NON_FINITE"`` (``dpcov_status_string``)."""
    return _C.dpcov_status_string(status).decode()


def last_error_message() -> str:
    """The calling thread's message of its last failed call (``dpcov_last_error_message``);
    the exceptions already carry it."""
    return _C.dpcov_last_error_message().decode("utf-8", "replace")


def version_number() -> int:
    """Version of the loaded library as major * 10000 + minor * 100 + patch
    (``dpcov_version_number``)."""
    return int(_C.dpcov_version_number())


def version_string() -> str:
    """Version of the loaded library as "major.minor.patch" (``dpcov_version_string``)."""
    return _C.dpcov_version_string().decode()


__version__ = version_string()


__all__ = [
    "__version__",
    "analyze_gauss_shift",
    "ArgumentError",
    "audit_coinpress_mean",
    "audit_params",
    "audit_rows_black_box",
    "audit_rows_exact",
    "audit_rows_exact_pairs",
    "audit_rows_units",
    "audit_run",
    "audit_run_pair",
    "audit_standard_rows",
    "audit_units",
    "AuditDataset",
    "AuditFinding",
    "AuditNeighbour",
    "AuditNoise",
    "AuditResult",
    "AuditRowsMechanism",
    "AuditVerdict",
    "BlackBoxResult",
    "BlackBoxStatistic",
    "CoinpressMeanAuditResult",
    "RowsExactAuditResult",
    "BoundPolicy",
    "BudgetSplit",
    "BufferTooSmallError",
    "Calibration",
    "DataError",
    "DimensionError",
    "exact_grid_value",
    "exact_plan",
    "Plan",
    "exact_release_rows",
    "coefficient_factors",
    "constant_column_norm_bound",
    "constant_rescale",
    "ExactGram",
    "ExactGrid",
    "ExactRelease",
    "DpcovError",
    "eigenvalues_clip",
    "EntropyError",
    "glasso_solve",
    "gram_estimate",
    "GlassoStart",
    "GramAccumulator",
    "GramInfo",
    "IncompatibleError",
    "InternalError",
    "InvalidArgumentError",
    "LambdaMinScope",
    "last_error_message",
    "Layout",
    "LayoutError",
    "log_density",
    "log_density_acg",
    "log_density_inverse_wishart",
    "log_density_symmetric_gaussian",
    "log_density_symmetric_laplace",
    "log_density_tested",
    "log_density_wishart",
    "Mechanism",
    "mechanism_name",
    "mechanism_info",
    "mechanism_params",
    "mechanisms",
    "MechanismInfo",
    "metric_frobenius_error",
    "metric_spectral_error",
    "metric_support_recovery",
    "metric_vector_error",
    "Neighbour",
    "NoConvergenceError",
    "NonFiniteError",
    "NormBoundError",
    "NotPositiveDefiniteError",
    "NotPrivateError",
    "NullPointerError",
    "NumericalError",
    "NumericalFailureError",
    "bootstrap_draws_check",
    "ols_analyze_gauss",
    "ols_analyze_gauss_intervals",
    "ols_bootstrap_intervals",
    "ols_intervals",
    "ols_sandwich_intervals",
    "ols_jl",
    "AdasspFit",
    "AdasspIntervals",
    "AdasspReceipt",
    "ProfileAnswer",
    "adassp_bootstrap_intervals",
    "adassp_fit",
    "adassp_params",
    "adassp_plan",
    "adassp_profile_intervals",
    "DefaultFit",
    "adassp_default_fit",
    "adassp_small_n_split",
    "adassp_units_fit",
    "OutOfMemoryError",
    "pca_subspace_distance",
    "pca_subspace_error_bound",
    "pca_centred_subspace_error_bound",
    "pca_top_k",
    "plan",
    "PreconditionError",
    "PrivacyError",
    "private_glasso_covariance",
    "private_glasso_log_density",
    "private_glasso_plan",
    "private_glasso_release",
    "CoinpressRelease",
    "coinpress_plan",
    "coinpress_release",
    "CoinpressMeanRelease",
    "coinpress_mean_plan",
    "coinpress_mean_release",
    "coinpress_centring_split",
    "CoinpressCentredRelease",
    "coinpress_centred_release",
    "zcdp_epsilon",
    "zcdp_rho",
    "unit_row_budget",
    "unit_row_rho",
    "zcdp_unit_release",
    "DlyRelease",
    "dly_plan",
    "dly_release",
    "PrivateCovariance",
    "PrivateLinearRegression",
    "PrivatePCA",
    "psd_project",
    "PrefixedReceipt",
    "Receipt",
    "RECEIPT_PREFIX_FIELDS",
    "receipt_prefix",
    "Accounting",
    "ClippingWarning",
    "BudgetAccountant",
    "LedgerSpent",
    "PrivacyLeakWarning",
    "SeededNoiseWarning",
    "active_accountant",
    "ZcdpCharge",
    "RECEIPT_N_WITHHELD",
    "RefusedError",
    "regression_fit",
    "regression_forecast",
    "RegressionForecast",
    "SmallNSplit",
    "Release",
    "release",
    "release_gram",
    "release_rows",
    "ResourceError",
    "Rng",
    "RowPartial",
    "RowSession",
    "run_passes",
    "SensitivityNorm",
    "Sketch",
    "state_size",
    "Status",
    "status_string",
    "TooLargeError",
    "UnknownStatusError",
    "UnmetPreconditionError",
    "version_number",
    "version_string",
    "wishart_mean_subtract",
    "wishart_shift",
    "WRAPPED_FUNCTIONS",
]
