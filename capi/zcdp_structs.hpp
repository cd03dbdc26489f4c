// Conversions between the C structs of the zCDP row mechanisms and the kernel's, shared by their
// in-memory entry points and their sessions (dpcov/row_passes.h).
#pragma once

#include "../core/mechanisms/coinpress.hpp"
#include "../core/mechanisms/coinpress_mean.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "dpcov/coinpress.h"
#include "dpcov/dong_liang_yi.h"

namespace dpcov::capi {

// The request of dpcov_dly_release(): the defaults for a null `params`, the bound's range checked.
mechanisms::DlyRequest dly_request(int64_t n, int64_t dim, const dpcov_dly_params *params);
dpcov_dly_receipt dly_c_receipt(const mechanisms::DlyReceipt &r, size_t struct_size);

// The request of dpcov_coinpress_release(); `params` is required.
mechanisms::CoinpressRequest coinpress_request(int64_t n, int64_t dim,
                                               const dpcov_coinpress_params *params);
dpcov_coinpress_receipt coinpress_c_receipt(const mechanisms::CoinpressReceipt &r,
                                            size_t struct_size);

// The request of dpcov_coinpress_mean_release() (defaults for a null `params`) and its receipt
// (generator and struct_size left to the caller).
mechanisms::CoinpressMeanRequest coinpress_mean_request(int64_t n, int64_t dim,
                                                        const dpcov_coinpress_mean_params *params);
dpcov_coinpress_mean_receipt coinpress_mean_c_receipt(const mechanisms::CoinpressMeanReceipt &r);

}  // namespace dpcov::capi
