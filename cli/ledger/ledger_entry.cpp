#include "ledger_entry.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../options/mechanism_registry.hpp"

namespace dpcov::cli {

namespace {

// The privacy models as a ledger entry names them (dpcov_mechanism_privacy).
const std::pair<const char *, int32_t> kModels[] = {
    {"pure", DPCOV_MECHANISM_PRIVACY_PURE},
    {"approximate", DPCOV_MECHANISM_PRIVACY_APPROXIMATE},
    {"zcdp", DPCOV_MECHANISM_PRIVACY_ZCDP},
    {"not_private", DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE}};

std::string model_name(int32_t model) {
  for (const auto &[name, value] : kModels)
    if (value == model) return name;
  return std::to_string(model);
}

int32_t model_value(const std::string &name) {
  for (const auto &[known, value] : kModels)
    if (name == known) return value;
  fail(kExitInputData, "a charge states the privacy model \"", excerpt(name),
       "\", which is not one of pure, approximate, zcdp, not_private");
}

// The prefix of a charge of registry id `mechanism`, with the registry's privacy model.
LedgerCharge prefix_charge(int32_t mechanism, double epsilon, double delta, double rho) {
  LedgerCharge c{dpcov_receipt{}};
  c.receipt.struct_size = sizeof(dpcov_receipt_prefix);
  c.receipt.mechanism = mechanism;
  c.receipt.privacy_model = registry_entry(mechanism).privacy_model;
  c.receipt.epsilon = epsilon;
  c.receipt.delta = delta;
  c.receipt.rho = rho;
  return c;
}

bool is_gram(int32_t mechanism) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  return dpcov_mechanism_info_by_id(mechanism, &entry) == DPCOV_OK &&
         entry.family == DPCOV_MECHANISM_FAMILY_GRAM;
}

void known_mechanism(int32_t mechanism) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  if (dpcov_mechanism_info_by_id(mechanism, &entry) != DPCOV_OK)
    fail(kExitInputData, "a charge of mechanism id ", mechanism,
         ", which the library's registry does not hold");
}

// The rest of a Gram mechanism's receipt that its charge reads (mechanisms::charge_of).
void read_gram_fields(const nlohmann::ordered_json &entry, dpcov_receipt &r) {
  r.struct_size = sizeof r;
  r.sensitivity = entry.at("sensitivity").get<double>();
  r.sensitivity_norm = entry.at("sensitivity_norm").get<int32_t>();
  r.sigma = entry.at("sigma").get<double>();
}

// The registry id of a release stated in zCDP that the previous format named, with the bound
// step's prefix of an advanced ledger's combined charge ("bound_auto+adassp"): the names the
// command wrote.
int32_t previous_zcdp_id(const std::string &name) {
  const std::string combined = "bound_auto+";
  const std::string release =
      name.compare(0, combined.size(), combined) == 0 ? name.substr(combined.size()) : name;
  if (release == "adassp") return DPCOV_MECHANISM_ADASSP;
  if (release == "coinpress" || release == "coinpress --center") return DPCOV_MECHANISM_COINPRESS;
  if (release == "coinpress_mean") return DPCOV_MECHANISM_COINPRESS_MEAN;
  for (const char *dly : {"dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper"})
    if (release == dly) return DPCOV_MECHANISM_DLY;
  fail(kExitInputData, "a charge stated in zCDP names \"", excerpt(name),
       "\", which is not a release dpcov records: the ledger cannot tell what it charged");
}

// An entry of the previous format: a Gram mechanism's receipt fields (mechanism id 0: the
// private bound step), or a release stated in zCDP by name. Charged as that format charged it.
LedgerCharge previous_charge_of(const nlohmann::ordered_json &entry) {
  const double epsilon = entry.at("epsilon").get<double>();
  const double delta = entry.at("delta").get<double>();
  if (entry.contains("zcdp_rho"))
    return LedgerCharge::zcdp(previous_zcdp_id(entry.at("mechanism").get<std::string>()),
                              entry.at("zcdp_rho").get<double>(), epsilon, delta);
  const int32_t id = entry.at("mechanism_id").get<int32_t>();
  if (id == 0) return LedgerCharge::bound_step(epsilon);
  known_mechanism(id);
  LedgerCharge c = prefix_charge(id, epsilon, delta, 0.0);
  read_gram_fields(entry, c.receipt);
  // Exact releases are charged from their plan's rho; an entry written before the field is
  // charged as idealized, from its sensitivity and sigma.
  c.receipt.numerics = entry.contains("numerics") && entry.at("numerics") == "exact"
                           ? DPCOV_NUMERICS_EXACT
                           : DPCOV_NUMERICS_IDEALIZED;
  return c;
}

}  // namespace

LedgerCharge::LedgerCharge(const dpcov_receipt &r) : receipt(r) {}

LedgerCharge LedgerCharge::of_receipt(const void *receipt) {
  dpcov_receipt_prefix p{};
  p.struct_size = sizeof p;
  library_check(dpcov_receipt_prefix_of(receipt, &p), "the release's receipt");
  LedgerCharge c{dpcov_receipt{}};
  std::memcpy(&c.receipt, &p, sizeof p);
  return c;
}

LedgerCharge LedgerCharge::zcdp(int32_t mechanism, double rho, double epsilon, double delta) {
  return prefix_charge(mechanism, epsilon, delta, rho);
}

LedgerCharge LedgerCharge::bound_step(double epsilon) {
  return prefix_charge(DPCOV_MECHANISM_PRIVATE_BOUND, epsilon, 0.0, 0.0);
}

dpcov_status apply_charge(dpcov_ledger *ledger, const LedgerCharge &c) {
  return dpcov_ledger_charge_receipt(ledger, &c.receipt);
}

nlohmann::ordered_json entry_of(const LedgerCharge &c, const std::string &output) {
  const dpcov_receipt &r = c.receipt;
  nlohmann::ordered_json entry = {{"mechanism", dpcov_mechanism_name(r.mechanism)},
                                  {"mechanism_id", r.mechanism},
                                  {"privacy_model", model_name(r.privacy_model)},
                                  {"numerics", r.numerics == DPCOV_NUMERICS_EXACT ? "exact"
                                                                                  : "idealized"},
                                  {"epsilon", r.epsilon},
                                  {"delta", r.delta},
                                  {"rho", r.rho}};
  if (r.struct_size == sizeof r) {
    entry["sensitivity"] = r.sensitivity;
    entry["sensitivity_norm"] = r.sensitivity_norm;
    entry["sigma"] = r.sigma;
  }
  if (c.bound_epsilon > 0.0) entry["bound_epsilon"] = c.bound_epsilon;
  entry["output"] = output;
  return entry;
}

LedgerCharge charge_of(const nlohmann::ordered_json &entry) {
  if (!entry.contains("privacy_model")) return previous_charge_of(entry);
  const int32_t id = entry.at("mechanism_id").get<int32_t>();
  known_mechanism(id);
  LedgerCharge c{dpcov_receipt{}};
  dpcov_receipt &r = c.receipt;
  r.struct_size = sizeof(dpcov_receipt_prefix);
  r.mechanism = id;
  // As recorded: the library refuses a model other than the registry's for the id.
  r.privacy_model = model_value(entry.at("privacy_model").get<std::string>());
  r.numerics = entry.at("numerics") == "exact" ? DPCOV_NUMERICS_EXACT : DPCOV_NUMERICS_IDEALIZED;
  r.epsilon = entry.at("epsilon").get<double>();
  r.delta = entry.at("delta").get<double>();
  r.rho = entry.at("rho").get<double>();
  if (is_gram(id)) read_gram_fields(entry, r);
  if (entry.contains("bound_epsilon")) c.bound_epsilon = entry.at("bound_epsilon").get<double>();
  return c;
}

}  // namespace dpcov::cli
