!> Fortran interface to the dpcov C library (libdpcov): differentially private second-moment and
!> covariance matrices.
!>
!> Every entry point of the C ABI is declared with iso_c_binding under its C name, so the C
!> documentation (capi/include/dpcov/*.h) applies word for word: the parameters, derived types and
!> interfaces are in dpcov_interfaces.inc, which scripts/generate-bindings writes from the headers.
!> Conventions for Fortran callers:
!>  - Pass matrices as ordinary Fortran arrays with layout DPCOV_COL_MAJOR and leading dimension
!>    size(a, 1): Fortran's own storage order, so nothing is copied.
!>  - Handles (generators, accumulators, sketches) are type(c_ptr); free them with the matching
!>    *_destroy, which sets them to c_null_ptr.
!>  - Every fallible function returns an integer(c_int32_t) status, DPCOV_OK (0) on success;
!>    dpcov_last_error() gives the message of the last failure on the calling thread.
!>  - Settings structs are filled by their *_default routine (this module's, which passes
!>    c_sizeof of the struct to the C *_init) before fields are changed; output
!>    structs (receipt, info, summary, result) need struct_size = c_sizeof(x) first, which the
!>    dpcov_new_* helpers set.
!>  - Optional array arguments of the C ABI (NULL allowed) are type(c_ptr), value: pass c_null_ptr
!>    or c_loc(array).
!>  - The thin wrappers at the end return Fortran strings for the C functions returning char *.
module dpcov
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_string

  include 'dpcov_interfaces.inc'

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

  !> A registry entry's name as a Fortran string.
  function dpcov_mechanism_entry_name(entry) result(s)
    type(dpcov_mechanism_entry), intent(in) :: entry
    character(:), allocatable :: s
    s = c_string(entry%name)
  end function

  !> A registry entry's paper, theorem and proof file as a Fortran string.
  function dpcov_mechanism_entry_theorem(entry) result(s)
    type(dpcov_mechanism_entry), intent(in) :: entry
    character(:), allocatable :: s
    s = c_string(entry%theorem)
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

  !> Fills params with the defaults of dpcov_mechanism_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_mechanism_params_default).
  function dpcov_mechanism_params_default(params) result(status)
    type(dpcov_mechanism_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_mechanism_params_init(params, c_sizeof(params))
  end function
  !> Fills spec with the defaults of dpcov_row_bounding_init, given the size this program was compiled
  !> with (the C header's inline dpcov_row_bounding_default).
  function dpcov_row_bounding_default(spec) result(status)
    type(dpcov_row_bounding), intent(inout) :: spec
    integer(c_int32_t) :: status
    status = dpcov_row_bounding_init(spec, c_sizeof(spec))
  end function
  !> Fills params with the defaults of dpcov_regression_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_regression_params_default).
  function dpcov_regression_params_default(params) result(status)
    type(dpcov_regression_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_regression_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_glasso_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_glasso_params_default).
  function dpcov_glasso_params_default(params) result(status)
    type(dpcov_glasso_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_glasso_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_audit_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_audit_params_default).
  function dpcov_audit_params_default(params) result(status)
    type(dpcov_audit_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_audit_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_adassp_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_adassp_params_default).
  function dpcov_adassp_params_default(params) result(status)
    type(dpcov_adassp_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_adassp_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_coinpress_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_coinpress_params_default).
  function dpcov_coinpress_params_default(params) result(status)
    type(dpcov_coinpress_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_coinpress_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_coinpress_mean_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_coinpress_mean_params_default).
  function dpcov_coinpress_mean_params_default(params) result(status)
    type(dpcov_coinpress_mean_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_coinpress_mean_params_init(params, c_sizeof(params))
  end function
  !> Fills params with the defaults of dpcov_dly_params_init, given the size this program was compiled
  !> with (the C header's inline dpcov_dly_params_default).
  function dpcov_dly_params_default(params) result(status)
    type(dpcov_dly_params), intent(inout) :: params
    integer(c_int32_t) :: status
    status = dpcov_dly_params_init(params, c_sizeof(params))
  end function
end module dpcov
