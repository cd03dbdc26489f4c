"""Shared by the proof check scripts: runs the plan_receipts program of the build (a C program
over dpcov_mechanism_plan) and compares library values with independently computed ones."""
import json
import subprocess
import sys

from mpmath import mp, mpf

mp.dps = 50


def plan(program, requests):
    # Library values are compared with exact functions of the doubles the library received
    # (receipt["bound"] etc.), not of the decimal strings, which doubles only approximate.
    """One receipt (dict) per request line "<mechanism> <d> <n> <B> <eps> <delta> [options]"."""
    text = "\n".join(requests) + "\n"
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    assert len(lines) == len(requests), (len(lines), len(requests))
    return [json.loads(line) for line in lines]


class Checker:
    """Counts comparisons and failures; exit() returns the status for the test runner."""

    def __init__(self, name):
        self.name = name
        self.checks = 0
        self.failures = 0

    def ok(self, condition, what):
        self.checks += 1
        if not condition:
            self.failures += 1
            print("FAIL:", what)

    def close(self, library, exact, rel, what):
        """library agrees with the exact value to a relative rel."""
        exact = mpf(exact)
        error = abs(mpf(library) - exact) / abs(exact)
        self.ok(error <= rel, f"{what}: library {library!r}, exact {mp.nstr(exact, 20)}, "
                              f"relative error {mp.nstr(error, 3)} > {rel}")

    def not_below(self, library, exact, what):
        """Privacy-safe rounding: the library value is >= the exact one."""
        self.ok(mpf(library) >= mpf(exact),
                f"{what}: library {library!r} below exact {mp.nstr(mpf(exact), 25)}")

    def status(self, receipt, expected, what):
        self.ok(receipt["status"] == expected,
                f"{what}: status {receipt['status']} ({receipt.get('message', '')}), "
                f"expected {expected}")

    def exit(self):
        print(f"{self.name}: {self.checks} checks, {self.failures} failures")
        sys.exit(1 if self.failures else 0)
