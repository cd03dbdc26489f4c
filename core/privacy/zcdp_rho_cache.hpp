// A memo of zcdp_rho_for_epsilon for the calculators that call it on every plan (the exact
// Analyze Gauss): the bisection over the doubles costs about half a millisecond, the answer is a
// pure function of (epsilon, delta), and a run of releases usually repeats one budget.
#pragma once

namespace dpcov::privacy {

// zcdp_rho_for_epsilon(epsilon, delta), bit for bit, remembered for the last few (epsilon, delta)
// pairs (matched by their bit patterns). Safe to call from any number of threads: the memo is
// guarded by a mutex, and the search itself runs outside it. Throws as zcdp_rho_for_epsilon does;
// a failed call leaves the memo as it was.
double zcdp_rho_for_epsilon_cached(double epsilon, double delta);

}  // namespace dpcov::privacy
