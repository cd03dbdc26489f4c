// Neighbouring datasets at the level of privacy units (core/data/unit_rows.hpp,
// proofs/unit_gram_sensitivity.md) for the exact-PMF audit of Analyze Gauss and symmetric
// Laplace with exact numerics: the integer Grams of two unit datasets as the unit accumulator
// forms them (ExactGramAccumulator::add_units() on the grid planned at the unit bound), and the
// same rows summed as if every row were its own unit on the row-level grid: the broken variant
// "rows bounded, units not", whose pair is k times (L1) or k^2 times (rho) beyond its claim.
#pragma once

#include <cstdint>
#include <vector>

#include "../data/unit_rows.hpp"
#include "../mechanisms/exact_additive.hpp"
#include "loss_audit.hpp"

namespace dpcov::audit {

// A dataset of units is a data::UnitBatch: rows (row-major, each of norm <= the row bound) and
// the end of each unit's rows, each unit at most k rows.
using UnitRows = data::UnitBatch;

// `data` with `other`'s units after its own.
UnitRows joined(const UnitRows &data, const UnitRows &other);

// The Gram matrix of the dataset's rows in floating point (what the idealized accumulator sums).
Matrix float_gram(const UnitRows &data);

// `k` rows, each `bound` times the unit vector along `direction` (d entries, not all 0): the
// unit whose Gram contribution k B^2 v v^T has the largest trace, in one direction.
UnitRows aligned_unit(int64_t k, double bound, const std::vector<double> &direction);

// The pair's integer Grams as the unit accumulator holds them: `unit_request` at the unit bound
// (its grid `grid`), each unit added whole by add_units().
PairStatistics exact_unit_pair_statistics(const mechanisms::Request &unit_request,
                                          const mechanisms::ExactGrid &grid, const UnitRows &data,
                                          const UnitRows &data_prime);

// The pair's integer Grams with every row its own unit, rounded as the row-level release rounds
// rows (mechanisms::rounded_gram() at `row_request`'s grid `grid`): the broken variant.
PairStatistics exact_row_pair_statistics(const mechanisms::Request &row_request,
                                         const mechanisms::ExactGrid &grid, const UnitRows &data,
                                         const UnitRows &data_prime);

}  // namespace dpcov::audit
