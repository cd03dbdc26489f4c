"""A mistyped command or option of the dpcov command: exit code 1 (usage) and the closest known
name, nothing suggested when nothing is close.

Run by meson as: /usr/bin/python3 did_you_mean_test.py DPCOV_EXECUTABLE
"""
import sys
import unittest

from cli_case import EXIT_USAGE, DpcovCase


class DidYouMean(DpcovCase):
    def expect_hint(self, args, hint):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr)
        self.assertIn(hint, result.stderr.decode())

    def test_mistyped_commands(self):
        for typed, meant in [("relase", "release"), ("reelase", "release"), ("regres", "regress"),
                             ("mechanism", "mechanisms"), ("comapre", "compare"), ("pc", "pca")]:
            with self.subTest(typed=typed):
                self.expect_hint([typed], f"unknown command '{typed}'; did you mean '{meant}'?")

    def test_nothing_close(self):
        result = self.run_dpcov(["frobnicate"])
        self.assertEqual(result.returncode, EXIT_USAGE)
        self.assertIn("unknown command 'frobnicate' (dpcov --help", result.stderr.decode())
        self.assertNotIn("did you mean", result.stderr.decode())

    def test_mistyped_option(self):
        self.expect_hint(["release", "--epsilom", "1", "data.csv"],
                         "unknown option '--epsilom'; did you mean '--epsilon'?")
        self.expect_hint(["pca", "x.npy", "--compar=y.npy"],
                         "unknown option '--compar'; did you mean '--compare'?")


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
