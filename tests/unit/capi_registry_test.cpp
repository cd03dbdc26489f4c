// The mechanism registry through the shared library: every id of dpcov_mechanism_id exactly once,
// unique names, proof files that exist, theorem strings that fit a receipt and equal what each
// mechanism's receipts carry; the Gram entry points refuse the ids of the other families; every
// bad argument leaves the caller's entry untouched and says why.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

// Every enumerator of dpcov_mechanism_id, written out: a new id must be added here and to the
// registry, and the test fails until both agree.
const int32_t kEveryId[] = {
    DPCOV_MECHANISM_ANALYZE_GAUSS,      DPCOV_MECHANISM_LAPLACE_SYM,
    DPCOV_MECHANISM_WISHART_ADDITIVE,   DPCOV_MECHANISM_INVERSE_GAUSS,
    DPCOV_MECHANISM_WISHART_JIANG,      DPCOV_MECHANISM_IEV,
    DPCOV_MECHANISM_KT_RANK1,           DPCOV_MECHANISM_JL_RIDGE,
    DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, DPCOV_MECHANISM_INVERSE_WISHART,
    DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN, DPCOV_MECHANISM_OLS_JL,
    DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART, DPCOV_MECHANISM_ADASSP,
    DPCOV_MECHANISM_DLY,                DPCOV_MECHANISM_COINPRESS,
    DPCOV_MECHANISM_COINPRESS_MEAN,     DPCOV_MECHANISM_PRIVATE_BOUND};

const int32_t kNotGram[] = {DPCOV_MECHANISM_ADASSP, DPCOV_MECHANISM_DLY,
                            DPCOV_MECHANISM_COINPRESS, DPCOV_MECHANISM_COINPRESS_MEAN,
                            DPCOV_MECHANISM_PRIVATE_BOUND};

dpcov_mechanism_entry fresh_entry() {
  dpcov_mechanism_entry e;
  std::memset(&e, 0xAB, sizeof e);
  e.struct_size = sizeof e;
  return e;
}

std::vector<dpcov_mechanism_entry> every_entry() {
  std::vector<dpcov_mechanism_entry> entries;
  for (int32_t i = 0; i < dpcov_mechanism_count(); ++i) {
    dpcov_mechanism_entry e = fresh_entry();
    EXPECT_EQ(dpcov_mechanism_info(i, &e), DPCOV_OK) << dpcov_last_error_message();
    entries.push_back(e);
  }
  return entries;
}

// The mechanism-specific options of dpcov_mechanism_params, each with a non-default value that
// the plan of every mechanism reading it takes at d = 3: the registry's options bits say which.
struct OptionValue {
  int32_t bit;
  const char *member;
  void (*set)(dpcov_mechanism_params &);
};
const OptionValue kOptionValues[] = {
    {DPCOV_MECHANISM_OPTION_LAMBDA_MIN, "lambda_min_bound",
     [](dpcov_mechanism_params &p) { p.lambda_min_bound = 1.0; }},
    {DPCOV_MECHANISM_OPTION_SPECTRAL, "rank", [](dpcov_mechanism_params &p) { p.rank = 2; }},
    {DPCOV_MECHANISM_OPTION_PROJECTION_ROWS, "projection_rows",
     [](dpcov_mechanism_params &p) { p.projection_rows = 8; }},
    {DPCOV_MECHANISM_OPTION_POSTERIOR_DOF, "posterior_dof",
     [](dpcov_mechanism_params &p) { p.posterior_dof = 5; }},
    {DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK, "audit_only_not_private",
     [](dpcov_mechanism_params &p) { p.audit_only_not_private = 1; }},
    // Each mechanism with a choice takes its own values; this one is a choice of Analyze Gauss.
    {DPCOV_MECHANISM_OPTION_CALIBRATION, "calibration",
     [](dpcov_mechanism_params &p) { p.calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN; }},
};

// The calibrations other than the default and theorem (a choice), for the mechanisms that have one.
const int32_t kChosenCalibrations[] = {
    DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN,     DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN,
    DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE, DPCOV_CALIBRATION_LAPLACE_PUBLISHED,
    DPCOV_CALIBRATION_BINGHAM_PUBLISHED,     DPCOV_CALIBRATION_BINGHAM_SENSITIVITY};

dpcov_mechanism_entry entry_of(int32_t id) {
  dpcov_mechanism_entry e = fresh_entry();
  EXPECT_EQ(dpcov_mechanism_info_by_id(id, &e), DPCOV_OK);
  return e;
}

// Settings under which the plan of each Gram mechanism succeeds at d = 3: every option its
// registry entry says it reads (the required ones among them, and the unlock of an audit target),
// but the calibration, whose default is one of every mechanism's choices.
dpcov_mechanism_params plannable(int32_t id) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  for (const OptionValue &option : kOptionValues)
    if ((entry_of(id).options & option.bit) && option.bit != DPCOV_MECHANISM_OPTION_CALIBRATION)
      option.set(p);
  return p;
}

// The plan of a Gram mechanism at d = 3 (the graphical-lasso output perturbation has a rho, so
// only its own plan reaches it).
dpcov_status plan_of(int32_t id, const dpcov_mechanism_params &p, dpcov_receipt &r) {
  r.struct_size = sizeof r;
  return entry_of(id).options & DPCOV_MECHANISM_OPTION_GLASSO_RHO
             ? dpcov_private_glasso_plan(id, 3, 100, 1.0, 0.5, 1e-6, &p, 0.1, &r)
             : dpcov_mechanism_plan(id, 3, 100, 1.0, 0.5, 1e-6, &p, &r);
}

// The theorem of a default-parameter receipt of a Gram mechanism.
std::string planned_theorem(int32_t id) {
  dpcov_receipt r{};
  const dpcov_status s = plan_of(id, plannable(id), r);
  EXPECT_EQ(s, DPCOV_OK) << dpcov_mechanism_name(id) << ": " << dpcov_last_error_message();
  return r.theorem;
}

TEST(MechanismRegistry, HoldsEveryIdOfTheEnumExactlyOnceInIdOrder) {
  const auto entries = every_entry();
  ASSERT_EQ(entries.size(), std::size(kEveryId));
  for (size_t i = 0; i < entries.size(); ++i) EXPECT_EQ(entries[i].id, kEveryId[i]);
}

TEST(MechanismRegistry, NamesAreUniqueAndAreTheNamesOfTheIds) {
  std::set<std::string> names;
  for (const auto &e : every_entry()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    EXPECT_STREQ(e.name, dpcov_mechanism_name(e.id));
    dpcov_mechanism_entry by_id = fresh_entry();
    ASSERT_EQ(dpcov_mechanism_info_by_id(e.id, &by_id), DPCOV_OK);
    EXPECT_TRUE(by_id.id == e.id && by_id.family == e.family &&
                by_id.privacy_model == e.privacy_model && by_id.neighbours == e.neighbours &&
                by_id.numerics == e.numerics && by_id.input == e.input &&
                by_id.output == e.output && by_id.name == e.name && by_id.theorem == e.theorem &&
                by_id.proof == e.proof && by_id.header == e.header)
        << e.name;
  }
}

TEST(MechanismRegistry, EveryProofFileExistsAndTheTheoremNamesIt) {
  const char *root = std::getenv("DPCOV_SOURCE_ROOT");
  ASSERT_NE(root, nullptr) << "the test runs with DPCOV_SOURCE_ROOT set by meson";
  for (const auto &e : every_entry()) {
    EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(root) / e.proof)) << e.proof;
    EXPECT_EQ(std::string(e.proof).rfind("proofs/", 0), 0u) << e.proof;
    EXPECT_NE(std::string(e.theorem).find(e.proof), std::string::npos) << e.name;
    EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(root) / e.header))
        << e.header;
  }
}

TEST(MechanismRegistry, TheoremsFitAReceipt) {
  for (const auto &e : every_entry()) EXPECT_LT(std::strlen(e.theorem), DPCOV_RECEIPT_THEOREM_SIZE);
}

TEST(MechanismRegistry, TheoremIsWhatEachGramMechanismsReceiptCarries) {
  for (const auto &e : every_entry()) {
    if (e.family != DPCOV_MECHANISM_FAMILY_GRAM) continue;
    EXPECT_EQ(planned_theorem(e.id), e.theorem) << e.name;
  }
}

TEST(MechanismRegistry, ExactTheoremIsWhatAnExactReceiptCarries) {
  for (const auto &e : every_entry()) {
    if (!(e.numerics & DPCOV_MECHANISM_NUMERICS_EXACT)) {
      EXPECT_STREQ(e.exact_theorem, "") << e.name;
      continue;
    }
    dpcov_receipt r{};
    r.struct_size = sizeof r;
    dpcov_exact_grid grid{};
    grid.struct_size = sizeof grid;
    ASSERT_EQ(dpcov_exact_plan(e.id, 3, 100, 1.0, 0.5, 1e-6, nullptr, &r, &grid), DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_STREQ(r.theorem, e.exact_theorem) << e.name;
    EXPECT_LT(std::strlen(e.exact_theorem), DPCOV_RECEIPT_THEOREM_SIZE);
  }
}

TEST(MechanismRegistry, TheoremIsWhatAnAdasspReceiptCarries) {
  dpcov_adassp_receipt r{};
  r.struct_size = sizeof r;
  ASSERT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, nullptr, &r), DPCOV_OK);
  dpcov_mechanism_entry e = fresh_entry();
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_ADASSP, &e), DPCOV_OK);
  EXPECT_STREQ(r.theorem, e.theorem);
}

TEST(MechanismRegistry, PropertiesMatchTheHeaders) {
  dpcov_mechanism_entry e = fresh_entry();
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_ANALYZE_GAUSS, &e), DPCOV_OK);
  EXPECT_EQ(e.privacy_model, DPCOV_MECHANISM_PRIVACY_APPROXIMATE);
  EXPECT_EQ(e.numerics, DPCOV_MECHANISM_NUMERICS_IDEALIZED | DPCOV_MECHANISM_NUMERICS_EXACT);
  EXPECT_EQ(e.neighbours,
            DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE | DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE);
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_WISHART_JIANG, &e), DPCOV_OK);
  EXPECT_EQ(e.privacy_model, DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE);
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_COINPRESS, &e), DPCOV_OK);
  EXPECT_EQ(e.privacy_model, DPCOV_MECHANISM_PRIVACY_ZCDP);
  EXPECT_EQ(e.neighbours, DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE);
  EXPECT_EQ(e.input, DPCOV_MECHANISM_INPUT_ROWS);
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_PRIVATE_BOUND, &e), DPCOV_OK);
  EXPECT_EQ(e.privacy_model, DPCOV_MECHANISM_PRIVACY_PURE);
  EXPECT_EQ(e.output, DPCOV_MECHANISM_OUTPUT_SCALAR);
  // Only the two mechanisms of dpcov/exact.h have floating-point-safe numerics.
  for (const auto &entry : every_entry()) {
    const bool exact = entry.id == DPCOV_MECHANISM_ANALYZE_GAUSS ||
                       entry.id == DPCOV_MECHANISM_LAPLACE_SYM;
    EXPECT_EQ((entry.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0, exact) << entry.name;
  }
}

TEST(MechanismRegistry, GramEntryPointsRefuseTheOtherFamiliesIds) {
  const double g[4] = {1.0, 0.0, 0.0, 1.0};
  double out[4] = {7.0, 7.0, 7.0, 7.0};
  double density = 7.0;
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
  for (const int32_t id : kNotGram) {
    dpcov_receipt r{};
    r.struct_size = sizeof r;
    EXPECT_EQ(dpcov_mechanism_plan(id, 2, 10, 1.0, 0.5, 1e-6, nullptr, &r),
              DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(dpcov_last_error_message()).find(dpcov_mechanism_name(id)),
              std::string::npos)
        << dpcov_last_error_message();
    EXPECT_EQ(dpcov_mechanism_release(id, DPCOV_ROW_MAJOR, 2, g, 2, 10, 1.0, 0.5, 1e-6, nullptr,
                                      rng, out, 2, &r),
              DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(dpcov_mechanism_log_density(id, DPCOV_ROW_MAJOR, 2, g, 2, g, 2, 10, 1.0, 0.5, 1e-6,
                                          nullptr, &density),
              DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(dpcov_mechanism_log_density_tested(id, DPCOV_ROW_MAJOR, 2, g, 2, 0.0, g, 2, 10, 1.0,
                                                 0.5, 1e-6, nullptr, &density),
              DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(dpcov_private_glasso_plan(id, 2, 10, 1.0, 0.5, 1e-6, nullptr, 0.1, &r),
              DPCOV_E_INVALID_ARGUMENT);
    dpcov_exact_grid grid{};
    grid.struct_size = sizeof grid;
    EXPECT_EQ(dpcov_exact_plan(id, 2, 10, 1.0, 0.5, 1e-6, nullptr, &r, &grid),
              DPCOV_E_INVALID_ARGUMENT);
  }
  for (const double v : out) EXPECT_EQ(v, 7.0);
  EXPECT_EQ(density, 7.0);
  dpcov_rng_destroy(&rng);
}

TEST(MechanismRegistry, BadArgumentsLeaveTheEntryUntouchedAndSayWhy) {
  const dpcov_mechanism_entry untouched = fresh_entry();
  for (const int32_t index : {-1, dpcov_mechanism_count(), INT32_MIN, INT32_MAX}) {
    dpcov_mechanism_entry e = fresh_entry();
    EXPECT_EQ(dpcov_mechanism_info(index, &e), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("index"), std::string::npos);
    EXPECT_EQ(std::memcmp(&e, &untouched, sizeof e), 0);
  }
  dpcov_mechanism_entry last = fresh_entry();
  ASSERT_EQ(dpcov_mechanism_info(dpcov_mechanism_count() - 1, &last), DPCOV_OK);
  // One past the last id, read from the library, so a new entry moves no number here.
  for (const int32_t id : {0, 14, 19, last.id + 1, -1, INT32_MAX}) {
    dpcov_mechanism_entry e = fresh_entry();
    EXPECT_EQ(dpcov_mechanism_info_by_id(id, &e), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("unknown mechanism id"),
              std::string::npos);
    EXPECT_EQ(std::memcmp(&e, &untouched, sizeof e), 0);
    EXPECT_STREQ(dpcov_mechanism_name(id), "unknown");
  }
  EXPECT_EQ(dpcov_mechanism_info(0, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_IEV, nullptr), DPCOV_E_NULL_POINTER);
  // Below the first shipped size (up to `header`); later fields may be left off by older callers.
  constexpr size_t kFirstShipped = offsetof(dpcov_mechanism_entry, header) + sizeof(const char *);
  for (const size_t size : {size_t{0}, kFirstShipped - 1}) {
    dpcov_mechanism_entry e = fresh_entry();
    e.struct_size = size;
    dpcov_mechanism_entry before = e;
    EXPECT_EQ(dpcov_mechanism_info(0, &e), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("struct_size"), std::string::npos);
    EXPECT_EQ(std::memcmp(&e, &before, sizeof e), 0);
  }
}

TEST(MechanismRegistry, AnEntryIsWrittenNoFurtherThanItsStructSize) {
  // A caller built against a later, larger entry: the library writes its own size and no more.
  struct Larger {
    dpcov_mechanism_entry entry;
    unsigned char canary[32];
  } larger;
  std::memset(&larger, 0xCD, sizeof larger);
  larger.entry.struct_size = sizeof larger.entry;
  ASSERT_EQ(dpcov_mechanism_info(0, &larger.entry), DPCOV_OK);
  for (const unsigned char c : larger.canary) EXPECT_EQ(c, 0xCD);
  EXPECT_EQ(larger.entry.struct_size, sizeof larger.entry);
}

TEST(MechanismRegistry, OptionsAreTheParamsEachGramPlanReadsAndRefusesTheOthers) {
  for (const auto &e : every_entry()) {
    if (e.family != DPCOV_MECHANISM_FAMILY_GRAM) {
      EXPECT_EQ(e.options, 0) << e.name;
      continue;
    }
    for (const OptionValue &option : kOptionValues) {
      if (e.options & option.bit) continue;
      dpcov_mechanism_params p = plannable(e.id);
      option.set(p);
      dpcov_receipt r{};
      EXPECT_EQ(plan_of(e.id, p, r), DPCOV_E_INVALID_ARGUMENT) << e.name << " " << option.member;
      EXPECT_NE(std::string(dpcov_last_error_message()).find(option.member), std::string::npos)
          << e.name << ": " << dpcov_last_error_message();
    }
  }
}

TEST(MechanismRegistry, CalibrationBitIsOnTheMechanismsWithAChoiceOfCalibration) {
  // Inverse Gauss's sigma is Analyze Gauss's, with its choice of analytic or classical.
  const std::set<int32_t> choosing = {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM,
                                      DPCOV_MECHANISM_INVERSE_GAUSS, DPCOV_MECHANISM_IEV,
                                      DPCOV_MECHANISM_KT_RANK1};
  for (const auto &e : every_entry()) {
    const bool bit = (e.options & DPCOV_MECHANISM_OPTION_CALIBRATION) != 0;
    EXPECT_EQ(bit, choosing.count(e.id) == 1) << e.name;
    if (!bit) continue;
    // With the bit, at least two calibrations other than the default plan: a choice.
    int choices = 0;
    for (const int32_t calibration : kChosenCalibrations) {
      dpcov_mechanism_params p = plannable(e.id);
      p.calibration = calibration;
      dpcov_receipt r{};
      choices += plan_of(e.id, p, r) == DPCOV_OK ? 1 : 0;
    }
    EXPECT_GE(choices, 2) << e.name;
  }
}

TEST(MechanismRegistry, InferenceBitsAreOnTheReleasesThatSupportThem) {
  for (const auto &e : every_entry()) {
    const int32_t robust = e.id == DPCOV_MECHANISM_ANALYZE_GAUSS ||
                                   e.id == DPCOV_MECHANISM_LAPLACE_SYM ||
                                   e.id == DPCOV_MECHANISM_WISHART_ADDITIVE
                               ? DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM
                               : 0;
    const int32_t own =
        e.id == DPCOV_MECHANISM_OLS_JL          ? DPCOV_MECHANISM_INFERENCE_PROJECTION_T
        : e.id == DPCOV_MECHANISM_ANALYZE_GAUSS ? DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS
                                                : 0;
    const int32_t expected = robust | own;
    EXPECT_EQ(e.inference, expected) << e.name;
    // The intervals that redraw a release's noise need a private mechanism adding it to G.
    if (e.inference & DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM) {
      EXPECT_EQ(e.family, DPCOV_MECHANISM_FAMILY_GRAM) << e.name;
      EXPECT_NE(e.privacy_model, DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE) << e.name;
    }
    // Exact inference on a projection reads the receipt's projection rows.
    if (e.inference & DPCOV_MECHANISM_INFERENCE_PROJECTION_T) {
      EXPECT_TRUE(e.options & DPCOV_MECHANISM_OPTION_PROJECTION_ROWS) << e.name;
    }
  }
}

TEST(MechanismRegistry, AuditPairIsOneDpcovAuditRunAuditsAndNoneWhereItCannot) {
  dpcov_audit_params ap;
  ASSERT_EQ(dpcov_audit_params_default(&ap), DPCOV_OK);
  ap.trials = 10;
  ap.first_checkpoint = 10;
  for (const auto &e : every_entry()) {
    EXPECT_EQ(e.audit_dataset < 0, e.audit_neighbour_kind < 0) << e.name;
    if (e.family != DPCOV_MECHANISM_FAMILY_GRAM) {
      EXPECT_EQ(e.audit_dataset, -1) << e.name;
      continue;
    }
    if (e.options & DPCOV_MECHANISM_OPTION_GLASSO_RHO) continue;  // needs a rho to release
    dpcov_mechanism_params p = plannable(e.id);
    p.lambda_min_bound = 0.0;  // set by the audit from its pair
    ap.dataset = e.audit_dataset < 0 ? DPCOV_AUDIT_DATA_RANDOM_ROWS : e.audit_dataset;
    ap.neighbour_kind = e.audit_neighbour_kind < 0 ? DPCOV_AUDIT_NEIGHBOUR_RANDOM
                                                   : e.audit_neighbour_kind;
    dpcov_audit_result result{};
    result.struct_size = sizeof result;
    const dpcov_status s =
        dpcov_audit_run(e.id, 3, 50, 1.0, 0.5, 1e-6, &p, &ap, &result);
    // No pair: the mechanism has no closed-form output density, which the audit refuses.
    EXPECT_EQ(s, e.audit_dataset < 0 ? DPCOV_E_INVALID_ARGUMENT : DPCOV_OK)
        << e.name << ": " << dpcov_last_error_message();
  }
}

TEST(MechanismRegistry, SummaryAndPreconditionsAreOneLineEach) {
  for (const auto &e : every_entry())
    for (const char *text : {e.summary, e.preconditions}) {
      ASSERT_NE(text, nullptr) << e.name;
      EXPECT_GT(std::strlen(text), 0u) << e.name;
      EXPECT_LE(std::strlen(text), 120u) << e.name;
      EXPECT_EQ(std::strchr(text, '\n'), nullptr) << e.name;
    }
}

// Refusals of privacy units quote unit_refusal, so every entry says either where its unit-level
// proof is or why it has none, never both and never neither; and the proof a refusal points to,
// when it names one, exists.
TEST(MechanismRegistry, EveryEntryHasExactlyOneOfUnitProofAndUnitRefusal) {
  const char *root = std::getenv("DPCOV_SOURCE_ROOT");
  ASSERT_NE(root, nullptr) << "the test runs with DPCOV_SOURCE_ROOT set by meson";
  for (const auto &e : every_entry()) {
    ASSERT_NE(e.unit_proof, nullptr) << e.name;
    ASSERT_NE(e.unit_refusal, nullptr) << e.name;
    EXPECT_NE(*e.unit_proof == '\0', *e.unit_refusal == '\0') << e.name;
    EXPECT_EQ(std::strchr(e.unit_refusal, '\n'), nullptr) << e.name;
    const std::string refusal = e.unit_refusal;
    const size_t proof = refusal.find("proofs/");
    if (proof == std::string::npos) continue;
    const std::string file = refusal.substr(proof, refusal.find_first_of(",)", proof) - proof);
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(root) / file)) << e.name << file;
  }
}

}  // namespace
