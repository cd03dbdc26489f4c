"""The harness shared by the end-to-end tests of the dpcov command: the program under test, its
documented exit codes, and a temporary directory per test."""
import os
import shutil
import subprocess
import tempfile
import unittest

# Exit codes documented in `dpcov --help`.
(EXIT_OK, EXIT_USAGE, EXIT_INPUT, EXIT_PRIVACY, EXIT_INTERNAL, EXIT_IO, EXIT_VIOLATION,
 EXIT_LEDGER) = range(8)


class DpcovCase(unittest.TestCase):
    """A test with its own temporary directory that runs the dpcov executable."""

    dpcov = None  # path of the executable, set by the test file before unittest.main()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dpcov-test-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_dpcov(self, args, stdin=None):
        return subprocess.run([DpcovCase.dpcov] + args, input=stdin, capture_output=True,
                              timeout=120)
