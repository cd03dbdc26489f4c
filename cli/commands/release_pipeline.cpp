#include "release_pipeline.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "../options/private_bound_option.hpp"

namespace dpcov::cli {

std::unique_ptr<LedgerFile> checked_ledger(
    const LedgerOptions &options,
    const std::function<std::vector<LedgerCharge>(const LedgerFile &)> &planned) {
  if (options.path.empty()) return nullptr;
  auto ledger = std::make_unique<LedgerFile>(options);
  ledger->check(planned(*ledger));
  return ledger;
}

std::vector<LedgerCharge> charges_with_bound_step(const LedgerFile *ledger, double bound_epsilon,
                                                  LedgerCharge release) {
  if (bound_epsilon == 0.0) return {release};
  if (!ledger || ledger->accounting() != "advanced")
    return {LedgerCharge::bound_step(bound_epsilon), release};
  dpcov_receipt &r = release.receipt;
  // A Gram mechanism's charge reads its sensitivity and sigma, not rho (an advanced ledger
  // charges (epsilon, delta) alone); a release stated in zCDP states rho, which must still cover
  // both steps.
  if (r.rho > 0.0)
    r.rho = std::nextafter(r.rho + bound_epsilon * bound_epsilon / 2.0,
                           std::numeric_limits<double>::infinity());
  r.epsilon = epsilon_together(bound_epsilon, r.epsilon);
  release.bound_epsilon = bound_epsilon;
  return {release};
}

ReleaseDraws::ReleaseDraws(LedgerFile *ledger, std::function<std::vector<LedgerCharge>()> planned,
                           const std::optional<uint64_t> &seed, std::string output,
                           SeedWarning warning)
    : ledger_(ledger),
      planned_(std::move(planned)),
      output_(std::move(output)),
      rng_(make_rng(seed)),
      since_(rng_.get()),
      guard_(ledger_, since_, planned_, output_) {
  // Printed even under --quiet: a known seed removes the privacy of the noise.
  if (seed)
    std::fprintf(stderr,
                 "dpcov %s: warning: %s fixes the noise; anyone who knows the seed can remove it "
                 "(for experiments and tests only)\n",
                 warning.command, warning.option);
}

void ReleaseDraws::check(dpcov_status status, const std::string &context) const {
  release_check(status, ledger_, ledger_ ? planned_() : std::vector<LedgerCharge>{}, output_,
                context, since_);
}

void ReleaseDraws::charge(const std::vector<LedgerCharge> &charges,
                          const std::string &output) const {
  if (ledger_) ledger_->charge(charges, output);
}

}  // namespace dpcov::cli
