// The sketch accumulator (create, add rows, merge, saved state, get, release) and the release from
// a Gram accumulator, on fuzzed shapes, values, bounds and budgets. On error the canary outputs
// are unchanged; on success they are finite (and the d x d release exactly symmetric); the same
// seed gives the same release.
#include <algorithm>
#include <vector>

#include "fuzz_input.hpp"

namespace {

dpcov_rng *seeded() {
  dpcov_rng *rng = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&rng, 5, 2) == DPCOV_OK, "rng");
  return rng;
}

// Releases through the sketch (jl) or through the Gram accumulator; the status, the output and
// the generator's next word.
dpcov_status release(bool jl, int32_t mechanism, const dpcov_sketch *sk, const dpcov_gram *g,
                     double eps, double delta, const dpcov_mechanism_params &p, int64_t d,
                     std::vector<double> &sketch_out, std::vector<double> &out, uint64_t *next) {
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const dpcov_status s =
      jl ? dpcov_sketch_release(mechanism, sk, eps, delta, &p, rng, DPCOV_ROW_MAJOR,
                                sketch_out.empty() ? nullptr : sketch_out.data(), d, out.data(),
                                d, &receipt)
         : dpcov_mechanism_release_gram(mechanism, g, eps, delta, &p, rng, DPCOV_COL_MAJOR,
                                        out.data(), d, &receipt);
  fuzz::charged_if_drawn(s, before, rng, jl ? "sketch release" : "release from a Gram accumulator");
  fuzz::require(dpcov_rng_next_u64(rng, next) == DPCOV_OK, "next");
  dpcov_rng_destroy(&rng);
  if (s == DPCOV_OK) {
    fuzz::finite(&receipt.sigma, 1, "receipt sigma");
    fuzz::finite(&receipt.scale, 1, "receipt scale");
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int64_t d = in.range(1, 4);
  const int64_t r = in.range(0, 3) == 0 ? in.range(-1, 1 << 16) : in.range(1, 8);
  const int64_t rows = in.range(0, 6);
  const double bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  const int32_t policy = static_cast<int32_t>(in.range(0, 4) == 0 ? in.range(-1, 3) : 0);
  std::vector<double> a(static_cast<size_t>(rows * d) + 1);
  for (double &v : a) v = in.number();

  dpcov_rng *key = seeded();
  const std::vector<unsigned char> key_before = fuzz::rng_state(key);
  dpcov_sketch *sk = nullptr;
  const dpcov_status cs = dpcov_sketch_create(&sk, d, r, key);
  fuzz::known_status(cs);
  dpcov_gram *g = nullptr;
  fuzz::require(dpcov_gram_create(&g, d) == DPCOV_OK, "gram");
  if (cs != DPCOV_OK) {
    fuzz::require(sk == nullptr, "handle set on error");
    fuzz::require(fuzz::rng_state(key) == key_before, "a refused sketch drew from the generator");
  } else {
    // The sketch's key is drawn from the generator: a second sketch has other weights.
    fuzz::require(fuzz::rng_state(key) != key_before, "a sketch's key was not drawn");
    dpcov_sketch *partial = nullptr;
    fuzz::require(dpcov_sketch_create_partial(&partial, sk) == DPCOV_OK, "sketch_create_partial");
    const dpcov_status as =
        dpcov_sketch_add_rows(sk, DPCOV_ROW_MAJOR, rows, d, a.data(), d, 0, bound, policy);
    fuzz::known_status(as);
    const dpcov_status gs = dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, rows, d, a.data(), d, bound,
                                                policy);
    if (as != gs) {
      char detail[64];
      std::snprintf(detail, sizeof detail, "(sketch %d, Gram %d)", as, gs);
      fuzz::violated("sketch and Gram accumulators disagree on the same rows", detail);
    }
    // An empty partial sketch shares the weights: it merges in, or is refused cleanly.
    fuzz::known_status(dpcov_sketch_merge(sk, partial));
    dpcov_sketch_destroy(&partial);

    // The accumulated sketch and its Gram matrix are finite.
    const double w = in.range(0, 3) == 0 ? in.number() : 0.0;
    std::vector<double> s_out = fuzz::canaries(static_cast<size_t>(r * d));
    const dpcov_status ss = dpcov_sketch_get(sk, w, DPCOV_ROW_MAJOR, s_out.data(), d);
    fuzz::known_status(ss);
    if (ss == DPCOV_OK) fuzz::finite(s_out.data(), s_out.size(), "sketch_get");
    else fuzz::unchanged(s_out, "sketch_get");
    std::vector<double> gram = fuzz::canaries(static_cast<size_t>(d * d));
    fuzz::require(dpcov_sketch_get_gram(sk, DPCOV_ROW_MAJOR, gram.data(), d) == DPCOV_OK,
                  "sketch_get_gram");
    fuzz::symmetric(gram.data(), d, d, "sketch_get_gram");

    // Saved state: the data sketch (w = 0) and the Gram state back into a new sketch, merged.
    if (ss == DPCOV_OK && as == DPCOV_OK && rows > 0) {
      // The buffer holds what the declared r2 x d shape addresses (the caller's part).
      const int64_t r2 = in.range(0, 3) == 0 ? in.range(-1, 9) : r;
      std::vector<double> data_sketch(static_cast<size_t>(std::max(r, r2) * d));
      fuzz::require(dpcov_sketch_get(sk, 0.0, DPCOV_ROW_MAJOR, data_sketch.data(), d) == DPCOV_OK,
                    "sketch_get w = 0");
      if (in.range(0, 3) == 0) data_sketch[0] = in.number();
      dpcov_sketch *restored = nullptr;
      const dpcov_status rs = dpcov_sketch_create_from_state(&restored, key, r2, g, DPCOV_ROW_MAJOR,
                                                             data_sketch.data(), d);
      fuzz::known_status(rs);
      if (rs == DPCOV_OK) {
        fuzz::known_status(dpcov_sketch_merge(restored, sk));
        dpcov_gram_info info{};
        info.struct_size = sizeof info;
        fuzz::require(dpcov_sketch_get_info(restored, &info) == DPCOV_OK, "sketch_get_info");
        fuzz::require(info.dim == d && info.rows >= 0, "sketch info");
      } else {
        fuzz::require(restored == nullptr, "handle set on error");
      }
      dpcov_sketch_destroy(&restored);
    }
  }

  // A release through the sketch (JL mechanisms) or the Gram accumulator (any mechanism).
  const bool jl = sk != nullptr && in.range(0, 1);
  static const int32_t jl_ids[] = {DPCOV_MECHANISM_JL_RIDGE, DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN,
                                   DPCOV_MECHANISM_OLS_JL};
  const int32_t mechanism =
      jl ? jl_ids[in.range(0, 2)] : static_cast<int32_t>(in.range(0, 14));
  const double eps = in.range(0, 3) == 0 ? in.number() : in.positive();
  const double delta = in.range(0, 3) == 0 ? in.number() : std::fmod(in.positive(), 1.0);
  dpcov_mechanism_params p;
  fuzz::require(dpcov_mechanism_params_default(&p) == DPCOV_OK, "params");
  p.neighbour = static_cast<int32_t>(in.range(0, 1));
  p.projection_rows = jl ? (in.range(0, 7) == 0 ? in.range(0, 9) : r) : (in.range(0, 1) ? r : 0);
  p.audit_only_not_private = static_cast<int32_t>(in.range(0, 1));
  // The released sketch only when it is small (NULL is allowed).
  const size_t sketch_size = static_cast<size_t>(r > 0 && r < 64 ? r * d : 0);
  std::vector<double> sketch_out = fuzz::canaries(sketch_size), out = fuzz::canaries(static_cast<size_t>(d * d));
  uint64_t next1 = 0, next2 = 0;
  const dpcov_status s = release(jl, mechanism, sk, g, eps, delta, p, d, sketch_out, out, &next1);
  fuzz::known_status(s);
  if (s == DPCOV_OK) {
    fuzz::symmetric(out.data(), d, d, "release");
    if (jl) fuzz::finite(sketch_out.data(), sketch_out.size(), "released sketch");
    std::vector<double> sketch_again = fuzz::canaries(sketch_size),
                        again = fuzz::canaries(static_cast<size_t>(d * d));
    fuzz::require(release(jl, mechanism, sk, g, eps, delta, p, d, sketch_again, again, &next2) ==
                      DPCOV_OK, "second release");
    fuzz::require(again == out && sketch_again == sketch_out && next1 == next2,
                  "same seed gave a different release");
  } else {
    fuzz::unchanged(out, "release");
    fuzz::unchanged(sketch_out, "released sketch");
  }
  dpcov_sketch_destroy(&sk);
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&key);
  return 0;
}
