"""`dpcov release` of analyze_gauss and laplace_sym uses exact numerics by default with every bound
option the command accepts (--bound B, --bound auto, --bounds, --add-constant, their combinations,
--clip and --reject): the public receipt says `numerics: exact`; `--numerics idealized` opts out
and says so. With --bounds the constant 1 is a count column on the grid, divided out of the
release (proofs/column_bounds.md, "Exact numerics"). The exact --bounds path streams: its peak
memory does not grow with the number of rows. Fixed seeds; each statistical assertion's false-
failure rate is stated where it is made.

Run by meson as: /usr/bin/python3 exact_default_test.py DPCOV
"""
import json
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase

# Every bound option and combination `release` accepts, with the policies each takes (--reject
# does not apply to --bound auto, which clips to the bound it chooses, nor to --bounds, which
# clamps values into their ranges; release has no --drop).
OPTIONS = [
    (["--bound", "2"], ("--clip", "--reject")),
    (["--bound", "2", "--add-constant"], ("--clip", "--reject")),
    (["--bound", "auto"], ("--clip",)),
    (["--bound", "auto", "--add-constant"], ("--clip",)),
    (["--bounds", "-1:1"], ("--clip",)),
]
MECHANISMS = [("analyze_gauss", ["-d", "1e-6"]), ("laplace_sym", [])]

# Peak RSS of one run of the command given as arguments, in KiB (the child's own, measured in a
# fresh interpreter: RUSAGE_CHILDREN of this one is a running maximum over every run).
PEAK_RSS = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def write_csv(path, a, fmt="%.6f"):
    header = ",".join(f"x{j}" for j in range(a.shape[1]))
    np.savetxt(path, a, fmt=fmt, delimiter=",", header=header, comments="")


class ExactByDefault(DpcovCase):
    def release(self, args, output="r.npy"):
        out = self.path(output)
        result = self.run_dpcov(["release"] + args + ["-q", "-o", out])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            return np.load(out), json.load(f)

    def test_every_bound_option_releases_with_exact_numerics_unless_told_otherwise(self):
        gen = np.random.default_rng(351)
        x = gen.uniform(-0.5, 0.5, size=(400, 3))
        write_csv(self.path("a.csv"), x)
        for mechanism, extra in MECHANISMS:
            for option, policies in OPTIONS:
                for policy in policies:
                    args = [self.path("a.csv"), "-m", mechanism, "-e", "1", "--seed", "7",
                            policy] + option + extra
                    with self.subTest(mechanism=mechanism, option=option, policy=policy):
                        released, receipt = self.release(args)
                        self.assertEqual(receipt["numerics"], "exact")
                        self.assertIn("exact numerics", receipt["privacy_claim"])
                        self.assertIn("exact_grid", receipt)
                        self.assertTrue(np.array_equal(released, released.T))
                        if "--bounds" in option:
                            self.assertIn("exact_grid_constant", receipt["scaling"])
                        _, idealized = self.release(args + ["--numerics", "idealized"],
                                                    output="i.npy")
                        self.assertEqual(idealized["numerics"], "idealized")
                        self.assertNotIn("exact_grid", idealized)
                        self.assertNotIn("exact_grid_constant", idealized.get("scaling", {}))
                        _, explicit = self.release(args + ["--numerics", "exact"])
                        self.assertEqual(explicit, receipt)

    def test_bounds_divide_the_constant_column_out_of_an_exact_release(self):
        # d = 50: the rows [1, z] have bound B = sqrt(51) (rounded up) and the grid unit
        # v = B 2^-12 does not divide 1, so the constant holds c = round(2^12 / B) v = 1.00077
        # on the grid. Entry (const, const) of the release estimates n only once divided by c^2:
        # undivided it would be off by (c^2 - 1) n = 62 at n = 40000. The noise of that entry has
        # sd sigma / c^2 (sigma in the receipt, 1.8 at epsilon 1000): |entry - n| <= 6 sigma
        # fails with probability about 2e-9 (a discrete Gaussian's tail is below the continuous
        # one's times 1 + 1e-9 at this s2); the seed is fixed, so the test is deterministic.
        n, d = 40000, 50
        write_csv(self.path("wide.csv"), np.zeros((n, d)), fmt="%.0f")
        released, receipt = self.release([self.path("wide.csv"), "-m", "analyze_gauss", "-e",
                                          "1000", "-d", "1e-6", "--bounds", "-1:1", "--seed",
                                          "35"])
        grid = receipt["exact_grid"]
        c = receipt["scaling"]["exact_grid_constant"]
        self.assertEqual(c, round(2.0 ** grid["bits"] / receipt["bound"]) * grid["unit"])
        sigma = receipt["sigma"]
        self.assertGreater((c * c - 1) * n, 12 * sigma)  # the division matters at this n
        self.assertLess(abs(released[0, 0] - n), 6 * sigma)
        # Rows of zeros: the column sums, entries (const, j), are noise alone (sd sigma / c).
        self.assertLess(np.max(np.abs(released[0, 1:])), 6 * sigma)

    def peak_rss_kib(self, path):
        out = self.path("m.npy")
        command = [DpcovCase.dpcov, "release", path, "-m", "analyze_gauss", "-e", "1", "-d",
                   "1e-6", "--bounds", "-1:1", "--chunk-rows", "1000", "--seed", "1", "-q", "-o",
                   out]
        result = subprocess.run(["/usr/bin/python3", "-c", PEAK_RSS] + command,
                                capture_output=True, text=True, timeout=300, check=True)
        with open(out + ".json") as f:
            self.assertEqual(json.load(f)["numerics"], "exact")
        return int(result.stdout)

    def test_an_exact_bounds_release_streams_in_memory_independent_of_the_rows(self):
        # 200000 and 800000 rows of 8 columns, read in chunks of 1000: holding the rows would cost
        # 600000 x 9 x 8 bytes = 43 MB more for the larger input; streaming costs the same. (Both
        # files are over 8 MB, where the reader's byte buffer stops growing with the file: below
        # it the peak grows by the file's size, about 7 MB from 20000 rows to 150000.)
        gen = np.random.default_rng(352)
        peaks = []
        for rows in (200000, 800000):
            path = self.path(f"rows{rows}.csv")
            write_csv(path, gen.uniform(-1, 1, size=(rows, 8)), fmt="%.3f")
            peaks.append(self.peak_rss_kib(path))
        self.assertLess(peaks[1] - peaks[0], 5 * 1024, f"peak RSS {peaks} KiB")


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
