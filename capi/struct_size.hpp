// Public structs begin with struct_size and only ever grow at the end (docs/abi-policy.md). A
// program compiled against an older header passes a smaller struct and must keep working with a
// newer library: an input struct is read up to its struct_size (later fields keep their
// defaults), an output struct is written up to its struct_size and never beyond.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "dpcov.h"

namespace dpcov::capi {

// The end of a struct's last field in the first ABI version that shipped it: the smallest
// struct_size the library accepts. Each names that field, so that appending a field later leaves
// the floor where older programs expect it.
template <class T>
inline constexpr size_t kFirstShippedSize = 0;
#define DPCOV_FIRST_SHIPPED(type, last) \
  template <>                           \
  inline constexpr size_t kFirstShippedSize<type> = offsetof(type, last) + sizeof(type::last)
DPCOV_FIRST_SHIPPED(dpcov_mechanism_params, posterior_dof);
DPCOV_FIRST_SHIPPED(dpcov_receipt, glasso_rho);
DPCOV_FIRST_SHIPPED(dpcov_receipt_prefix, theorem);
DPCOV_FIRST_SHIPPED(dpcov_gram_info, bound);
DPCOV_FIRST_SHIPPED(dpcov_row_bounding, label_bound);
DPCOV_FIRST_SHIPPED(dpcov_row_refusal, norm_rest);
DPCOV_FIRST_SHIPPED(dpcov_regression_params, level);
DPCOV_FIRST_SHIPPED(dpcov_regression_summary, rss_clamped);
DPCOV_FIRST_SHIPPED(dpcov_glasso_params, max_iter);
DPCOV_FIRST_SHIPPED(dpcov_glasso_info, start);
DPCOV_FIRST_SHIPPED(dpcov_support_recovery, recall);
DPCOV_FIRST_SHIPPED(dpcov_audit_params, neighbour_kind);
DPCOV_FIRST_SHIPPED(dpcov_audit_result, alpha_per_test);
DPCOV_FIRST_SHIPPED(dpcov_black_box_result, alpha_per_bound);
DPCOV_FIRST_SHIPPED(dpcov_coinpress_mean_audit_result, alpha_per_test);
DPCOV_FIRST_SHIPPED(dpcov_rows_exact_audit_result, alpha_per_test);
DPCOV_FIRST_SHIPPED(dpcov_ledger_spent, delta_cap);
DPCOV_FIRST_SHIPPED(dpcov_adassp_params, rho);
DPCOV_FIRST_SHIPPED(dpcov_adassp_receipt, released_label_square);
DPCOV_FIRST_SHIPPED(dpcov_coinpress_params, delta);
DPCOV_FIRST_SHIPPED(dpcov_coinpress_receipt, step_sigma);
DPCOV_FIRST_SHIPPED(dpcov_coinpress_mean_params, delta);
DPCOV_FIRST_SHIPPED(dpcov_coinpress_mean_receipt, step_sigma);
DPCOV_FIRST_SHIPPED(dpcov_dly_params, delta);
DPCOV_FIRST_SHIPPED(dpcov_dly_receipt, first_look_settled);
DPCOV_FIRST_SHIPPED(dpcov_exact_grid, noise_parameter);
DPCOV_FIRST_SHIPPED(dpcov_mechanism_entry, header);
DPCOV_FIRST_SHIPPED(dpcov_regression_forecast, intervals_expected);
DPCOV_FIRST_SHIPPED(dpcov_sandwich_budget, meat_row_bound);
DPCOV_FIRST_SHIPPED(dpcov_adassp_fit_request, small_n_posterior);
DPCOV_FIRST_SHIPPED(dpcov_adassp_fit_decision, robust_skipped);
#undef DPCOV_FIRST_SHIPPED

// The number of bytes of *s the library may read or write: min(struct_size, sizeof(T)).
// Throws DPCOV_E_NULL_POINTER for a null `s`, DPCOV_E_INVALID_ARGUMENT for a struct_size below
// the first shipped size (an unset struct_size, typically).
template <class T>
size_t struct_bytes(const T *s, const char *name) {
  static_assert(std::is_trivially_copyable_v<T> && kFirstShippedSize<T> > 0 &&
                kFirstShippedSize<T> <= sizeof(T));
  check::not_null(s, name);
  if (s->struct_size < kFirstShippedSize<T>)
    fail(dpcov::Status::InvalidArgument, name, "->struct_size must be set to sizeof the struct (",
         sizeof(T), "; at least ", kFirstShippedSize<T>, "), got ", s->struct_size);
  return std::min(s->struct_size, sizeof(T));
}

// The caller's input struct over `defaults`: the fields its struct_size covers are the caller's,
// the rest keep the defaults. The result's struct_size is sizeof(T).
template <class T>
T read_struct(const T *in, T defaults, const char *name) {
  std::memcpy(&defaults, in, struct_bytes(in, name));
  defaults.struct_size = sizeof(T);
  return defaults;
}

// Writes `defaults` into the caller's struct of `size` bytes (sizeof the struct as the caller
// compiled it, so an older, smaller struct is never overrun): min(size, sizeof(T)) bytes, with
// struct_size set to that count. Throws for a null `out` or a size below the first shipped size,
// before writing anything.
template <class T>
void init_struct(T *out, size_t size, T defaults, const char *name) {
  static_assert(std::is_trivially_copyable_v<T> && kFirstShippedSize<T> > 0);
  check::not_null(out, name);
  if (size < kFirstShippedSize<T>)
    fail(dpcov::Status::InvalidArgument, "size must be sizeof *", name, " (", sizeof(T),
         "; at least ", kFirstShippedSize<T>, "), got ", size);
  const size_t bytes = std::min(size, sizeof(T));
  defaults.struct_size = bytes;
  std::memcpy(out, &defaults, bytes);
}

// Writes `value` into the caller's output struct up to its struct_size (checked beforehand with
// struct_bytes()), keeping the caller's struct_size.
template <class T>
void write_struct(T *out, T value) {
  const size_t bytes = std::min(out->struct_size, sizeof(T));
  value.struct_size = out->struct_size;
  std::memcpy(out, &value, bytes);
}

}  // namespace dpcov::capi
