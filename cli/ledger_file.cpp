#include "ledger_file.hpp"

#include <fstream>
#include <sys/stat.h>

#include "cli_error.hpp"
#include "private_bound_option.hpp"
#include "json_text.hpp"
#include "library_status.hpp"
#include "writers/atomic_file.hpp"
#include "writers/matrix_writer.hpp"

namespace dpcov::cli {

namespace {

int32_t accounting_value(const std::string &name) {
  if (name == "basic") return DPCOV_ACCOUNTING_BASIC;
  if (name == "zcdp") return DPCOV_ACCOUNTING_ZCDP;
  if (name == "advanced") return DPCOV_ACCOUNTING_ADVANCED;
  fail(kExitUsage, "--accounting must be basic, zcdp or advanced, got ", name);
}

// The fields of a receipt a charge depends on (dpcov_ledger_charge), as a ledger entry.
nlohmann::ordered_json entry_of(const dpcov_receipt &r, const std::string &output) {
  return {{"mechanism", r.mechanism == kBoundStepMechanism ? "bound_auto"
                                                          : dpcov_mechanism_name(r.mechanism)},
          {"mechanism_id", r.mechanism},
          {"epsilon", r.epsilon},
          {"delta", r.delta},
          {"sensitivity", r.sensitivity},
          {"sensitivity_norm", r.sensitivity_norm},
          {"sigma", r.sigma},
          {"output", output}};
}

dpcov_receipt receipt_of(const nlohmann::ordered_json &entry) {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  r.mechanism = entry.at("mechanism_id").get<int32_t>();
  r.epsilon = entry.at("epsilon").get<double>();
  r.delta = entry.at("delta").get<double>();
  r.sensitivity = entry.at("sensitivity").get<double>();
  r.sensitivity_norm = entry.at("sensitivity_norm").get<int32_t>();
  r.sigma = entry.at("sigma").get<double>();
  return r;
}

bool exists(const std::string &path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

LedgerFile::LedgerFile(const LedgerOptions &o) : path_(o.path) {
  if (exists(path_)) {
    std::ifstream in(path_);
    if (!in) fail(kExitIo, path_, ": cannot open the ledger");
    try {
      file_ = nlohmann::ordered_json::parse(in);
      const double eps = file_.at("epsilon_cap").get<double>();
      const double delta = file_.at("delta_cap").get<double>();
      if ((o.epsilon_cap && *o.epsilon_cap != eps) || (o.delta_cap && *o.delta_cap != delta))
        fail(kExitUsage, path_, ": the ledger's cap is (", eps, ", ", delta,
             "); a cap is set when the ledger is created and never changed");
      ledger_ = replay();
    } catch (const nlohmann::json::exception &e) {
      fail(kExitInputData, path_, ": not a dpcov ledger (", e.what(), ")");
    }
    return;
  }
  if (!o.epsilon_cap)
    fail(kExitUsage, path_, " does not exist: a new ledger needs its total budget, ",
         "--ledger-epsilon (and --ledger-delta for (epsilon, delta) mechanisms)");
  const double delta = o.delta_cap.value_or(0.0);
  library_check(dpcov_ledger_create(&ledger_, accounting_value(o.accounting), *o.epsilon_cap, delta),
                "creating the ledger");
  check_writable(path_);
  file_ = {{"ledger", "dpcov privacy budget: every release charged against the cap"},
           {"accounting", o.accounting},
           {"epsilon_cap", *o.epsilon_cap},
           {"delta_cap", delta},
           {"charges", nlohmann::ordered_json::array()}};
}

LedgerFile::~LedgerFile() { dpcov_ledger_destroy(&ledger_); }

dpcov_ledger *LedgerFile::replay() const {
  dpcov_ledger *ledger = nullptr;
  library_check(dpcov_ledger_create(&ledger,
                                    accounting_value(file_.at("accounting").get<std::string>()),
                                    file_.at("epsilon_cap").get<double>(),
                                    file_.at("delta_cap").get<double>()),
                path_);
  try {
    for (const auto &entry : file_.at("charges")) {
      const dpcov_receipt r = receipt_of(entry);
      library_check(dpcov_ledger_charge(ledger, &r), concat(path_, ": replaying a charge"));
    }
  } catch (...) {
    dpcov_ledger_destroy(&ledger);
    throw;
  }
  return ledger;
}

void LedgerFile::check(const std::vector<dpcov_receipt> &receipts) const {
  // On a copy: the releases after the first are checked against what the earlier ones leave.
  dpcov_ledger *scratch = replay();
  try {
    for (const dpcov_receipt &r : receipts)
      library_check(dpcov_ledger_charge(scratch, &r), concat("ledger ", path_));
  } catch (...) {
    dpcov_ledger_destroy(&scratch);
    throw;
  }
  dpcov_ledger_destroy(&scratch);
}

nlohmann::ordered_json LedgerFile::summary() const {
  dpcov_ledger_spent s{};
  s.struct_size = sizeof s;
  library_check(dpcov_ledger_get_spent(ledger_, &s), "reading the ledger");
  return {{"releases", s.charges},
          {"epsilon", s.epsilon},
          {"delta", s.delta},
          {"rho", s.rho},
          {"epsilon_cap", s.epsilon_cap},
          {"delta_cap", s.delta_cap}};
}

void LedgerFile::charge(const std::vector<dpcov_receipt> &receipts, const std::string &output) {
  check(receipts);
  for (const dpcov_receipt &r : receipts) {
    library_check(dpcov_ledger_charge(ledger_, &r), concat("ledger ", path_));
    file_["charges"].push_back(entry_of(r, output));
  }
  file_["spent"] = summary();
  AtomicFile out(path_);
  write_text(out.stream(), json_text(file_), path_);
  out.commit();
}

}  // namespace dpcov::cli
