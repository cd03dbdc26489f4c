"""Loading of the shared library, the C structs, the function prototypes and the status check.

This module is the only place that touches ctypes prototypes. Every exported ``dpcov_*`` function
the binding calls is declared here, by its exact C name, with its argument and result types, so
that ctypes converts and checks arguments and never guesses an ``int`` return type.

Library lookup, in order: the path in the environment variable ``DPCOV_LIBRARY``; the library
``pip install`` found through pkg-config and recorded in ``dpcov/_installed.py`` (absent when the
package is used from the source tree); the name ``ctypes.util.find_library("dpcov")`` reports (the
system's linker cache); ``libdpcov.so.0`` through the dynamic loader's search path
(``LD_LIBRARY_PATH``, ``/etc/ld.so.conf``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int32, c_int64, c_size_t,
                    c_uint64, c_void_p)

from .errors import Status, error_for

#: The SONAME of the ABI version this binding is written against (dpcov/version.h: major 0).
SONAME = "libdpcov.so.0"
#: The ABI major version; the library actually loaded must report the same.
ABI_MAJOR = 0


def _installed_library() -> str | None:
    """The library path recorded when the package was installed with pip, if any."""
    try:
        from ._installed import LIBRARY
    except ImportError:
        return None
    return LIBRARY


def _load() -> ctypes.CDLL:
    """Load the shared library from DPCOV_LIBRARY, the installed path, the linker cache or the
    SONAME."""
    explicit = os.environ.get("DPCOV_LIBRARY")
    if explicit:
        return ctypes.CDLL(explicit)
    candidates = []
    installed = _installed_library()
    if installed:
        candidates.append(installed)
    found = ctypes.util.find_library("dpcov")
    if found:
        candidates.append(found)
    candidates.append(SONAME)
    errors = []
    for name in candidates:
        try:
            return ctypes.CDLL(name)
        except OSError as exc:
            errors.append(f"{name}: {exc}")
    raise OSError("cannot load the dpcov shared library (set DPCOV_LIBRARY to its path): "
                  + "; ".join(errors))


lib = _load()

# --------------------------------------------------------------------------------------------
# C structs (field order and types exactly as in capi/include/dpcov/*.h; ctypes applies the
# platform C alignment rules, and tests/test_struct_layout.py compares every size and offset
# with the C compiler's).
# --------------------------------------------------------------------------------------------

RECEIPT_THEOREM_SIZE = 160  # DPCOV_RECEIPT_THEOREM_SIZE
RNG_STATE_SIZE = 80  # DPCOV_RNG_STATE_SIZE


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
_INT_RANGES = {c_int32: ("int32_t", -(1 << 31), (1 << 31) - 1),
               c_int64: ("int64_t", INT64_MIN, INT64_MAX)}


class _Struct(Structure):
    """A C struct mirror whose ``int32_t`` and ``int64_t`` fields refuse, with
    :class:`~dpcov.errors.InvalidArgumentError`, a Python int they cannot hold: ctypes stored it
    reduced modulo 2^32 or 2^64 (``mechanism_options={"projection_rows": 2**64 + 5}`` became 5)."""

    def __setattr__(self, name, value):
        """Set field ``name``, checking an int against the field's C type first."""
        if isinstance(value, int):
            for field, ctype in self._fields_:
                if field == name and ctype in _INT_RANGES:
                    cname, lo, hi = _INT_RANGES[ctype]
                    if not lo <= value <= hi:
                        raise error_for(Status.INVALID_ARGUMENT, "DPCOV_E_INVALID_ARGUMENT",
                                        f"{name} must fit {cname}, got {value}")
        super().__setattr__(name, value)


class GramInfoC(_Struct):
    """``dpcov_gram_info`` (dpcov/gram.h)."""

    _fields_ = [("struct_size", c_size_t), ("dim", c_int64), ("rows", c_int64),
                ("clipped", c_int64), ("dropped", c_int64), ("bound", c_double),
                ("clamped", c_int64), ("numerics", c_int32)]


class RowBoundingC(_Struct):
    """``dpcov_row_bounding`` (dpcov/gram.h)."""

    _fields_ = [("struct_size", c_size_t), ("bound", c_double), ("policy", c_int32),
                ("neighbour", c_int32), ("constant", c_double), ("lower", c_void_p),
                ("upper", c_void_p), ("label_bound", c_double), ("numerics", c_int32),
                ("mechanism", c_int32), ("epsilon", c_double), ("delta", c_double)]


class RowRefusalC(_Struct):
    """``dpcov_row_refusal`` (dpcov/gram.h)."""

    _fields_ = [("struct_size", c_size_t), ("row", c_int64), ("label", c_int32),
                ("norm_exponent", c_int32), ("norm_rest", c_double)]


class ReceiptC(_Struct):
    """``dpcov_receipt`` (dpcov/receipt.h)."""

    _fields_ = [("struct_size", c_size_t), ("mechanism", c_int32), ("neighbour", c_int32),
                ("calibration", c_int32), ("not_dp", c_int32), ("seed_fixed", c_int32),
                ("sensitivity_norm", c_int32), ("lambda_min_scope", c_int32), ("dim", c_int64),
                ("n", c_int64), ("bound", c_double), ("epsilon", c_double), ("delta", c_double),
                ("sensitivity", c_double), ("sigma", c_double), ("scale", c_double),
                ("dof", c_double), ("lambda_min_bound", c_double),
                ("theorem", c_char * RECEIPT_THEOREM_SIZE), ("epsilon_eigenvalues", c_double),
                ("epsilon_step", c_double), ("budget_split", c_int32), ("rank", c_int64),
                ("beta", c_double), ("tau", c_double), ("exponent_factor", c_double),
                ("clip_upper", c_double), ("bingham_proposals", c_int64),
                ("bingham_rejections", c_int64), ("projection_rows", c_int64),
                ("threshold_w2", c_double), ("appended_w", c_double), ("test_epsilon", c_double),
                ("test_delta", c_double), ("test_scale", c_double), ("test_shift", c_double),
                ("test_value", c_double), ("test_passed", c_int32), ("glasso_rho", c_double),
                ("generator", c_int32), ("numerics", c_int32)]


class MechanismParamsC(_Struct):
    """``dpcov_mechanism_params`` (dpcov/mechanism.h)."""

    _fields_ = [("struct_size", c_size_t), ("neighbour", c_int32), ("calibration", c_int32),
                ("lambda_min_bound", c_double), ("lambda_min_scope", c_int32),
                ("audit_only_not_private", c_int32), ("budget_split", c_int32),
                ("beta", c_double), ("rank", c_int64), ("projection_rows", c_int64),
                ("posterior_dof", c_int64)]


class RegressionParamsC(_Struct):
    """``dpcov_regression_params`` (dpcov/estimators.h)."""

    _fields_ = [("struct_size", c_size_t), ("intercept_column", c_int64), ("ridge", c_double),
                ("level", c_double)]


class RegressionSummaryC(_Struct):
    """``dpcov_regression_summary`` (dpcov/estimators.h)."""

    _fields_ = [("struct_size", c_size_t), ("num_coefficients", c_int64), ("dof", c_int64),
                ("rss", c_double), ("residual_variance", c_double), ("t_critical", c_double),
                ("rss_clamped", c_int32)]


class GlassoParamsC(_Struct):
    """``dpcov_glasso_params`` (dpcov/estimators.h)."""

    _fields_ = [("struct_size", c_size_t), ("penalize_diagonal", c_int32), ("tol", c_double),
                ("max_iter", c_int64)]


class GlassoInfoC(_Struct):
    """``dpcov_glasso_info`` (dpcov/estimators.h)."""

    _fields_ = [("struct_size", c_size_t), ("iterations", c_int64), ("kkt_residual", c_double),
                ("duality_gap", c_double), ("start", c_int32)]


class SupportRecoveryC(_Struct):
    """``dpcov_support_recovery`` (dpcov/estimators.h)."""

    _fields_ = [("struct_size", c_size_t), ("true_positives", c_int64),
                ("false_positives", c_int64), ("false_negatives", c_int64),
                ("true_negatives", c_int64), ("precision", c_double), ("recall", c_double)]


class AuditParamsC(_Struct):
    """``dpcov_audit_params`` (dpcov/audit.h)."""

    _fields_ = [("struct_size", c_size_t), ("trials", c_int64), ("first_checkpoint", c_int64),
                ("alpha", c_double), ("seed", c_uint64), ("dataset", c_int32),
                ("neighbour_kind", c_int32)]


class AuditResultC(_Struct):
    """``dpcov_audit_result`` (dpcov/audit.h)."""

    _fields_ = [("struct_size", c_size_t), ("verdict", c_int32), ("findings", c_int32),
                ("noise", c_int32), ("worst_direction", c_int32), ("samples", c_int64),
                ("infinite_losses", c_int64), ("exceedances", c_int64), ("epsilon", c_double),
                ("delta", c_double), ("max_loss", c_double), ("exceed_estimate", c_double),
                ("exceed_lower", c_double), ("exceed_upper", c_double),
                ("delta_estimate", c_double), ("delta_lower", c_double),
                ("delta_upper", c_double), ("pair_distance", c_double),
                ("gaussian_sigma_upper", c_double), ("gaussian_delta_lower", c_double),
                ("conformance_distance", c_double), ("conformance_threshold", c_double),
                ("alpha_per_test", c_double), ("detectable_delta", c_double)]


class BlackBoxResultC(_Struct):
    """``dpcov_black_box_result`` (dpcov/audit.h)."""

    _fields_ = [("struct_size", c_size_t), ("verdict", c_int32), ("epsilon", c_double),
                ("delta", c_double), ("samples", c_int64), ("delta_lower", c_double),
                ("alpha_per_bound", c_double), ("detectable_delta", c_double)]


class CoinpressMeanAuditResultC(_Struct):
    """``dpcov_coinpress_mean_audit_result`` (dpcov/audit.h)."""

    _fields_ = [("struct_size", c_size_t), ("verdict", c_int32), ("findings", c_int32),
                ("samples", c_int64), ("rho", c_double), ("epsilon", c_double),
                ("delta", c_double), ("rho_lower", c_double), ("delta_estimate", c_double),
                ("delta_lower", c_double), ("conformance_distance", c_double),
                ("conformance_threshold", c_double), ("alpha_per_test", c_double),
                ("detectable_delta", c_double)]


class RowsExactAuditResultC(_Struct):
    """``dpcov_rows_exact_audit_result`` (dpcov/audit.h)."""

    _fields_ = [("struct_size", c_size_t), ("verdict", c_int32), ("findings", c_int32),
                ("samples", c_int64), ("n", c_int64), ("rho", c_double), ("epsilon", c_double),
                ("delta", c_double), ("sigma", c_double), ("rho_lower", c_double),
                ("delta_estimate", c_double), ("delta_lower", c_double),
                ("gaussian_delta_lower", c_double), ("conformance_distance", c_double),
                ("conformance_threshold", c_double), ("clamp_hits", c_int64),
                ("alpha_per_test", c_double), ("detectable_delta", c_double)]


COINPRESS_MAX_STEPS = 16  # DPCOV_COINPRESS_MAX_STEPS
AUDIT_MAX_TRIALS = 10_000_000  # DPCOV_AUDIT_MAX_TRIALS


class CoinpressParamsC(_Struct):
    """``dpcov_coinpress_params`` (dpcov/coinpress.h)."""

    _fields_ = [("struct_size", c_size_t), ("rho", c_double), ("k_bound", c_double),
                ("steps", c_int64), ("beta", c_double), ("delta", c_double)]


class CoinpressReceiptC(_Struct):
    """``dpcov_coinpress_receipt`` (dpcov/coinpress.h)."""

    _fields_ = [("struct_size", c_size_t), ("dim", c_int64), ("n", c_int64), ("steps", c_int64),
                ("rho", c_double), ("k_bound", c_double), ("beta", c_double),
                ("clip_radius", c_double), ("eta", c_double), ("epsilon", c_double),
                ("delta", c_double), ("step_rho", c_double * COINPRESS_MAX_STEPS),
                ("step_sigma", c_double * COINPRESS_MAX_STEPS), ("seed_fixed", c_int32)]


class CoinpressMeanParamsC(_Struct):
    """``dpcov_coinpress_mean_params`` (dpcov/coinpress.h)."""

    _fields_ = [("struct_size", c_size_t), ("rho", c_double), ("radius", c_double),
                ("scale", c_double), ("steps", c_int64), ("beta", c_double), ("delta", c_double)]


class CoinpressMeanReceiptC(_Struct):
    """``dpcov_coinpress_mean_receipt`` (dpcov/coinpress.h)."""

    _fields_ = [("struct_size", c_size_t), ("dim", c_int64), ("n", c_int64), ("steps", c_int64),
                ("rho", c_double), ("radius", c_double), ("scale", c_double), ("beta", c_double),
                ("tail_radius", c_double), ("epsilon", c_double), ("delta", c_double),
                ("step_rho", c_double * COINPRESS_MAX_STEPS),
                ("step_clip_radius", c_double * COINPRESS_MAX_STEPS),
                ("step_sigma", c_double * COINPRESS_MAX_STEPS), ("seed_fixed", c_int32)]


class AdasspParamsC(_Struct):
    """``dpcov_adassp_params`` (dpcov/adassp.h)."""

    _fields_ = [("struct_size", c_size_t), ("neighbour", c_int32), ("calibration", c_int32),
                ("rho", c_double), ("release_label_square", c_int32)]


ADASSP_NAME_SIZE = 16  # DPCOV_ADASSP_NAME_SIZE


class AdasspReceiptC(_Struct):
    """``dpcov_adassp_receipt`` (dpcov/adassp.h)."""

    _fields_ = [("struct_size", c_size_t), ("mechanism", c_char * ADASSP_NAME_SIZE),
                ("neighbour", c_int32), ("calibration", c_int32), ("seed_fixed", c_int32),
                ("num_regressors", c_int64), ("bound_x", c_double), ("bound_y", c_double),
                ("epsilon", c_double), ("delta", c_double), ("delta_exact", c_double),
                ("rho", c_double), ("sensitivity_lambda_min", c_double),
                ("sensitivity_gram", c_double), ("sensitivity_cross", c_double),
                ("sigma_lambda_min", c_double), ("sigma_gram", c_double),
                ("sigma_gram_off_diagonal", c_double), ("sigma_cross", c_double),
                ("lambda_min_shift", c_double), ("noise_norm_bound", c_double),
                ("eigenvalue_floor", c_double), ("released_lambda_min", c_double),
                ("ridge", c_double), ("eigenvalues_floored", c_int64),
                ("theorem", c_char * RECEIPT_THEOREM_SIZE),
                ("label_square_released", c_int32), ("sensitivity_label_square", c_double),
                ("sigma_label_square", c_double), ("released_label_square", c_double),
                ("zcdp_rho", c_double), ("numerics", c_int32)]


class LedgerSpentC(_Struct):
    """``dpcov_ledger_spent`` (dpcov/ledger.h)."""

    _fields_ = [("struct_size", c_size_t), ("accounting", c_int32), ("charges", c_int64),
                ("epsilon", c_double), ("delta", c_double), ("rho", c_double),
                ("epsilon_cap", c_double), ("delta_cap", c_double)]


class DlyParamsC(_Struct):
    """``dpcov_dly_params`` (dpcov/dong_liang_yi.h)."""

    _fields_ = [("struct_size", c_size_t), ("variant", c_int32), ("rho", c_double),
                ("radius", c_double), ("beta", c_double), ("delta", c_double)]


class DlyReceiptC(_Struct):
    """``dpcov_dly_receipt`` (dpcov/dong_liang_yi.h)."""

    _fields_ = [("struct_size", c_size_t), ("variant", c_int32), ("dim", c_int64),
                ("n", c_int64), ("rho", c_double), ("radius", c_double), ("beta", c_double),
                ("epsilon", c_double), ("delta", c_double), ("rho_covariance", c_double),
                ("trace_sigma", c_double), ("svt_epsilon", c_double), ("svt_queries", c_int64),
                ("branch", c_int32), ("clip_radius", c_double), ("sigma_matrix", c_double),
                ("sigma_eigenvalues", c_double), ("seed_fixed", c_int32),
                ("histogram_sigma", c_double), ("first_look_sigma", c_double),
                ("first_look_settled", c_int32)]


class ExactGridC(_Struct):
    """``dpcov_exact_grid`` (dpcov/exact.h)."""

    _fields_ = [("struct_size", c_size_t), ("bits", c_int32), ("noise_law", c_int32),
                ("unit", c_double), ("norm2_bound", c_int64), ("noise_parameter", c_uint64)]


STRUCTS = {
    "dpcov_gram_info": GramInfoC,
    "dpcov_row_bounding": RowBoundingC,
    "dpcov_row_refusal": RowRefusalC,
    "dpcov_receipt": ReceiptC,
    "dpcov_mechanism_params": MechanismParamsC,
    "dpcov_regression_params": RegressionParamsC,
    "dpcov_regression_summary": RegressionSummaryC,
    "dpcov_glasso_params": GlassoParamsC,
    "dpcov_glasso_info": GlassoInfoC,
    "dpcov_support_recovery": SupportRecoveryC,
    "dpcov_audit_params": AuditParamsC,
    "dpcov_audit_result": AuditResultC,
    "dpcov_black_box_result": BlackBoxResultC,
    "dpcov_coinpress_mean_audit_result": CoinpressMeanAuditResultC,
    "dpcov_rows_exact_audit_result": RowsExactAuditResultC,
    "dpcov_coinpress_params": CoinpressParamsC,
    "dpcov_coinpress_receipt": CoinpressReceiptC,
    "dpcov_coinpress_mean_params": CoinpressMeanParamsC,
    "dpcov_coinpress_mean_receipt": CoinpressMeanReceiptC,
    "dpcov_adassp_params": AdasspParamsC,
    "dpcov_adassp_receipt": AdasspReceiptC,
    "dpcov_ledger_spent": LedgerSpentC,
    "dpcov_dly_params": DlyParamsC,
    "dpcov_dly_receipt": DlyReceiptC,
    "dpcov_exact_grid": ExactGridC,
}
"""C struct name -> ctypes mirror, for the layout test."""


def new_struct(cls):
    """A zeroed instance of a ctypes struct mirror with its ``struct_size`` set."""
    value = cls()
    value.struct_size = ctypes.sizeof(cls)
    return value


# --------------------------------------------------------------------------------------------
# Prototypes. Pointers to doubles, int64 arrays and handles are passed as c_void_p: NumPy gives
# the address as an int, which ctypes converts without building a pointer object per call.
# --------------------------------------------------------------------------------------------

status_t = c_int32
i32, i64, f64, u64, vp = c_int32, c_int64, c_double, c_uint64, c_void_p
p_i32, p_i64 = POINTER(c_int32), POINTER(c_int64)
p_f64, p_u64 = POINTER(c_double), POINTER(c_uint64)
p_vp = POINTER(c_void_p)

_PROTOTYPES = {
    # common.h
    "dpcov_status_string": (c_char_p, [i32]),
    "dpcov_last_error_message": (c_char_p, []),
    "dpcov_version_number": (i32, []),
    "dpcov_version_string": (c_char_p, []),
    # gram.h
    "dpcov_gram_create": (status_t, [p_vp, i64]),
    "dpcov_gram_destroy": (None, [p_vp]),
    "dpcov_gram_add_rows": (status_t, [vp, i32, i64, i64, vp, i64, f64, i32]),
    "dpcov_gram_merge": (status_t, [vp, vp]),
    "dpcov_gram_get_matrix": (status_t, [vp, i32, vp, i64]),
    "dpcov_gram_get_info": (status_t, [vp, POINTER(GramInfoC)]),
    "dpcov_gram_create_from_state": (status_t, [p_vp, POINTER(GramInfoC), i32, vp, i64]),
    "dpcov_row_bounding_default": (status_t, [POINTER(RowBoundingC)]),
    "dpcov_gram_create_bounded": (status_t, [p_vp, i64, POINTER(RowBoundingC)]),
    "dpcov_gram_add_raw_rows": (status_t, [vp, i32, i64, i64, vp, i64, POINTER(RowRefusalC)]),
    "dpcov_row_bounding_apply": (status_t, [POINTER(RowBoundingC), i32, i64, i64, vp, i64, vp,
                                            i64, POINTER(GramInfoC), POINTER(RowRefusalC)]),
    # rng.h
    "dpcov_rng_create_from_entropy": (status_t, [p_vp]),
    "dpcov_rng_create_seeded": (status_t, [p_vp, u64, u64]),
    "dpcov_rng_destroy": (None, [p_vp]),
    "dpcov_rng_substream": (status_t, [p_vp, vp, u64]),
    "dpcov_rng_next_u64": (status_t, [vp, p_u64]),
    "dpcov_rng_seed_fixed": (status_t, [vp, p_i32]),
    "dpcov_rng_state_size": (c_size_t, []),
    "dpcov_rng_state_save": (status_t, [vp, vp, c_size_t]),
    "dpcov_rng_state_restore": (status_t, [vp, vp, c_size_t]),
    # sample.h
    "dpcov_sample_uniform01": (status_t, [vp, i64, vp]),
    "dpcov_sample_standard_normal": (status_t, [vp, i64, vp]),
    "dpcov_sample_exponential": (status_t, [vp, i64, vp]),
    "dpcov_sample_laplace": (status_t, [vp, f64, i64, vp]),
    "dpcov_sample_gamma": (status_t, [vp, f64, i64, vp]),
    "dpcov_sample_chi_square": (status_t, [vp, f64, i64, vp]),
    "dpcov_sample_uniform_sphere": (status_t, [vp, i64, i64, i32, vp, i64]),
    "dpcov_sample_wishart": (status_t, [vp, f64, i32, i64, vp, i64, vp, i64]),
    "dpcov_sample_inverse_wishart": (status_t, [vp, f64, i32, i64, vp, i64, vp, i64]),
    "dpcov_sample_acg": (status_t, [vp, i32, i64, vp, i64, i64, vp, i64]),
    "dpcov_sample_bingham": (status_t, [vp, i32, i64, vp, i64, i64, vp, i64, p_i64]),
    "dpcov_sample_symmetric_gaussian_noise": (status_t, [vp, f64, i32, i64, vp, i64]),
    "dpcov_sample_symmetric_laplace_noise": (status_t, [vp, f64, i32, i64, vp, i64]),
    "dpcov_log_density_wishart": (status_t, [i32, i64, vp, i64, f64, vp, i64, p_f64]),
    "dpcov_log_density_inverse_wishart": (status_t, [i32, i64, vp, i64, f64, vp, i64, p_f64]),
    "dpcov_log_density_acg": (status_t, [i32, i64, vp, i64, vp, p_f64]),
    "dpcov_log_density_symmetric_gaussian": (status_t, [i32, i64, vp, i64, f64, p_f64]),
    "dpcov_log_density_symmetric_laplace": (status_t, [i32, i64, vp, i64, f64, p_f64]),
    # receipt.h
    "dpcov_receipt_public": (status_t, [POINTER(ReceiptC), POINTER(ReceiptC)]),
    # ledger.h
    "dpcov_ledger_create": (status_t, [p_vp, i32, f64, f64]),
    "dpcov_ledger_destroy": (None, [p_vp]),
    "dpcov_ledger_check": (status_t, [vp, POINTER(ReceiptC)]),
    "dpcov_ledger_charge": (status_t, [vp, POINTER(ReceiptC)]),
    "dpcov_ledger_get_spent": (status_t, [vp, POINTER(LedgerSpentC)]),
    "dpcov_ledger_check_zcdp": (status_t, [vp, f64, f64, f64]),
    "dpcov_ledger_charge_zcdp": (status_t, [vp, f64, f64, f64]),
    # column_bounds.h
    "dpcov_column_bounds_norm_bound": (status_t, [i64, p_f64]),
    "dpcov_column_bounds_scale_rows": (status_t, [i32, i64, i64, vp, i64, vp, vp, vp, i64,
                                                  p_i64]),
    "dpcov_column_bounds_transform": (status_t, [i64, vp, vp, i32, i32, vp, i64, vp, i64]),
    # private_bound.h
    "dpcov_private_bound_grid": (status_t, [f64, f64, f64, vp, i64, p_i64]),
    "dpcov_private_bound_select": (status_t, [vp, i64, vp, i64, f64, vp, p_i64, p_f64]),
    "dpcov_private_bound_scan": (status_t, [vp, i64, vp, i64, f64, vp, p_i64, p_f64]),
    "dpcov_private_bound_histogram": (status_t, [vp, i64, i32, i64, i64, vp, i64, vp]),
    # centring.h
    "dpcov_centre_second_moment": (status_t, [i32, i64, vp, i64, i64, f64, i64, vp, vp, i64,
                                              p_f64]),
    # exact.h
    "dpcov_exact_plan": (status_t, [i32, i64, i64, f64, f64, f64, POINTER(MechanismParamsC),
                                    POINTER(ReceiptC), POINTER(ExactGridC)]),
    "dpcov_exact_release_rows": (status_t, [i32, i32, i64, i64, vp, i64, f64, i32, f64, f64,
                                            POINTER(MechanismParamsC), vp, vp, i64,
                                            POINTER(ReceiptC), POINTER(ExactGridC)]),
    "dpcov_exact_gram_create": (status_t, [p_vp, i32, i64, f64, i32, f64, f64,
                                           POINTER(MechanismParamsC)]),
    "dpcov_exact_gram_destroy": (None, [p_vp]),
    "dpcov_exact_gram_add_rows": (status_t, [vp, i32, i64, i64, vp, i64]),
    "dpcov_exact_gram_merge": (status_t, [vp, vp]),
    "dpcov_exact_gram_get_info": (status_t, [vp, POINTER(GramInfoC)]),
    "dpcov_exact_gram_release": (status_t, [vp, vp, vp, i64, POINTER(ReceiptC),
                                            POINTER(ExactGridC)]),
    # mechanism.h
    "dpcov_mechanism_params_default": (status_t, [POINTER(MechanismParamsC)]),
    "dpcov_mechanism_name": (c_char_p, [i32]),
    "dpcov_mechanism_plan": (status_t, [i32, i64, i64, f64, f64, f64, POINTER(MechanismParamsC),
                                        POINTER(ReceiptC)]),
    "dpcov_mechanism_release": (status_t, [i32, i32, i64, vp, i64, i64, f64, f64, f64,
                                           POINTER(MechanismParamsC), vp, vp, i64,
                                           POINTER(ReceiptC)]),
    "dpcov_mechanism_release_gram": (status_t, [i32, vp, f64, f64, POINTER(MechanismParamsC), vp,
                                                i32, vp, i64, POINTER(ReceiptC)]),
    "dpcov_mechanism_log_density": (status_t, [i32, i32, i64, vp, i64, vp, i64, i64, f64, f64,
                                               f64, POINTER(MechanismParamsC), p_f64]),
    "dpcov_mechanism_log_density_tested": (status_t, [i32, i32, i64, vp, i64, f64, vp, i64, i64,
                                                      f64, f64, f64, POINTER(MechanismParamsC),
                                                      p_f64]),
    # postprocess.h
    "dpcov_postprocess_psd_project": (status_t, [i32, i64, vp, i64]),
    "dpcov_postprocess_eigenvalues_clip": (status_t, [i32, i64, vp, i64, f64, f64]),
    "dpcov_postprocess_analyze_gauss_shift": (status_t, [i32, i64, vp, i64, f64, f64, p_f64]),
    "dpcov_postprocess_wishart_mean_subtract": (status_t, [i32, i64, vp, i64, f64, f64]),
    "dpcov_postprocess_wishart_shift": (status_t, [i32, i64, vp, i64, f64, f64, f64, p_f64]),
    # estimators.h
    "dpcov_regression_params_default": (status_t, [POINTER(RegressionParamsC)]),
    "dpcov_regression_fit": (status_t, [i32, i64, vp, i64, i64, i64, vp, i64,
                                        POINTER(RegressionParamsC), vp, vp, vp, vp, vp, vp,
                                        POINTER(RegressionSummaryC)]),
    "dpcov_pca_top_k": (status_t, [i32, i64, vp, i64, i64, vp, vp, i64, vp]),
    "dpcov_pca_subspace_distance": (status_t, [i32, i64, vp, i64, vp, i64, i64, p_f64, p_f64,
                                               vp]),
    "dpcov_glasso_params_default": (status_t, [POINTER(GlassoParamsC)]),
    "dpcov_glasso_solve": (status_t, [i32, i64, vp, i64, f64, POINTER(GlassoParamsC), vp, i64,
                                      vp, i64, vp, i64, POINTER(GlassoInfoC)]),
    "dpcov_metric_frobenius_error": (status_t, [i32, i64, i64, vp, i64, vp, i64, i32, p_f64]),
    "dpcov_metric_spectral_error": (status_t, [i32, i64, i64, vp, i64, vp, i64, i32, p_f64]),
    "dpcov_metric_vector_error": (status_t, [i64, vp, vp, i32, p_f64]),
    "dpcov_metric_support_recovery": (status_t, [i32, i64, vp, i64, vp, i64, f64,
                                                 POINTER(SupportRecoveryC)]),
    # audit.h
    "dpcov_audit_params_default": (status_t, [POINTER(AuditParamsC)]),
    "dpcov_audit_run": (status_t, [i32, i64, i64, f64, f64, f64, POINTER(MechanismParamsC),
                                   POINTER(AuditParamsC), POINTER(AuditResultC)]),
    "dpcov_audit_run_pair": (status_t, [i32, i32, i64, vp, i64, i64, vp, i64, i64, f64, f64, f64,
                                        POINTER(MechanismParamsC), POINTER(AuditParamsC),
                                        POINTER(AuditResultC)]),
    "dpcov_audit_coinpress_mean": (status_t, [i64, i64, POINTER(CoinpressMeanParamsC), i64, f64,
                                              c_uint64, POINTER(CoinpressMeanAuditResultC)]),
    "dpcov_audit_rows_black_box": (status_t, [i32, i64, i64, f64, f64, f64, i32, i64, f64,
                                              c_uint64, POINTER(BlackBoxResultC)]),
    "dpcov_audit_rows_exact": (status_t, [i32, i64, f64, f64, i64, f64, c_uint64,
                                          POINTER(RowsExactAuditResultC)]),
    "dpcov_audit_rows_exact_pairs": (status_t, [i32, i64, f64, f64, i64, f64, c_uint64, i64,
                                                POINTER(RowsExactAuditResultC), POINTER(i64)]),
    # sketch.h
    "dpcov_sketch_create": (status_t, [p_vp, i64, i64, vp]),
    "dpcov_sketch_destroy": (None, [p_vp]),
    "dpcov_sketch_add_rows": (status_t, [vp, i32, i64, i64, vp, i64, i64, f64, i32]),
    "dpcov_sketch_merge": (status_t, [vp, vp]),
    "dpcov_sketch_get_info": (status_t, [vp, POINTER(GramInfoC)]),
    "dpcov_sketch_get": (status_t, [vp, f64, i32, vp, i64]),
    "dpcov_sketch_release": (status_t, [i32, vp, f64, f64, POINTER(MechanismParamsC), vp, i32,
                                        vp, i64, vp, i64, POINTER(ReceiptC)]),
    "dpcov_sketch_get_gram": (status_t, [vp, i32, vp, i64]),
    "dpcov_sketch_create_from_state": (status_t, [p_vp, vp, i64, vp, i32, vp, i64]),
    # ols.h
    "dpcov_ols_jl": (status_t, [i32, i64, vp, i64, i64, f64, f64, f64,
                                POINTER(MechanismParamsC), i64, vp, i64,
                                POINTER(RegressionParamsC), vp, vp, vp, vp, vp, vp, vp, vp,
                                POINTER(RegressionSummaryC), POINTER(ReceiptC)]),
    "dpcov_ols_analyze_gauss": (status_t, [i32, i64, vp, i64, i64, f64, f64, f64,
                                           POINTER(MechanismParamsC), i64, vp, i64,
                                           POINTER(RegressionParamsC), vp, vp, vp, vp, vp, vp,
                                           vp, vp, POINTER(RegressionSummaryC),
                                           POINTER(ReceiptC)]),
    "dpcov_ols_analyze_gauss_intervals": (status_t, [i32, i64, vp, i64, f64, i64, i64, vp, i64,
                                                     POINTER(RegressionParamsC), vp, vp, vp, vp,
                                                     vp, vp, vp, vp]),
    "dpcov_pca_subspace_error_bound": (status_t, [i32, i64, vp, i64, POINTER(ReceiptC), i64, f64,
                                                  i64, vp, p_f64, p_f64, p_f64, POINTER(c_int32)]),
    "dpcov_pca_centred_subspace_error_bound": (status_t, [i32, i64, vp, i64, POINTER(ReceiptC),
                                                          i64, f64, i64, i64, f64, i64, vp, p_f64,
                                                          p_f64, p_f64, POINTER(c_int32)]),
    "dpcov_ols_bootstrap_intervals": (status_t, [i32, i64, vp, i64, POINTER(ReceiptC), i64, vp,
                                                 i64, POINTER(RegressionParamsC), i64, vp, vp, vp,
                                                 vp, vp, vp, vp, vp]),
    # private_glasso.h
    "dpcov_private_glasso_plan": (status_t, [i32, i64, i64, f64, f64, f64,
                                             POINTER(MechanismParamsC), f64, POINTER(ReceiptC)]),
    "dpcov_private_glasso_release": (status_t, [i32, i32, i64, vp, i64, i64, f64, f64, f64,
                                                POINTER(MechanismParamsC), f64,
                                                POINTER(GlassoParamsC), vp, vp, i64,
                                                POINTER(ReceiptC), POINTER(GlassoInfoC)]),
    "dpcov_private_glasso_log_density": (status_t, [i32, i32, i64, vp, i64, vp, i64, i64, f64,
                                                    f64, f64, POINTER(MechanismParamsC), f64,
                                                    p_f64]),
    # coinpress.h
    "dpcov_coinpress_params_default": (status_t, [POINTER(CoinpressParamsC)]),
    "dpcov_coinpress_plan": (status_t, [i64, i64, POINTER(CoinpressParamsC),
                                        POINTER(CoinpressReceiptC)]),
    "dpcov_coinpress_release": (status_t, [i32, i64, i64, vp, i64, POINTER(CoinpressParamsC), vp,
                                           vp, i64, POINTER(CoinpressReceiptC)]),
    "dpcov_coinpress_mean_params_default": (status_t, [POINTER(CoinpressMeanParamsC)]),
    "dpcov_coinpress_mean_plan": (status_t, [i64, i64, POINTER(CoinpressMeanParamsC),
                                             POINTER(CoinpressMeanReceiptC)]),
    "dpcov_coinpress_mean_release": (status_t, [i32, i64, i64, vp, i64, vp,
                                                POINTER(CoinpressMeanParamsC), vp, vp,
                                                POINTER(CoinpressMeanReceiptC)]),
    "dpcov_coinpress_centring_split": (status_t, [f64, p_f64, p_f64]),
    "dpcov_zcdp_epsilon": (status_t, [f64, f64, p_f64]),
    "dpcov_zcdp_rho": (status_t, [f64, f64, p_f64]),
    # adassp.h
    "dpcov_adassp_params_default": (status_t, [POINTER(AdasspParamsC)]),
    "dpcov_adassp_plan": (status_t, [i64, f64, f64, f64, f64, POINTER(AdasspParamsC),
                                     POINTER(AdasspReceiptC)]),
    "dpcov_adassp_fit": (status_t, [i32, i64, vp, i64, i64, vp, i64, f64, f64, f64, f64,
                                    POINTER(AdasspParamsC), vp, vp, vp, i64, vp,
                                    POINTER(AdasspReceiptC)]),
    # dong_liang_yi.h
    "dpcov_dly_params_default": (status_t, [POINTER(DlyParamsC)]),
    "dpcov_dly_plan": (status_t, [i64, i64, POINTER(DlyParamsC), POINTER(DlyReceiptC)]),
    "dpcov_dly_release": (status_t, [i32, i64, i64, vp, i64, POINTER(DlyParamsC), vp, vp, i64,
                                     POINTER(DlyReceiptC)]),
    "dpcov_adassp_bootstrap_intervals": (status_t, [i32, i64, vp, i64, vp, i64,
                                                    POINTER(AdasspReceiptC), f64, i64, vp, vp,
                                                    vp, vp, vp, vp]),
}


class _Functions:
    """Attribute access to the prototyped C functions: ``C.dpcov_gram_create(...)``."""


def _range_checked(name: str, fn, argtypes):
    """``fn``, refusing with :class:`~dpcov.errors.InvalidArgumentError` a Python int that its
    ``int32_t`` or ``int64_t`` parameter cannot hold, before calling C: ctypes passes such an int
    reduced modulo 2^32 or 2^64, so ``n = 2**64 + 50`` reached C as 50 and a layout of
    ``2**32 + 101`` as DPCOV_ROW_MAJOR. (Seeds and stream ids are ``uint64_t``: taken modulo 2^64
    as documented.)"""
    checked = [(k, *_INT_RANGES[t]) for k, t in enumerate(argtypes) if t in _INT_RANGES]
    if not checked:
        return fn

    def call(*args):
        for k, ctype, lo, hi in checked:
            value = args[k]
            if isinstance(value, int) and not lo <= value <= hi:
                raise error_for(Status.INVALID_ARGUMENT, "DPCOV_E_INVALID_ARGUMENT",
                                f"argument {k + 1} of {name} must fit {ctype}, got {value}")
        return fn(*args)

    call.__name__ = name
    return call


C = _Functions()
for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes
    setattr(C, _name, _range_checked(_name, _fn, _argtypes))

WRAPPED_FUNCTIONS = frozenset(_PROTOTYPES)
"""Names of every C function the binding declares and calls."""


def _check(status: int) -> None:
    """Raise the typed :class:`~dpcov.errors.DpcovError` for a failed call; return on DPCOV_OK.

    Must be called on the thread that made the call, right after it: the library's message is
    thread-local and replaced by the next failing call on the same thread.
    """
    if status != Status.OK:
        name = C.dpcov_status_string(status).decode("utf-8", "replace")
        message = C.dpcov_last_error_message().decode("utf-8", "replace")
        raise error_for(status, name, message)


_loaded_major = C.dpcov_version_number() // 10000
if _loaded_major != ABI_MAJOR:
    raise ImportError(f"the loaded dpcov library has ABI major version {_loaded_major}; this "
                      f"binding needs {ABI_MAJOR}")
