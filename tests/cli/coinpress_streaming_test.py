"""`dpcov release -m coinpress_mean` and `-m coinpress --center` read their input once per pass
(the library's sessions; the covariance's rows centred on the private mean by the library as they
are added) instead of holding the rows: their peak memory does not grow with the number of rows,
and a seeded release gives what the in-memory releases gave (known answers recorded from the
in-memory version, the input in one chunk: the mean's bytes, the covariance's up to the BLAS's
summation order), from a file and from standard input alike. In
other chunks the mean is the same bytes (its sums are per row) and the covariance equal up to the
rounding of the chunks' compensated sums.

Run by meson as: /usr/bin/python3 coinpress_streaming_test.py DPCOV
"""
import json
import math
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase

MEAN = ["-m", "coinpress_mean", "--mean-radius", "100", "-e", "2", "-d", "1e-6", "--seed", "5"]
CENTRED = ["-m", "coinpress", "--center", "--mean-radius", "100", "--k-bound", "10", "-e", "2",
           "-d", "1e-6", "--seed", "5"]
# Written by the in-memory releases (dpcov_coinpress_mean_release, then dpcov_coinpress_release
# on the rows centred by the command) before they streamed, on the rows of known_rows().
KNOWN_MEAN = ["0x1.4096bd3b48f61p+5", "-0x1.e1e23a11beac7p+3", "0x1.90887e23a5b2ap+1"]
KNOWN_CENTRED = ["0x1.1a900863f98d9p+10", "-0x1.8a2c9f128f4c4p+7", "0x1.8a05f86dc1f9dp+8",
                 "-0x1.8a2c9f128f4c4p+7", "0x1.31a717bb68e2cp+9", "-0x1.eec0c00137e42p+8",
                 "0x1.8a05f86dc1f9dp+8", "-0x1.eec0c00137e42p+8", "0x1.2bc30d809b6e4p+10"]
KNOWN_CENTRING_MEAN = ["0x1.46f54321ed8d3p+5", "-0x1.fb39737a677b9p+3", "0x1.2c92392cec7a6p+2"]

# Peak RSS of one run of the command given as arguments, in KiB (the child's own, measured in a
# fresh interpreter: RUSAGE_CHILDREN of this one is a running maximum over every run).
PEAK_RSS = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def known_rows():
    """500 rows of 3 columns around (40, -15, 3), as exact decimal strings (repr round-trips)."""
    lines = ["a,b,c"]
    for i in range(500):
        row = [40.0 + 2.0 * math.sin(0.7 * i),
               -15.0 + math.sin(1.3 * i + 1.0) + 0.5 * math.sin(0.7 * i),
               3.0 + 0.5 * math.cos(0.37 * i)]
        lines.append(",".join(repr(v) for v in row))
    return ("\n".join(lines) + "\n").encode()


class CoinpressStreaming(DpcovCase):
    def release(self, args, source, stdin=None, extra=()):
        out = self.path("out.npy")
        result = subprocess.run([DpcovCase.dpcov, "release", source] + args + list(extra) +
                                ["--quiet", "-o", out], input=stdin, capture_output=True,
                                timeout=300)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            return np.load(out), json.load(f)

    def test_seeded_releases_give_the_in_memory_bytes_from_a_file_and_standard_input(self):
        data = known_rows()
        path = self.path("rows.csv")
        with open(path, "wb") as f:
            f.write(data)
        for args, known in ((MEAN, KNOWN_MEAN), (CENTRED, KNOWN_CENTRED)):
            first = None
            for source, stdin in ((path, None), ("-", data)):
                with self.subTest(mechanism=args[1], center="--center" in args, source=source):
                    released, receipt = self.release(args, source, stdin)
                    bits = [float(v).hex() for v in released.ravel()]
                    first = bits if first is None else first
                    self.assertEqual(bits, first, "a file and standard input differ")
                    if "--center" in args:
                        # The covariance's whitening runs through BLAS, whose summation order
                        # (its thread count, its kernels) moves the last bits: equal to the known
                        # answer within a few ulps, and byte for byte between the two sources.
                        np.testing.assert_allclose(released.ravel(),
                                                   [float.fromhex(v) for v in known],
                                                   rtol=1e-13, atol=0)
                    else:
                        self.assertEqual(bits, known)
                    if "--center" in args:
                        self.assertEqual([float(v).hex() for v in receipt["centring"]["mean"]],
                                         KNOWN_CENTRING_MEAN)

    def test_other_chunks_give_the_same_mean_and_the_covariance_up_to_rounding(self):
        path = self.path("rows.csv")
        with open(path, "wb") as f:
            f.write(known_rows())
        mean, _ = self.release(MEAN, path, extra=["--chunk-rows", "7"])
        self.assertEqual([float(v).hex() for v in mean.ravel()], KNOWN_MEAN)
        centred, receipt = self.release(CENTRED, path, extra=["--chunk-rows", "7"])
        self.assertEqual([float(v).hex() for v in receipt["centring"]["mean"]],
                         KNOWN_CENTRING_MEAN)
        known = np.array([float.fromhex(v) for v in KNOWN_CENTRED]).reshape(3, 3)
        # Compensated sums of 500 whitened rows of norm <= gamma (about 2.8): a few ulps of their
        # total, carried through three steps; the entries are about 1e3.
        self.assertLess(np.max(np.abs(centred - known)), 1e-9 * np.max(np.abs(known)))

    def peak_rss_kib(self, path, args):
        command = [DpcovCase.dpcov, "release", path, "--format", "raw", "--dims", "8",
                   "--chunk-rows", "1000", "-q", "-o", self.path("m.npy")] + args
        result = subprocess.run(["/usr/bin/python3", "-c", PEAK_RSS] + command,
                                capture_output=True, text=True, timeout=300, check=True)
        return int(result.stdout)

    def test_peak_memory_does_not_grow_with_the_rows(self):
        # 50000 and 400000 rows of 8 columns (raw float64): holding the rows cost 350000 x 8 x 8
        # bytes = 22 MB more for the larger input (coinpress_mean), and as much again for the
        # whitened copy (coinpress --center); streaming costs the same at both sizes.
        gen = np.random.default_rng(361)
        paths = []
        for rows in (50000, 400000):
            paths.append(self.path(f"rows{rows}.bin"))
            (gen.standard_normal((rows, 8)) + 3.0).astype("<f8").tofile(paths[-1])
        for args in (MEAN, CENTRED):
            with self.subTest(center="--center" in args):
                peaks = [self.peak_rss_kib(path, args) for path in paths]
                self.assertLess(peaks[1] - peaks[0], 5 * 1024, f"peak RSS {peaks} KiB")


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
