"""`dpcov --help` is a map that fits on a screen: one line per command (its summary), then where
the details are; each command's own --help keeps the full description and the exit codes.

Run by meson as: /usr/bin/python3 top_help_test.py DPCOV_EXECUTABLE
"""
import re
import sys
import unittest

from cli_case import DpcovCase

MAX_WIDTH = 100


class TopHelp(DpcovCase):
    def test_one_short_line_per_command(self):
        text = self.run_dpcov(["--help"]).stdout.decode()
        listing = text.split("Subcommands:\n")[1].split("\n\n")[0].splitlines()
        commands = [re.match(r"^  ([a-z]+) ", line).group(1) for line in listing]
        self.assertIn("release", commands)
        for line in listing:
            self.assertLessEqual(len(line), MAX_WIDTH, line)
        self.assertLessEqual(len(text.splitlines()), len(commands) + 15, text)
        for command in commands:
            with self.subTest(command=command):
                own = self.run_dpcov([command, "--help"]).stdout.decode()
                self.assertIn("Exit codes:\n", own)
                self.assertGreater(len(own.splitlines()[0]), 0)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
