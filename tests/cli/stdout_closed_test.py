"""A release with `-o -` whose reader has gone (a closed pipe, `| head` done reading) fails as a
write error (exit 5) and leaves neither receipt nor curator file, on every release path that
writes standard output. With SIGPIPE's default action the command was killed mid-write (status
141 in a shell) and left the receipt and curator file of a matrix it never delivered.

Run by meson as: /usr/bin/python3 stdout_closed_test.py DPCOV_EXECUTABLE
"""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

DPCOV = None
EXIT_IO = 5

PATHS = [
    ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "3"],
    ["-m", "laplace_sym", "-e", "1", "--bound", "3", "--numerics", "idealized"],
    ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "auto"],
    ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bounds", "-4:4"],
    ["-m", "dly_adaptive", "-e", "1", "-d", "1e-6", "--bound", "3"],
    ["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4"],
    ["-m", "coinpress_mean", "-e", "1", "-d", "1e-6", "--mean-radius", "3"],
]


class ClosedStandardOutputTest(unittest.TestCase):
    def test_a_closed_reader_is_a_write_error_that_leaves_no_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "x.csv")
            np.savetxt(data, np.random.default_rng(5).normal(size=(400, 3)), delimiter=",")
            for args in PATHS:
                receipt = os.path.join(tmp, "r.json")
                read_end, write_end = os.pipe()
                os.close(read_end)  # the reader is gone before the matrix is written
                try:
                    result = subprocess.run(
                        [DPCOV, "release", data, "-o", "-", "--receipt", receipt, "-q",
                         "--seed", "1"] + args,
                        stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
                finally:
                    os.close(write_end)
                self.assertEqual(result.returncode, EXIT_IO, (args, result.stderr))
                self.assertIn("<stdout>: write error", result.stderr)
                self.assertEqual(sorted(os.listdir(tmp)), ["x.csv"], args)


if __name__ == "__main__":
    DPCOV = sys.argv.pop(1)
    unittest.main()
