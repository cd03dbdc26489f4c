// Samplers, log-densities and generator state restore on fuzzed parameters: on error the canary
// output and the generator are unchanged; on success every draw is finite; the same seed gives
// the same draws; any 80 bytes restore to a generator or are refused.
#include <vector>

#include "fuzz_input.hpp"

namespace {

uint64_t peek(dpcov_rng *rng) {
  // The next output, from a saved and restored copy: the generator itself does not move.
  unsigned char state[DPCOV_RNG_STATE_SIZE];
  fuzz::require(dpcov_rng_state_save(rng, state, sizeof state) == DPCOV_OK, "save");
  dpcov_rng *copy = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&copy, 0, 0) == DPCOV_OK, "rng");
  fuzz::require(dpcov_rng_state_restore(copy, state, sizeof state) == DPCOV_OK, "restore");
  uint64_t next = 0;
  fuzz::require(dpcov_rng_next_u64(copy, &next) == DPCOV_OK, "next");
  dpcov_rng_destroy(&copy);
  return next;
}

dpcov_status draw(int op, dpcov_rng *rng, double p1, int64_t n, std::vector<double> &out,
                  const std::vector<double> &m, int64_t d) {
  switch (op) {
    case 0: return dpcov_sample_uniform01(rng, n, out.data());
    case 1: return dpcov_sample_standard_normal(rng, n, out.data());
    case 2: return dpcov_sample_exponential(rng, n, out.data());
    case 3: return dpcov_sample_laplace(rng, p1, n, out.data());
    case 4: return dpcov_sample_gamma(rng, p1, n, out.data());
    case 5: return dpcov_sample_chi_square(rng, p1, n, out.data());
    case 6: return dpcov_sample_uniform_sphere(rng, d, n, DPCOV_ROW_MAJOR, out.data(), d);
    case 7: return dpcov_sample_wishart(rng, p1, DPCOV_ROW_MAJOR, d, m.data(), d, out.data(), d);
    case 8:
      return dpcov_sample_inverse_wishart(rng, p1, DPCOV_ROW_MAJOR, d, m.data(), d, out.data(), d);
    case 9: return dpcov_sample_acg(rng, DPCOV_ROW_MAJOR, d, m.data(), d, n, out.data(), d);
    case 10:
      return dpcov_sample_bingham(rng, DPCOV_ROW_MAJOR, d, m.data(), d, n, out.data(), d, nullptr);
    case 11:
      return dpcov_sample_symmetric_gaussian_noise(rng, p1, DPCOV_ROW_MAJOR, d, out.data(), d);
    default:
      return dpcov_sample_symmetric_laplace_noise(rng, p1, DPCOV_ROW_MAJOR, d, out.data(), d);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int op = static_cast<int>(in.range(0, 13));
  const double p1 = in.range(0, 3) == 0 ? in.number() : std::fmod(in.positive(), 1e6);
  const int64_t n = in.range(0, 3) == 0 ? in.range(-1, 6) : in.range(1, 6);
  const int64_t d = in.range(1, 4);
  std::vector<double> m(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = i; j < d; ++j)
      m[static_cast<size_t>(i * d + j)] = m[static_cast<size_t>(j * d + i)] =
          i == j ? 1.0 + std::fmod(in.positive(), 100.0) : std::fmod(in.number(), 0.1);
  if (op == 13) {  // state restore from arbitrary bytes
    unsigned char state[DPCOV_RNG_STATE_SIZE];
    for (unsigned char &b : state) b = in.raw<unsigned char>();
    dpcov_rng *rng = nullptr;
    fuzz::require(dpcov_rng_create_seeded(&rng, 1, 2) == DPCOV_OK, "rng");
    const uint64_t before = peek(rng);
    const dpcov_status s = dpcov_rng_state_restore(rng, state, sizeof state);
    fuzz::known_status(s);
    if (s != DPCOV_OK) fuzz::require(peek(rng) == before, "generator changed on refused restore");
    std::vector<double> u(4);
    fuzz::require(dpcov_sample_uniform01(rng, 4, u.data()) == DPCOV_OK, "draw after restore");
    for (double x : u) fuzz::require(x >= 0.0 && x <= 1.0, "uniform out of [0, 1]");
    dpcov_rng_destroy(&rng);
    return 0;
  }
  const size_t count = static_cast<size_t>(op >= 6 ? (n > 0 ? n : 1) * d * d : (n > 0 ? n : 1));
  std::vector<double> out = fuzz::canaries(count), again = fuzz::canaries(count);
  dpcov_rng *rng = nullptr, *twin = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&rng, 5, 6) == DPCOV_OK, "rng");
  fuzz::require(dpcov_rng_create_seeded(&twin, 5, 6) == DPCOV_OK, "rng");
  const uint64_t before = peek(rng);
  const dpcov_status s = draw(op, rng, p1, n, out, m, d);
  fuzz::known_status(s);
  if (s == DPCOV_OK) {
    for (double x : out)
      if (std::memcmp(&x, &fuzz::kCanary, sizeof x) != 0) fuzz::finite(&x, 1, "sample");
    fuzz::require(draw(op, twin, p1, n, again, m, d) == DPCOV_OK, "twin draw");
    fuzz::require(std::memcmp(out.data(), again.data(), count * sizeof(double)) == 0,
                  "same seed gave different draws");
  } else {
    fuzz::unchanged(out, "sampler");
    // Arguments are checked before the first draw; a numerical failure comes after draws, which
    // are consumed (noise once drawn is never drawn again).
    if (s != DPCOV_E_NUMERICAL) fuzz::require(peek(rng) == before, "generator moved on error");
  }
  dpcov_rng_destroy(&rng);
  dpcov_rng_destroy(&twin);
  return 0;
}
