#include "receipt_prefix_json.hpp"

#include <dpcov.h>

#include "../library_status.hpp"
#include "../options/mechanism_options.hpp"

namespace dpcov::cli {

namespace {

const NamedValues kGenerators = {{"none", DPCOV_GENERATOR_NONE},
                                 {"pcg64", DPCOV_GENERATOR_PCG64},
                                 {"chacha20", DPCOV_GENERATOR_CHACHA20}};

const NamedValues kNumerics = {{"idealized", DPCOV_NUMERICS_IDEALIZED},
                               {"exact", DPCOV_NUMERICS_EXACT}};

const NamedValues kPrivacyModels = {
    {"epsilon-DP", DPCOV_MECHANISM_PRIVACY_PURE},
    {"(epsilon, delta)-DP", DPCOV_MECHANISM_PRIVACY_APPROXIMATE},
    {"rho-zCDP, stated as (epsilon, delta)-DP (Canonne, Kamath & Steinke 2020, Prop. 12)",
     DPCOV_MECHANISM_PRIVACY_ZCDP},
    {"not private", DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE}};

}  // namespace

std::string privacy_model_name(int32_t model) { return name_of(kPrivacyModels, model); }

nlohmann::ordered_json receipt_prefix_json(const void *receipt) {
  dpcov_receipt_prefix p{};
  p.struct_size = sizeof p;
  library_check(dpcov_receipt_prefix_of(receipt, &p), "reading the receipt's common prefix");
  return {{"mechanism", dpcov_mechanism_name(p.mechanism)},
          {"privacy_model", privacy_model_name(p.privacy_model)},
          {"neighbour", name_of(neighbour_values(), p.neighbour)},
          {"numerics", name_of(kNumerics, p.numerics)},
          {"generator", name_of(kGenerators, p.generator)},
          {"seed_fixed", p.seed_fixed != 0},
          {"epsilon", p.epsilon},
          {"delta", p.delta},
          {"rho", p.rho},
          {"bound", p.bound},
          {"n", p.n},
          {"theorem", p.theorem}};
}

}  // namespace dpcov::cli
