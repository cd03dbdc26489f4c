// Release time of Analyze Gauss and symmetric Laplace in both numerics, from the same n x d rows
// (n = 5000, bound B = 1), with the ChaCha20 generator (the default). The rows are typical rows:
// standard Gaussian rows scaled by the 95th percentile of their norms, so that their norms spread
// over (0, B] with 5% above B, clipped to the bound (rows all at norm B would each take the slow
// exact check of rows at the bound, which real rows mostly skip):
//  - idealized: the floating-point Gram (dsyrk) then continuous noise (mechanisms::release);
//    BM_IdealizedBounded bounds the rows first, as every release from rows does;
//  - exact: rows rounded to the grid, the exact integer Gram (on integer-valued doubles: the panel
//    kernel, with the rounding in its packed panels, above 16 columns on AVX-512F, else dsyrk),
//    then discrete Gaussian / discrete Laplace noise (mechanisms::release_exact_additive).
// Run: build/bench/bench_exact. The exact path is the CLI default only if it costs <= 3x the
// idealized one at d = 1000 (proofs/exact_additive.md).
// BM_IdealizedStream and BM_ExactStream time `dpcov release` from 2^20 rows of d = 50 without
// the parsing: row-major chunks of 65536 rows (the CLI's) through the accumulator each numerics
// streams into (data::GramAccumulator, data::ExactGramAccumulator), then the release; the 16
// chunks are one block of rows fed again, so the rows take 26 MB rather than 420.
// BM_IdealizedOnly times every other mechanism (they have idealized numerics only) the same way:
// the Gram of the same rows, then mechanisms::release with the options the standard audit uses
// (r = m = 2d for the projection and posterior mechanisms, rho = 0.1 for the graphical lasso,
// theta^2 half the Marchenko-Pastur edge n/d (1 - sqrt(d/n))^2 for inverse Gauss); IEV and KT
// release all d eigenvectors, one timed iteration at d = 1000.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/data/exact_gram.hpp"
#include "../core/data/gram.hpp"
#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/error.hpp"
#include "../core/random/samplers.hpp"

namespace {

using dpcov::Matrix;
using dpcov::mechanisms::MechanismId;

constexpr int64_t kRows = 5000;

// n x d standard Gaussian rows divided by the 95th percentile of their norms: 5% of them (to
// within ties) have norm above 1 = B.
Matrix typical_rows(int64_t n, int64_t d) {
  dpcov::random::Rng rng = dpcov::random::Rng::from_seed(1);
  Matrix rows(n, d);
  std::vector<double> norms(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      rows(r, j) = dpcov::random::standard_normal(rng);
      norm2 += rows(r, j) * rows(r, j);
    }
    norms[static_cast<size_t>(r)] = std::sqrt(norm2);
  }
  const auto q95 = norms.begin() + (n * 95) / 100;
  std::nth_element(norms.begin(), q95, norms.end());
  const double scale = 1.0 / *q95;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < d; ++j) rows(r, j) *= scale;
  return rows;
}

dpcov::mechanisms::Request request(MechanismId m, int64_t d) {
  dpcov::mechanisms::Request r;
  r.dim = d;
  r.n = kRows;
  r.bound = 1.0;
  r.epsilon = 1.0;
  r.delta = m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0;
  return r;
}

// Argument 0: the dimension d; argument 1: 0 Analyze Gauss, 1 symmetric Laplace.
MechanismId mechanism_of(const benchmark::State &state) {
  return state.range(1) == 0 ? MechanismId::AnalyzeGauss : MechanismId::LaplaceSym;
}

// The idealized Gram matrix of `rows`: dsyrk alone, or (bound_rows) through GramAccumulator with
// clipping at B = 1, as a release from rows bounds them.
Matrix idealized_gram(const Matrix &rows, bool bound_rows) {
  const int64_t d = rows.cols();
  if (bound_rows) {
    dpcov::GramAccumulator acc(d);
    acc.add_rows(rows.view(), 1.0, dpcov::BoundPolicy::Clip);
    return acc.matrix();
  }
  Matrix g(d, d);
  dpcov::linalg::syrk_upper(rows.view(), 0.0, g.data(), d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = j + 1; i < d; ++i) g(i, j) = g(j, i);
  return g;
}

void idealized(benchmark::State &state, bool bound_rows) {
  const int64_t d = state.range(0);
  const MechanismId m = mechanism_of(state);
  const Matrix rows = typical_rows(kRows, d);
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  for (auto _ : state) {
    const Matrix g = idealized_gram(rows, bound_rows);
    benchmark::DoNotOptimize(dpcov::mechanisms::release(m, g.view(), request(m, d), rng).matrix.data());
  }
}

void BM_Idealized(benchmark::State &state) { idealized(state, false); }
void BM_IdealizedBounded(benchmark::State &state) { idealized(state, true); }

void BM_Exact(benchmark::State &state) {
  const int64_t d = state.range(0);
  const MechanismId m = mechanism_of(state);
  const Matrix rows = typical_rows(kRows, d);
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  for (auto _ : state)
    benchmark::DoNotOptimize(
        dpcov::mechanisms::release_exact_additive(m, rows.view(), request(m, d), rng).matrix.data());
}

constexpr int64_t kChunkRows = 65536;
constexpr int64_t kStreamChunks = 16;

// One chunk of typical rows, row-major as the CLI's readers hand them over.
std::vector<double> row_major_chunk(int64_t d) {
  const Matrix rows = typical_rows(kChunkRows, d);
  std::vector<double> out(static_cast<size_t>(kChunkRows * d));
  for (int64_t r = 0; r < kChunkRows; ++r)
    for (int64_t j = 0; j < d; ++j) out[static_cast<size_t>(r * d + j)] = rows(r, j);
  return out;
}

// Arguments as BM_Idealized's, and a third: the number of rows (kChunkRows kStreamChunks).
// Times `release_from(m, chunk, request, rng)`, which feeds the chunk kStreamChunks times to an
// accumulator and releases from it.
template <class ReleaseFrom>
void stream(benchmark::State &state, ReleaseFrom release_from) {
  const int64_t d = state.range(0);
  const MechanismId m = mechanism_of(state);
  const std::vector<double> chunk = row_major_chunk(d);
  const dpcov::ConstMatrixView view{chunk.data(), kChunkRows, d, d, dpcov::Layout::RowMajor};
  dpcov::mechanisms::Request r = request(m, d);
  r.n = kChunkRows * kStreamChunks;
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  for (auto _ : state) benchmark::DoNotOptimize(release_from(m, view, r, rng).matrix.data());
}

void BM_IdealizedStream(benchmark::State &state) {
  stream(state, [](MechanismId m, dpcov::ConstMatrixView view,
                   const dpcov::mechanisms::Request &r, dpcov::random::Rng &rng) {
    dpcov::GramAccumulator acc(view.cols);
    for (int64_t k = 0; k < kStreamChunks; ++k) acc.add_rows(view, 1.0, dpcov::BoundPolicy::Clip);
    const Matrix g = acc.matrix();
    return dpcov::mechanisms::release(m, g.view(), r, rng);
  });
}

void BM_ExactStream(benchmark::State &state) {
  stream(state, [](MechanismId m, dpcov::ConstMatrixView view,
                   const dpcov::mechanisms::Request &r, dpcov::random::Rng &rng) {
    dpcov::mechanisms::ExactGrid grid;
    dpcov::mechanisms::plan_exact_additive(m, r, &grid);
    dpcov::data::ExactGramAccumulator acc(dpcov::mechanisms::grid_spec(r, grid),
                                          dpcov::BoundPolicy::Clip);
    for (int64_t k = 0; k < kStreamChunks; ++k) acc.add_rows(view);
    return dpcov::mechanisms::release_exact_gram(m, acc, r, rng);
  });
}

// Argument 0: d; argument 1: the mechanism's C id.
void BM_IdealizedOnly(benchmark::State &state) {
  const int64_t d = state.range(0);
  const auto m = static_cast<MechanismId>(state.range(1));
  const Matrix rows = typical_rows(kRows, d);
  dpcov::mechanisms::Request r = request(m, d);
  const bool pure = m == MechanismId::Iev || m == MechanismId::KtRank1 ||
                    m == MechanismId::WishartJiang || m == MechanismId::GlassoOutputWishart;
  r.delta = pure ? 0.0 : 1e-6;
  if (m == MechanismId::WishartAdditive) r.epsilon = 0.5;  // Sheffet's Thm 4.1 needs eps < 1
  r.options.audit_only_not_private =
      m == MechanismId::WishartJiang || m == MechanismId::GlassoOutputWishart;
  if (m == MechanismId::GlassoOutputWishart) r.options.glasso_rho = 0.1;
  if (m == MechanismId::JlRidge || m == MechanismId::JlRidgeSigmaMin || m == MechanismId::OlsJl)
    r.options.projection_rows = 2 * d;
  if (m == MechanismId::InverseWishart || m == MechanismId::InverseWishartSigmaMin)
    r.options.posterior_dof = 2 * d;
  if (m == MechanismId::InverseGauss) {
    const double ratio = static_cast<double>(d) / static_cast<double>(kRows);
    r.options.lambda_min_bound = 0.5 / ratio * (1.0 - std::sqrt(ratio)) * (1.0 - std::sqrt(ratio));
  }
  dpcov::random::Rng rng = dpcov::random::Rng::from_entropy();
  state.SetLabel(dpcov::mechanisms::mechanism_name(m));
  for (auto _ : state) {
    try {
      Matrix g(d, d);  // the Gram is timed too, as in BM_Idealized
      dpcov::linalg::syrk_upper(rows.view(), 0.0, g.data(), d);
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = j + 1; i < d; ++i) g(i, j) = g(j, i);
      benchmark::DoNotOptimize(dpcov::mechanisms::release(m, g.view(), r, rng).matrix.data());
    } catch (const dpcov::Error &e) {
      if (e.status() != dpcov::Status::Refused) {
        state.SkipWithError(e.what());
        break;
      }
    }
  }
}

void OtherMechanisms(benchmark::internal::Benchmark *b) {
  b->ArgNames({"d", "mechanism"})->Unit(benchmark::kMillisecond);
  for (const MechanismId m :
       {MechanismId::WishartAdditive, MechanismId::InverseGauss, MechanismId::WishartJiang,
        MechanismId::Iev, MechanismId::KtRank1, MechanismId::JlRidge, MechanismId::JlRidgeSigmaMin,
        MechanismId::InverseWishart, MechanismId::InverseWishartSigmaMin, MechanismId::OlsJl,
        MechanismId::GlassoOutputWishart})
    for (const int64_t d : {10, 100, 1000})
      if (d < 1000 || (m != MechanismId::Iev && m != MechanismId::KtRank1))
        b->Args({d, static_cast<int64_t>(m)});
}

BENCHMARK(BM_Idealized)->ArgNames({"d", "laplace"})->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IdealizedBounded)->ArgNames({"d", "laplace"})->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Exact)->ArgNames({"d", "laplace"})->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IdealizedStream)->ArgNames({"d", "laplace", "rows"})
    ->Args({50, 0, kChunkRows * kStreamChunks})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactStream)->ArgNames({"d", "laplace", "rows"})
    ->Args({50, 0, kChunkRows * kStreamChunks})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IdealizedOnly)->Apply(OtherMechanisms);
// IEV and KT at d = 1000: one release (each releases all 1000 eigenvectors).
BENCHMARK(BM_IdealizedOnly)->ArgNames({"d", "mechanism"})->Unit(benchmark::kMillisecond)
    ->Args({1000, static_cast<int64_t>(MechanismId::Iev)})
    ->Args({1000, static_cast<int64_t>(MechanismId::KtRank1)})->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
