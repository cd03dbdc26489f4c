#include "interrupt.hpp"

#include <cstring>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

constexpr int kDeferred[] = {SIGINT, SIGTERM, SIGHUP};

volatile std::sig_atomic_t g_signal = 0;

extern "C" void note_signal(int signal) { g_signal = signal; }

}  // namespace

InterruptDeferral::InterruptDeferral() {
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  // Reads are restarted: the command ends at its next check, not inside a read.
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < 3; ++i) sigaction(kDeferred[i], &action, &previous_[i]);
}

InterruptDeferral::~InterruptDeferral() {
  for (int i = 0; i < 3; ++i) sigaction(kDeferred[i], &previous_[i], nullptr);
}

void check_interrupted() {
  const int signal = g_signal;
  if (signal != 0)
    fail(128 + signal, "interrupted by ", strsignal(signal), ": nothing was written");
}

int interrupted_signal() { return g_signal; }

}  // namespace dpcov::cli
