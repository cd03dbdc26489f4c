"""Long test of the dpcov command on a large generated input (suite `long`): a CSV of about 1 GB
(a block of 1000 random rows repeated), read from a file and from standard input, streams in
bounded memory and gives the Gram matrix of every row; its default (exact) private release streams
too, the same bytes from the file and from standard input.

The expected Gram is the block's exact Gram (NumPy, float64) times the number of repetitions; the
library sums chunks with compensation, so the two agree to 1e-11 relative (the block's Gram is
itself rounded once per entry). Peak memory is the largest resident set of the dpcov processes
(getrusage of the children): it must stay below 100 MB, against a 1 GB input.

Run by meson as: /usr/bin/python3 large_input_test.py DPCOV_EXECUTABLE [MEGABYTES]
"""
import os
import resource
import subprocess
import sys
import tempfile
import unittest

import numpy as np

from cli_case import DpcovCase

MEGABYTES = 1000
COLUMNS = 10
BLOCK_ROWS = 1000
RSS_LIMIT_MB = 100
RELATIVE_TOLERANCE = 1e-11


class LargeInput(DpcovCase):
    @classmethod
    def setUpClass(cls):
        rng = np.random.default_rng(20261123)
        block = rng.uniform(-0.3, 0.3, size=(BLOCK_ROWS, COLUMNS))
        text = "".join(",".join(repr(float(x)) for x in row) + "\n" for row in block)
        cls.repetitions = max(1, MEGABYTES * 1_000_000 // len(text))
        # The block's values are written with repr, which round-trips: the file holds them exactly.
        cls.expected = block.T @ block * cls.repetitions
        cls.rows = BLOCK_ROWS * cls.repetitions
        handle, cls.csv = tempfile.mkstemp(prefix="dpcov-large-", suffix=".csv")
        with os.fdopen(handle, "w") as f:
            f.write(",".join(f"c{j}" for j in range(COLUMNS)) + "\n")
            for _ in range(cls.repetitions):
                f.write(text)

    @classmethod
    def tearDownClass(cls):
        os.remove(cls.csv)

    def gram(self, source, stdin=None):
        out = self.path("gram.npy")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        result = subprocess.run([DpcovCase.dpcov, "gram", source, "--bound", "1", "-o", out,
                                 "--quiet"], stdin=stdin, capture_output=True, timeout=1800)
        self.assertEqual(result.returncode, 0, result.stderr.decode())
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        return np.load(out), peak_mb, before

    def check(self, g, peak_mb, before):
        scale = np.max(np.abs(self.expected))
        self.assertLess(np.max(np.abs(g - self.expected)) / scale, RELATIVE_TOLERANCE)
        # ru_maxrss of the children is a running maximum: it bounds this run only if it grew here
        # or stayed below the limit before (both cases are checked by the bound itself).
        self.assertLess(peak_mb, RSS_LIMIT_MB, f"peak RSS {peak_mb:.1f} MB (before: {before / 1024:.1f})")
        print(f"\n{os.path.getsize(self.csv) / 1e6:.0f} MB, {self.rows} rows: peak RSS {peak_mb:.1f} MB")

    def test_a_large_file_streams_in_bounded_memory(self):
        self.check(*self.gram(self.csv))

    def test_a_large_standard_input_streams_in_bounded_memory(self):
        with open(self.csv, "rb") as f:
            self.check(*self.gram("-", stdin=f))

    def release(self, source, chunk_rows, stdin=None):
        out = self.path(f"released-{chunk_rows}.npy")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        result = subprocess.run([DpcovCase.dpcov, "release", "--mechanism", "analyze_gauss",
                                 "--epsilon", "1", "--delta", "1e-6", "--bound", "1", "--seed",
                                 "3", "--chunk-rows", chunk_rows, "--quiet", source, "-o", out],
                                stdin=stdin, capture_output=True, timeout=1800)
        self.assertEqual(result.returncode, 0, result.stderr.decode())
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        self.assertLess(peak_mb, RSS_LIMIT_MB, f"peak RSS {peak_mb:.1f} MB (before: {before / 1024:.1f})")
        with open(out + ".json") as f:
            receipt = f.read()
        with open(out, "rb") as f:
            return f.read(), receipt

    def test_a_private_release_of_the_large_input_streams_and_is_the_same_from_a_pipe(self):
        # The default numerics of analyze_gauss are exact: the rows stream through the exact
        # accumulator in bounded memory (they were once held, n d doubles), and a seeded release
        # from the file equals the one from standard input in other chunks, byte for byte.
        from_file, receipt = self.release(self.csv, "65536")
        self.assertIn('"numerics": "exact"', receipt)
        self.assertIn(f'"n": {self.rows}', receipt)
        with open(self.csv, "rb") as f:
            from_pipe, _ = self.release("-", "4099", stdin=f)
        self.assertEqual(from_file, from_pipe)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    if len(sys.argv) > 2:
        MEGABYTES = int(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
