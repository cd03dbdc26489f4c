"""The harness of the `--ledger` file tests: a small data file and a release charged to a ledger."""
from cli_case import DpcovCase

CAPS = ["--ledger-epsilon", "1", "--ledger-delta", "1e-5"]


class LedgerCase(DpcovCase):
    """A test with a 50-row data file; release() charges an Analyze Gauss release to a ledger."""

    def setUp(self):
        super().setUp()
        self.data = self.path("data.csv")
        with open(self.data, "w") as f:
            f.write("a,b\n" + "".join(f"{(i % 7) / 10},{(i % 5) / 10}\n" for i in range(50)))
        self.outputs = 0

    def release_args(self, ledger, epsilon, extra=(), data=None):
        """The arguments of a release of `data` (the data file) at `epsilon`, charged to `ledger`,
        each to its own output file."""
        self.outputs += 1
        return ["release", data or self.data, "-m", "analyze_gauss", "-e", str(epsilon), "-d",
                "1e-6", "--bound", "1", "-q", "-o", self.path(f"out{self.outputs}.npy"),
                "--ledger", ledger] + list(extra)

    def release(self, ledger, epsilon, extra=(), data=None):
        return self.run_dpcov(self.release_args(ledger, epsilon, extra, data))
