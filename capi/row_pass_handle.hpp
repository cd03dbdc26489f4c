// The definitions behind the opaque handles of dpcov/row_passes.h.
#pragma once

#include <memory>

#include "../core/mechanisms/coinpress.hpp"
#include "../core/mechanisms/coinpress_mean.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/mechanisms/row_pass.hpp"
#include "../core/random/rng.hpp"
#include "dpcov/row_passes.h"

// The session owns its generator; the drivers keep a pointer to it, so a session is never moved
// (it lives behind the handle's pointer).
struct dpcov_row_session {
  explicit dpcov_row_session(dpcov::random::Rng generator) : rng(std::move(generator)) {}
  dpcov_row_session(const dpcov_row_session &) = delete;
  dpcov_row_session &operator=(const dpcov_row_session &) = delete;

  dpcov::random::Rng rng;
  int64_t n = 0;  // the public number of rows every pass sums
  std::unique_ptr<dpcov::mechanisms::DlyPasses> dly;
  std::unique_ptr<dpcov::mechanisms::CoinpressPasses> coinpress;
  dpcov::mechanisms::CoinpressReceipt coinpress_receipt;
  std::unique_ptr<dpcov::mechanisms::CoinpressMeanPasses> coinpress_mean;
  dpcov::mechanisms::CoinpressMeanReceipt coinpress_mean_receipt;
  // Set when a pass failed after drawing: the noise is spent and the session can only be freed.
  bool failed = false;
  // Set when a centred CoinPress session took over this (done) mean session's generator: a second
  // one would draw the same noise again.
  bool generator_handed_on = false;
};

struct dpcov_row_partial {
  dpcov::mechanisms::RowPartial partial;
};
