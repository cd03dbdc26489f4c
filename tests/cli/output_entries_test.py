"""An output and its receipt that are one directory entry however spelt (``a.csv`` and
``./a.csv``, ``sub/../a.csv``, or the same name through a linked directory) are refused as a usage
error before anything is read or written. They were compared as strings only: ``-o a.csv
--receipt ./a.csv`` exited 0 with the receipt renamed over the matrix, the release gone.

Run by meson as: /usr/bin/python3 output_entries_test.py DPCOV_EXECUTABLE
"""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

DPCOV = None
EXIT_OK, EXIT_USAGE = 0, 1

COMMANDS = [
    ["release", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "3", "-q",
     "--seed", "1"],
    ["gram", "--bound", "3", "-q"],
]


class OutputEntriesTest(unittest.TestCase):
    def run_in(self, tmp, args):
        return subprocess.run([DPCOV] + args, cwd=tmp, capture_output=True, text=True,
                              timeout=120)

    def test_one_entry_spelt_two_ways_is_refused_before_anything_is_written(self):
        with tempfile.TemporaryDirectory() as tmp:
            np.savetxt(os.path.join(tmp, "x.csv"),
                       np.random.default_rng(5).normal(size=(100, 3)), delimiter=",")
            os.mkdir(os.path.join(tmp, "real"))
            os.mkdir(os.path.join(tmp, "sub"))
            os.symlink("real", os.path.join(tmp, "link"))
            before = sorted(os.listdir(tmp))
            for command in COMMANDS:
                for out, receipt in (("a.csv", "./a.csv"), ("a.csv", "sub/../a.csv"),
                                     ("./a.npy", "a.npy"), ("link/a.csv", "real/a.csv"),
                                     ("real/a.csv", "link/./a.csv")):
                    args = command[:1] + ["x.csv", "-o", out, "--receipt", receipt] + command[1:]
                    result = self.run_in(tmp, args)
                    self.assertEqual(result.returncode, EXIT_USAGE, (args, result.stderr))
                    self.assertIn("--receipt must differ from the output path", result.stderr)
                    self.assertEqual(sorted(os.listdir(tmp)), before, args)
                    self.assertEqual(os.listdir(os.path.join(tmp, "real")), [], args)
                # Distinct entries still work.
                args = (command[:1] + ["x.csv", "-o", "a.csv", "--receipt", "real/a.csv"]
                        + command[1:])
                result = self.run_in(tmp, args)
                self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr))
                with open(os.path.join(tmp, "a.csv")) as f:
                    self.assertNotIn("{", f.read())
                for name in os.listdir(tmp):
                    if name.startswith("a."):
                        os.remove(os.path.join(tmp, name))
                for name in os.listdir(os.path.join(tmp, "real")):
                    os.remove(os.path.join(tmp, "real", name))


if __name__ == "__main__":
    DPCOV = os.path.abspath(sys.argv.pop(1))
    unittest.main()
