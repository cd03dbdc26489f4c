// Every mechanism's plan, release and log-density on fuzzed parameters and Gram matrices. Plan
// and release return the same status except where the release depends on the data or the draw;
// a successful release is finite and exactly symmetric; a failed one leaves its canary output
// and the generator unchanged; the same seed gives the same release. Also every struct
// initialiser (dpcov_X_init) on a fuzzed size.
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"

namespace {

// DPCOV_E_NORM_BOUND: a fuzzed Gram whose trace or an entry exceeds n B^2 cannot come from
// bounded rows.
bool data_dependent(dpcov_status s) {
  return s == DPCOV_E_REFUSED || s == DPCOV_E_PRECONDITION || s == DPCOV_E_NO_CONVERGENCE ||
         s == DPCOV_E_NOT_POSITIVE_DEFINITE || s == DPCOV_E_INVALID_ARGUMENT ||
         s == DPCOV_E_NON_FINITE || s == DPCOV_E_NORM_BOUND;
}

dpcov_status release(int32_t mechanism, int64_t d, const std::vector<double> &gram, int64_t n,
                     double bound, double eps, double delta, const dpcov_mechanism_params &p,
                     std::vector<double> &out, dpcov_receipt &receipt, uint64_t *next) {
  dpcov_rng *rng = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&rng, 11, 3) == DPCOV_OK, "rng");
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status s = dpcov_mechanism_release(mechanism, DPCOV_ROW_MAJOR, d, gram.data(), d, n,
                                                 bound, eps, delta, &p, rng, out.data(), d,
                                                 &receipt);
  fuzz::charged_if_drawn(s, before, rng, "mechanism release");
  fuzz::require(dpcov_rng_next_u64(rng, next) == DPCOV_OK, "next");
  dpcov_rng_destroy(&rng);
  return s;
}

// The registry at any index and id: an entry whose id, name and strings agree with
// dpcov_mechanism_name(), or a refusal that leaves the caller's entry untouched.
void registry_entry(int32_t index, int32_t id) {
  dpcov_mechanism_entry by_index{}, by_id{}, canary{};
  canary.struct_size = by_index.struct_size = by_id.struct_size = sizeof by_index;
  const dpcov_status si = dpcov_mechanism_info(index, &by_index);
  const dpcov_status sd = dpcov_mechanism_info_by_id(id, &by_id);
  fuzz::known_status(si);
  fuzz::known_status(sd);
  fuzz::require((si == DPCOV_OK) == (index >= 0 && index < dpcov_mechanism_count()),
                "registry index accepted outside [0, count) or refused inside it");
  if (si != DPCOV_OK)
    fuzz::require(std::memcmp(&by_index, &canary, sizeof canary) == 0, "entry written on error");
  if (sd != DPCOV_OK) {
    fuzz::require(std::memcmp(&by_id, &canary, sizeof canary) == 0, "entry written on error");
    fuzz::require(std::strcmp(dpcov_mechanism_name(id), "unknown") == 0, "named id refused");
    return;
  }
  fuzz::require(by_id.id == id && std::strcmp(by_id.name, dpcov_mechanism_name(id)) == 0 &&
                    std::strlen(by_id.theorem) < DPCOV_RECEIPT_THEOREM_SIZE,
                "registry entry disagrees with its id");
}

// An initialiser given any size: the struct is filled up to that size and never beyond, a size
// below the first shipped one or a NULL struct is refused with the buffer unchanged.
template <class T>
void initialise(fuzz::Input &in, dpcov_status (*init)(T *, size_t), const char *what) {
  fuzz::Result<T> r(in);
  r.check(init(r.get(), r.declared), what);
}

void initialisers(fuzz::Input &in) {
  switch (in.range(0, 8)) {
    case 0: initialise(in, dpcov_mechanism_params_init, "mechanism params"); break;
    case 1: initialise(in, dpcov_row_bounding_init, "row bounding"); break;
    case 2: initialise(in, dpcov_regression_params_init, "regression params"); break;
    case 3: initialise(in, dpcov_glasso_params_init, "glasso params"); break;
    case 4: initialise(in, dpcov_audit_params_init, "audit params"); break;
    case 5: initialise(in, dpcov_adassp_params_init, "adassp params"); break;
    case 6: initialise(in, dpcov_coinpress_params_init, "coinpress params"); break;
    case 7: initialise(in, dpcov_coinpress_mean_params_init, "coinpress mean params"); break;
    default: initialise(in, dpcov_dly_params_init, "dly params"); break;
  }
}

// A planned release's status and output: finite and exactly symmetric, or failed untouched.
void planned_output(dpcov_status status, const std::vector<double> &out, int64_t d,
                    const char *what) {
  fuzz::known_status(status);
  if (status == DPCOV_OK) {
    fuzz::symmetric(out.data(), d, d, what);
  } else {
    fuzz::unchanged(out, what);
  }
}

// The plan's release of the Gram matrix of one row of norm B (dpcov_plan_release_matrix): finite
// and exactly symmetric, or failed with its output untouched.
void planned_matrix_release(const dpcov_plan *plan, int64_t d, double bound) {
  std::vector<double> gram(static_cast<size_t>(d * d), 0.0);
  gram[0] = bound * bound;
  dpcov_rng *rng = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&rng, 11, 4) == DPCOV_OK, "rng");
  std::vector<double> out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  planned_output(dpcov_plan_release_matrix(plan, DPCOV_ROW_MAJOR, d, gram.data(), d, rng,
                                           out.data(), d, &r),
                 out, d, "planned matrix release");
  dpcov_rng_destroy(&rng);
}

// A plan kept by the library (dpcov/plan.h) at the fuzzed point: it fails with the one-shot
// plan's status (idealized numerics), its receipt and grid are finite, it moves to another bound,
// it releases a matrix (planned_matrix_release), and an accumulator made for it with one row of norm B releases finite and exactly symmetric, or
// fails with its output untouched.
void planned_release(int32_t mechanism, int32_t numerics, int64_t d, int64_t n, double bound, double eps,
             double delta, const dpcov_mechanism_params &p, dpcov_status idealized_plan,
             double other_bound) {
  dpcov_plan *plan = nullptr;
  const dpcov_status cs = dpcov_plan_create(&plan, mechanism, numerics, d, n, bound, eps, delta, &p);
  fuzz::known_status(cs);
  if (numerics == DPCOV_NUMERICS_IDEALIZED && (cs == DPCOV_OK) != (idealized_plan == DPCOV_OK))
    fuzz::violated("a plan handle and dpcov_mechanism_plan disagree");
  if (cs != DPCOV_OK) {
    fuzz::require(plan == nullptr, "plan written on error");
    return;
  }
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  fuzz::require(dpcov_plan_get_receipt(plan, &r) == DPCOV_OK, "plan receipt");
  fuzz::finite(&r.sigma, 1, "planned sigma");
  fuzz::finite(&r.scale, 1, "planned scale");
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  if (dpcov_plan_get_exact_grid(plan, &grid) == DPCOV_OK) fuzz::finite(&grid.unit, 1, "grid unit");
  dpcov_plan *moved = nullptr;
  fuzz::known_status(dpcov_plan_create_at_bound(&moved, plan, other_bound));
  dpcov_plan_destroy(&moved);
  planned_matrix_release(plan, d, bound);
  dpcov_row_bounding spec;
  fuzz::require(dpcov_row_bounding_default(&spec) == DPCOV_OK, "spec");
  spec.bound = bound;
  dpcov_gram *gram = nullptr;
  const dpcov_status gs = dpcov_gram_create_planned(&gram, d, &spec, plan);
  fuzz::known_status(gs);
  if (gs == DPCOV_OK) {
    std::vector<double> row(static_cast<size_t>(d), 0.0);
    row[0] = bound;
    fuzz::known_status(dpcov_gram_add_raw_rows(gram, DPCOV_ROW_MAJOR, 1, d, row.data(), d, nullptr));
    dpcov_rng *rng = nullptr;
    fuzz::require(dpcov_rng_create_seeded(&rng, 11, 3) == DPCOV_OK, "rng");
    std::vector<double> out = fuzz::canaries(static_cast<size_t>(d * d));
    planned_output(dpcov_plan_release_gram(plan, gram, rng, DPCOV_ROW_MAJOR, out.data(), d, &r),
                   out, d, "planned release");
    dpcov_rng_destroy(&rng);
    dpcov_gram_destroy(&gram);
  }
  dpcov_plan_destroy(&plan);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int32_t mechanism = static_cast<int32_t>(in.range(0, 14));
  const int64_t d = in.range(1, 4);
  const int64_t n = in.range(0, 3) == 0 ? in.range(-1, INT64_MAX) : in.range(1, 1000);
  const double bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  const double eps = in.range(0, 3) == 0 ? in.number() : in.positive();
  const double delta = in.range(0, 3) == 0 ? in.number() : std::fmod(in.positive(), 1.0);
  dpcov_mechanism_params p;
  fuzz::require(dpcov_mechanism_params_default(&p) == DPCOV_OK, "params");
  p.neighbour = static_cast<int32_t>(in.range(0, 1));
  p.calibration = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(-1, 9) : 0);
  p.lambda_min_bound = in.range(0, 1) ? in.positive() : 0.0;
  p.budget_split = static_cast<int32_t>(in.range(0, 2));
  p.projection_rows = in.range(0, 1) ? in.range(0, 40) : 0;
  p.audit_only_not_private = static_cast<int32_t>(in.range(0, 1));
  // A Gram matrix: usually exactly symmetric, sometimes anything.
  std::vector<double> gram(static_cast<size_t>(d * d));
  const bool any = in.range(0, 7) == 0;
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = i; j < d; ++j) {
      const double v = any ? in.number() : (i == j ? in.positive() : in.number());
      gram[static_cast<size_t>(i * d + j)] = v;
      gram[static_cast<size_t>(j * d + i)] = any ? in.number() : v;
    }

  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps = dpcov_mechanism_plan(mechanism, d, n, bound, eps, delta, &p, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) {
    fuzz::finite(&planned.sigma, 1, "plan sigma");
    fuzz::finite(&planned.scale, 1, "plan scale");
    fuzz::finite(&planned.sensitivity, 1, "plan sensitivity");
  }

  std::vector<double> out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt released{};
  released.struct_size = sizeof released;
  uint64_t next1 = 0, next2 = 0;
  const dpcov_status rs = release(mechanism, d, gram, n, bound, eps, delta, p, out, released, &next1);
  fuzz::known_status(rs);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("plan failed but release returned another status");
  if (ps == DPCOV_OK && rs != DPCOV_OK && !data_dependent(rs))
    fuzz::violated("plan OK, release failed with a data-independent status");
  if (rs == DPCOV_OK) {
    fuzz::symmetric(out.data(), d, d, "release");
    // Same seed, same release.
    std::vector<double> again = fuzz::canaries(static_cast<size_t>(d * d));
    dpcov_receipt r2{};
    r2.struct_size = sizeof r2;
    fuzz::require(release(mechanism, d, gram, n, bound, eps, delta, p, again, r2, &next2) ==
                      DPCOV_OK, "second release");
    fuzz::require(std::memcmp(again.data(), out.data(), out.size() * sizeof(double)) == 0,
                  "same seed gave a different release");
    fuzz::require(next1 == next2, "generator state differs after equal releases");
    double log_density = fuzz::kCanary;
    const dpcov_status ls =
        dpcov_mechanism_log_density(mechanism, DPCOV_ROW_MAJOR, d, out.data(), d, gram.data(), d,
                                    n, bound, eps, delta, &p, &log_density);
    fuzz::known_status(ls);
    if (ls == DPCOV_OK) fuzz::require(!std::isnan(log_density), "NaN log-density");
    else fuzz::require(log_density == fuzz::kCanary, "log-density written on error");
  } else {
    fuzz::unchanged(out, "release");
  }
  registry_entry(static_cast<int32_t>(in.range(-2, 40)), static_cast<int32_t>(in.range(-2, 40)));
  initialisers(in);
  const int32_t numerics = static_cast<int32_t>(in.range(-1, 2));
  const double other_bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  planned_release(mechanism, numerics, d, n, bound, eps, delta, p, ps, other_bound);
  return 0;
}
