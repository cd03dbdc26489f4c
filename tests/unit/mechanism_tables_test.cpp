// What the library reads from the mechanism registry instead of switching on ids (issue 35): the
// auditor's table covers every Gram mechanism, each registry entry states its noise law, its use in
// the private graphical lasso and the options it takes, and the behaviour read from them is the one
// the switches had (noise families, the glasso pipeline, the messages naming the mechanisms).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/audit/audit_table.hpp"
#include "core/audit/target.hpp"
#include "core/error.hpp"
#include "core/estimators/release_noise.hpp"
#include "core/mechanisms/private_glasso.hpp"
#include "core/mechanisms/registry.hpp"
#include "core/mechanisms/request.hpp"

namespace dpcov::mechanisms {
namespace {

std::string message_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

std::vector<const RegistryEntry *> gram_entries() {
  std::vector<const RegistryEntry *> found;
  for (const RegistryEntry &entry : registry())
    if (entry.family == Family::Gram) found.push_back(&entry);
  return found;
}

TEST(AuditTable, HasARowForEveryGramMechanismOfTheRegistry) {
  for (const RegistryEntry *entry : gram_entries())
    EXPECT_NE(audit::find_audit(entry->id), nullptr)
        << entry->name << " has no row in core/audit/audit_table.cpp: the standard audit skips it";
  std::set<int32_t> seen;
  for (const audit::MechanismAudit &row : audit::audit_table()) {
    const RegistryEntry *entry = find_entry(row.id);
    ASSERT_NE(entry, nullptr) << "audit row of an id the registry does not hold: " << row.id;
    EXPECT_EQ(entry->family, Family::Gram) << entry->name;
    EXPECT_TRUE(seen.insert(row.id).second) << entry->name << " has two audit rows";
    EXPECT_GE(row.case_count, 1) << entry->name;
    EXPECT_LE(row.case_count, static_cast<int32_t>(row.cases.size())) << entry->name;
  }
}

// The sampler-conformance claim comes from one place: the registry's noise law, or the audit row's
// own transforms, never both (a mechanism with neither, glasso_output_wishart, is audited by its
// density alone; IEV and KT, which have no density, black box).
TEST(AuditTable, ClaimedLawComesFromOnePlace) {
  for (const RegistryEntry *entry : gram_entries()) {
    const audit::MechanismAudit *row = audit::find_audit(entry->id);
    ASSERT_NE(row, nullptr) << entry->name;
    EXPECT_FALSE(entry->noise.kind != NoiseKind::None && row->claimed_law != nullptr)
        << entry->name;
  }
}

// The standard audit runs its cases in the order it always did: its seeds follow that order.
TEST(AuditTable, StandardAuditOrderIsUnchanged) {
  std::vector<std::string> order;
  for (const audit::MechanismAudit &row : audit::audit_table())
    for (const audit::StandardCase &c : row.standard_cases())
      order.push_back(std::string(entry_of(row.id).name) + (c.black_box ? " black-box" : ""));
  const std::vector<std::string> expected = {
      "analyze_gauss", "laplace_sym",           "wishart_additive", "inverse_gauss",
      "jl_ridge",      "jl_ridge_sigma_min",    "inverse_wishart",  "inverse_wishart_sigma_min",
      "wishart_jiang", "glasso_output_wishart", "ols_jl",           "iev black-box",
      "iev black-box", "kt_rank1 black-box"};
  EXPECT_EQ(order, expected);
}

TEST(Registry, NonGramEntriesHaveNoGramData) {
  for (const RegistryEntry &entry : registry()) {
    if (entry.family == Family::Gram) continue;
    EXPECT_EQ(entry.noise.kind, NoiseKind::None) << entry.name;
    EXPECT_EQ(entry.glasso, GlassoPerturbation::Unsupported) << entry.name;
    EXPECT_EQ(entry.options, 0) << entry.name;
  }
}

// Wang-Huai-Xu Alg. 2 solves on an additive release of G; Alg. 1 is a mechanism that takes rho.
TEST(Registry, GlassoPerturbationMatchesTheNoiseAndOptions) {
  for (const RegistryEntry *entry : gram_entries()) {
    if (entry->glasso == GlassoPerturbation::Covariance) {
      EXPECT_NE(entry->noise.kind, NoiseKind::None) << entry->name;
      EXPECT_EQ(entry->noise.base, NoiseBase::Gram) << entry->name;
    }
    EXPECT_EQ(entry->glasso == GlassoPerturbation::Output, (entry->options & kOptionGlassoRho) != 0)
        << entry->name;
    EXPECT_EQ(entry->privacy == PrivacyModel::NotPrivate,
              (entry->options & kOptionAuditUnlock) != 0)
        << entry->name;
  }
}

TEST(Registry, ReadsAsTheSwitchesDid) {
  const std::map<MechanismId, GlassoPerturbation> glasso = {
      {MechanismId::AnalyzeGauss, GlassoPerturbation::Covariance},
      {MechanismId::LaplaceSym, GlassoPerturbation::Covariance},
      {MechanismId::WishartAdditive, GlassoPerturbation::Covariance},
      {MechanismId::WishartJiang, GlassoPerturbation::Covariance},
      {MechanismId::GlassoOutputWishart, GlassoPerturbation::Output}};
  const std::map<MechanismId, audit::NoiseFamily> family = {
      {MechanismId::AnalyzeGauss, audit::NoiseFamily::Gaussian},
      {MechanismId::InverseGauss, audit::NoiseFamily::Gaussian},
      {MechanismId::LaplaceSym, audit::NoiseFamily::Laplace},
      {MechanismId::WishartAdditive, audit::NoiseFamily::Wishart},
      {MechanismId::WishartJiang, audit::NoiseFamily::Wishart},
      {MechanismId::JlRidge, audit::NoiseFamily::ClaimedLaw},
      {MechanismId::JlRidgeSigmaMin, audit::NoiseFamily::ClaimedLaw},
      {MechanismId::InverseWishart, audit::NoiseFamily::ClaimedLaw},
      {MechanismId::InverseWishartSigmaMin, audit::NoiseFamily::ClaimedLaw},
      {MechanismId::OlsJl, audit::NoiseFamily::ClaimedLaw}};
  const std::set<MechanismId> release_noise = {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym,
                                               MechanismId::WishartAdditive};
  for (const RegistryEntry *entry : gram_entries()) {
    const MechanismId id = static_cast<MechanismId>(entry->id);
    const auto g = glasso.find(id);
    EXPECT_EQ(glasso_perturbation(id),
              g == glasso.end() ? GlassoPerturbation::Unsupported : g->second)
        << entry->name;
    Receipt receipt;
    receipt.mechanism = id;
    receipt.sigma = 2.0;
    receipt.scale = 3.0;
    receipt.dof = 7.0;
    const audit::NoiseModel noise = audit::claimed_noise(id, receipt);
    const auto f = family.find(id);
    EXPECT_EQ(noise.family, f == family.end() ? audit::NoiseFamily::Unknown : f->second)
        << entry->name;
    EXPECT_EQ(noise.base, id == MechanismId::InverseGauss ? audit::NoiseBase::InverseGram
                                                          : audit::NoiseBase::Gram)
        << entry->name;
    if (noise.family == audit::NoiseFamily::Gaussian) {
      EXPECT_EQ(noise.scale, 2.0);
    }
    if (noise.family == audit::NoiseFamily::Laplace) {
      EXPECT_EQ(noise.scale, 3.0);
    }
    if (noise.family == audit::NoiseFamily::Wishart) {
      EXPECT_EQ(noise.scale, 3.0);
      EXPECT_EQ(noise.dof, 7.0);
    }
    if (release_noise.count(id)) {
      EXPECT_NO_THROW(estimators::release_noise(receipt)) << entry->name;
    } else {
      EXPECT_EQ(message_of([&] { estimators::release_noise(receipt); }),
                std::string("no noise-aware intervals for ") + entry->name +
                    " releases: their noise is not additive with a known law (supported: "
                    "analyze_gauss, laplace_sym, wishart_additive)");
    }
  }
}

TEST(Registry, MessagesNameTheMechanismsAsBefore) {
  const Request request{2, 10, 1.0, 1.0, 1e-6, {}};
  EXPECT_EQ(message_of([&] { private_glasso_request(MechanismId::Iev, request, 0.1); }),
            "iev is not a Wang-Huai-Xu perturbation: use analyze_gauss, laplace_sym, "
            "wishart_additive, wishart_jiang (audit only) or glasso_output_wishart (audit only)");
  struct Case {
    MechanismId mechanism;
    void (*set)(Options &);
    const char *message;
  };
  const Case cases[] = {
      {MechanismId::AnalyzeGauss, [](Options &o) { o.projection_rows = 5; },
       "projection_rows applies only to jl_ridge, jl_ridge_sigma_min and ols_jl; leave it 0 for "
       "analyze_gauss"},
      {MechanismId::OlsJl, [](Options &o) { o.rank = 1; },
       "budget_split, beta and rank apply only to iev and kt_rank1; leave them 0 for ols_jl"},
      {MechanismId::Iev, [](Options &o) { o.lambda_min_bound = 1.0; },
       "lambda_min_bound and lambda_min_scope apply only to inverse_gauss; leave them 0 for iev"},
      {MechanismId::JlRidge, [](Options &o) { o.posterior_dof = 4; },
       "posterior_dof applies only to inverse_wishart and inverse_wishart_sigma_min; leave it 0 "
       "for jl_ridge"},
      {MechanismId::LaplaceSym, [](Options &o) { o.audit_only_not_private = true; },
       "audit_only_not_private applies only to wishart_jiang and glasso_output_wishart; leave it "
       "0 for laplace_sym"},
      {MechanismId::WishartJiang, [](Options &o) { o.glasso_rho = 0.1; },
       "glasso_rho applies only to glasso_output_wishart; leave it 0 for wishart_jiang"},
  };
  for (const Case &c : cases) {
    Options options;
    c.set(options);
    EXPECT_EQ(message_of([&] { check_options_apply(c.mechanism, options); }), c.message);
  }
  // Every option a registry entry names is accepted by that mechanism's check.
  for (const RegistryEntry *entry : gram_entries()) {
    Options taken;
    if (entry->options & kOptionProjectionRows) taken.projection_rows = 5;
    if (entry->options & kOptionPosteriorDof) taken.posterior_dof = 4;
    if (entry->options & kOptionGlassoRho) taken.glasso_rho = 0.1;
    if (entry->options & kOptionAuditUnlock) taken.audit_only_not_private = true;
    if (entry->options & kOptionSpectral) taken.rank = 1;
    if (entry->options & kOptionLambdaMin) taken.lambda_min_bound = 1.0;
    EXPECT_EQ(message_of([&] { check_options_apply(static_cast<MechanismId>(entry->id), taken); }),
              "")
        << entry->name;
  }
}

}  // namespace
}  // namespace dpcov::mechanisms
