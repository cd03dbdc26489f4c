// C ABI of the random generator (dpcov/rng.h).
#include "dpcov/rng.h"

#include "../core/check.hpp"
#include "guard.hpp"
#include "rng_handle.hpp"

using dpcov::random::Rng;

static_assert(Rng::kStateBytes == DPCOV_RNG_STATE_SIZE, "saved state size is part of the ABI");

extern "C" {

DPCOV_API dpcov_status dpcov_rng_create_from_entropy(dpcov_rng **out) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    *out = new dpcov_rng{Rng::from_entropy()};
  });
}

DPCOV_API dpcov_status dpcov_rng_create_seeded(dpcov_rng **out, uint64_t seed, uint64_t stream) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    *out = new dpcov_rng{Rng::from_seed(seed, stream)};
  });
}

DPCOV_API void dpcov_rng_destroy(dpcov_rng **rng) {
  if (rng == nullptr) return;
  delete *rng;
  *rng = nullptr;
}

DPCOV_API dpcov_status dpcov_rng_substream(dpcov_rng **out, const dpcov_rng *parent,
                                           uint64_t index) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(parent, "parent");
    *out = new dpcov_rng{parent->rng.substream(index)};
  });
}

DPCOV_API dpcov_status dpcov_rng_next_u64(dpcov_rng *rng, uint64_t *out) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(out, "out");
    *out = rng->rng.next_u64();
  });
}

DPCOV_API dpcov_status dpcov_rng_seed_fixed(const dpcov_rng *rng, int32_t *out) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(out, "out");
    *out = rng->rng.seed_fixed() ? 1 : 0;
  });
}

DPCOV_API size_t dpcov_rng_state_size(void) { return Rng::kStateBytes; }

DPCOV_API dpcov_status dpcov_rng_state_save(const dpcov_rng *rng, void *out, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(out, "out");
    if (size < Rng::kStateBytes)
      dpcov::fail(dpcov::Status::BufferTooSmall, "state buffer must hold ", Rng::kStateBytes,
                  " bytes, got ", size);
    dpcov::check::extent_bytes(out, static_cast<int64_t>(Rng::kStateBytes), 1, "out");
    rng->rng.save_state(static_cast<unsigned char *>(out));
  });
}

DPCOV_API dpcov_status dpcov_rng_state_restore(dpcov_rng *rng, const void *state, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(state, "state");
    if (size != Rng::kStateBytes)
      dpcov::fail(size < Rng::kStateBytes ? dpcov::Status::BufferTooSmall
                                          : dpcov::Status::InvalidArgument,
                  "a saved generator state is ", Rng::kStateBytes, " bytes, got ", size);
    dpcov::check::extent_bytes(state, static_cast<int64_t>(Rng::kStateBytes), 1, "state");
    rng->rng = Rng::restore_state(static_cast<const unsigned char *>(state));
  });
}

}  // extern "C"
