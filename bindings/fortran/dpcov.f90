!> Fortran interface to the dpcov C library (libdpcov): differentially private second-moment and
!> covariance matrices.
!>
!> Every entry point of the C ABI is declared here with iso_c_binding under its C name, so the C
!> documentation (capi/include/dpcov/*.h) applies word for word. Conventions for Fortran callers:
!>  - Pass matrices as ordinary Fortran arrays with layout DPCOV_COL_MAJOR and leading dimension
!>    size(a, 1): Fortran's own storage order, so nothing is copied.
!>  - Handles (generators, accumulators, sketches) are type(c_ptr); free them with the matching
!>    *_destroy, which sets them to c_null_ptr.
!>  - Every fallible function returns an integer(c_int32_t) status, DPCOV_OK (0) on success;
!>    dpcov_last_error() gives the message of the last failure on the calling thread.
!>  - Settings structs are filled by their *_default routine before fields are changed; output
!>    structs (receipt, info, summary, result) need struct_size = c_sizeof(x) first, which the
!>    dpcov_new_* helpers set.
!>  - Optional array arguments of the C ABI (NULL allowed) are type(c_ptr), value: pass c_null_ptr
!>    or c_loc(array).
!>  - The thin wrappers at the end return Fortran strings for the C functions returning char *.
module dpcov
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_string

  ! Status codes (dpcov/common.h).
  integer(c_int32_t), parameter :: DPCOV_OK = 0
  integer(c_int32_t), parameter :: DPCOV_E_NULL_POINTER = -1
  integer(c_int32_t), parameter :: DPCOV_E_INVALID_ARGUMENT = -2
  integer(c_int32_t), parameter :: DPCOV_E_DIMENSION = -3
  integer(c_int32_t), parameter :: DPCOV_E_LAYOUT = -4
  integer(c_int32_t), parameter :: DPCOV_E_NON_FINITE = -5
  integer(c_int32_t), parameter :: DPCOV_E_NORM_BOUND = -6
  integer(c_int32_t), parameter :: DPCOV_E_PRECONDITION = -7
  integer(c_int32_t), parameter :: DPCOV_E_NOT_POSITIVE_DEFINITE = -8
  integer(c_int32_t), parameter :: DPCOV_E_NOT_PRIVATE = -9
  integer(c_int32_t), parameter :: DPCOV_E_REFUSED = -10
  integer(c_int32_t), parameter :: DPCOV_E_NO_CONVERGENCE = -11
  integer(c_int32_t), parameter :: DPCOV_E_NUMERICAL = -12
  integer(c_int32_t), parameter :: DPCOV_E_ENTROPY = -13
  integer(c_int32_t), parameter :: DPCOV_E_TOO_LARGE = -14
  integer(c_int32_t), parameter :: DPCOV_E_INCOMPATIBLE = -15
  integer(c_int32_t), parameter :: DPCOV_E_BUFFER_TOO_SMALL = -16
  integer(c_int32_t), parameter :: DPCOV_E_NOMEM = -17
  integer(c_int32_t), parameter :: DPCOV_E_INTERNAL = -18

  ! Layouts.
  integer(c_int32_t), parameter :: DPCOV_ROW_MAJOR = 101
  integer(c_int32_t), parameter :: DPCOV_COL_MAJOR = 102

  ! Bound policies (dpcov/gram.h).
  integer(c_int32_t), parameter :: DPCOV_BOUND_CLIP = 0
  integer(c_int32_t), parameter :: DPCOV_BOUND_REJECT = 1
  integer(c_int32_t), parameter :: DPCOV_BOUND_DROP = 2

  ! Mechanisms (dpcov/mechanism.h).
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_ANALYZE_GAUSS = 1
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_LAPLACE_SYM = 2
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_WISHART_ADDITIVE = 3
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_INVERSE_GAUSS = 4
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_WISHART_JIANG = 5
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_IEV = 6
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_KT_RANK1 = 7
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_JL_RIDGE = 8
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN = 9
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_INVERSE_WISHART = 10
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN = 11
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_OLS_JL = 12
  integer(c_int32_t), parameter :: DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART = 13

  ! Receipt enumerations (dpcov/receipt.h).
  integer(c_int32_t), parameter :: DPCOV_NEIGHBOUR_REPLACE_ONE = 0
  integer(c_int32_t), parameter :: DPCOV_NEIGHBOUR_ADD_REMOVE = 1
  !> dpcov_receipt%n of a public receipt when n is private (add/remove neighbours).
  integer(c_int64_t), parameter :: DPCOV_RECEIPT_N_WITHHELD = -1

  ! Integer noise laws of an exact release (dpcov/exact.h).
  integer(c_int32_t), parameter :: DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN = 1
  integer(c_int32_t), parameter :: DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE = 2

  ! Budget ledger accountings (dpcov/ledger.h).
  integer(c_int32_t), parameter :: DPCOV_ACCOUNTING_BASIC = 0
  integer(c_int32_t), parameter :: DPCOV_ACCOUNTING_ZCDP = 1
  integer(c_int32_t), parameter :: DPCOV_ACCOUNTING_ADVANCED = 2

  ! Units of dpcov_column_bounds_transform (dpcov/column_bounds.h).
  integer(c_int32_t), parameter :: DPCOV_UNITS_USER = 0
  integer(c_int32_t), parameter :: DPCOV_UNITS_SCALED = 1
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_DEFAULT = 0
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN = 1
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN = 2
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE = 3
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_LAPLACE_PUBLISHED = 4
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_THEOREM = 5
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_BINGHAM_PUBLISHED = 6
  integer(c_int32_t), parameter :: DPCOV_CALIBRATION_BINGHAM_SENSITIVITY = 7
  integer(c_int32_t), parameter :: DPCOV_BUDGET_SPLIT_DEFAULT = 0
  integer(c_int32_t), parameter :: DPCOV_BUDGET_SPLIT_UNIFORM = 1
  integer(c_int32_t), parameter :: DPCOV_BUDGET_SPLIT_ADAPTIVE = 2
  integer(c_int32_t), parameter :: DPCOV_GENERATOR_NONE = 0
  integer(c_int32_t), parameter :: DPCOV_GENERATOR_PCG64 = 1
  integer(c_int32_t), parameter :: DPCOV_GENERATOR_CHACHA20 = 2
  integer(c_int32_t), parameter :: DPCOV_NUMERICS_IDEALIZED = 0
  integer(c_int32_t), parameter :: DPCOV_NUMERICS_EXACT = 1
  integer(c_int32_t), parameter :: DPCOV_SENSITIVITY_NONE = 0
  integer(c_int32_t), parameter :: DPCOV_SENSITIVITY_L1 = 1
  integer(c_int32_t), parameter :: DPCOV_SENSITIVITY_L2 = 2
  integer(c_int32_t), parameter :: DPCOV_LAMBDA_MIN_DOMAIN = 0
  integer(c_int32_t), parameter :: DPCOV_LAMBDA_MIN_INPUT = 1
  integer, parameter :: DPCOV_RECEIPT_THEOREM_SIZE = 160

  ! Graphical-lasso starting points (dpcov/estimators.h).
  integer(c_int32_t), parameter :: DPCOV_GLASSO_START_WARM = 0
  integer(c_int32_t), parameter :: DPCOV_GLASSO_START_COVARIANCE = 1
  integer(c_int32_t), parameter :: DPCOV_GLASSO_START_SOFT_THRESHOLD = 2

  ! Audit enumerations (dpcov/audit.h).
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_RANDOM_ROWS = 0
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_SPHERE_ROWS = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_REPEATED_ROWS = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_RANK_DEFICIENT = 3
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_NEARLY_SINGULAR = 4
  integer(c_int32_t), parameter :: DPCOV_AUDIT_DATA_TINY_N = 5
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NEIGHBOUR_RANDOM = 0
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NEIGHBOUR_MAX_L1_CHANGE = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR = 3
  integer(c_int32_t), parameter :: DPCOV_AUDIT_FINDING_LOSS_ABOVE_EPSILON = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_FINDING_DELTA_EXCEEDED = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED = 4
  integer(c_int32_t), parameter :: DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH = 8
  integer(c_int32_t), parameter :: DPCOV_AUDIT_FINDING_RHO_EXCEEDED = 16
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NO_VIOLATION_FOUND = 0
  integer(c_int32_t), parameter :: DPCOV_AUDIT_VIOLATION = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_ROWS_DLY_GAUSS = 0
  integer(c_int32_t), parameter :: DPCOV_AUDIT_ROWS_DLY_SEPARATE = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_ROWS_DLY_ADAPTIVE = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER = 3
  integer(c_int32_t), parameter :: DPCOV_AUDIT_ROWS_COINPRESS = 4
  integer(c_int32_t), parameter :: DPCOV_BLACK_BOX_TOP_EIGENVALUE = 0
  integer(c_int32_t), parameter :: DPCOV_BLACK_BOX_TOP_EIGENVECTOR_ALIGNMENT = 1
  integer(c_int32_t), parameter :: DPCOV_BLACK_BOX_LEAST_EIGENVALUE_ABOVE_PAIR = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NOISE_NONE = 0
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NOISE_GAUSSIAN = 1
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NOISE_LAPLACE = 2
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NOISE_WISHART = 3
  integer(c_int32_t), parameter :: DPCOV_AUDIT_NOISE_CLAIMED_LAW = 4

  !> The grid and integer noise of an exact release (dpcov_exact_grid, dpcov/exact.h); the
  !> release is unit**2 times integers. noise_parameter is unsigned in C (below 2**62 here).
  type, bind(c) :: dpcov_exact_grid
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: bits = 0
    integer(c_int32_t) :: noise_law = 0
    real(c_double) :: unit = 0
    integer(c_int64_t) :: norm2_bound = 0
    integer(c_int64_t) :: noise_parameter = 0
  end type

  !> What a budget ledger has spent (dpcov_ledger_spent, dpcov/ledger.h).
  type, bind(c) :: dpcov_ledger_spent
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: accounting = 0
    integer(c_int64_t) :: charges = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: rho = 0
    real(c_double) :: epsilon_cap = 0
    real(c_double) :: delta_cap = 0
  end type

  !> Counters of a Gram accumulator or sketch (dpcov_gram_info).
  type, bind(c) :: dpcov_gram_info
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: dim = 0
    integer(c_int64_t) :: rows = 0
    integer(c_int64_t) :: clipped = 0
    integer(c_int64_t) :: dropped = 0
    real(c_double) :: bound = 0
    integer(c_int64_t) :: clamped = 0
    !> DPCOV_NUMERICS_EXACT when a release from the accumulator is exact, else idealized.
    integer(c_int32_t) :: numerics = 0
  end type

  !> How a bounded accumulator bounds raw rows (dpcov_row_bounding); fill with
  !> dpcov_row_bounding_default. lower and upper are c_loc of the column bounds, or c_null_ptr.
  type, bind(c) :: dpcov_row_bounding
    integer(c_size_t) :: struct_size = 0
    real(c_double) :: bound = 0
    integer(c_int32_t) :: policy = 0
    integer(c_int32_t) :: neighbour = 0
    real(c_double) :: constant = 0
    type(c_ptr) :: lower = c_null_ptr
    type(c_ptr) :: upper = c_null_ptr
    real(c_double) :: label_bound = 0
    !> DPCOV_NUMERICS_EXACT (the default) or DPCOV_NUMERICS_IDEALIZED: with mechanism
    !> DPCOV_MECHANISM_ANALYZE_GAUSS or DPCOV_MECHANISM_LAPLACE_SYM, exact makes the accumulator
    !> hold the exact integer Gram on that release's grid, released exactly by
    !> dpcov_mechanism_release_gram with the same epsilon and delta.
    integer(c_int32_t) :: numerics = 0
    !> The mechanism the rows are for (0: none named, a floating-point accumulator).
    integer(c_int32_t) :: mechanism = 0
    real(c_double) :: epsilon = 0  !< the release's epsilon (read with an exact mechanism)
    real(c_double) :: delta = 0  !< the release's delta (read with an exact mechanism)
  end type

  !> The row a bounded accumulator refused, as data (dpcov_row_refusal).
  type, bind(c) :: dpcov_row_refusal
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: row = -1
    integer(c_int32_t) :: label = 0
    integer(c_int32_t) :: norm_exponent = 0
    real(c_double) :: norm_rest = 0
  end type

  !> Optional settings of a mechanism (dpcov_mechanism_params); fill with
  !> dpcov_mechanism_params_default.
  type, bind(c) :: dpcov_mechanism_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: neighbour = 0
    integer(c_int32_t) :: calibration = 0
    real(c_double) :: lambda_min_bound = 0
    integer(c_int32_t) :: lambda_min_scope = 0
    integer(c_int32_t) :: audit_only_not_private = 0
    integer(c_int32_t) :: budget_split = 0
    real(c_double) :: beta = 0
    integer(c_int64_t) :: rank = 0
    integer(c_int64_t) :: projection_rows = 0
    integer(c_int64_t) :: posterior_dof = 0
  end type

  !> What a mechanism did (dpcov_receipt); dpcov/receipt.h documents every field.
  type, bind(c) :: dpcov_receipt
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: mechanism = 0
    integer(c_int32_t) :: neighbour = 0
    integer(c_int32_t) :: calibration = 0
    integer(c_int32_t) :: not_dp = 0
    integer(c_int32_t) :: seed_fixed = 0
    integer(c_int32_t) :: sensitivity_norm = 0
    integer(c_int32_t) :: lambda_min_scope = 0
    integer(c_int64_t) :: dim = 0
    integer(c_int64_t) :: n = 0
    real(c_double) :: bound = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: sensitivity = 0
    real(c_double) :: sigma = 0
    real(c_double) :: scale = 0
    real(c_double) :: dof = 0
    real(c_double) :: lambda_min_bound = 0
    character(kind=c_char) :: theorem(DPCOV_RECEIPT_THEOREM_SIZE) = c_null_char
    real(c_double) :: epsilon_eigenvalues = 0
    real(c_double) :: epsilon_step = 0
    integer(c_int32_t) :: budget_split = 0
    integer(c_int64_t) :: rank = 0
    real(c_double) :: beta = 0
    real(c_double) :: tau = 0
    real(c_double) :: exponent_factor = 0
    real(c_double) :: clip_upper = 0
    integer(c_int64_t) :: bingham_proposals = 0
    integer(c_int64_t) :: bingham_rejections = 0
    integer(c_int64_t) :: projection_rows = 0
    real(c_double) :: threshold_w2 = 0
    real(c_double) :: appended_w = 0
    real(c_double) :: test_epsilon = 0
    real(c_double) :: test_delta = 0
    real(c_double) :: test_scale = 0
    real(c_double) :: test_shift = 0
    real(c_double) :: test_value = 0
    integer(c_int32_t) :: test_passed = 0
    real(c_double) :: glasso_rho = 0
    integer(c_int32_t) :: generator = 0
    integer(c_int32_t) :: numerics = 0
  end type

  !> Optional settings of dpcov_regression_fit (dpcov_regression_params).
  type, bind(c) :: dpcov_regression_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: intercept_column = -1
    real(c_double) :: ridge = 0
    real(c_double) :: level = 0
  end type

  !> Scalar results of a regression (dpcov_regression_summary).
  type, bind(c) :: dpcov_regression_summary
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: num_coefficients = 0
    integer(c_int64_t) :: dof = 0
    real(c_double) :: rss = 0
    real(c_double) :: residual_variance = 0
    real(c_double) :: t_critical = 0
    integer(c_int32_t) :: rss_clamped = 0
  end type

  !> Optional settings of dpcov_glasso_solve (dpcov_glasso_params).
  type, bind(c) :: dpcov_glasso_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: penalize_diagonal = 1
    real(c_double) :: tol = 0
    integer(c_int64_t) :: max_iter = 0
  end type

  !> Convergence information of dpcov_glasso_solve (dpcov_glasso_info).
  type, bind(c) :: dpcov_glasso_info
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: iterations = 0
    real(c_double) :: kkt_residual = 0
    real(c_double) :: duality_gap = 0
    integer(c_int32_t) :: start = 0
  end type

  !> Settings of a CoinPress release (dpcov_coinpress_params, dpcov/coinpress.h); fill with
  !> dpcov_coinpress_params_default, then set k_bound.
  type, bind(c) :: dpcov_coinpress_params
    integer(c_size_t) :: struct_size = 0
    real(c_double) :: rho = 0
    real(c_double) :: k_bound = 0
    integer(c_int64_t) :: steps = 0
    real(c_double) :: beta = 0
    real(c_double) :: delta = 0
  end type

  !> Receipt of a CoinPress release (dpcov_coinpress_receipt); set struct_size to its c_sizeof.
  type, bind(c) :: dpcov_coinpress_receipt
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: dim = 0
    integer(c_int64_t) :: n = 0
    integer(c_int64_t) :: steps = 0
    real(c_double) :: rho = 0
    real(c_double) :: k_bound = 0
    real(c_double) :: beta = 0
    real(c_double) :: clip_radius = 0
    real(c_double) :: eta = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: step_rho(16) = 0
    real(c_double) :: step_sigma(16) = 0
    integer(c_int32_t) :: seed_fixed = 0
  end type

  !> Settings of a CoinPress mean release (dpcov_coinpress_mean_params, dpcov/coinpress.h); fill
  !> with dpcov_coinpress_mean_params_default, then set radius.
  type, bind(c) :: dpcov_coinpress_mean_params
    integer(c_size_t) :: struct_size = 0
    real(c_double) :: rho = 0
    real(c_double) :: radius = 0
    real(c_double) :: scale = 0
    integer(c_int64_t) :: steps = 0
    real(c_double) :: beta = 0
    real(c_double) :: delta = 0
  end type

  !> Receipt of a CoinPress mean release (dpcov_coinpress_mean_receipt); set struct_size to its
  !> c_sizeof.
  type, bind(c) :: dpcov_coinpress_mean_receipt
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: dim = 0
    integer(c_int64_t) :: n = 0
    integer(c_int64_t) :: steps = 0
    real(c_double) :: rho = 0
    real(c_double) :: radius = 0
    real(c_double) :: scale = 0
    real(c_double) :: beta = 0
    real(c_double) :: tail_radius = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: step_rho(16) = 0
    real(c_double) :: step_clip_radius(16) = 0
    real(c_double) :: step_sigma(16) = 0
    integer(c_int32_t) :: seed_fixed = 0
  end type

  !> Settings of a Dong-Liang-Yi release (dpcov_dly_params, dpcov/dong_liang_yi.h).
  type, bind(c) :: dpcov_dly_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: variant = 0
    real(c_double) :: rho = 0
    real(c_double) :: radius = 0
    real(c_double) :: beta = 0
    real(c_double) :: delta = 0
  end type

  !> Receipt of a Dong-Liang-Yi release (dpcov_dly_receipt); set struct_size to its c_sizeof.
  type, bind(c) :: dpcov_dly_receipt
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: variant = 0
    integer(c_int64_t) :: dim = 0
    integer(c_int64_t) :: n = 0
    real(c_double) :: rho = 0
    real(c_double) :: radius = 0
    real(c_double) :: beta = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: rho_covariance = 0
    real(c_double) :: trace_sigma = 0
    real(c_double) :: svt_epsilon = 0
    integer(c_int64_t) :: svt_queries = 0
    integer(c_int32_t) :: branch = 0
    real(c_double) :: clip_radius = 0
    real(c_double) :: sigma_matrix = 0
    real(c_double) :: sigma_eigenvalues = 0
    integer(c_int32_t) :: seed_fixed = 0
    real(c_double) :: histogram_sigma = 0
    real(c_double) :: first_look_sigma = 0
    integer(c_int32_t) :: first_look_settled = 0
  end type

  !> Result of dpcov_metric_support_recovery (dpcov_support_recovery).
  type, bind(c) :: dpcov_support_recovery
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: true_positives = 0
    integer(c_int64_t) :: false_positives = 0
    integer(c_int64_t) :: false_negatives = 0
    integer(c_int64_t) :: true_negatives = 0
    real(c_double) :: precision = 0
    real(c_double) :: recall = 0
  end type

  !> Settings of an audit (dpcov_audit_params); fill with dpcov_audit_params_default.
  type, bind(c) :: dpcov_audit_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int64_t) :: trials = 0
    integer(c_int64_t) :: first_checkpoint = 0
    real(c_double) :: alpha = 0
    integer(c_int64_t) :: seed = 0
    integer(c_int32_t) :: dataset = 0
    integer(c_int32_t) :: neighbour_kind = 0
  end type

  !> What an audit found (dpcov_audit_result).
  type, bind(c) :: dpcov_audit_result
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: verdict = 0
    integer(c_int32_t) :: findings = 0
    integer(c_int32_t) :: noise = 0
    integer(c_int32_t) :: worst_direction = 0
    integer(c_int64_t) :: samples = 0
    integer(c_int64_t) :: infinite_losses = 0
    integer(c_int64_t) :: exceedances = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: max_loss = 0
    real(c_double) :: exceed_estimate = 0
    real(c_double) :: exceed_lower = 0
    real(c_double) :: exceed_upper = 0
    real(c_double) :: delta_estimate = 0
    real(c_double) :: delta_lower = 0
    real(c_double) :: delta_upper = 0
    real(c_double) :: pair_distance = 0
    real(c_double) :: gaussian_sigma_upper = 0
    real(c_double) :: gaussian_delta_lower = 0
    real(c_double) :: conformance_distance = 0
    real(c_double) :: conformance_threshold = 0
    real(c_double) :: alpha_per_test = 0
    real(c_double) :: detectable_delta = 0
  end type

  !> What a black-box audit found (dpcov_black_box_result); set struct_size with
  !> c_sizeof(result) before the call.
  type, bind(c) :: dpcov_black_box_result
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: verdict = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    integer(c_int64_t) :: samples = 0
    real(c_double) :: delta_lower = 0
    real(c_double) :: alpha_per_bound = 0
    real(c_double) :: detectable_delta = 0
  end type

  !> What the exact audit of CoinPress mean estimation found (dpcov_coinpress_mean_audit_result);
  !> set struct_size with c_sizeof(result) before the call.
  type, bind(c) :: dpcov_coinpress_mean_audit_result
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: verdict = 0
    integer(c_int32_t) :: findings = 0
    integer(c_int64_t) :: samples = 0
    real(c_double) :: rho = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: rho_lower = 0
    real(c_double) :: delta_estimate = 0
    real(c_double) :: delta_lower = 0
    real(c_double) :: conformance_distance = 0
    real(c_double) :: conformance_threshold = 0
    real(c_double) :: alpha_per_test = 0
    real(c_double) :: detectable_delta = 0
  end type

  !> What the exact-density audit of a Gaussian release on the rows found
  !> (dpcov_rows_exact_audit_result); set struct_size with c_sizeof(result) before the call.
  type, bind(c) :: dpcov_rows_exact_audit_result
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: verdict = 0
    integer(c_int32_t) :: findings = 0
    integer(c_int64_t) :: samples = 0
    integer(c_int64_t) :: n = 0
    real(c_double) :: rho = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: sigma = 0
    real(c_double) :: rho_lower = 0
    real(c_double) :: delta_estimate = 0
    real(c_double) :: delta_lower = 0
    real(c_double) :: gaussian_delta_lower = 0
    real(c_double) :: conformance_distance = 0
    real(c_double) :: conformance_threshold = 0
    integer(c_int64_t) :: clamp_hits = 0
    real(c_double) :: alpha_per_test = 0
    real(c_double) :: detectable_delta = 0
  end type

  !> AdaSSP calibrations (dpcov_adassp_calibration) and name size (DPCOV_ADASSP_NAME_SIZE).
  integer(c_int32_t), parameter :: DPCOV_ADASSP_JOINT_ANALYTIC = 0
  integer(c_int32_t), parameter :: DPCOV_ADASSP_PAPER = 1
  integer, parameter :: DPCOV_ADASSP_NAME_SIZE = 16

  !> Options of dpcov_adassp_fit (dpcov_adassp_params); fill with dpcov_adassp_params_default.
  type, bind(c) :: dpcov_adassp_params
    integer(c_size_t) :: struct_size = 0
    integer(c_int32_t) :: neighbour = 0
    integer(c_int32_t) :: calibration = 0
    real(c_double) :: rho = 0
    integer(c_int32_t) :: release_label_square = 0
  end type

  !> What dpcov_adassp_fit did (dpcov_adassp_receipt); set struct_size = c_sizeof(receipt).
  type, bind(c) :: dpcov_adassp_receipt
    integer(c_size_t) :: struct_size = 0
    character(kind=c_char) :: mechanism(DPCOV_ADASSP_NAME_SIZE) = c_null_char
    integer(c_int32_t) :: neighbour = 0
    integer(c_int32_t) :: calibration = 0
    integer(c_int32_t) :: seed_fixed = 0
    integer(c_int64_t) :: num_regressors = 0
    real(c_double) :: bound_x = 0
    real(c_double) :: bound_y = 0
    real(c_double) :: epsilon = 0
    real(c_double) :: delta = 0
    real(c_double) :: delta_exact = 0
    real(c_double) :: rho = 0
    real(c_double) :: sensitivity_lambda_min = 0
    real(c_double) :: sensitivity_gram = 0
    real(c_double) :: sensitivity_cross = 0
    real(c_double) :: sigma_lambda_min = 0
    real(c_double) :: sigma_gram = 0
    real(c_double) :: sigma_gram_off_diagonal = 0
    real(c_double) :: sigma_cross = 0
    real(c_double) :: lambda_min_shift = 0
    real(c_double) :: noise_norm_bound = 0
    real(c_double) :: eigenvalue_floor = 0
    real(c_double) :: released_lambda_min = 0
    real(c_double) :: ridge = 0
    integer(c_int64_t) :: eigenvalues_floored = 0
    character(kind=c_char) :: theorem(DPCOV_RECEIPT_THEOREM_SIZE) = c_null_char
    integer(c_int32_t) :: label_square_released = 0
    real(c_double) :: sensitivity_label_square = 0
    real(c_double) :: sigma_label_square = 0
    real(c_double) :: released_label_square = 0
    real(c_double) :: zcdp_rho = 0
    !> Always DPCOV_NUMERICS_IDEALIZED (0): floating-point Gaussian noise (Mironov 2012).
    integer(c_int32_t) :: numerics = 0
  end type

  interface
    ! ---- common.h ------------------------------------------------------------------------------
    function dpcov_status_string_c(status) bind(c, name='dpcov_status_string')
      import :: c_int32_t, c_ptr
      integer(c_int32_t), value :: status
      type(c_ptr) :: dpcov_status_string_c
    end function
    function dpcov_last_error_message_c() bind(c, name='dpcov_last_error_message')
      import :: c_ptr
      type(c_ptr) :: dpcov_last_error_message_c
    end function
    function dpcov_version_number() bind(c, name='dpcov_version_number')
      import :: c_int32_t
      integer(c_int32_t) :: dpcov_version_number
    end function
    function dpcov_version_string_c() bind(c, name='dpcov_version_string')
      import :: c_ptr
      type(c_ptr) :: dpcov_version_string_c
    end function

    ! ---- rng.h ---------------------------------------------------------------------------------
    function dpcov_rng_create_from_entropy(out) bind(c, name='dpcov_rng_create_from_entropy')
      import :: c_int32_t, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: dpcov_rng_create_from_entropy
    end function
    function dpcov_rng_create_seeded(out, seed, stream) bind(c, name='dpcov_rng_create_seeded')
      import :: c_int32_t, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int64_t), value :: seed, stream
      integer(c_int32_t) :: dpcov_rng_create_seeded
    end function
    subroutine dpcov_rng_destroy(rng) bind(c, name='dpcov_rng_destroy')
      import :: c_ptr
      type(c_ptr), intent(inout) :: rng
    end subroutine
    function dpcov_rng_substream(out, parent, index) bind(c, name='dpcov_rng_substream')
      import :: c_int32_t, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: out
      type(c_ptr), value :: parent
      integer(c_int64_t), value :: index
      integer(c_int32_t) :: dpcov_rng_substream
    end function
    function dpcov_rng_next_u64(rng, out) bind(c, name='dpcov_rng_next_u64')
      import :: c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int64_t), intent(out) :: out
      integer(c_int32_t) :: dpcov_rng_next_u64
    end function
    function dpcov_rng_seed_fixed(rng, out) bind(c, name='dpcov_rng_seed_fixed')
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int32_t), intent(out) :: out
      integer(c_int32_t) :: dpcov_rng_seed_fixed
    end function
    function dpcov_rng_state_size() bind(c, name='dpcov_rng_state_size')
      import :: c_size_t
      integer(c_size_t) :: dpcov_rng_state_size
    end function
    function dpcov_rng_state_save(rng, out, size) bind(c, name='dpcov_rng_state_save')
      import :: c_int32_t, c_int8_t, c_ptr, c_size_t
      type(c_ptr), value :: rng
      integer(c_int8_t), intent(out) :: out(*)
      integer(c_size_t), value :: size
      integer(c_int32_t) :: dpcov_rng_state_save
    end function
    function dpcov_rng_state_restore(rng, state, size) bind(c, name='dpcov_rng_state_restore')
      import :: c_int32_t, c_int8_t, c_ptr, c_size_t
      type(c_ptr), value :: rng
      integer(c_int8_t), intent(in) :: state(*)
      integer(c_size_t), value :: size
      integer(c_int32_t) :: dpcov_rng_state_restore
    end function

    ! ---- gram.h --------------------------------------------------------------------------------
    function dpcov_gram_create(out, dim) bind(c, name='dpcov_gram_create')
      import :: c_int32_t, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int64_t), value :: dim
      integer(c_int32_t) :: dpcov_gram_create
    end function
    subroutine dpcov_gram_destroy(gram) bind(c, name='dpcov_gram_destroy')
      import :: c_ptr
      type(c_ptr), intent(inout) :: gram
    end subroutine
    function dpcov_gram_add_rows(gram, layout, rows, cols, a, lda, bound, policy) &
        bind(c, name='dpcov_gram_add_rows')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: gram
      integer(c_int32_t), value :: layout, policy
      integer(c_int64_t), value :: rows, cols, lda
      real(c_double), intent(in) :: a(*)
      real(c_double), value :: bound
      integer(c_int32_t) :: dpcov_gram_add_rows
    end function
    function dpcov_row_bounding_default(spec) bind(c, name='dpcov_row_bounding_default')
      import :: c_int32_t, dpcov_row_bounding
      type(dpcov_row_bounding), intent(out) :: spec
      integer(c_int32_t) :: dpcov_row_bounding_default
    end function
    function dpcov_gram_create_bounded(out, cols, spec) bind(c, name='dpcov_gram_create_bounded')
      import :: c_int32_t, c_int64_t, c_ptr, dpcov_row_bounding
      type(c_ptr), intent(out) :: out
      integer(c_int64_t), value :: cols
      type(dpcov_row_bounding), intent(in) :: spec
      integer(c_int32_t) :: dpcov_gram_create_bounded
    end function
    function dpcov_gram_add_raw_rows(gram, layout, rows, cols, a, lda, refusal) &
        bind(c, name='dpcov_gram_add_raw_rows')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_row_refusal
      type(c_ptr), value :: gram
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: rows, cols, lda
      real(c_double), intent(in) :: a(*)
      type(dpcov_row_refusal), intent(inout) :: refusal
      integer(c_int32_t) :: dpcov_gram_add_raw_rows
    end function
    function dpcov_row_bounding_apply(spec, layout, rows, cols, a, lda, out, ldout, info, &
        refusal) bind(c, name='dpcov_row_bounding_apply')
      import :: c_double, c_int32_t, c_int64_t, dpcov_gram_info, dpcov_row_bounding, &
          dpcov_row_refusal
      type(dpcov_row_bounding), intent(in) :: spec
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: rows, cols, lda, ldout
      real(c_double), intent(in) :: a(*)
      real(c_double), intent(inout) :: out(*)
      type(dpcov_gram_info), intent(inout) :: info
      type(dpcov_row_refusal), intent(inout) :: refusal
      integer(c_int32_t) :: dpcov_row_bounding_apply
    end function
    function dpcov_gram_merge(dst, src) bind(c, name='dpcov_gram_merge')
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: dst, src
      integer(c_int32_t) :: dpcov_gram_merge
    end function
    function dpcov_gram_get_matrix(gram, layout, out, ld) bind(c, name='dpcov_gram_get_matrix')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: gram
      integer(c_int32_t), value :: layout
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), value :: ld
      integer(c_int32_t) :: dpcov_gram_get_matrix
    end function
    function dpcov_gram_get_info(gram, info) bind(c, name='dpcov_gram_get_info')
      import :: c_int32_t, c_ptr, dpcov_gram_info
      type(c_ptr), value :: gram
      type(dpcov_gram_info), intent(inout) :: info
      integer(c_int32_t) :: dpcov_gram_get_info
    end function
    function dpcov_gram_create_from_state(out, info, layout, g, ldg) &
        bind(c, name='dpcov_gram_create_from_state')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_gram_info
      type(c_ptr), intent(out) :: out
      type(dpcov_gram_info), intent(in) :: info
      integer(c_int32_t), value :: layout
      real(c_double), intent(in) :: g(*)
      integer(c_int64_t), value :: ldg
      integer(c_int32_t) :: dpcov_gram_create_from_state
    end function

    ! ---- sample.h ------------------------------------------------------------------------------
    function dpcov_sample_uniform01(rng, n, out) bind(c, name='dpcov_sample_uniform01')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_uniform01
    end function
    function dpcov_sample_standard_normal(rng, n, out) bind(c, name='dpcov_sample_standard_normal')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_standard_normal
    end function
    function dpcov_sample_exponential(rng, n, out) bind(c, name='dpcov_sample_exponential')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_exponential
    end function
    function dpcov_sample_laplace(rng, scale, n, out) bind(c, name='dpcov_sample_laplace')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: scale
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_laplace
    end function
    function dpcov_sample_gamma(rng, shape, n, out) bind(c, name='dpcov_sample_gamma')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: shape
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_gamma
    end function
    function dpcov_sample_chi_square(rng, dof, n, out) bind(c, name='dpcov_sample_chi_square')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: dof
      integer(c_int64_t), value :: n
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_chi_square
    end function
    function dpcov_sample_uniform_sphere(rng, dim, n, layout, out, ld_out) &
        bind(c, name='dpcov_sample_uniform_sphere')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int64_t), value :: dim, n, ld_out
      integer(c_int32_t), value :: layout
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_uniform_sphere
    end function
    function dpcov_sample_wishart(rng, dof, layout, dim, scale, ld_scale, out, ld_out) &
        bind(c, name='dpcov_sample_wishart')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: dof
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_scale, ld_out
      real(c_double), intent(in) :: scale(*)
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_wishart
    end function
    function dpcov_sample_inverse_wishart(rng, dof, layout, dim, psi, ld_psi, out, ld_out) &
        bind(c, name='dpcov_sample_inverse_wishart')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: dof
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_psi, ld_out
      real(c_double), intent(in) :: psi(*)
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_inverse_wishart
    end function
    function dpcov_sample_acg(rng, layout, dim, omega, ld_omega, n, out, ld_out) &
        bind(c, name='dpcov_sample_acg')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_omega, n, ld_out
      real(c_double), intent(in) :: omega(*)
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_acg
    end function
    function dpcov_sample_bingham(rng, layout, dim, a, lda, n, out, ld_out, tries) &
        bind(c, name='dpcov_sample_bingham')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda, n, ld_out
      real(c_double), intent(in) :: a(*)
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), intent(out) :: tries
      integer(c_int32_t) :: dpcov_sample_bingham
    end function
    function dpcov_sample_symmetric_gaussian_noise(rng, sigma, layout, dim, out, ld) &
        bind(c, name='dpcov_sample_symmetric_gaussian_noise')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: sigma
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_symmetric_gaussian_noise
    end function
    function dpcov_sample_symmetric_laplace_noise(rng, scale, layout, dim, out, ld) &
        bind(c, name='dpcov_sample_symmetric_laplace_noise')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: rng
      real(c_double), value :: scale
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld
      real(c_double), intent(out) :: out(*)
      integer(c_int32_t) :: dpcov_sample_symmetric_laplace_noise
    end function
    function dpcov_log_density_wishart(layout, dim, w, ld_w, dof, scale, ld_scale, out) &
        bind(c, name='dpcov_log_density_wishart')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_w, ld_scale
      real(c_double), intent(in) :: w(*), scale(*)
      real(c_double), value :: dof
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_log_density_wishart
    end function
    function dpcov_log_density_inverse_wishart(layout, dim, x, ld_x, dof, psi, ld_psi, out) &
        bind(c, name='dpcov_log_density_inverse_wishart')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_x, ld_psi
      real(c_double), intent(in) :: x(*), psi(*)
      real(c_double), value :: dof
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_log_density_inverse_wishart
    end function
    function dpcov_log_density_acg(layout, dim, omega, ld_omega, u, out) &
        bind(c, name='dpcov_log_density_acg')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld_omega
      real(c_double), intent(in) :: omega(*), u(*)
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_log_density_acg
    end function
    function dpcov_log_density_symmetric_gaussian(layout, dim, noise, ld, sigma, out) &
        bind(c, name='dpcov_log_density_symmetric_gaussian')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld
      real(c_double), intent(in) :: noise(*)
      real(c_double), value :: sigma
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_log_density_symmetric_gaussian
    end function
    function dpcov_log_density_symmetric_laplace(layout, dim, noise, ld, scale, out) &
        bind(c, name='dpcov_log_density_symmetric_laplace')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld
      real(c_double), intent(in) :: noise(*)
      real(c_double), value :: scale
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_log_density_symmetric_laplace
    end function

    ! ---- mechanism.h ---------------------------------------------------------------------------
    function dpcov_mechanism_params_default(params) bind(c, name='dpcov_mechanism_params_default')
      import :: c_int32_t, dpcov_mechanism_params
      type(dpcov_mechanism_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_mechanism_params_default
    end function
    function dpcov_mechanism_name_c(mechanism) bind(c, name='dpcov_mechanism_name')
      import :: c_int32_t, c_ptr
      integer(c_int32_t), value :: mechanism
      type(c_ptr) :: dpcov_mechanism_name_c
    end function
    !> The publishable part of a receipt (dpcov/receipt.h): n withheld under add/remove, no
    !> Bingham proposal counts. out%struct_size = c_sizeof(out) first.
    function dpcov_receipt_public(receipt, out) bind(c, name='dpcov_receipt_public')
      import :: c_int32_t, dpcov_receipt
      type(dpcov_receipt), intent(in) :: receipt
      type(dpcov_receipt), intent(inout) :: out
      integer(c_int32_t) :: dpcov_receipt_public
    end function
    !> A budget ledger with the total cap (dpcov/ledger.h).
    function dpcov_ledger_create(out, accounting, epsilon_cap, delta_cap) &
        bind(c, name='dpcov_ledger_create')
      import :: c_double, c_int32_t, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int32_t), value :: accounting
      real(c_double), value :: epsilon_cap, delta_cap
      integer(c_int32_t) :: dpcov_ledger_create
    end function
    subroutine dpcov_ledger_destroy(ledger) bind(c, name='dpcov_ledger_destroy')
      import :: c_ptr
      type(c_ptr), intent(inout) :: ledger
    end subroutine
    function dpcov_ledger_check(ledger, receipt) bind(c, name='dpcov_ledger_check')
      import :: c_int32_t, c_ptr, dpcov_receipt
      type(c_ptr), value :: ledger
      type(dpcov_receipt), intent(in) :: receipt
      integer(c_int32_t) :: dpcov_ledger_check
    end function
    function dpcov_ledger_charge(ledger, receipt) bind(c, name='dpcov_ledger_charge')
      import :: c_int32_t, c_ptr, dpcov_receipt
      type(c_ptr), value :: ledger
      type(dpcov_receipt), intent(in) :: receipt
      integer(c_int32_t) :: dpcov_ledger_charge
    end function
    !> spent%struct_size = c_sizeof(spent) first.
    !> A release stated in zCDP (rho-zCDP and (epsilon, delta)-DP): AdaSSP, CoinPress, DLY.
    function dpcov_ledger_check_zcdp(ledger, rho, epsilon, delta) &
        bind(c, name='dpcov_ledger_check_zcdp')
      import :: c_double, c_int32_t, c_ptr
      type(c_ptr), value :: ledger
      real(c_double), value :: rho, epsilon, delta
      integer(c_int32_t) :: dpcov_ledger_check_zcdp
    end function
    function dpcov_ledger_charge_zcdp(ledger, rho, epsilon, delta) &
        bind(c, name='dpcov_ledger_charge_zcdp')
      import :: c_double, c_int32_t, c_ptr
      type(c_ptr), value :: ledger
      real(c_double), value :: rho, epsilon, delta
      integer(c_int32_t) :: dpcov_ledger_charge_zcdp
    end function
    function dpcov_ledger_get_spent(ledger, spent) bind(c, name='dpcov_ledger_get_spent')
      import :: c_int32_t, c_ptr, dpcov_ledger_spent
      type(c_ptr), value :: ledger
      type(dpcov_ledger_spent), intent(inout) :: spent
      integer(c_int32_t) :: dpcov_ledger_get_spent
    end function
    !> Norm bound of rows scaled by public per-column bounds (dpcov/column_bounds.h).
    function dpcov_column_bounds_norm_bound(cols, bound) &
        bind(c, name='dpcov_column_bounds_norm_bound')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int64_t), value :: cols
      real(c_double), intent(out) :: bound
      integer(c_int32_t) :: dpcov_column_bounds_norm_bound
    end function
    !> Rows mapped to [1, z], z in [-1, 1], by public ranges [lower, upper] per column.
    function dpcov_column_bounds_scale_rows(layout, rows, cols, a, lda, lower, upper, out, &
        ldout, clamped) bind(c, name='dpcov_column_bounds_scale_rows')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: rows, cols, lda, ldout
      real(c_double), intent(in) :: a(*), lower(*), upper(*)
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), intent(out) :: clamped
      integer(c_int32_t) :: dpcov_column_bounds_scale_rows
    end function
    !> A (d + 1) x (d + 1) second moment mapped to the user's units or back to the scaled ones.
    function dpcov_column_bounds_transform(cols, lower, upper, units, layout, in, ldin, out, &
        ldout) bind(c, name='dpcov_column_bounds_transform')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int64_t), value :: cols, ldin, ldout
      real(c_double), intent(in) :: lower(*), upper(*), in(*)
      integer(c_int32_t), value :: units, layout
      real(c_double), intent(inout) :: out(*)
      integer(c_int32_t) :: dpcov_column_bounds_transform
    end function
    !> Mean and covariance from a second moment with a constant column (dpcov/centring.h).
    function dpcov_centre_second_moment(layout, dim, m, ldm, constant_column, constant, n, &
        mean, cov, ldcov, count) bind(c, name='dpcov_centre_second_moment')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ldm, constant_column, n, ldcov
      real(c_double), intent(in) :: m(*)
      real(c_double), value :: constant
      real(c_double), intent(inout) :: mean(*), cov(*)
      real(c_double), intent(out) :: count
      integer(c_int32_t) :: dpcov_centre_second_moment
    end function
    ! private_bound.h: grid may be c_null_ptr with capacity 0 to ask only for the count.
    function dpcov_private_bound_grid(lo, hi, ratio, grid, capacity, candidates) &
        bind(c, name='dpcov_private_bound_grid')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      real(c_double), value :: lo, hi, ratio
      type(c_ptr), value :: grid
      integer(c_int64_t), value :: capacity
      integer(c_int64_t), intent(out) :: candidates
      integer(c_int32_t) :: dpcov_private_bound_grid
    end function
    function dpcov_private_bound_histogram(grid, candidates, layout, rows, cols, a, lda, &
        histogram) bind(c, name='dpcov_private_bound_histogram')
      import :: c_double, c_int32_t, c_int64_t
      real(c_double), intent(in) :: grid(*)
      integer(c_int64_t), value :: candidates, rows, cols, lda
      integer(c_int32_t), value :: layout
      real(c_double), intent(in) :: a(*)
      integer(c_int64_t), intent(inout) :: histogram(*)
      integer(c_int32_t) :: dpcov_private_bound_histogram
    end function
    function dpcov_private_bound_select(grid, candidates, histogram, target_clipped, epsilon, rng, &
        index, bound) bind(c, name='dpcov_private_bound_select')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      real(c_double), intent(in) :: grid(*)
      integer(c_int64_t), value :: candidates, target_clipped
      integer(c_int64_t), intent(in) :: histogram(*)
      real(c_double), value :: epsilon
      type(c_ptr), value :: rng
      integer(c_int64_t), intent(out) :: index
      real(c_double), intent(out) :: bound
      integer(c_int32_t) :: dpcov_private_bound_select
    end function
    function dpcov_private_bound_scan(grid, candidates, histogram, target_clipped, epsilon, rng, &
        index, bound) bind(c, name='dpcov_private_bound_scan')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      real(c_double), intent(in) :: grid(*)
      integer(c_int64_t), value :: candidates, target_clipped
      integer(c_int64_t), intent(in) :: histogram(*)
      real(c_double), value :: epsilon
      type(c_ptr), value :: rng
      integer(c_int64_t), intent(out) :: index
      real(c_double), intent(out) :: bound
      integer(c_int32_t) :: dpcov_private_bound_scan
    end function
    !> Dry run of an exact (floating-point-safe) release (dpcov/exact.h); receipt%struct_size
    !> and grid%struct_size set first.
    function dpcov_exact_plan(mechanism, dim, n, bound, epsilon, delta, params, receipt, grid) &
        bind(c, name='dpcov_exact_plan')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params, dpcov_receipt, &
                dpcov_exact_grid
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: dim, n
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      type(dpcov_receipt), intent(inout) :: receipt
      type(dpcov_exact_grid), intent(inout) :: grid
      integer(c_int32_t) :: dpcov_exact_plan
    end function
    !> An exact release of Analyze Gauss or symmetric Laplace from the rows a (dpcov/exact.h).
    function dpcov_exact_release_rows(mechanism, layout, rows, cols, a, lda, bound, policy, &
        epsilon, delta, params, rng, out, ldo, receipt, grid) &
        bind(c, name='dpcov_exact_release_rows')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, dpcov_receipt, &
                dpcov_exact_grid
      integer(c_int32_t), value :: mechanism, layout, policy
      integer(c_int64_t), value :: rows, cols, lda, ldo
      real(c_double), intent(in) :: a(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      type(c_ptr), value :: rng
      real(c_double), intent(out) :: out(*)
      type(dpcov_receipt), intent(inout) :: receipt
      type(dpcov_exact_grid), intent(inout) :: grid
      integer(c_int32_t) :: dpcov_exact_release_rows
    end function
    !> An exact accumulator for the release of the plan (mechanism, dim, bound, epsilon, delta,
    !> params), rows bounded under policy (dpcov/exact.h); free it with dpcov_exact_gram_destroy.
    function dpcov_exact_gram_create(out, mechanism, dim, bound, policy, epsilon, delta, params) &
        bind(c, name='dpcov_exact_gram_create')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params
      type(c_ptr), intent(out) :: out
      integer(c_int32_t), value :: mechanism, policy
      integer(c_int64_t), value :: dim
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      integer(c_int32_t) :: dpcov_exact_gram_create
    end function
    subroutine dpcov_exact_gram_destroy(acc) bind(c, name='dpcov_exact_gram_destroy')
      import :: c_ptr
      type(c_ptr), intent(inout) :: acc
    end subroutine
    function dpcov_exact_gram_add_rows(acc, layout, rows, cols, a, lda) &
        bind(c, name='dpcov_exact_gram_add_rows')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: acc
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: rows, cols, lda
      real(c_double), intent(in) :: a(*)
      integer(c_int32_t) :: dpcov_exact_gram_add_rows
    end function
    function dpcov_exact_gram_merge(dst, src) bind(c, name='dpcov_exact_gram_merge')
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: dst, src
      integer(c_int32_t) :: dpcov_exact_gram_merge
    end function
    function dpcov_exact_gram_get_info(acc, info) bind(c, name='dpcov_exact_gram_get_info')
      import :: c_int32_t, c_ptr, dpcov_gram_info
      type(c_ptr), value :: acc
      type(dpcov_gram_info), intent(inout) :: info
      integer(c_int32_t) :: dpcov_exact_gram_get_info
    end function
    !> The release of an exact accumulator's plan from the rows added so far (d x d, symmetric).
    function dpcov_exact_gram_release(acc, rng, out, ldo, receipt, grid) &
        bind(c, name='dpcov_exact_gram_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_receipt, dpcov_exact_grid
      type(c_ptr), value :: acc, rng
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), value :: ldo
      type(dpcov_receipt), intent(inout) :: receipt
      type(dpcov_exact_grid), intent(inout) :: grid
      integer(c_int32_t) :: dpcov_exact_gram_release
    end function
    function dpcov_mechanism_plan(mechanism, dim, n, bound, epsilon, delta, params, receipt) &
        bind(c, name='dpcov_mechanism_plan')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: dim, n
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_mechanism_plan
    end function
    function dpcov_mechanism_release(mechanism, layout, dim, gram, ldg, n, bound, epsilon, delta, &
        params, rng, out, ldo, receipt) bind(c, name='dpcov_mechanism_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, ldg, n, ldo
      real(c_double), intent(in) :: gram(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      type(c_ptr), value :: rng
      real(c_double), intent(out) :: out(*)
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_mechanism_release
    end function
    function dpcov_mechanism_release_gram(mechanism, gram, epsilon, delta, params, rng, layout, &
        out, ldo, receipt) bind(c, name='dpcov_mechanism_release_gram')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism, layout
      type(c_ptr), value :: gram, rng
      real(c_double), value :: epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), value :: ldo
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_mechanism_release_gram
    end function
    function dpcov_mechanism_log_density(mechanism, layout, dim, released, ldr, gram, ldg, n, &
        bound, epsilon, delta, params, log_density) bind(c, name='dpcov_mechanism_log_density')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, ldr, ldg, n
      real(c_double), intent(in) :: released(*), gram(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      real(c_double), intent(out) :: log_density
      integer(c_int32_t) :: dpcov_mechanism_log_density
    end function
    function dpcov_mechanism_log_density_tested(mechanism, layout, dim, released, ldr, &
        test_value, gram, ldg, n, bound, epsilon, delta, params, log_density) &
        bind(c, name='dpcov_mechanism_log_density_tested')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, ldr, ldg, n
      real(c_double), intent(in) :: released(*), gram(*)
      real(c_double), value :: test_value, bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      real(c_double), intent(out) :: log_density
      integer(c_int32_t) :: dpcov_mechanism_log_density_tested
    end function

    ! ---- sketch.h ------------------------------------------------------------------------------
    function dpcov_sketch_create(out, dim, projection_rows, rng) bind(c, name='dpcov_sketch_create')
      import :: c_int32_t, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int64_t), value :: dim, projection_rows
      type(c_ptr), value :: rng
      integer(c_int32_t) :: dpcov_sketch_create
    end function
    subroutine dpcov_sketch_destroy(sketch) bind(c, name='dpcov_sketch_destroy')
      import :: c_ptr
      type(c_ptr), intent(inout) :: sketch
    end subroutine
    function dpcov_sketch_add_rows(sketch, layout, rows, cols, a, lda, first_index, bound, &
        policy) bind(c, name='dpcov_sketch_add_rows')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: sketch
      integer(c_int32_t), value :: layout, policy
      integer(c_int64_t), value :: rows, cols, lda, first_index
      real(c_double), intent(in) :: a(*)
      real(c_double), value :: bound
      integer(c_int32_t) :: dpcov_sketch_add_rows
    end function
    function dpcov_sketch_merge(dst, src) bind(c, name='dpcov_sketch_merge')
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: dst, src
      integer(c_int32_t) :: dpcov_sketch_merge
    end function
    function dpcov_sketch_get_info(sketch, info) bind(c, name='dpcov_sketch_get_info')
      import :: c_int32_t, c_ptr, dpcov_gram_info
      type(c_ptr), value :: sketch
      type(dpcov_gram_info), intent(inout) :: info
      integer(c_int32_t) :: dpcov_sketch_get_info
    end function
    function dpcov_sketch_get(sketch, w, layout, out, ldo) bind(c, name='dpcov_sketch_get')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: sketch
      real(c_double), value :: w
      integer(c_int32_t), value :: layout
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), value :: ldo
      integer(c_int32_t) :: dpcov_sketch_get
    end function
    function dpcov_sketch_get_gram(sketch, layout, out, ld) bind(c, name='dpcov_sketch_get_gram')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), value :: sketch
      integer(c_int32_t), value :: layout
      real(c_double), intent(out) :: out(*)
      integer(c_int64_t), value :: ld
      integer(c_int32_t) :: dpcov_sketch_get_gram
    end function
    function dpcov_sketch_create_from_state(out, rng, projection_rows, gram, layout, &
        data_sketch, lds) bind(c, name='dpcov_sketch_create_from_state')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: out
      type(c_ptr), value :: rng, gram
      integer(c_int64_t), value :: projection_rows, lds
      integer(c_int32_t), value :: layout
      real(c_double), intent(in) :: data_sketch(*)
      integer(c_int32_t) :: dpcov_sketch_create_from_state
    end function
    !> sketch_out may be c_null_ptr (not wanted) or c_loc of an r x d array.
    function dpcov_sketch_release(mechanism, sketch, epsilon, delta, params, rng, layout, &
        sketch_out, lds, out, ldo, receipt) bind(c, name='dpcov_sketch_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism, layout
      type(c_ptr), value :: sketch, rng, sketch_out
      real(c_double), value :: epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      integer(c_int64_t), value :: lds, ldo
      real(c_double), intent(out) :: out(*)
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_sketch_release
    end function

    ! ---- postprocess.h -------------------------------------------------------------------------
    function dpcov_postprocess_psd_project(layout, dim, a, lda) &
        bind(c, name='dpcov_postprocess_psd_project')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda
      real(c_double), intent(inout) :: a(*)
      integer(c_int32_t) :: dpcov_postprocess_psd_project
    end function
    function dpcov_postprocess_eigenvalues_clip(layout, dim, a, lda, lower, upper) &
        bind(c, name='dpcov_postprocess_eigenvalues_clip')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda
      real(c_double), intent(inout) :: a(*)
      real(c_double), value :: lower, upper
      integer(c_int32_t) :: dpcov_postprocess_eigenvalues_clip
    end function
    function dpcov_postprocess_analyze_gauss_shift(layout, dim, a, lda, sigma, nu, shift_added) &
        bind(c, name='dpcov_postprocess_analyze_gauss_shift')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda
      real(c_double), intent(inout) :: a(*)
      real(c_double), value :: sigma, nu
      real(c_double), intent(out) :: shift_added
      integer(c_int32_t) :: dpcov_postprocess_analyze_gauss_shift
    end function
    function dpcov_postprocess_wishart_mean_subtract(layout, dim, a, lda, dof, scale) &
        bind(c, name='dpcov_postprocess_wishart_mean_subtract')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda
      real(c_double), intent(inout) :: a(*)
      real(c_double), value :: dof, scale
      integer(c_int32_t) :: dpcov_postprocess_wishart_mean_subtract
    end function
    function dpcov_postprocess_wishart_shift(layout, dim, a, lda, dof, scale, nu, &
        shift_subtracted) bind(c, name='dpcov_postprocess_wishart_shift')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, lda
      real(c_double), intent(inout) :: a(*)
      real(c_double), value :: dof, scale, nu
      real(c_double), intent(out) :: shift_subtracted
      integer(c_int32_t) :: dpcov_postprocess_wishart_shift
    end function

    ! ---- estimators.h --------------------------------------------------------------------------
    function dpcov_regression_params_default(params) bind(c, name='dpcov_regression_params_default')
      import :: c_int32_t, dpcov_regression_params
      type(dpcov_regression_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_regression_params_default
    end function
    !> Optional outputs (std_errors ... ci_upper) are c_null_ptr or c_loc of p doubles.
    function dpcov_regression_fit(layout, d, g, ldg, n, label, features, num_features, params, &
        coefficients, std_errors, t_values, p_values, ci_lower, ci_upper, summary) &
        bind(c, name='dpcov_regression_fit')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_regression_params, &
        dpcov_regression_summary
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ldg, n, label, num_features
      real(c_double), intent(in) :: g(*)
      integer(c_int64_t), intent(in) :: features(*)
      type(dpcov_regression_params), intent(in) :: params
      real(c_double), intent(out) :: coefficients(*)
      type(c_ptr), value :: std_errors, t_values, p_values, ci_lower, ci_upper
      type(dpcov_regression_summary), intent(inout) :: summary
      integer(c_int32_t) :: dpcov_regression_fit
    end function
    !> vectors and explained_ratio may be c_null_ptr.
    function dpcov_pca_top_k(layout, d, a, lda, k, values, vectors, ldv, explained_ratio) &
        bind(c, name='dpcov_pca_top_k')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, lda, k, ldv
      real(c_double), intent(in) :: a(*)
      real(c_double), intent(out) :: values(*)
      type(c_ptr), value :: vectors, explained_ratio
      integer(c_int32_t) :: dpcov_pca_top_k
    end function
    !> angles may be c_null_ptr.
    function dpcov_pca_subspace_distance(layout, d, a, lda, b, ldb, k, sin_theta_spectral, &
        sin_theta_frobenius, angles) bind(c, name='dpcov_pca_subspace_distance')
      import :: c_double, c_int32_t, c_int64_t, c_ptr
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, lda, ldb, k
      real(c_double), intent(in) :: a(*), b(*)
      real(c_double), intent(out) :: sin_theta_spectral, sin_theta_frobenius
      type(c_ptr), value :: angles
      integer(c_int32_t) :: dpcov_pca_subspace_distance
    end function
    !> noise_norm, eigengap and swamped are c_null_ptr or c_loc of one element.
    function dpcov_pca_subspace_error_bound(layout, d, released, ld, receipt, k, level, &
        num_draws, rng, noise_norm, eigengap, sin_theta_bound, swamped) &
        bind(c, name='dpcov_pca_subspace_error_bound')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ld, k, num_draws
      real(c_double), intent(in) :: released(*)
      type(dpcov_receipt), intent(in) :: receipt
      real(c_double), value :: level
      type(c_ptr), value :: rng, noise_norm, eigengap, swamped
      real(c_double), intent(out) :: sin_theta_bound
      integer(c_int32_t) :: dpcov_pca_subspace_error_bound
    end function
    !> noise_norm, eigengap and swamped are c_null_ptr or c_loc of one element.
    function dpcov_pca_centred_subspace_error_bound(layout, dim, released, ld, receipt, &
        constant_column, constant, n, k, level, num_draws, rng, noise_norm, eigengap, &
        sin_theta_bound, swamped) bind(c, name='dpcov_pca_centred_subspace_error_bound')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: dim, ld, constant_column, n, k, num_draws
      real(c_double), intent(in) :: released(*)
      type(dpcov_receipt), intent(in) :: receipt
      real(c_double), value :: constant, level
      type(c_ptr), value :: rng, noise_norm, eigengap, swamped
      real(c_double), intent(out) :: sin_theta_bound
      integer(c_int32_t) :: dpcov_pca_centred_subspace_error_bound
    end function
    function dpcov_glasso_params_default(params) bind(c, name='dpcov_glasso_params_default')
      import :: c_int32_t, dpcov_glasso_params
      type(dpcov_glasso_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_glasso_params_default
    end function
    !> warm_start and covariance may be c_null_ptr.
    function dpcov_glasso_solve(layout, d, s, lds, rho, params, warm_start, ldw, precision, ldp, &
        covariance, ldc, info) bind(c, name='dpcov_glasso_solve')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_glasso_params, dpcov_glasso_info
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, lds, ldw, ldp, ldc
      real(c_double), intent(in) :: s(*)
      real(c_double), value :: rho
      type(dpcov_glasso_params), intent(in) :: params
      type(c_ptr), value :: warm_start, covariance
      real(c_double), intent(out) :: precision(*)
      type(dpcov_glasso_info), intent(inout) :: info
      integer(c_int32_t) :: dpcov_glasso_solve
    end function
    function dpcov_metric_frobenius_error(layout, rows, cols, a, lda, b, ldb, relative, out) &
        bind(c, name='dpcov_metric_frobenius_error')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout, relative
      integer(c_int64_t), value :: rows, cols, lda, ldb
      real(c_double), intent(in) :: a(*), b(*)
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_metric_frobenius_error
    end function
    function dpcov_metric_spectral_error(layout, rows, cols, a, lda, b, ldb, relative, out) &
        bind(c, name='dpcov_metric_spectral_error')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int32_t), value :: layout, relative
      integer(c_int64_t), value :: rows, cols, lda, ldb
      real(c_double), intent(in) :: a(*), b(*)
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_metric_spectral_error
    end function
    function dpcov_metric_vector_error(n, a, b, relative, out) &
        bind(c, name='dpcov_metric_vector_error')
      import :: c_double, c_int32_t, c_int64_t
      integer(c_int64_t), value :: n
      real(c_double), intent(in) :: a(*), b(*)
      integer(c_int32_t), value :: relative
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: dpcov_metric_vector_error
    end function
    function dpcov_metric_support_recovery(layout, d, estimate, lde, truth, ldt, threshold, out) &
        bind(c, name='dpcov_metric_support_recovery')
      import :: c_double, c_int32_t, c_int64_t, dpcov_support_recovery
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, lde, ldt
      real(c_double), intent(in) :: estimate(*), truth(*)
      real(c_double), value :: threshold
      type(dpcov_support_recovery), intent(inout) :: out
      integer(c_int32_t) :: dpcov_metric_support_recovery
    end function

    ! ---- ols.h ---------------------------------------------------------------------------------
    !> Optional outputs (std_errors ... reject) are c_null_ptr or c_loc of p elements.
    function dpcov_ols_jl(layout, d, g, ldg, n, bound, epsilon, delta, params, label, features, &
        num_features, reg_params, rng, coefficients, std_errors, t_values, p_values, ci_lower, &
        ci_upper, reject, summary, receipt) bind(c, name='dpcov_ols_jl')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, &
        dpcov_regression_params, dpcov_regression_summary, dpcov_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ldg, n, label, num_features
      real(c_double), intent(in) :: g(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      integer(c_int64_t), intent(in) :: features(*)
      type(dpcov_regression_params), intent(in) :: reg_params
      type(c_ptr), value :: rng, std_errors, t_values, p_values, ci_lower, ci_upper, reject
      real(c_double), intent(out) :: coefficients(*)
      type(dpcov_regression_summary), intent(inout) :: summary
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_ols_jl
    end function
    function dpcov_ols_analyze_gauss(layout, d, g, ldg, n, bound, epsilon, delta, params, label, &
        features, num_features, reg_params, rng, coefficients, std_errors, t_values, p_values, &
        ci_lower, ci_upper, reject, summary, receipt) bind(c, name='dpcov_ols_analyze_gauss')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, &
        dpcov_regression_params, dpcov_regression_summary, dpcov_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ldg, n, label, num_features
      real(c_double), intent(in) :: g(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: params
      integer(c_int64_t), intent(in) :: features(*)
      type(dpcov_regression_params), intent(in) :: reg_params
      type(c_ptr), value :: rng, std_errors, t_values, p_values, ci_lower, ci_upper, reject
      real(c_double), intent(out) :: coefficients(*)
      type(dpcov_regression_summary), intent(inout) :: summary
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_ols_analyze_gauss
    end function
    !> Optional outputs (ci_lower ... kappa) are c_null_ptr or c_loc of p elements (one for
    !> noise_norm_bound and kappa).
    function dpcov_ols_analyze_gauss_intervals(layout, d, released, ld, sigma, n, label, features, &
        num_features, reg_params, coefficients, ci_lower, ci_upper, data_ci_lower, data_ci_upper, &
        reject, noise_norm_bound, kappa) bind(c, name='dpcov_ols_analyze_gauss_intervals')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_regression_params
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ld, n, label, num_features
      real(c_double), intent(in) :: released(*)
      real(c_double), value :: sigma
      integer(c_int64_t), intent(in) :: features(*)
      type(dpcov_regression_params), intent(in) :: reg_params
      real(c_double), intent(out) :: coefficients(*)
      type(c_ptr), value :: ci_lower, ci_upper, data_ci_lower, data_ci_upper, reject, &
        noise_norm_bound, kappa
      integer(c_int32_t) :: dpcov_ols_analyze_gauss_intervals
    end function
    !> Optional outputs (std_errors ... kappa) are c_null_ptr or c_loc of p elements (one for
    !> noise_norm and kappa).
    function dpcov_ols_bootstrap_intervals(layout, d, released, ld, receipt, label, features, &
        num_features, reg_params, num_bootstrap, rng, coefficients, std_errors, p_values, &
        ci_lower, ci_upper, noise_norm, kappa) bind(c, name='dpcov_ols_bootstrap_intervals')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_regression_params, dpcov_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ld, label, num_features, num_bootstrap
      real(c_double), intent(in) :: released(*)
      type(dpcov_receipt), intent(in) :: receipt
      integer(c_int64_t), intent(in) :: features(*)
      type(dpcov_regression_params), intent(in) :: reg_params
      type(c_ptr), value :: rng
      real(c_double), intent(out) :: coefficients(*)
      type(c_ptr), value :: std_errors, p_values, ci_lower, ci_upper, noise_norm, kappa
      integer(c_int32_t) :: dpcov_ols_bootstrap_intervals
    end function

    ! ---- private_glasso.h ----------------------------------------------------------------------
    function dpcov_private_glasso_plan(mechanism, dim, n, bound, epsilon, delta, params, rho, &
        receipt) bind(c, name='dpcov_private_glasso_plan')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: dim, n
      real(c_double), value :: bound, epsilon, delta, rho
      type(dpcov_mechanism_params), intent(in) :: params
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_private_glasso_plan
    end function
    !> glasso_params and info are c_null_ptr (required for output perturbation) or c_loc of the
    !> structs.
    function dpcov_private_glasso_release(mechanism, layout, dim, gram, ldg, n, bound, epsilon, &
        delta, params, rho, glasso_params, rng, precision, ldp, receipt, info) &
        bind(c, name='dpcov_private_glasso_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_mechanism_params, dpcov_receipt
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, ldg, n, ldp
      real(c_double), intent(in) :: gram(*)
      real(c_double), value :: bound, epsilon, delta, rho
      type(dpcov_mechanism_params), intent(in) :: params
      type(c_ptr), value :: glasso_params, rng, info
      real(c_double), intent(out) :: precision(*)
      type(dpcov_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_private_glasso_release
    end function
    function dpcov_private_glasso_log_density(mechanism, layout, dim, released, ldr, gram, ldg, &
        n, bound, epsilon, delta, params, rho, log_density) &
        bind(c, name='dpcov_private_glasso_log_density')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, ldr, ldg, n
      real(c_double), intent(in) :: released(*), gram(*)
      real(c_double), value :: bound, epsilon, delta, rho
      type(dpcov_mechanism_params), intent(in) :: params
      real(c_double), intent(out) :: log_density
      integer(c_int32_t) :: dpcov_private_glasso_log_density
    end function

    ! ---- audit.h -------------------------------------------------------------------------------
    function dpcov_audit_params_default(params) bind(c, name='dpcov_audit_params_default')
      import :: c_int32_t, dpcov_audit_params
      type(dpcov_audit_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_audit_params_default
    end function
    function dpcov_audit_run(mechanism, dim, n, bound, epsilon, delta, mechanism_params, params, &
        result) bind(c, name='dpcov_audit_run')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params, dpcov_audit_params, &
        dpcov_audit_result
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: dim, n
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: mechanism_params
      type(dpcov_audit_params), intent(in) :: params
      type(dpcov_audit_result), intent(inout) :: result
      integer(c_int32_t) :: dpcov_audit_run
    end function
    function dpcov_audit_run_pair(mechanism, layout, dim, rows, n, ldr, rows_prime, n_prime, ldp, &
        bound, epsilon, delta, mechanism_params, params, result) &
        bind(c, name='dpcov_audit_run_pair')
      import :: c_double, c_int32_t, c_int64_t, dpcov_mechanism_params, dpcov_audit_params, &
        dpcov_audit_result
      integer(c_int32_t), value :: mechanism, layout
      integer(c_int64_t), value :: dim, n, ldr, n_prime, ldp
      real(c_double), intent(in) :: rows(*), rows_prime(*)
      real(c_double), value :: bound, epsilon, delta
      type(dpcov_mechanism_params), intent(in) :: mechanism_params
      type(dpcov_audit_params), intent(in) :: params
      type(dpcov_audit_result), intent(inout) :: result
      integer(c_int32_t) :: dpcov_audit_run_pair
    end function
    function dpcov_audit_rows_black_box(mechanism, dim, n, rho, delta, scale, statistic, trials, &
        alpha, seed, result) bind(c, name='dpcov_audit_rows_black_box')
      import :: c_double, c_int32_t, c_int64_t, dpcov_black_box_result
      integer(c_int32_t), value :: mechanism, statistic
      integer(c_int64_t), value :: dim, n, trials, seed
      real(c_double), value :: rho, delta, scale, alpha
      type(dpcov_black_box_result), intent(inout) :: result
      integer(c_int32_t) :: dpcov_audit_rows_black_box
    end function
    function dpcov_audit_coinpress_mean(dim, n, params, trials, alpha, seed, result) &
        bind(c, name='dpcov_audit_coinpress_mean')
      import :: c_double, c_int32_t, c_int64_t, dpcov_coinpress_mean_params, &
        dpcov_coinpress_mean_audit_result
      integer(c_int64_t), value :: dim, n, trials, seed
      type(dpcov_coinpress_mean_params), intent(in) :: params
      real(c_double), value :: alpha
      type(dpcov_coinpress_mean_audit_result), intent(inout) :: result
      integer(c_int32_t) :: dpcov_audit_coinpress_mean
    end function
    function dpcov_audit_rows_exact(mechanism, steps, rho, delta, trials, alpha, seed, result) &
        bind(c, name='dpcov_audit_rows_exact')
      import :: c_double, c_int32_t, c_int64_t, dpcov_rows_exact_audit_result
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: steps, trials, seed
      real(c_double), value :: rho, delta, alpha
      type(dpcov_rows_exact_audit_result), intent(inout) :: result
      integer(c_int32_t) :: dpcov_audit_rows_exact
    end function
    function dpcov_audit_rows_exact_pairs(mechanism, steps, rho, delta, trials, alpha, seed, &
        pairs, result, worst_pair) bind(c, name='dpcov_audit_rows_exact_pairs')
      import :: c_double, c_int32_t, c_int64_t, dpcov_rows_exact_audit_result
      integer(c_int32_t), value :: mechanism
      integer(c_int64_t), value :: steps, trials, seed, pairs
      real(c_double), value :: rho, delta, alpha
      type(dpcov_rows_exact_audit_result), intent(inout) :: result
      integer(c_int64_t), intent(out) :: worst_pair
      integer(c_int32_t) :: dpcov_audit_rows_exact_pairs
    end function
    ! ---- coinpress.h ---------------------------------------------------------------------------
    function dpcov_coinpress_params_default(params) bind(c, name='dpcov_coinpress_params_default')
      import :: c_int32_t, dpcov_coinpress_params
      type(dpcov_coinpress_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_coinpress_params_default
    end function
    function dpcov_coinpress_plan(n, dim, params, receipt) bind(c, name='dpcov_coinpress_plan')
      import :: c_int32_t, c_int64_t, dpcov_coinpress_params, dpcov_coinpress_receipt
      integer(c_int64_t), value :: n, dim
      type(dpcov_coinpress_params), intent(in) :: params
      type(dpcov_coinpress_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_coinpress_plan
    end function
    function dpcov_coinpress_release(layout, n, dim, rows, ldr, params, rng, out, ldo, receipt) &
        bind(c, name='dpcov_coinpress_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_coinpress_params, &
        dpcov_coinpress_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: n, dim, ldr, ldo
      real(c_double), intent(in) :: rows(*)
      type(dpcov_coinpress_params), intent(in) :: params
      type(c_ptr), value :: rng
      real(c_double), intent(out) :: out(*)
      type(dpcov_coinpress_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_coinpress_release
    end function
    function dpcov_coinpress_mean_params_default(params) &
        bind(c, name='dpcov_coinpress_mean_params_default')
      import :: c_int32_t, dpcov_coinpress_mean_params
      type(dpcov_coinpress_mean_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_coinpress_mean_params_default
    end function
    function dpcov_coinpress_mean_plan(n, dim, params, receipt) &
        bind(c, name='dpcov_coinpress_mean_plan')
      import :: c_int32_t, c_int64_t, dpcov_coinpress_mean_params, dpcov_coinpress_mean_receipt
      integer(c_int64_t), value :: n, dim
      type(dpcov_coinpress_mean_params), intent(in) :: params
      type(dpcov_coinpress_mean_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_coinpress_mean_plan
    end function
    ! centre: c_loc of d values, or c_null_ptr for the origin.
    function dpcov_coinpress_mean_release(layout, n, dim, rows, ldr, centre, params, rng, mean, &
        receipt) bind(c, name='dpcov_coinpress_mean_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_coinpress_mean_params, &
        dpcov_coinpress_mean_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: n, dim, ldr
      real(c_double), intent(in) :: rows(*)
      type(c_ptr), value :: centre
      type(dpcov_coinpress_mean_params), intent(in) :: params
      type(c_ptr), value :: rng
      real(c_double), intent(inout) :: mean(*)
      type(dpcov_coinpress_mean_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_coinpress_mean_release
    end function
    function dpcov_coinpress_centring_split(rho, rho_mean, rho_covariance) &
        bind(c, name='dpcov_coinpress_centring_split')
      import :: c_double, c_int32_t
      real(c_double), value :: rho
      real(c_double), intent(out) :: rho_mean, rho_covariance
      integer(c_int32_t) :: dpcov_coinpress_centring_split
    end function
    function dpcov_zcdp_epsilon(rho, delta, epsilon) bind(c, name='dpcov_zcdp_epsilon')
      import :: c_double, c_int32_t
      real(c_double), value :: rho, delta
      real(c_double), intent(out) :: epsilon
      integer(c_int32_t) :: dpcov_zcdp_epsilon
    end function
    function dpcov_zcdp_rho(epsilon, delta, rho) bind(c, name='dpcov_zcdp_rho')
      import :: c_double, c_int32_t
      real(c_double), value :: epsilon, delta
      real(c_double), intent(out) :: rho
      integer(c_int32_t) :: dpcov_zcdp_rho
    end function
    ! ---- adassp.h ------------------------------------------------------------------------------
    function dpcov_adassp_params_default(params) bind(c, name='dpcov_adassp_params_default')
      import :: c_int32_t, dpcov_adassp_params
      type(dpcov_adassp_params), intent(inout) :: params
      integer(c_int32_t) :: dpcov_adassp_params_default
    end function
    !> Every data-independent constant of a fit, zcdp_rho included (what a ledger checks first).
    function dpcov_adassp_plan(num_features, bound_x, bound_y, epsilon, delta, params, receipt) &
        bind(c, name='dpcov_adassp_plan')
      import :: c_double, c_int32_t, c_int64_t, dpcov_adassp_params, dpcov_adassp_receipt
      integer(c_int64_t), value :: num_features
      real(c_double), value :: bound_x, bound_y, epsilon, delta
      type(dpcov_adassp_params), intent(in) :: params
      type(dpcov_adassp_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_adassp_plan
    end function
    !> released_xtx and released_xty are c_null_ptr or c_loc of p x p and p elements.
    function dpcov_adassp_fit(layout, d, g, ldg, label, features, num_features, bound_x, bound_y, &
        epsilon, delta, params, rng, coefficients, released_xtx, ld_xtx, released_xty, receipt) &
        bind(c, name='dpcov_adassp_fit')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_adassp_params, dpcov_adassp_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: d, ldg, label, num_features, ld_xtx
      real(c_double), intent(in) :: g(*)
      integer(c_int64_t), intent(in) :: features(*)
      real(c_double), value :: bound_x, bound_y, epsilon, delta
      type(dpcov_adassp_params), intent(in) :: params
      type(c_ptr), value :: rng, released_xtx, released_xty
      real(c_double), intent(out) :: coefficients(*)
      type(dpcov_adassp_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_adassp_fit
    end function

    ! ---- dong_liang_yi.h -----------------------------------------------------------------------
    function dpcov_dly_params_default(params) bind(c, name='dpcov_dly_params_default')
      import :: c_int32_t, dpcov_dly_params
      type(dpcov_dly_params), intent(out) :: params
      integer(c_int32_t) :: dpcov_dly_params_default
    end function
    function dpcov_dly_plan(n, dim, params, receipt) bind(c, name='dpcov_dly_plan')
      import :: c_int32_t, c_int64_t, dpcov_dly_params, dpcov_dly_receipt
      integer(c_int64_t), value :: n, dim
      type(dpcov_dly_params), intent(in) :: params
      type(dpcov_dly_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_dly_plan
    end function
    function dpcov_dly_release(layout, n, dim, rows, ldr, params, rng, out, ldo, receipt) &
        bind(c, name='dpcov_dly_release')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_dly_params, dpcov_dly_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: n, dim, ldr, ldo
      real(c_double), intent(in) :: rows(*)
      type(dpcov_dly_params), intent(in) :: params
      type(c_ptr), value :: rng
      real(c_double), intent(out) :: out(*)
      type(dpcov_dly_receipt), intent(inout) :: receipt
      integer(c_int32_t) :: dpcov_dly_release
    end function
    function dpcov_adassp_bootstrap_intervals(layout, p, released_xtx, ld_xtx, released_xty, n, &
        receipt, level, num_bootstrap, rng, coefficients, std_errors, p_values, ci_lower, &
        ci_upper) bind(c, name='dpcov_adassp_bootstrap_intervals')
      import :: c_double, c_int32_t, c_int64_t, c_ptr, dpcov_adassp_receipt
      integer(c_int32_t), value :: layout
      integer(c_int64_t), value :: p, ld_xtx, n, num_bootstrap
      real(c_double), intent(in) :: released_xtx(*), released_xty(*)
      type(dpcov_adassp_receipt), intent(in) :: receipt
      real(c_double), value :: level
      type(c_ptr), value :: rng, std_errors, p_values, ci_lower, ci_upper
      real(c_double), intent(out) :: coefficients(*)
      integer(c_int32_t) :: dpcov_adassp_bootstrap_intervals
    end function
  end interface

contains

  !> Copies a NUL-terminated C string owned by the library into a Fortran string.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    interface
      function strlen(str) bind(c, name='strlen')
        import :: c_ptr, c_size_t
        type(c_ptr), value :: str
        integer(c_size_t) :: strlen
      end function
    end interface
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(n) :: s)
    s = transfer(chars(1:n), s)
  end function

  !> Name of a status code, e.g. "DPCOV_E_NON_FINITE".
  function dpcov_status_name(status) result(s)
    integer(c_int32_t), intent(in) :: status
    character(:), allocatable :: s
    s = c_string(dpcov_status_string_c(status))
  end function

  !> Message of the last failed call on the calling thread ("" if none).
  function dpcov_last_error() result(s)
    character(:), allocatable :: s
    s = c_string(dpcov_last_error_message_c())
  end function

  !> Version of the loaded library, "major.minor.patch".
  function dpcov_version() result(s)
    character(:), allocatable :: s
    s = c_string(dpcov_version_string_c())
  end function

  !> Name of a mechanism, e.g. "analyze_gauss".
  function dpcov_mechanism_label(mechanism) result(s)
    integer(c_int32_t), intent(in) :: mechanism
    character(:), allocatable :: s
    s = c_string(dpcov_mechanism_name_c(mechanism))
  end function

  !> The receipt's paper, theorem and proof file as a Fortran string.
  function dpcov_receipt_theorem(receipt) result(s)
    type(dpcov_receipt), intent(in) :: receipt
    character(:), allocatable :: s
    integer :: n
    n = 0
    do while (n < DPCOV_RECEIPT_THEOREM_SIZE)
      if (receipt%theorem(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate (character(n) :: s)
    s = transfer(receipt%theorem(1:n), s)
  end function

  !> Whether the release the receipt describes may claim differential privacy: false for a
  !> mechanism known not to be, and for a seeded release (anyone who knows the seed can remove the
  !> noise). As the Python binding's Receipt.differentially_private.
  logical function dpcov_receipt_differentially_private(receipt)
    type(dpcov_receipt), intent(in) :: receipt
    dpcov_receipt_differentially_private = receipt%not_dp == 0 .and. receipt%seed_fixed == 0
  end function

  !> The same in words: 'private', 'reproducible: not private if the seed is known', 'not
  !> private: known counterexample' or 'plan: nothing released'.
  function dpcov_receipt_privacy_claim(receipt) result(s)
    type(dpcov_receipt), intent(in) :: receipt
    character(:), allocatable :: s
    if (receipt%not_dp /= 0) then
      s = 'not private: known counterexample'
    else if (receipt%seed_fixed /= 0) then
      s = 'reproducible: not private if the seed is known'
    else if (receipt%generator == 0) then
      s = 'plan: nothing released'
    else
      s = 'private'
    end if
  end function

  !> An empty receipt with struct_size set, ready to be filled by a release or plan.
  function dpcov_new_receipt() result(r)
    type(dpcov_receipt) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty exact grid with struct_size set, for dpcov_exact_plan / dpcov_exact_release_rows.
  function dpcov_new_exact_grid() result(r)
    type(dpcov_exact_grid) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty info struct with struct_size set, for dpcov_gram_get_info / dpcov_sketch_get_info.
  function dpcov_new_gram_info() result(r)
    type(dpcov_gram_info) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty regression summary with struct_size set.
  function dpcov_new_regression_summary() result(r)
    type(dpcov_regression_summary) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty graphical-lasso info struct with struct_size set.
  function dpcov_new_glasso_info() result(r)
    type(dpcov_glasso_info) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty support-recovery struct with struct_size set.
  function dpcov_new_support_recovery() result(r)
    type(dpcov_support_recovery) :: r
    r%struct_size = c_sizeof(r)
  end function

  !> An empty audit result with struct_size set.
  function dpcov_new_audit_result() result(r)
    type(dpcov_audit_result) :: r
    r%struct_size = c_sizeof(r)
  end function
end module dpcov
