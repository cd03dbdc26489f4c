! A Fortran user of the installed module (dpcov.mod and libdpcov_fortran from dpcov-fortran.pc):
! the Gram matrix of two rows, column-major.
program consumer
  use dpcov
  implicit none
  real(c_double) :: a(2, 2), g(2, 2)
  type(c_ptr) :: gram
  integer(c_int32_t) :: status
  a = reshape([1d0, 3d0, 2d0, 4d0], [2, 2])  ! rows (1, 2) and (3, 4)
  status = dpcov_gram_create(gram, 2_c_int64_t)
  if (status == DPCOV_OK) status = dpcov_gram_add_rows(gram, DPCOV_COL_MAJOR, 2_c_int64_t, &
                                                       2_c_int64_t, a, 2_c_int64_t, 10d0, &
                                                       DPCOV_BOUND_CLIP)
  if (status == DPCOV_OK) status = dpcov_gram_get_matrix(gram, DPCOV_COL_MAJOR, g, 2_c_int64_t)
  call dpcov_gram_destroy(gram)
  if (status /= DPCOV_OK .or. any(g /= matmul(transpose(a), a))) then
    print '(a, a)', 'FAILED: ', dpcov_last_error()
    error stop 1
  end if
  print '(a, a, a, 4f6.1)', 'Fortran (dpcov-fortran.pc): dpcov ', dpcov_version(), ', G =', g
end program consumer
