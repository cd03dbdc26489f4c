#include "registry.hpp"

#include <string>
#include <vector>

#include "../error.hpp"

namespace dpcov::mechanisms {

namespace {

constexpr int32_t id_of(MechanismId mechanism) { return static_cast<int32_t>(mechanism); }

constexpr const char *kGramHeader = "capi/include/dpcov/mechanism.h";
constexpr const char *kUnitProof = "proofs/unit_gram_sensitivity.md";
// Group privacy over the rows of a unit, at a per-row budget: for proofs that hold for a rank-one
// row change only.
constexpr const char *kGroupUnitProof = "proofs/unit_group_privacy.md";

// Why the entries without a unit proof refuse privacy units, as their proofs say
// (proofs/unit_group_privacy.md, "Mechanisms still refused").
constexpr const char *kNotPrivateRefusal =
    "it is not differentially private even for one row (its proof gives the counterexample): an "
    "audit target, never released, with units or without";
constexpr const char *kSigmaMinRefusal =
    "group privacy would compose, but no unit audit can yet flag its broken variant: the aligned "
    "unit pair leaves lambda_min(G) near 0, where its sigma_min test fails on both datasets "
    "(proofs/unit_group_privacy.md, \"Mechanisms still refused\")";
constexpr const char *kOlsJlRefusal =
    "group privacy would compose, but no unit audit can yet flag its broken variant: on the "
    "aligned unit pair lambda_min(G) is near 0 and its sigma_min test refuses on both datasets, "
    "so the broken variant equals the release (proofs/unit_group_privacy.md, \"Mechanisms still "
    "refused\")";

// Sized by its initializer: an entry added is one row, with no count to move.
constexpr RegistryEntry kRegistry[] = {
    {id_of(MechanismId::AnalyzeGauss), "analyze_gauss", Family::Gram, PrivacyModel::Approximate,
     kBothRelations, kIdealized | kExact, Input::Gram, Output::Matrix,
     "Dwork-Talwar-Thakurta-Zhang 2014 Alg. 1, sigma by Balle-Wang 2018 Thm 8 (analytic "
     "Gaussian); proofs/analyze_gauss.md",
     "Analyze Gauss, exact: rows on a 2^-k B grid, exact integer Gram, discrete Gaussian, "
     "analytic variance + 4 (Balle-Wang 2018 Thm 8); proofs/exact_additive.md",
     "proofs/analyze_gauss.md", kGramHeader,
     "G + Gaussian, may be indefinite",
     "eps > 0, 0 < delta < 1 (classical calibration: eps < 1)",
     {NoiseKind::SymmetricGaussian, NoiseBase::Gram}, GlassoPerturbation::Covariance,
     kOptionCalibration, kUnitProof, kInferenceGuaranteedGauss | kInferenceRobustGram},
    {id_of(MechanismId::LaplaceSym), "laplace_sym", Family::Gram, PrivacyModel::Pure,
     kBothRelations, kIdealized | kExact, Input::Gram, Output::Matrix,
     "Jiang-Xie-Zhang 2016 Alg. 1, scale from the upper-triangle L1 sensitivity (d+1)B^2 "
     "(replace), (d+1)B^2/2 (add/remove); proofs/laplace_sym.md",
     "Symmetric Laplace, exact: rows on a 2^-k B grid, exact integer Gram, discrete Laplace "
     "(Canonne-Kamath-Steinke 2020 Alg. 2); proofs/exact_additive.md",
     "proofs/laplace_sym.md", kGramHeader,
     "G + Laplace, may be indefinite",
     "eps > 0",
     {NoiseKind::SymmetricLaplace, NoiseBase::Gram}, GlassoPerturbation::Covariance,
     kOptionCalibration, kUnitProof, kInferenceRobustGram},
    {id_of(MechanismId::WishartAdditive), "wishart_additive", Family::Gram,
     PrivacyModel::Approximate, kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Alg. 3, Thm 4.1 = Thm B.3: W_d(k, B^2 I), "
     "k = ceil(d + 14 ln(4/delta)/eps^2); proofs/wishart_additive.md",
     "",
     "proofs/wishart_additive.md", kGramHeader,
     "G + Wishart, positive definite",
     "0 < eps < 1, 0 < delta < 1/e",
     {NoiseKind::Wishart, NoiseBase::Gram}, GlassoPerturbation::Covariance, 0, kGroupUnitProof,
     kInferenceRobustGram},
    {id_of(MechanismId::InverseGauss), "inverse_gauss", Family::Gram, PrivacyModel::Approximate,
     kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Thm B.5, sigma by Balle-Wang 2018 Thm 8 (analytic "
     "Gaussian); proofs/inverse_gauss.md",
     "",
     "proofs/inverse_gauss.md", kGramHeader,
     "G^-1 + Gaussian, may be indefinite",
     "eps > 0, 0 < delta < 1, public bound lambda_min(G) >= theta^2 > 0",
     {NoiseKind::SymmetricGaussian, NoiseBase::InverseGram}, GlassoPerturbation::Unsupported,
     kOptionLambdaMin | kOptionCalibration, kUnitProof},
    {id_of(MechanismId::WishartJiang), "wishart_jiang", Family::Gram, PrivacyModel::NotPrivate,
     kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Jiang-Xie-Zhang 2016 Alg. 2 / Thm 3 as published: W_d(d+1, 3B^2/(2eps) I). NOT DP "
     "(support argument); audit target only; proofs/wishart_jiang.md",
     "",
     "proofs/wishart_jiang.md", kGramHeader,
     "G + Wishart, positive definite",
     "none: refused unless unlocked for an audit",
     {NoiseKind::Wishart, NoiseBase::Gram}, GlassoPerturbation::Covariance,
     kOptionAuditUnlock, "", 0, kNotPrivateRefusal},
    {id_of(MechanismId::Iev), "iev", Family::Gram, PrivacyModel::Pure, kBothRelations, kIdealized,
     Input::Gram, Output::Matrix,
     "Amin-Dick-Kulesza-Munoz Medina-Vassilvitskii NeurIPS 2019 Alg. 1, Thm 1, Cor. 1/2 (IEV), "
     "Bingham sampler Kent-Ganeiber-Mardia 2018; proofs/iev.md",
     "",
     "proofs/iev.md", kGramHeader,
     "rank-k PSD (top k eigenpairs)",
     "eps > 0",
     {}, GlassoPerturbation::Unsupported, kOptionSpectral | kOptionCalibration, kGroupUnitProof},
    {id_of(MechanismId::KtRank1), "kt_rank1", Family::Gram, PrivacyModel::Pure, kBothRelations,
     kIdealized, Input::Gram, Output::Matrix,
     "Amin et al. NeurIPS 2019 Sec. 4 baseline KT (Kapralov-Talwar 2013 rank-one subtraction), "
     "same accounting as Alg. 1; proofs/kt_rank1.md",
     "",
     "proofs/kt_rank1.md", kGramHeader,
     "rank-k PSD (rank-one deflation)",
     "eps > 0",
     {}, GlassoPerturbation::Unsupported, kOptionSpectral | kOptionCalibration, kGroupUnitProof},
    {id_of(MechanismId::JlRidge), "jl_ridge", Family::Gram, PrivacyModel::Approximate,
     kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Alg. 1, Thm 3.1 = Thm B.1: S = R[A; wI], "
     "w^2 = (2B^2/eps)(sqrt(2r ln(4/delta)) + 2 ln(4/delta)); proofs/jl_ridge.md",
     "",
     "proofs/jl_ridge.md", kGramHeader,
     "S^T S / r ~ G + w^2 I, PSD (PD for r >= d)",
     "0 < eps <= 1, 0 < delta < 1/e",
     {}, GlassoPerturbation::Unsupported, kOptionProjectionRows, kGroupUnitProof},
    {id_of(MechanismId::JlRidgeSigmaMin), "jl_ridge_sigma_min", Family::Gram,
     PrivacyModel::Approximate, kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Alg. 2, Thm 3.1 = B.1 at (eps/2, delta/2) after a "
     "Laplace sigma_min test, b = 4B^2/eps; proofs/jl_ridge.md",
     "",
     "proofs/jl_ridge.md", kGramHeader,
     "S^T S / r with w lowered by a private sigma_min test, PSD",
     "eps/2 <= 1, delta/2 < 1/e",
     {}, GlassoPerturbation::Unsupported, kOptionProjectionRows, "", 0, kSigmaMinRefusal},
    {id_of(MechanismId::InverseWishart), "inverse_wishart", Family::Gram,
     PrivacyModel::Approximate, kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Alg. 4, Thm 5.1 = B.4: W^{-1}(A_w^T A_w, m), "
     "w^2 = (2B^2/eps)(sqrt(2m L) + 2L), L = ln(4/delta); proofs/inverse_wishart.md",
     "",
     "proofs/inverse_wishart.md", kGramHeader,
     "inverse-Wishart posterior sample, PD",
     "m >= d, 0 < eps <= 1, 0 < delta < 1/e",
     {}, GlassoPerturbation::Unsupported, kOptionPosteriorDof, kGroupUnitProof},
    {id_of(MechanismId::InverseWishartSigmaMin), "inverse_wishart_sigma_min", Family::Gram,
     PrivacyModel::Approximate, kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet 2019 (arXiv 1507.00056) Alg. 5, Thm 5.1 = B.4 at (eps/2, delta/2) after a "
     "Laplace sigma_min test, b = 4B^2/eps; proofs/inverse_wishart.md",
     "",
     "proofs/inverse_wishart.md", kGramHeader,
     "inverse-Wishart sample after a sigma_min test, PD",
     "m >= d, eps/2 <= 1, delta/2 < 1/e",
     {}, GlassoPerturbation::Unsupported, kOptionPosteriorDof, "", 0, kSigmaMinRefusal},
    {id_of(MechanismId::OlsJl), "ols_jl", Family::Gram, PrivacyModel::Approximate,
     kBothRelations, kIdealized, Input::Gram, Output::Matrix,
     "Sheffet ICML 2017 (arXiv 1507.02482) Alg. 1: Laplace sigma_min test, b = 4B^2/eps; "
     "RA if s2 > w^2 (Thm B.1 at eps/2, delta/2); proofs/ols_ptr.md",
     "",
     "proofs/ols_ptr.md", kGramHeader,
     "S^T S / r of R A (no regulariser), for t-tests with r - p dof",
     "eps/2 <= 1, delta/2 < 1/e; refuses when sigma_min(A) is too small",
     {}, GlassoPerturbation::Unsupported, kOptionProjectionRows, "", kInferenceProjectionT,
     kOlsJlRefusal},
    {id_of(MechanismId::GlassoOutputWishart), "glasso_output_wishart", Family::Gram,
     PrivacyModel::NotPrivate, kReplaceOne, kIdealized, Input::Gram, Output::Matrix,
     "Wang-Huai-Xu 2018 Alg. 1 as published: Theta_rho(G/n) + W_d(d+1, d^{5/2}B^2/(n eps "
     "rho^2) I). NOT DP (support argument); audit only; proofs/glasso_output.md",
     "",
     "proofs/glasso_output.md", kGramHeader,
     "graphical-lasso precision matrix + Wishart, PD",
     "none: refused unless unlocked; needs rho",
     {}, GlassoPerturbation::Output, kOptionAuditUnlock | kOptionGlassoRho, "", 0,
     kNotPrivateRefusal},
    {kAdasspId, "adassp", Family::Regression, PrivacyModel::Approximate, kBothRelations,
     kIdealized, Input::Gram, Output::Regression,
     "Wang 2018 (UAI) Alg. 2; joint analytic Gaussian (Balle-Wang 2018 Thm 8); proofs/adassp.md",
     "",
     "proofs/adassp.md", "capi/include/dpcov/adassp.h",
     "ridge coefficients from X'X, X'y and lambda_min perturbed once",
     "eps > 0, 0 < delta < 1, bounds on x and y",
     {}, GlassoPerturbation::Unsupported, 0, "proofs/adassp_units.md"},
    {kDongLiangYiId, "dly", Family::RowsZcdp, PrivacyModel::Zcdp, kReplaceOne, kIdealized,
     Input::Rows, Output::Matrix,
     "Dong, Liang & Yi, NeurIPS 2022 (Gauss; Separate: Alg. 1; Adaptive: Alg. 3) under "
     "rho-zCDP; proofs/dong_liang_yi.md",
     "",
     "proofs/dong_liang_yi.md", "capi/include/dpcov/dong_liang_yi.h",
     "n (X^T X / n + noise): Gauss may be indefinite, Separate PSD, Adaptive chooses by a private "
     "trace",
     "eps > 0, 0 < delta < 1, n public",
     {}, GlassoPerturbation::Unsupported, 0,
     kGroupUnitProof},
    {kCoinpressId, "coinpress", Family::RowsZcdp, PrivacyModel::Zcdp, kReplaceOne, kIdealized,
     Input::Rows, Output::Matrix,
     "Biswas, Dong, Kamath & Ullman, NeurIPS 2020, Alg. 2-3 (CoinPress covariance) under "
     "rho-zCDP; proofs/coinpress.md",
     "",
     "proofs/coinpress.md", "capi/include/dpcov/coinpress.h",
     "n (iterative covariance estimate), PSD",
     "eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
     {}, GlassoPerturbation::Unsupported, 0,
     kGroupUnitProof},
    {kCoinpressMeanId, "coinpress_mean", Family::RowsZcdp, PrivacyModel::Zcdp, kReplaceOne,
     kIdealized, Input::Rows, Output::Vector,
     "Biswas, Dong, Kamath & Ullman, NeurIPS 2020, MVM iterated by MVMRec (CoinPress mean) under "
     "rho-zCDP; proofs/coinpress_mean.md",
     "",
     "proofs/coinpress_mean.md", "capi/include/dpcov/coinpress.h",
     "the private mean, 1 x d",
     "eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
     {}, GlassoPerturbation::Unsupported, 0,
     kGroupUnitProof},
    {kPrivateBoundId, "private_bound", Family::Bound, PrivacyModel::Pure, kBothRelations,
     kIdealized, Input::Rows, Output::Scalar,
     "Sparse vector scan of a public grid: AboveThreshold (Dwork-Roth 2014 Alg. 1, Thm 3.23) on "
     "counts of norms above each bound; proofs/private_bound.md",
     "",
     "proofs/private_bound.md", "capi/include/dpcov/private_bound.h",
     "a norm bound B from the grid",
     "eps_B > 0; a public grid of candidates",
     {}, GlassoPerturbation::Unsupported, 0, "proofs/private_bound.md"},
};

}  // namespace

std::span<const RegistryEntry> registry() { return kRegistry; }

const RegistryEntry *find_entry(int32_t id) {
  for (const RegistryEntry &entry : kRegistry)
    if (entry.id == id) return &entry;
  return nullptr;
}

const RegistryEntry *find_entry(std::string_view name) {
  for (const RegistryEntry &entry : kRegistry)
    if (name == entry.name) return &entry;
  return nullptr;
}

const RegistryEntry &entry_of(int32_t id) {
  const RegistryEntry *entry = find_entry(id);
  if (entry == nullptr) fail(Status::InvalidArgument, "unknown mechanism id ", id);
  return *entry;
}

std::string names_where(const std::function<bool(const RegistryEntry &)> &keep,
                        const char *last,
                        const std::function<const char *(const RegistryEntry &)> &suffix) {
  std::vector<std::string> names;
  for (const RegistryEntry &entry : kRegistry)
    if (keep(entry)) names.push_back(std::string(entry.name) + (suffix ? suffix(entry) : ""));
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? last : ", ";
    out += names[i];
  }
  return out;
}

std::string names_taking(int32_t option) {
  return names_where([option](const RegistryEntry &e) { return (e.options & option) != 0; },
                     " and ");
}

const char *theorem_of(MechanismId mechanism) { return entry_of(id_of(mechanism)).theorem; }

const char *exact_theorem_of(MechanismId mechanism) {
  return entry_of(id_of(mechanism)).exact_theorem;
}

bool supports_units(MechanismId mechanism) {
  const RegistryEntry &entry = entry_of(id_of(mechanism));
  return entry.family == Family::Gram && *entry.unit_proof != '\0';
}

bool units_by_group_privacy(MechanismId mechanism) {
  return std::string_view(entry_of(id_of(mechanism)).unit_proof) == kGroupUnitProof;
}

std::string units_mechanism_names() {
  std::string names;
  for (const RegistryEntry &entry : kRegistry)
    if (entry.family == Family::Gram && *entry.unit_proof != '\0')
      names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names;
}

std::string unit_refusal_message(MechanismId mechanism) {
  const RegistryEntry &entry = entry_of(id_of(mechanism));
  const std::string why =
      *entry.unit_refusal != '\0'
          ? std::string(entry.unit_refusal)
          : "it takes units as rows, exactly k per unit (dpcov_unit_rows_keep), never an "
            "accumulator of units";
  return std::string(entry.name) + " is refused with privacy units: " + why +
         ". The Gram mechanisms that take units: " + units_mechanism_names();
}

}  // namespace dpcov::mechanisms
