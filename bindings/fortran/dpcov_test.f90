!> Releases a covariance through the dpcov module from column-major Fortran arrays and checks it:
!> the accumulated Gram matrix equals matmul(transpose(a), a), the release is d x d and exactly
!> symmetric, the receipt names the mechanism, n, d and a fixed seed, the same seed gives the same
!> release, an exact accumulator fed two chunks releases what the rows release, and bad inputs
!> return their status with a message and leave the outputs untouched.
program dpcov_test
  use, intrinsic :: iso_c_binding
  use dpcov
  implicit none

  integer, parameter :: n = 60, d = 4, r = 12
  real(c_double) :: a(n, d), g(d, d), expected(d, d), released(d, d), again(d, d)
  real(c_double) :: sketch_sum(r, d), part(r, d), gram_sum(d, d), jl_whole(d, d), jl_parts(d, d)
  type(c_ptr) :: rng = c_null_ptr, gram = c_null_ptr, sketch = c_null_ptr, imported = c_null_ptr
  type(c_ptr) :: merged_gram = c_null_ptr, entropy_rng = c_null_ptr, ledger = c_null_ptr
  type(c_ptr) :: exact_gram = c_null_ptr, stream_rng = c_null_ptr, part_sketch = c_null_ptr
  type(dpcov_ledger_spent) :: spent
  type(dpcov_mechanism_entry) :: registry_entry
  type(dpcov_exact_grid) :: grid
  type(dpcov_receipt) :: receipt, receipt2
  type(dpcov_gram_info) :: info, total
  type(dpcov_mechanism_params) :: params
  integer(c_int32_t) :: status, last_id
  integer :: i, j, h, failures
  real(c_double) :: nan
  real(c_double) :: raw(3, 2), boxed(3, 3), moment(3, 3), user(3, 3), bound
  real(c_double), parameter :: lower(2) = [18d0, 0d0], upper(2) = [90d0, 250000d0]
  integer(c_int64_t) :: clamped
  real(c_double) :: centred_mean(2), centred_cov(2, 2)
  real(c_double), target :: candidates(5)
  integer(c_int64_t) :: ncand, chosen

  failures = 0
  do j = 1, d
    do i = 1, n
      a(i, j) = 0.5d0*sin(0.37d0*real(i + n*j, c_double))
    end do
  end do

  call check(dpcov_version_number() > 0 .and. len(dpcov_version()) > 0, 'version')
  call ok(dpcov_rng_create_seeded(rng, 7_c_int64_t, 0_c_int64_t), 'rng')
  call ok(dpcov_gram_create(gram, int(d, c_int64_t)), 'gram create')
  ! Column-major, leading dimension n: the Fortran array as it is.
  call ok(dpcov_gram_add_rows(gram, DPCOV_COL_MAJOR, int(n, c_int64_t), int(d, c_int64_t), a, &
                              int(n, c_int64_t), 1d0, DPCOV_BOUND_CLIP), 'add rows')
  call ok(dpcov_gram_get_matrix(gram, DPCOV_COL_MAJOR, g, int(d, c_int64_t)), 'get matrix')
  expected = matmul(transpose(a), a)
  call check(maxval(abs(g - expected)) < 1d-12*maxval(abs(expected)), 'G = A^T A')
  info = dpcov_new_gram_info()
  call ok(dpcov_gram_get_info(gram, info), 'info')
  call check(info%dim == d .and. info%rows == n .and. info%clipped == 0 .and. info%bound == 1d0, &
             'gram info')

  ! The release.
  call ok(dpcov_mechanism_params_default(params), 'params')
  receipt = dpcov_new_receipt()
  call ok(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, gram, 1d0, 1d-6, params, &
                                       rng, DPCOV_COL_MAJOR, released, int(d, c_int64_t), &
                                       receipt), 'release')
  call check(all(shape(released) == [d, d]), 'shape')
  call check(all(released == transpose(released)), 'exactly symmetric')
  call check(any(released /= g), 'noise was added')
  call check(receipt%mechanism == DPCOV_MECHANISM_ANALYZE_GAUSS .and. receipt%n == n .and. &
             receipt%dim == d .and. receipt%seed_fixed == 1 .and. receipt%sigma > 0 .and. &
             receipt%epsilon == 1d0 .and. receipt%delta == 1d-6 .and. receipt%not_dp == 0, &
             'receipt fields')
  call check(len(dpcov_receipt_theorem(receipt)) > 0, 'receipt theorem')
  ! A seeded release claims no privacy; the public receipt keeps the claim.
  call check(.not. dpcov_receipt_differentially_private(receipt), 'seeded: not private')
  call check(dpcov_receipt_privacy_claim(receipt) == &
             'reproducible: not private if the seed is known', 'seeded: privacy claim')
  call check(dpcov_mechanism_label(receipt%mechanism) == 'analyze_gauss', 'mechanism name')
  ! The registry: the release's theorem is its entry's; an unknown id leaves the entry untouched.
  registry_entry%struct_size = c_sizeof(registry_entry)
  call ok(dpcov_mechanism_info_by_id(receipt%mechanism, registry_entry), 'registry entry')
  call check(dpcov_mechanism_entry_name(registry_entry) == 'analyze_gauss' .and. &
             dpcov_mechanism_entry_theorem(registry_entry) == dpcov_receipt_theorem(receipt) .and. &
             registry_entry%privacy_model == DPCOV_MECHANISM_PRIVACY_APPROXIMATE, 'registry entry fields')
  ! The size comes from the library, so a new entry moves no number here; ids only increase.
  call check(dpcov_mechanism_count() > 0, 'registry size')
  last_id = 0
  do i = 0, dpcov_mechanism_count() - 1
    call ok(dpcov_mechanism_info(i, registry_entry), 'registry entry by index')
    call check(registry_entry%id > last_id, 'registry ids increase')
    last_id = registry_entry%id
  end do
  call check(dpcov_mechanism_info_by_id(last_id + 1, registry_entry) == DPCOV_E_INVALID_ARGUMENT .and. &
             registry_entry%id == last_id, 'unknown id refused, entry untouched')
  ! The public receipt keeps n under replace-one and withholds it under add/remove.
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_receipt_public(receipt, receipt2), 'public receipt')
  call check(receipt2%n == n .and. receipt2%sigma == receipt%sigma, 'public receipt keeps n')
  call check(dpcov_receipt_privacy_claim(receipt2) == dpcov_receipt_privacy_claim(receipt), &
             'public receipt keeps the privacy claim')
  receipt%neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE
  call ok(dpcov_receipt_public(receipt, receipt2), 'public receipt, add/remove')
  call check(receipt2%n == DPCOV_RECEIPT_N_WITHHELD, 'public receipt withholds a private n')
  receipt%neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE
  ! A ledger with room for one such release refuses the second and stays unchanged.
  call ok(dpcov_ledger_create(ledger, DPCOV_ACCOUNTING_BASIC, 1.5d0, 1d-5), 'ledger')
  call ok(dpcov_ledger_charge(ledger, receipt), 'ledger charge')
  call check(dpcov_ledger_check(ledger, receipt) == DPCOV_E_PRECONDITION, 'ledger refuses')
  call check(dpcov_ledger_charge(ledger, receipt) == DPCOV_E_PRECONDITION, 'ledger refuses')
  spent%struct_size = c_sizeof(spent)
  call ok(dpcov_ledger_get_spent(ledger, spent), 'ledger spent')
  call check(spent%charges == 1 .and. spent%epsilon == 1d0 .and. spent%delta == 1d-6, &
             'ledger adds up')
  call dpcov_ledger_destroy(ledger)
  ! Advanced composition: a cap (1.5, 1e-5) that holds one (1, 1e-6) release.
  call ok(dpcov_ledger_create(ledger, DPCOV_ACCOUNTING_ADVANCED, 1.5d0, 1d-5), 'advanced ledger')
  call ok(dpcov_ledger_charge(ledger, receipt), 'advanced ledger charge')
  call check(dpcov_ledger_charge(ledger, receipt) == DPCOV_E_PRECONDITION, 'advanced refuses')
  call dpcov_ledger_destroy(ledger)

  ! Public per-column bounds: rows scaled into the box [1, z], and their moment mapped back.
  raw = reshape([18d0, 54d0, 100d0, 0d0, 125000d0, 250000d0], [3, 2])
  call ok(dpcov_column_bounds_scale_rows(DPCOV_COL_MAJOR, 3_c_int64_t, 2_c_int64_t, raw, &
                                         3_c_int64_t, lower, upper, boxed, 3_c_int64_t, clamped), &
          'column bounds scale')
  call check(clamped == 1 .and. all(boxed(:, 1) == 1d0) .and. all(abs(boxed) <= 1d0), &
             'scaled rows in the box, one value clamped')
  call ok(dpcov_column_bounds_norm_bound(2_c_int64_t, bound), 'column bounds norm bound')
  call check(bound*bound >= 3d0, 'norm bound of the box')
  moment = matmul(transpose(boxed), boxed)
  call ok(dpcov_column_bounds_transform(2_c_int64_t, lower, upper, DPCOV_UNITS_USER, &
                                        DPCOV_COL_MAJOR, moment, 3_c_int64_t, user, 3_c_int64_t), &
          'column bounds transform')
  call check(user(1, 1) == 3d0 .and. abs(user(2, 1) - 162d0) < 1d-9, 'moment in the user units')
  call ok(dpcov_centre_second_moment(DPCOV_COL_MAJOR, 3_c_int64_t, user, 3_c_int64_t, 0_c_int64_t, &
                                     1d0, 3_c_int64_t, centred_mean, centred_cov, 2_c_int64_t, &
                                     bound), 'centre second moment')
  call check(abs(centred_mean(1) - 54d0) < 1d-9 .and. centred_cov(1, 2) == centred_cov(2, 1), &
             'centred mean and covariance')

  ! A private bound: the grid 0.5, 1, 2, 4, 8; 2 rows above 8 and 1 in (4, 8] against a target of 1
  ! clipped row picks 8 (probability 1 - 4 exp(-25) at epsilon 50).
  call ok(dpcov_private_bound_grid(0.5d0, 7d0, 2d0, c_loc(candidates), 5_c_int64_t, ncand), &
          'private bound grid')
  call check(ncand == 5 .and. candidates(5) == 8d0, 'private bound grid values')
  call ok(dpcov_private_bound_select(candidates, ncand, [100_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
          0_c_int64_t, 1_c_int64_t, 2_c_int64_t], 1_c_int64_t, 50d0, rng, chosen, bound), &
          'private bound select')
  call check(bound == 8d0 .and. chosen == 4, 'private bound choice')
  call check(dpcov_private_bound_select(candidates, ncand, [1_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
          0_c_int64_t, 0_c_int64_t, 2_c_int64_t], -1_c_int64_t, 1d0, rng, chosen, bound) &
          == DPCOV_E_INVALID_ARGUMENT, 'private bound refuses a negative target')
  ! The scan over the same grid: 100 rows in (0.5, 1], 3 above 8, against a target of 1; at
  ! epsilon 50 (noise scale 0.04) it passes 0.5 to 4 (103 rows above, then 3) and ends at the top.
  call ok(dpcov_private_bound_scan(candidates, ncand, [0_c_int64_t, 100_c_int64_t, 0_c_int64_t, &
          0_c_int64_t, 0_c_int64_t, 3_c_int64_t], 1_c_int64_t, 50d0, rng, chosen, bound), &
          'private bound scan')
  call check(bound == 8d0 .and. chosen == 4, 'private bound scan choice')
  call check(dpcov_private_bound_scan(candidates, ncand, [1_c_int64_t, 0_c_int64_t, 0_c_int64_t, &
          0_c_int64_t, 0_c_int64_t, 2_c_int64_t], 1_c_int64_t, 0d0, rng, chosen, bound) &
          == DPCOV_E_INVALID_ARGUMENT, 'private bound scan refuses epsilon 0')

  ! The same seed gives the same release; the row-major path from raw G gives it too.
  call dpcov_rng_destroy(rng)
  call check(.not. c_associated(rng), 'destroy sets the handle to null')
  call ok(dpcov_rng_create_seeded(rng, 7_c_int64_t, 0_c_int64_t), 'rng again')
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, &
                                  int(d, c_int64_t), g, int(d, c_int64_t), int(n, c_int64_t), &
                                  1d0, 1d0, 1d-6, params, rng, again, int(d, c_int64_t), &
                                  receipt2), 'release from G')
  call check(all(again == released) .and. receipt2%sigma == receipt%sigma, 'same seed, same release')
  call check(receipt2%generator == DPCOV_GENERATOR_PCG64, 'a seeded release records PCG64')

  ! Without a seed, the release draws from ChaCha20 keyed by the operating system.
  call ok(dpcov_rng_create_from_entropy(entropy_rng), 'entropy rng')
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, &
                                  int(d, c_int64_t), g, int(d, c_int64_t), int(n, c_int64_t), &
                                  1d0, 1d0, 1d-6, params, entropy_rng, again, int(d, c_int64_t), &
                                  receipt2), 'release without a seed')
  call check(receipt2%seed_fixed == 0 .and. receipt2%generator == DPCOV_GENERATOR_CHACHA20, &
             'a release without a seed uses ChaCha20')

  ! Exact numerics from the rows: unit**2 times integers, ChaCha20, and the grid of the plan.
  receipt2 = dpcov_new_receipt()
  grid = dpcov_new_exact_grid()
  call ok(dpcov_exact_release_rows(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, &
                                   int(n, c_int64_t), int(d, c_int64_t), a, int(n, c_int64_t), &
                                   1d0, DPCOV_BOUND_CLIP, 1d0, 0d0, params, entropy_rng, again, &
                                   int(d, c_int64_t), receipt2, grid), 'exact release')
  call check(receipt2%numerics == DPCOV_NUMERICS_EXACT .and. &
             receipt2%generator == DPCOV_GENERATOR_CHACHA20 .and. grid%bits == 12 .and. &
             grid%noise_law == DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE, 'exact receipt and grid')
  call check(all(again/grid%unit**2 == anint(again/grid%unit**2)), 'exact release on the grid')
  call check(all(again == transpose(again)), 'exact release symmetric')
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_exact_plan(DPCOV_MECHANISM_LAPLACE_SYM, int(d, c_int64_t), int(n, c_int64_t), &
                           1d0, 1d0, 0d0, params, receipt2, grid), 'exact plan')
  call check(receipt2%numerics == DPCOV_NUMERICS_EXACT, 'exact plan numerics')
  call check(dpcov_exact_release_rows(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, &
                                      int(n, c_int64_t), int(d, c_int64_t), a*10, &
                                      int(n, c_int64_t), 1d0, DPCOV_BOUND_REJECT, 1d0, 0d0, &
                                      params, entropy_rng, again, int(d, c_int64_t), receipt2, &
                                      grid) == DPCOV_E_NORM_BOUND, 'exact release rejects')
  call dpcov_rng_destroy(entropy_rng)

  ! The same rows streamed: two chunks into an exact accumulator release, from the same seed,
  ! what the rows release at once.
  call ok(dpcov_rng_create_seeded(stream_rng, 11_c_int64_t, 0_c_int64_t), 'rng for the rows')
  receipt2 = dpcov_new_receipt()
  grid = dpcov_new_exact_grid()
  call ok(dpcov_exact_release_rows(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, &
                                   int(n, c_int64_t), int(d, c_int64_t), a, int(n, c_int64_t), &
                                   1d0, DPCOV_BOUND_CLIP, 1d0, 0d0, params, stream_rng, released, &
                                   int(d, c_int64_t), receipt2, grid), 'exact release to stream')
  call dpcov_rng_destroy(stream_rng)
  call ok(dpcov_exact_gram_create(exact_gram, DPCOV_MECHANISM_LAPLACE_SYM, int(d, c_int64_t), &
                                  1d0, DPCOV_BOUND_CLIP, 1d0, 0d0, params), 'exact accumulator')
  call ok(dpcov_exact_gram_add_rows(exact_gram, DPCOV_COL_MAJOR, 25_c_int64_t, &
                                    int(d, c_int64_t), a, int(n, c_int64_t)), 'exact chunk 1')
  call ok(dpcov_exact_gram_add_rows(exact_gram, DPCOV_COL_MAJOR, int(n - 25, c_int64_t), &
                                    int(d, c_int64_t), a(26, 1), int(n, c_int64_t)), &
          'exact chunk 2')
  info = dpcov_new_gram_info()
  call ok(dpcov_exact_gram_get_info(exact_gram, info), 'exact info')
  call check(info%rows == n, 'exact accumulator counts every row')
  call ok(dpcov_rng_create_seeded(stream_rng, 11_c_int64_t, 0_c_int64_t), 'rng for the stream')
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_exact_gram_release(exact_gram, stream_rng, again, int(d, c_int64_t), receipt2, grid), &
          'exact release from the accumulator')
  call check(all(again == released), 'streamed exact release equals the release from the rows')
  call dpcov_exact_gram_destroy(exact_gram)
  call check(.not. c_associated(exact_gram), 'exact accumulator freed')
  call dpcov_rng_destroy(stream_rng)

  ! Bad inputs: a NaN row and an out-of-range epsilon are refused, outputs untouched.
  nan = transfer(-2251799813685248_c_int64_t, 1d0)
  a(3, 2) = nan
  status = dpcov_gram_add_rows(gram, DPCOV_COL_MAJOR, int(n, c_int64_t), int(d, c_int64_t), a, &
                               int(n, c_int64_t), 1d0, DPCOV_BOUND_CLIP)
  call check(status == DPCOV_E_NON_FINITE, 'NaN refused: '//dpcov_status_name(status))
  call check(index(dpcov_last_error(), 'row') > 0, 'message names the row: '//dpcov_last_error())
  info = dpcov_new_gram_info()
  call ok(dpcov_gram_get_info(gram, info), 'info after refusal')
  call check(info%rows == n, 'accumulator unchanged by the refused chunk')
  again = -1
  status = dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, gram, -1d0, 1d-6, params, &
                                        rng, DPCOV_COL_MAJOR, again, int(d, c_int64_t), receipt2)
  call check(status == DPCOV_E_INVALID_ARGUMENT, 'epsilon < 0 refused: '//dpcov_status_name(status))
  call check(all(again == -1), 'output untouched on failure')
  status = dpcov_gram_get_matrix(gram, DPCOV_COL_MAJOR, again, int(d - 1, c_int64_t))
  call check(status == DPCOV_E_LAYOUT, 'short leading dimension refused')
  a(3, 2) = 0.1d0

  ! The JL sketch of two halves with global row indices (partial sketches sharing the weights of
  ! the sketch of all rows) releases what the sketch of all rows releases; their states, exported
  ! and summed, import as a sketch that releases.
  params%projection_rows = r
  call ok(dpcov_sketch_create(sketch, int(d, c_int64_t), int(r, c_int64_t), rng), 'sketch')
  call ok(dpcov_sketch_create_partial(imported, sketch), 'partial for the merge')
  call ok(dpcov_sketch_add_rows(sketch, DPCOV_COL_MAJOR, int(n, c_int64_t), int(d, c_int64_t), &
                                a, int(n, c_int64_t), 0_c_int64_t, 1d0, DPCOV_BOUND_CLIP), 'rows')
  receipt = dpcov_new_receipt()
  call ok(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, sketch, 1d0, 1d-6, params, rng, &
                               DPCOV_COL_MAJOR, c_null_ptr, int(r, c_int64_t), jl_whole, &
                               int(d, c_int64_t), receipt), 'JL release')
  sketch_sum = 0
  gram_sum = 0
  total = dpcov_new_gram_info()
  do h = 0, 1
    call ok(dpcov_sketch_create_partial(part_sketch, sketch), 'part')
    ! Rows h*n/2+1 .. (h+1)*n/2: the column-major block starting at a(h*n/2+1, 1) with leading
    ! dimension n (passing the element, not a section, so that nothing is copied).
    call ok(dpcov_sketch_add_rows(part_sketch, DPCOV_COL_MAJOR, int(n/2, c_int64_t), &
                                  int(d, c_int64_t), a(h*(n/2) + 1, 1), int(n, c_int64_t), &
                                  int(h*(n/2), c_int64_t), 1d0, DPCOV_BOUND_CLIP), 'part rows')
    call ok(dpcov_sketch_get(part_sketch, 0d0, DPCOV_COL_MAJOR, part, int(r, c_int64_t)), 'get')
    sketch_sum = sketch_sum + part
    call ok(dpcov_sketch_get_gram(part_sketch, DPCOV_COL_MAJOR, g, int(d, c_int64_t)), 'get gram')
    gram_sum = gram_sum + g
    info = dpcov_new_gram_info()
    call ok(dpcov_sketch_get_info(part_sketch, info), 'part info')
    total%dim = info%dim
    total%rows = total%rows + info%rows
    total%clipped = total%clipped + info%clipped
    total%dropped = total%dropped + info%dropped
    total%bound = info%bound
    call ok(dpcov_sketch_merge(imported, part_sketch), 'merge a part')
    call dpcov_sketch_destroy(part_sketch)
  end do
  call dpcov_sketch_destroy(sketch)
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, imported, 1d0, 1d-6, params, rng, &
                               DPCOV_COL_MAJOR, c_null_ptr, int(r, c_int64_t), jl_parts, &
                               int(d, c_int64_t), receipt2), 'JL release of the merged parts')
  call check(maxval(abs(jl_parts - jl_whole)) <= 1d-10*(1 + maxval(abs(jl_whole))), &
             'merged partial sketches release the whole sketch''s release')
  call dpcov_sketch_destroy(imported)
  call ok(dpcov_gram_create_from_state(merged_gram, total, DPCOV_COL_MAJOR, gram_sum, &
                                       int(d, c_int64_t)), 'gram from state')
  call ok(dpcov_sketch_create_from_state(imported, rng, int(r, c_int64_t), merged_gram, &
                                         DPCOV_COL_MAJOR, sketch_sum, int(r, c_int64_t)), &
          'sketch from state')
  receipt2 = dpcov_new_receipt()
  call ok(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, imported, 1d0, 1d-6, params, rng, &
                               DPCOV_COL_MAJOR, c_null_ptr, int(r, c_int64_t), jl_parts, &
                               int(d, c_int64_t), receipt2), 'JL release from state')
  call check(receipt2%n == n .and. receipt2%projection_rows == r, 'JL receipt')

  call guaranteed_intervals()
  call adassp_regression()
  call coinpress_mean()
  call rows_black_box()
  call mean_audit()
  call rows_exact()
  call row_bounding()
  call numerics_by_default()
  call saved_state()
  call changed_interfaces()

  call dpcov_sketch_destroy(imported)
  call dpcov_gram_destroy(merged_gram)
  call dpcov_gram_destroy(gram)
  call dpcov_rng_destroy(rng)
  if (failures > 0) then
    print '(i0, a)', failures, ' check(s) failed'
    error stop 1
  end if
  print '(a)', 'all Fortran checks passed'

contains

  ! The library bounds raw rows: a rejected row comes back as data, the drop policy is refused
  ! under replace-one, and the private bound's histogram is measured by the library.
  subroutine row_bounding()
    type(dpcov_row_bounding) :: spec
    type(dpcov_row_refusal) :: refusal
    type(dpcov_gram_info) :: counts
    type(c_ptr) :: bounded = c_null_ptr
    real(c_double) :: rows(3, 2), out(4, 3)
    integer(c_int64_t) :: cells(3)
    rows = reshape([0.3d0, 0.1d0, 3d0, 0.4d0, 0.1d0, 4d0], [3, 2])
    call ok(dpcov_row_bounding_default(spec), 'row bounding defaults')
    spec%policy = DPCOV_BOUND_DROP
    call check(dpcov_gram_create_bounded(bounded, 2_c_int64_t, spec) == DPCOV_E_PRECONDITION, &
               'drop refused under replace-one')
    spec%policy = DPCOV_BOUND_REJECT
    spec%constant = 1d0
    call ok(dpcov_gram_create_bounded(bounded, 2_c_int64_t, spec), 'bounded gram')
    refusal%struct_size = c_sizeof(refusal)
    call check(dpcov_gram_add_raw_rows(bounded, DPCOV_COL_MAJOR, 3_c_int64_t, 2_c_int64_t, rows, &
               3_c_int64_t, refusal) == DPCOV_E_NORM_BOUND, 'row over the bound rejected')
    call check(refusal%row == 2 .and. refusal%label == 0 .and. &
               scale(refusal%norm_rest, refusal%norm_exponent) == 5d0, 'refused row as data')
    call dpcov_gram_destroy(bounded)
    spec%policy = DPCOV_BOUND_CLIP
    counts%struct_size = c_sizeof(counts)
    call ok(dpcov_row_bounding_apply(spec, DPCOV_COL_MAJOR, 3_c_int64_t, 2_c_int64_t, rows, &
            3_c_int64_t, out, 3_c_int64_t, counts, refusal), 'row bounding apply')
    call check(counts%rows == 3 .and. counts%clipped == 1 .and. counts%dim == 3, 'bounded counts')
    cells = 0
    call ok(dpcov_private_bound_histogram([0.2d0, 1d0], 2_c_int64_t, DPCOV_COL_MAJOR, &
            3_c_int64_t, 2_c_int64_t, rows, 3_c_int64_t, cells), 'histogram')
    call check(all(cells == [1_c_int64_t, 1_c_int64_t, 1_c_int64_t]), 'histogram cells')
  end subroutine

  ! Releases of analyze_gauss and laplace_sym from rows through a bounded accumulator naming the
  ! release are exact by default; idealized on request and wishart_additive are labelled so.
  subroutine numerics_by_default()
    integer(c_int32_t), parameter :: exact(2) = [DPCOV_MECHANISM_ANALYZE_GAUSS, &
                                                 DPCOV_MECHANISM_LAPLACE_SYM]
    integer(c_int32_t), parameter :: expected(3) = [DPCOV_NUMERICS_EXACT, &
                                                    DPCOV_NUMERICS_IDEALIZED, DPCOV_NUMERICS_IDEALIZED]
    integer(c_int32_t) :: mechanisms(3), choice(3)
    type(dpcov_row_bounding) :: spec
    type(dpcov_gram_info) :: counts
    type(dpcov_receipt) :: rec
    type(dpcov_row_refusal) :: refusal
    type(dpcov_mechanism_params) :: defaults
    type(c_ptr) :: bounded = c_null_ptr
    real(c_double) :: out(d, d)
    integer :: m, k
    call ok(dpcov_mechanism_params_default(defaults), 'default params')
    refusal%struct_size = c_sizeof(refusal)
    do m = 1, 2
      mechanisms = [exact(m), exact(m), DPCOV_MECHANISM_WISHART_ADDITIVE]
      choice = [DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED, DPCOV_NUMERICS_EXACT]
      do k = 1, 3
        call ok(dpcov_row_bounding_default(spec), 'row bounding defaults')
        call check(spec%numerics == DPCOV_NUMERICS_EXACT, 'exact numerics by default')
        spec%mechanism = mechanisms(k)
        spec%numerics = choice(k)
        spec%epsilon = 0.5d0
        spec%delta = 1d-6
        call ok(dpcov_gram_create_bounded(bounded, int(d, c_int64_t), spec), 'bounded for a release')
        call ok(dpcov_gram_add_raw_rows(bounded, DPCOV_COL_MAJOR, int(n, c_int64_t), &
                int(d, c_int64_t), a, int(n, c_int64_t), refusal), 'raw rows')
        counts%struct_size = c_sizeof(counts)
        call ok(dpcov_gram_get_info(bounded, counts), 'counts')
        rec%struct_size = c_sizeof(rec)
        call ok(dpcov_mechanism_release_gram(mechanisms(k), bounded, 0.5d0, 1d-6, defaults, rng, &
                DPCOV_COL_MAJOR, out, int(d, c_int64_t), rec), 'release from rows')
        call check(counts%numerics == expected(k) .and. rec%numerics == expected(k), &
                   'numerics of a release from rows')
        call dpcov_gram_destroy(bounded)
      end do
    end do
  end subroutine

  !> An exact accumulator's saved state imports to the same integers; a corrupted byte is refused.
  subroutine saved_state()
    type(dpcov_row_bounding) :: spec
    type(dpcov_row_refusal) :: refusal
    type(c_ptr) :: bounded = c_null_ptr, imported = c_null_ptr
    integer(c_int8_t), allocatable, target :: bytes(:)
    integer(c_size_t) :: size, written
    real(c_double) :: g1(d, d), g2(d, d)
    call ok(dpcov_row_bounding_default(spec), 'row bounding defaults')
    spec%mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS
    call ok(dpcov_gram_create_bounded(bounded, int(d, c_int64_t), spec), 'bounded exact')
    refusal%struct_size = c_sizeof(refusal)
    call ok(dpcov_gram_add_raw_rows(bounded, DPCOV_COL_MAJOR, int(n, c_int64_t), &
            int(d, c_int64_t), a, int(n, c_int64_t), refusal), 'raw rows')
    call ok(dpcov_gram_export_state(bounded, c_null_ptr, 0_c_size_t, size), 'state size')
    allocate(bytes(size))
    call ok(dpcov_gram_export_state(bounded, c_loc(bytes), size, written), 'export state')
    call ok(dpcov_gram_import_state(imported, bytes, written), 'import state')
    call ok(dpcov_gram_get_matrix(bounded, DPCOV_COL_MAJOR, g1, int(d, c_int64_t)), 'exported G')
    call ok(dpcov_gram_get_matrix(imported, DPCOV_COL_MAJOR, g2, int(d, c_int64_t)), 'imported G')
    call check(all(g1 == g2), 'imported state holds the same G')
    call dpcov_gram_destroy(imported)
    bytes(41) = ieor(bytes(41), 1_c_int8_t)
    call check(dpcov_gram_import_state(imported, bytes, written) == DPCOV_E_INVALID_ARGUMENT, &
               'corrupted state refused')
    call dpcov_gram_destroy(bounded)
  end subroutine

  !> The exact-density audits of Dong-Liang-Yi Gauss and (per step) CoinPress t = 3 find no violation.
  subroutine rows_exact()
    type(dpcov_rows_exact_audit_result) :: ex
    integer(c_int64_t) :: worst
    ex%struct_size = c_sizeof(ex)
    call ok(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1_c_int64_t, 0.5d0, 1d-6, &
                                   200_c_int64_t, 1d-6, 2_c_int64_t, ex), 'exact audit')
    call check(ex%verdict == DPCOV_AUDIT_NO_VIOLATION_FOUND .and. ex%samples == 400 .and. &
               ex%n == 1000 .and. ex%clamp_hits == 0, 'exact audit of dly_gauss')
    call ok(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_COINPRESS, 3_c_int64_t, 0.5d0, 1d-6, &
                                   100_c_int64_t, 1d-6, 2_c_int64_t, ex), 'exact audit of t = 3')
    call check(ex%verdict == DPCOV_AUDIT_NO_VIOLATION_FOUND .and. ex%samples == 200 .and. &
               ex%n == 2000 .and. ex%rho_lower > 0d0, 'exact per-step audit of coinpress t = 3')
    call ok(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1_c_int64_t, 0.5d0, 1d-6, &
                                         200_c_int64_t, 1d-6, 2_c_int64_t, 3_c_int64_t, ex, &
                                         worst), 'exact audit over pairs')
    call check(ex%verdict == DPCOV_AUDIT_NO_VIOLATION_FOUND .and. ex%samples == 1200 .and. &
               worst >= 0 .and. worst < 3, 'exact audit of dly_gauss over three pairs')
  end subroutine

  !> The exact audit of CoinPress mean estimation finds no violation at r = 5.
  subroutine mean_audit()
    type(dpcov_coinpress_mean_params) :: mp
    type(dpcov_coinpress_mean_audit_result) :: ma
    call ok(dpcov_coinpress_mean_params_default(mp), 'mean params for the audit')
    mp%radius = 5
    ma%struct_size = c_sizeof(ma)
    call ok(dpcov_audit_coinpress_mean(3_c_int64_t, 20_c_int64_t, mp, 300_c_int64_t, 1d-6, &
                                       2_c_int64_t, ma), 'coinpress_mean audit')
    call check(ma%verdict == DPCOV_AUDIT_NO_VIOLATION_FOUND .and. ma%samples == 600 .and. &
               ma%rho_lower > 0, 'coinpress_mean audit finds no violation')
  end subroutine

  !> The black-box audit of Dong-Liang-Yi Adaptive finds no violation; K < 1 for CoinPress fails.
  subroutine rows_black_box()
    type(dpcov_black_box_result) :: bb
    bb%struct_size = c_sizeof(bb)
    call ok(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 3_c_int64_t, 20_c_int64_t, &
                                       0.02d0, 1d-6, 1d0, DPCOV_BLACK_BOX_TOP_EIGENVALUE, &
                                       100_c_int64_t, 1d-6, 5_c_int64_t, bb), 'black-box audit')
    call check(bb%verdict == DPCOV_AUDIT_NO_VIOLATION_FOUND .and. bb%samples == 240, &
               'black-box audit of dly_adaptive')
    call check(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_COINPRESS, 3_c_int64_t, 20_c_int64_t, &
                                          0.02d0, 1d-6, 0.5d0, DPCOV_BLACK_BOX_TOP_EIGENVALUE, &
                                          100_c_int64_t, 1d-6, 5_c_int64_t, bb) == &
               DPCOV_E_INVALID_ARGUMENT, 'black-box audit refuses K < 1')
  end subroutine

  !> Guaranteed OLS intervals from an Analyze Gauss release of X'X = 1000 I, X'y = 1000 beta.
  subroutine guaranteed_intervals()
    real(c_double), target :: gx(d, d), rel(d, d), coef(d - 1), lo(d - 1), hi(d - 1), eta, kap
    real(c_double), parameter :: beta(d - 1) = [0.5d0, -0.5d0, 0.25d0]
    integer(c_int64_t), parameter :: features(d - 1) = [0_c_int64_t, 1_c_int64_t, 2_c_int64_t]
    type(dpcov_regression_params) :: rp
    type(dpcov_mechanism_params) :: mp
    type(dpcov_receipt) :: rec
    integer :: k
    gx = 0
    do k = 1, d - 1
      gx(k, k) = 1000
      gx(k, d) = 1000*beta(k)
      gx(d, k) = 1000*beta(k)
    end do
    gx(d, d) = 10 + 1000*sum(beta**2)
    call ok(dpcov_mechanism_params_default(mp), 'params for OLS')
    rec = dpcov_new_receipt()
    call ok(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, &
                                    int(d, c_int64_t), gx, int(d, c_int64_t), 100000_c_int64_t, &
                                    1d0, 1d0, 1d-6, mp, rng, rel, int(d, c_int64_t), rec), &
            'release for OLS')
    call ok(dpcov_regression_params_default(rp), 'regression params')
    call ok(dpcov_ols_analyze_gauss_intervals(DPCOV_COL_MAJOR, int(d, c_int64_t), rel, &
                                              int(d, c_int64_t), rec%sigma, 100000_c_int64_t, &
                                              3_c_int64_t, features, 3_c_int64_t, rp, coef, &
                                              c_loc(lo), c_loc(hi), c_null_ptr, c_null_ptr, &
                                              c_null_ptr, c_loc(eta), c_loc(kap)), &
            'guaranteed intervals')
    call check(kap > 0 .and. kap < 1 .and. eta > 0 .and. all(lo < coef) .and. all(coef < hi), &
               'guaranteed intervals bracket the estimate')
    call ok(dpcov_ols_bootstrap_intervals(DPCOV_COL_MAJOR, int(d, c_int64_t), rel, &
                                          int(d, c_int64_t), rec, 3_c_int64_t, features, &
                                          3_c_int64_t, rp, 999_c_int64_t, rng, coef, c_null_ptr, &
                                          c_null_ptr, c_loc(lo), c_loc(hi), c_loc(eta), c_loc(kap)), &
            'bootstrap intervals')
    call check(kap > 0 .and. kap < 1 .and. eta > 0 .and. all(lo < coef) .and. all(coef < hi), &
               'bootstrap intervals bracket the estimate')
    call ok(dpcov_pca_subspace_error_bound(DPCOV_COL_MAJOR, int(d, c_int64_t), rel, &
                                           int(d, c_int64_t), rec, 1_c_int64_t, 0.95d0, &
                                           50_c_int64_t, rng, c_loc(eta), c_null_ptr, kap, &
                                           c_null_ptr), 'subspace error bound')
    call check(kap >= 0 .and. kap <= 1 .and. eta > 0, 'subspace error bound in [0, 1]')
    call ok(dpcov_pca_centred_subspace_error_bound(DPCOV_COL_MAJOR, int(d, c_int64_t), rel, &
                                                   int(d, c_int64_t), rec, 3_c_int64_t, 1.0d0, &
                                                   100000_c_int64_t, 1_c_int64_t, 0.95d0, &
                                                   50_c_int64_t, rng, c_loc(eta), c_null_ptr, &
                                                   kap, c_null_ptr), 'centred subspace error bound')
    call check(kap >= 0 .and. kap <= 1 .and. eta > 0, 'centred subspace error bound in [0, 1]')
  end subroutine

  !> AdaSSP on X'X = 1000 I, X'y = 1000 beta at a large epsilon recovers beta; a bad bound fails;
  !> with y'y released, the noise-aware intervals contain beta.
  subroutine adassp_regression()
    real(c_double), target :: gx(d, d), coef(d - 1), xtx(d - 1, d - 1), xty(d - 1)
    real(c_double), target :: ols(d - 1), lower(d - 1), upper(d - 1)
    real(c_double), parameter :: beta(d - 1) = [0.5d0, -0.5d0, 0.25d0]
    integer(c_int64_t), parameter :: features(d - 1) = [0_c_int64_t, 1_c_int64_t, 2_c_int64_t]
    type(dpcov_adassp_params) :: ap
    type(dpcov_adassp_receipt) :: ar, pr
    type(c_ptr) :: zl = c_null_ptr
    integer :: k
    gx = 0
    do k = 1, d - 1
      gx(k, k) = 1000
      gx(k, d) = 1000*beta(k)
      gx(d, k) = 1000*beta(k)
    end do
    gx(d, d) = 600
    call ok(dpcov_adassp_params_default(ap), 'adassp params')
    call check(ap%rho == 0.05d0 .and. ap%calibration == DPCOV_ADASSP_JOINT_ANALYTIC, &
               'adassp defaults')
    ar%struct_size = c_sizeof(ar)
    call ok(dpcov_adassp_fit(DPCOV_COL_MAJOR, int(d, c_int64_t), gx, int(d, c_int64_t), &
                             3_c_int64_t, features, 3_c_int64_t, 1d0, 1d0, 1d6, 1d-6, ap, rng, &
                             coef, c_loc(xtx), 3_c_int64_t, c_null_ptr, ar), 'adassp fit')
    call check(all(abs(coef - beta) < 1d-3) .and. ar%delta_exact <= 1d-6 .and. &
               all(xtx == transpose(xtx)), 'adassp recovers beta')
    call check(dpcov_adassp_fit(DPCOV_COL_MAJOR, int(d, c_int64_t), gx, int(d, c_int64_t), &
                                3_c_int64_t, features, 3_c_int64_t, -1d0, 1d0, 1d0, 1d-6, ap, &
                                rng, coef, c_null_ptr, 3_c_int64_t, c_null_ptr, ar) &
               == DPCOV_E_INVALID_ARGUMENT, 'adassp refuses a negative bound')
    ap%release_label_square = 1
    call ok(dpcov_adassp_fit(DPCOV_COL_MAJOR, int(d, c_int64_t), gx, int(d, c_int64_t), &
                             3_c_int64_t, features, 3_c_int64_t, 1d0, 1d0, 1d6, 1d-6, ap, rng, &
                             coef, c_loc(xtx), 3_c_int64_t, c_loc(xty), ar), 'adassp fit with y''y')
    call ok(dpcov_adassp_bootstrap_intervals(DPCOV_COL_MAJOR, 3_c_int64_t, xtx, 3_c_int64_t, &
                                             xty, 1000_c_int64_t, ar, 0.95d0, 199_c_int64_t, &
                                             rng, ols, c_null_ptr, c_null_ptr, c_loc(lower), &
                                             c_loc(upper)), 'adassp intervals')
    call check(ar%label_square_released == 1 .and. all(abs(ols - beta) < 1d-3) .and. &
               all(lower < beta) .and. all(beta < upper), 'adassp intervals contain beta')
    ! The plan has the fit's zCDP rho before any data; a zCDP ledger charges it.
    pr%struct_size = c_sizeof(pr)
    call ok(dpcov_adassp_plan(3_c_int64_t, 1d0, 1d0, 1d6, 1d-6, ap, pr), 'adassp plan')
    call check(pr%rho == ar%rho .and. pr%rho > 0, 'adassp plan has the fit''s rho')
    call ok(dpcov_ledger_create(zl, DPCOV_ACCOUNTING_ZCDP, 1d0, 1d-5), 'zcdp ledger')
    call check(dpcov_ledger_check_zcdp(zl, pr%rho, pr%epsilon, pr%delta) &
               == DPCOV_E_PRECONDITION, 'zcdp ledger refuses a fit at epsilon 1e6')
    call ok(dpcov_ledger_charge_zcdp(zl, 1d-3, 0.5d0, 1d-6), 'zcdp ledger charge')
    call dpcov_ledger_destroy(zl)
  end subroutine

  !> The interfaces whose form the headers' NULLs, counts and receipts decide, called: output
  !> perturbation with NULL settings and info, the released covariance kept before its solve, a
  !> scalar count of truncated rows, and a receipt passed to the ledger and the prefix as itself.
  subroutine changed_interfaces()
    type(dpcov_mechanism_params) :: mp
    type(dpcov_receipt) :: rc
    type(dpcov_receipt_prefix) :: prefix
    type(c_ptr) :: local = c_null_ptr, lg = c_null_ptr
    real(c_double) :: gg(d, d), precision(d, d), kept(d, d), unit_rows(4, 2)
    real(c_double), parameter :: two_units(3, 2) = reshape([0.1d0, 0.2d0, 0.3d0, &
                                                            0.1d0, 0.2d0, 0.3d0], [3, 2])
    integer(c_int64_t) :: truncated
    gg = matmul(transpose(a), a)
    call ok(dpcov_mechanism_params_default(mp), 'changed: params')
    mp%audit_only_not_private = 1
    rc = dpcov_new_receipt()
    call ok(dpcov_rng_create_seeded(local, 3_c_int64_t, 0_c_int64_t), 'changed: rng')
    call ok(dpcov_private_glasso_release(DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART, DPCOV_COL_MAJOR, &
                                         int(d, c_int64_t), gg, int(d, c_int64_t), &
                                         int(n, c_int64_t), 1d0, 1d0, 0d0, mp, 0.1d0, &
                                         c_null_ptr, local, precision, int(d, c_int64_t), rc, &
                                         c_null_ptr), 'output perturbation with NULL settings')
    call check(rc%not_dp == 1 .and. all(precision == transpose(precision)), &
               'output perturbation released')
    call ok(dpcov_mechanism_params_default(mp), 'changed: params again')
    call ok(dpcov_private_glasso_covariance(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, &
                                            int(d, c_int64_t), gg, int(d, c_int64_t), &
                                            int(n, c_int64_t), 1d0, 1d0, 0d0, mp, local, kept, &
                                            int(d, c_int64_t), rc), 'kept covariance')
    call check(all(kept == transpose(kept)) .and. rc%glasso_rho == 0d0, 'kept covariance is S~')
    ! Two units of ids 0, 0, 1 with k = 1: one row of unit 0 is left out, a scalar count.
    call ok(dpcov_unit_rows_keep(local, 1_c_int64_t, DPCOV_COL_MAJOR, 3_c_int64_t, 2_c_int64_t, &
                                 two_units, 3_c_int64_t, [0_c_int64_t, 0_c_int64_t, 1_c_int64_t], &
                                 unit_rows, 2_c_int64_t, 4_c_int64_t, truncated), 'unit rows keep')
    call check(truncated == 1, 'one truncated row, a scalar')
    call dpcov_rng_destroy(local)
    call ok(dpcov_ledger_create(lg, DPCOV_ACCOUNTING_BASIC, 2d0, 1d-5), 'changed: ledger')
    call ok(dpcov_ledger_check_receipt(lg, rc), 'a receipt checked as itself')
    call ok(dpcov_ledger_charge_receipt(lg, rc), 'a receipt charged as itself')
    call dpcov_ledger_destroy(lg)
    prefix%struct_size = c_sizeof(prefix)
    call ok(dpcov_receipt_prefix_of(rc, prefix), 'the prefix of a receipt')
    call check(prefix%mechanism == DPCOV_MECHANISM_LAPLACE_SYM .and. prefix%epsilon == 1d0, &
               'the prefix reads the receipt')
  end subroutine

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(*), intent(in) :: what
    if (.not. condition) then
      print '(2a)', 'FAILED: ', what
      failures = failures + 1
    end if
  end subroutine

  subroutine ok(status, what)
    integer(c_int32_t), intent(in) :: status
    character(*), intent(in) :: what
    if (status /= DPCOV_OK) then
      print '(5a)', 'FAILED: ', what, ': ', dpcov_status_name(status), ' '//dpcov_last_error()
      failures = failures + 1
    end if
  end subroutine

  !> The CoinPress mean of column-major rows around (5, 0, 0, 0), from a public centre and with
  !> the origin (c_null_ptr); a negative prior radius is refused and leaves the mean untouched.
  subroutine coinpress_mean()
    type(dpcov_coinpress_mean_params) :: mp
    type(dpcov_coinpress_mean_receipt) :: mr
    real(c_double), target :: centre(d)
    real(c_double) :: rows(2000, d), mean(d), shares(2)
    integer :: k
    do j = 1, d
      do k = 1, 2000
        rows(k, j) = sin(0.37d0*real(k + 2000*j, c_double))
      end do
    end do
    rows(:, 1) = rows(:, 1) + 5d0
    centre = 1d0
    call ok(dpcov_coinpress_mean_params_default(mp), 'coinpress mean params')
    mp%radius = 20d0
    mr%struct_size = c_sizeof(mr)
    call ok(dpcov_coinpress_mean_release(DPCOV_COL_MAJOR, 2000_c_int64_t, int(d, c_int64_t), &
                                         rows, 2000_c_int64_t, c_loc(centre), mp, rng, mean, mr), &
            'coinpress mean release')
    call check(abs(mean(1) - 5d0) < 0.5d0 .and. mr%steps == 3 .and. mr%seed_fixed == 1, &
               'coinpress mean near the data''s')
    call ok(dpcov_coinpress_mean_release(DPCOV_COL_MAJOR, 2000_c_int64_t, int(d, c_int64_t), &
                                         rows, 2000_c_int64_t, c_null_ptr, mp, rng, mean, mr), &
            'coinpress mean from the origin')
    call ok(dpcov_coinpress_mean_plan(2000_c_int64_t, int(d, c_int64_t), mp, mr), &
            'coinpress mean plan')
    call check(mr%step_clip_radius(1) > mr%step_clip_radius(3), 'coinpress mean radii shrink')
    call ok(dpcov_coinpress_centring_split(0.5d0, shares(1), shares(2)), 'centring split')
    call check(shares(1) == 0.0625d0 .and. shares(2) == 0.4375d0, 'centring split values')
    mp%radius = -1d0
    mean = -7d0
    status = dpcov_coinpress_mean_release(DPCOV_COL_MAJOR, 2000_c_int64_t, int(d, c_int64_t), &
                                          rows, 2000_c_int64_t, c_null_ptr, mp, rng, mean, mr)
    call check(status == DPCOV_E_INVALID_ARGUMENT .and. all(mean == -7d0), &
               'coinpress mean refuses a negative radius')
  end subroutine
end program dpcov_test
