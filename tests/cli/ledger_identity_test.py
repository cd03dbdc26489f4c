"""`--ledger FILE` is the file the path resolves to, whatever name reaches it: a symbolic link to
the ledger, a link to its directory and the real name charge one budget, runs through different
names are serialised by one lock, a link to a ledger that does not exist is refused, and so is a
ledger with a second hard link (a rename-replace would split it into two ledgers). Each case
overspent a cap of 1 before: 0.6, 0.3 and 0.3 through two names all succeeded, and five concurrent
releases of 0.3 through five names all succeeded.

Run by meson as: /usr/bin/python3 ledger_identity_test.py DPCOV_EXECUTABLE
"""
import json
import os
import subprocess
import sys
import unittest

from cli_case import EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase
from ledger_case import CAPS, LedgerCase


class LedgerIdentity(LedgerCase):
    def setUp(self):
        super().setUp()
        os.mkdir(self.path("sub"))
        self.real = self.path("sub/L.json")
        self.link = self.path("M.json")
        os.symlink("sub/L.json", self.link)

    def book(self):
        with open(self.real) as f:
            return json.load(f)

    def test_a_link_and_its_target_are_one_ledger_refused_at_the_third_release(self):
        for second, third in ((self.link, self.real), (self.real, self.link)):
            if os.path.exists(self.real):
                os.remove(self.real)
            result = self.release(self.real, 0.6, CAPS)
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            result = self.release(second, 0.3)
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            result = self.release(third, 0.3)
            self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
            self.assertIn("cap would be exceeded", result.stderr.decode())
            # The link is still a link to the one ledger, which holds both charges.
            self.assertTrue(os.path.islink(self.link))
            self.assertEqual([c["epsilon"] for c in self.book()["charges"]], [0.6, 0.3])
            self.assertFalse(os.path.exists(self.real + ".lock"))
            self.assertFalse(os.path.exists(self.link + ".lock"))

    def test_a_ledger_keeps_its_mode_through_a_link(self):
        result = self.release(self.real, 0.1, CAPS)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        os.chmod(self.real, 0o600)
        result = self.release(self.link, 0.1)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertEqual(os.stat(self.real).st_mode & 0o777, 0o600)
        self.assertEqual(len(self.book()["charges"]), 2)

    def test_a_link_to_a_ledger_that_does_not_exist_is_refused(self):
        result = self.release(self.link, 0.1, CAPS)
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
        self.assertIn("symbolic link to sub/L.json, which does not exist", result.stderr.decode())
        self.assertFalse(os.path.exists(self.real))
        self.assertTrue(os.path.islink(self.link))

    def test_a_ledger_with_a_second_hard_link_is_refused_by_both_names(self):
        result = self.release(self.real, 0.1, CAPS)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(self.real, "rb") as f:
            before = f.read()
        hard = self.path("H.json")
        os.link(self.real, hard)
        for name in (hard, self.real, self.link):
            result = self.release(name, 0.1)
            self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
            self.assertIn("2 hard links", result.stderr.decode())
            self.assertIn("remove the other links", result.stderr.decode())
        for name in (hard, self.real):
            with open(name, "rb") as f:
                self.assertEqual(f.read(), before)

    def test_concurrent_releases_through_different_names_do_not_overspend(self):
        # 0.1 spent, then five releases of 0.3 at once, each through its own name: at most three
        # fit in the cap of 1, and every one that succeeded is in the one ledger.
        result = self.release(self.real, 0.1, CAPS)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        os.symlink("sub", self.path("sub2"))
        os.symlink("M.json", self.path("N.json"))
        names = [self.real, self.link, self.path("sub2/L.json"), self.path("N.json"),
                 self.path("sub/../sub/L.json")]
        runs = [subprocess.Popen([DpcovCase.dpcov] + self.release_args(name, 0.3),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for name in names]
        codes = []
        for run in runs:
            _, err = run.communicate(timeout=120)
            codes.append(run.returncode)
            self.assertIn(run.returncode, (EXIT_OK, EXIT_PRIVACY), err.decode())
        book = self.book()
        self.assertLessEqual(codes.count(EXIT_OK), 3, codes)
        self.assertEqual(len(book["charges"]), 1 + codes.count(EXIT_OK), codes)
        self.assertLessEqual(book["spent"]["epsilon"], 1.0)
        for name in ("M.json", "N.json", "sub2"):
            self.assertTrue(os.path.islink(self.path(name)), name)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
