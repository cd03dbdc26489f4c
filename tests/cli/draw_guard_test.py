"""The ledger rule on every path of the dpcov command that draws noise before it writes (release:
the Gram mechanisms, exact numerics, --bound auto, Dong-Liang-Yi, CoinPress, CoinPress mean;
regress on raw rows): once the release's generator has drawn, any failure (a library status, an
IO or usage error, a second pass that fails) charges the ledger once and leaves no output; a
failure before any draw leaves the ledger byte-identical (proofs/ledger.md, "Failures").

Run by meson as: /usr/bin/python3 draw_guard_test.py DPCOV_EXECUTABLE
"""
import json
import os
import resource
import select
import signal
import stat
import subprocess
import sys
import time
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_IO, EXIT_LEDGER, EXIT_OK, EXIT_PRIVACY, DpcovCase

# --spool never: a FIFO or /dev/stdin named by its path is opened again for a second pass instead
# of spooled, which stops a release after its first draw (the open waits for a writer, or finds
# the pipe empty).
REOPEN = ["--spool", "never"]

# A release per path, each a list of arguments after the input, and the mechanisms its ledger
# entries name (--bound auto and regress's tighter bound charge a bound step first).
RELEASES = {
    "analyze_gauss exact": (["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "2"],
                            ["analyze_gauss"]),
    "analyze_gauss idealized": (["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "2",
                                 "--numerics", "idealized"], ["analyze_gauss"]),
    "laplace_sym --bound auto": (["-m", "laplace_sym", "-e", "1", "--bound", "auto"] + REOPEN,
                                 ["private_bound", "laplace_sym"]),
    "dly_adaptive": (["-m", "dly_adaptive", "-e", "1", "-d", "1e-6", "--bound", "2"],
                     ["dly"]),
    "coinpress": (["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4"], ["coinpress"]),
    "coinpress --center": (["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4",
                            "--center", "--mean-radius", "20"], ["coinpress"]),
    "coinpress_mean": (["-m", "coinpress_mean", "-e", "1", "-d", "1e-6", "--mean-radius", "20"],
                       ["coinpress_mean"]),
}


def file_size_limit(size):
    """A child's limit on the size of the files it writes: a write past it fails with EFBIG
    (SIGXFSZ ignored), as on a full disk, while reading is unaffected."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


class DrawGuard(DpcovCase):
    def write_csv(self, name="data.csv", n=2000):
        x = np.random.default_rng(11).standard_normal((n, 3)) * 0.3
        y = np.clip(x @ [0.5, -0.2, 0.1], -1, 1)
        path = self.path(name)
        np.savetxt(path, np.column_stack([x, y]), delimiter=",", header="x1,x2,x3,y",
                   comments="")
        return path

    def ledger_args(self, ledger):
        return ["--ledger", ledger, "--ledger-epsilon", "100", "--ledger-delta", "0.5"]

    def charges(self, ledger):
        with open(ledger) as f:
            return [c["mechanism"] for c in json.load(f)["charges"]]

    def assert_nothing_written(self, *paths):
        for name in paths:
            self.assertFalse(os.path.exists(name), name)
        # Nor a temporary file left beside them.
        self.assertEqual([f for f in os.listdir(self.dir) if ".tmp-" in f], [])

    def test_a_failed_write_to_standard_output_after_the_draw_is_charged_once(self):
        # -o - on /dev/full: the release is drawn and charged, then writing the matrix fails
        # (ENOSPC, exit 5): one charge per release, and neither the receipt nor the curator file.
        path = self.write_csv()
        for name, (args, mechanisms) in RELEASES.items():
            with self.subTest(path=name):
                ledger = self.path(name.replace(" ", "_") + ".json")
                receipt = self.path("r.json")
                with open("/dev/full", "wb") as full:
                    result = subprocess.run(
                        [DpcovCase.dpcov, "release", path] + args +
                        ["-q", "--seed", "3", "-o", "-", "--receipt", receipt] +
                        self.ledger_args(ledger),
                        stdout=full, stderr=subprocess.PIPE, timeout=120)
                self.assertEqual(result.returncode, EXIT_IO, result.stderr.decode())
                self.assertIn("<stdout>", result.stderr.decode())
                self.assertEqual(self.charges(ledger), mechanisms)
                self.assert_nothing_written(receipt, self.path("r.curator.json"))
        # regress on raw rows with a bound step prints its result: charged (the bound step,
        # AdaSSP and the robust intervals' meat) before it.
        ledger = self.path("regress.json")
        with open("/dev/full", "wb") as full:
            result = subprocess.run(
                [DpcovCase.dpcov, "regress", path, "--label", "y", "--epsilon", "1", "--bound",
                 "2", "--label-bound", "1", "--bound-epsilon", "0.1", "-q", "--noise-seed", "3"]
                + self.ledger_args(ledger),
                stdout=full, stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(result.returncode, EXIT_IO, result.stderr.decode())
        self.assertEqual(self.charges(ledger), ["private_bound", "adassp", "analyze_gauss"])

    def test_regress_whose_second_pass_fails_after_the_tighter_bound_charges_both_steps(self):
        # /dev/stdin on a pipe under --spool never is a file name opened again, so regress
        # chooses a tighter bound on a first pass (a draw) and opens it again for the fit, finding the pipe empty (exit 2): not a library
        # status, yet the bound step and the fit's plan (with its robust intervals' meat) are
        # charged, once, and nothing printed.
        # Empty input fails before any draw: the ledger stays as it was.
        with open(self.write_csv(n=500), "rb") as f:
            text = f.read()
        ledger = self.path("budget.json")
        args = ["regress", "/dev/stdin", "--label", "y", "--epsilon", "1", "--bound", "2",
                "--label-bound", "1", "--bound-epsilon", "0.1", "-q"] + REOPEN + \
            self.ledger_args(ledger)
        early = self.run_dpcov(args, stdin=b"")
        self.assertNotEqual(early.returncode, EXIT_OK)
        self.assertFalse(os.path.exists(ledger))
        result = self.run_dpcov(args, stdin=text)
        self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
        self.assertEqual(result.stdout, b"")
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"] for c in book["charges"]],
                         ["private_bound", "adassp", "analyze_gauss"])
        self.assertTrue(all("not written" in c["output"] for c in book["charges"]))
        with open(ledger, "rb") as f:
            before = f.read()
        again = self.run_dpcov(args, stdin=b"")
        self.assertNotEqual(again.returncode, EXIT_OK)
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        # Standard input itself ("-") is spooled: the robust intervals' meat is released and
        # charged beside the fit, from the second pass over the spool (--small-n refuse: at this
        # n the default's posterior would answer instead, releasing no meat).
        once = self.run_dpcov(["regress", "-", "--label", "y", "--epsilon", "1", "--bound", "2",
                               "--label-bound", "1", "-q", "--ledger", ledger, "--small-n",
                               "refuse"], stdin=text)
        self.assertEqual(once.returncode, EXIT_OK, once.stderr.decode())
        self.assertEqual(self.charges(ledger),
                         ["private_bound", "adassp", "analyze_gauss", "adassp", "analyze_gauss"])

    def run_limited(self, args, size, stdin=None):
        return subprocess.run([DpcovCase.dpcov] + args, input=stdin, capture_output=True,
                              preexec_fn=file_size_limit(size), timeout=120)

    def test_outputs_that_cannot_be_written_after_the_charge_leave_nothing(self):
        # Files over 1.5 KiB cannot be written: the ledger (one entry and its hash chain, about
        # 1100 bytes) can, the 30 x 30 matrix (about 20 KB of CSV) cannot, so the release is
        # charged and then fails (exit 5) with none of its three files; a 2 x 2 matrix (about 80
        # bytes) is renamed into place, its receipt (about 1800 bytes) then fails, and the matrix
        # is removed again.
        wide = self.path("wide.csv")
        x = np.random.default_rng(4).standard_normal((500, 30)) * 0.05
        np.savetxt(wide, x, delimiter=",", header=",".join(f"x{j}" for j in range(30)),
                   comments="")
        narrow = self.path("narrow.csv")
        np.savetxt(narrow, x[:, :2], delimiter=",", header="a,b", comments="")
        for name, data in (("wide", wide), ("narrow", narrow)):
            with self.subTest(data=name):
                ledger = self.path(name + ".ledger.json")
                out = self.path(name + ".out.csv")
                result = self.run_limited(
                    ["release", data, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound",
                     "1", "-q", "-o", out] + self.ledger_args(ledger), 1536)
                self.assertEqual(result.returncode, EXIT_IO, result.stderr.decode())
                self.assertIn("File too large", result.stderr.decode())
                self.assertEqual(self.charges(ledger), ["analyze_gauss"])
                self.assert_nothing_written(out, out + ".json", out + ".curator.json")
        # The matrix on standard output is written after its receipt is in place: a receipt that
        # fails leaves standard output empty (it held the whole matrix before).
        ledger = self.path("stdout.ledger.json")
        receipt = self.path("stdout.json")
        result = self.run_limited(["release", narrow, "-m", "analyze_gauss", "-e", "1", "-d",
                                   "1e-6", "--bound", "1", "-q", "-o", "-", "--receipt", receipt] +
                                  self.ledger_args(ledger), 1536)
        self.assertEqual(result.returncode, EXIT_IO, result.stderr.decode())
        self.assertEqual(result.stdout, b"")
        self.assertEqual(self.charges(ledger), ["analyze_gauss"])
        self.assert_nothing_written(receipt, self.path("stdout.curator.json"))

    def test_a_charge_that_cannot_be_written_ahead_is_exit_7_before_any_draw(self):
        # No file over 64 bytes can be written, so no ledger file: the charge is written ahead of
        # the draw, so each release (a success, CoinPress at K = DBL_MAX that overflows after its
        # draw, --bound auto whose second pass finds the pipe empty) stops there, before drawing,
        # with exit 7 naming the entries; nothing is written.
        path = self.write_csv()
        ledger = self.path("budget.json")
        out = self.path("o.csv")
        common = ["-q", "--seed", "4", "-o", out] + self.ledger_args(ledger)
        success = self.run_limited(["release", path] + RELEASES["analyze_gauss exact"][0] + common,
                                   64)
        refused = self.run_limited(
            ["release", path, "-m", "coinpress", "--steps", "1", "-e", "0.001", "-d", "1e-3",
             "--k-bound", "1.7976931348623157e308"] + common, 64)
        with open(path, "rb") as f:
            text = f.read()
        second_pass = self.run_limited(
            ["release", "/dev/stdin"] + RELEASES["laplace_sym --bound auto"][0] + common, 64,
            stdin=text)
        for name, result, entry in (
                ("success", success, '"mechanism":"analyze_gauss"'),
                ("release_check", refused, '"mechanism":"coinpress"'),
                ("DrawGuard", second_pass, '"mechanism":"private_bound"')):
            with self.subTest(path=name):
                message = result.stderr.decode()
                self.assertEqual(result.returncode, EXIT_LEDGER, message)
                self.assertIn("LEDGER NOT CHARGED", message)
                self.assertIn("before its draw", message)
                self.assertIn("Nothing was drawn", message)
                self.assertIn(entry, message)
                self.assert_nothing_written(ledger, out, out + ".json", out + ".curator.json")
        # Every path that takes --ledger writes its charge ahead of its first draw.
        for name, (args, mechanisms) in RELEASES.items():
            with self.subTest(path=name):
                result = self.run_limited(["release", path] + args + common, 64)
                message = result.stderr.decode()
                self.assertEqual(result.returncode, EXIT_LEDGER, message)
                self.assertIn("Nothing was drawn", message)
                for mechanism in mechanisms:
                    self.assertIn(f'"mechanism":"{mechanism}"', message)
                self.assert_nothing_written(ledger, out, out + ".json", out + ".curator.json")
        result = self.run_limited(["regress", path, "--label", "y", "--epsilon", "1", "--bound",
                                   "2", "--label-bound", "1", "-q"] + self.ledger_args(ledger), 64)
        self.assertEqual(result.returncode, EXIT_LEDGER, result.stderr.decode())
        self.assertIn("Nothing was drawn", result.stderr.decode())
        self.assertEqual(result.stdout, b"")
        self.assert_nothing_written(ledger)

    def test_a_failure_before_the_draw_refunds_the_ledger_byte_for_byte(self):
        # A ledger laid out by hand (not as the command writes it) and rows that turn out
        # malformed at their end, found after the charge was written ahead and before any draw:
        # the refund writes back the very bytes read, on every path; a ledger the release created
        # is removed again.
        rows = np.random.default_rng(5).standard_normal((300, 4)) * 0.3
        bad = self.path("bad.csv")
        np.savetxt(bad, rows, delimiter=",", header="x1,x2,x3,y", comments="")
        with open(bad, "a") as f:
            f.write("1,2,oops,4\n")
        ledger = self.path("hand.json")
        text = ('{ "accounting" : "basic",\n  "epsilon_cap": 50, "delta_cap": 0.25,\n'
                '  "charges": [ {"mechanism": "dly_adaptive", "zcdp_rho": 0.1, "epsilon": 2.2,'
                ' "delta": 1e-6, "output": "old"} ] }  \n').encode()
        with open(ledger, "wb") as f:
            f.write(text)
        # Kept private: the refund (and a charge) keep the file's permissions.
        os.chmod(ledger, 0o600)
        out = self.path("o.csv")
        runs = [["release", bad] + args + ["-q", "-o", out] for args, _ in RELEASES.values()]
        runs.append(["regress", bad, "--label", "y", "--epsilon", "1", "--bound", "2",
                     "--label-bound", "1", "-q"])
        for args in runs:
            with self.subTest(args=args):
                result = self.run_dpcov(args + ["--ledger", ledger])
                self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
                self.assertNotIn("LEDGER", result.stderr.decode())
                with open(ledger, "rb") as f:
                    self.assertEqual(f.read(), text)
                self.assertEqual(stat.S_IMODE(os.stat(ledger).st_mode), 0o600)
                self.assert_nothing_written(out, out + ".json", out + ".curator.json")
                new = self.path("new.json")
                result = self.run_dpcov(args + self.ledger_args(new))
                self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
                self.assert_nothing_written(new)
        result = self.run_dpcov(["release", self.write_csv()] + RELEASES["coinpress"][0] +
                                ["-q", "-o", out, "--ledger", ledger])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertEqual(self.charges(ledger), ["dly_adaptive", "coinpress"])
        self.assertEqual(stat.S_IMODE(os.stat(ledger).st_mode), 0o600)

    def test_a_release_killed_after_its_draw_leaves_its_charge(self):
        # --bound auto on a FIFO: the command reads it, draws the bound step and blocks opening it
        # again, where SIGKILL (which no guard can defer or catch) ends it. The charge written
        # ahead of the draw is in the ledger, marked pending, and counts: the next release reads
        # the file, adds its own entries (not pending) once, and spends on top of it.
        path = self.write_csv()
        with open(path, "rb") as f:
            text = f.read()
        ledger = self.path("killed.json")
        out = self.path("o.csv")
        args = RELEASES["laplace_sym --bound auto"][0] + ["-q", "--seed", "4", "-o", out]
        process, _ = self.start_at_second_pass(args + self.ledger_args(ledger), text)
        process.kill()
        process.communicate(timeout=120)
        self.assertEqual(process.returncode, -signal.SIGKILL)
        self.assert_nothing_written(out, out + ".json", out + ".curator.json")
        with open(ledger, "rb") as f:
            pending = f.read()
        book = json.loads(pending)
        self.assertEqual([(c["mechanism"], c.get("state")) for c in book["charges"]],
                         [("private_bound", "pending"), ("laplace_sym", "pending")])
        self.assertEqual(book["spent"]["releases"], 2)
        self.assertAlmostEqual(book["spent"]["epsilon"], 1.0, places=12)
        # Its lock file is left (empty); the next run takes it and removes it.
        self.assertTrue(os.path.exists(ledger + ".lock"))
        # A success on the same ledger: charged once, its entries final.
        result = self.run_dpcov(["release", path] + args + ["--ledger", ledger])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertFalse(os.path.exists(ledger + ".lock"))
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([(c["mechanism"], c.get("state")) for c in book["charges"]],
                         [("private_bound", "pending"), ("laplace_sym", "pending"),
                          ("private_bound", None), ("laplace_sym", None)])
        self.assertAlmostEqual(book["spent"]["epsilon"], 2.0, places=12)
        for name in (out, out + ".json", out + ".curator.json"):
            os.remove(name)
        # Room for the pending file but not for the failure's entries (their output says "not
        # written"): the second pass fails after the draw, the final charge cannot be written,
        # exit 7, and the ledger holds the pending charge, byte for byte the killed run's.
        limited = self.path("limited.json")
        result = self.run_limited(["release", "/dev/stdin"] + args + self.ledger_args(limited),
                                  len(pending), stdin=text)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_LEDGER, message)
        self.assertIn("LEDGER NOT CHARGED", message)
        self.assertIn("stays in the ledger", message)
        self.assertIn("/dev/stdin: the input holds no data", message)
        with open(limited, "rb") as f:
            self.assertEqual(f.read(), pending)
        self.assert_nothing_written(out, out + ".json", out + ".curator.json")

    def test_two_concurrent_releases_on_a_cap_that_fits_one_charge_it_once(self):
        # The first release (--bound auto on a FIFO) has reserved its charge and drawn its bound
        # step, and holds the ledger's lock while it waits to open its input again; the second,
        # on the same ledger, waits for that lock (saying so), then reads the file the first left
        # and is refused: exactly one release is charged, and neither a lock file nor a temporary
        # file is left.
        path = self.write_csv()
        with open(path, "rb") as f:
            text = f.read()
        ledger = self.path("shared.json")
        caps = ["--ledger", ledger, "--ledger-epsilon", "1.5", "--ledger-delta", "1e-5"]
        args = RELEASES["laplace_sym --bound auto"][0] + ["-q"]
        first, fifo = self.start_at_second_pass(args + ["-o", self.path("first.csv")] + caps, text)
        def waiting(name):
            process = subprocess.Popen([DpcovCase.dpcov, "release", path] + args +
                                       ["-o", self.path(name)] + caps, stderr=subprocess.PIPE)
            self.addCleanup(process.kill)
            ready, _, _ = select.select([process.stderr], [], [], 60)
            self.assertTrue(ready, f"{name}: the release did not wait")
            self.assertIn("waiting for the ledger", process.stderr.readline().decode())
            self.assertIsNone(process.poll())
            return process

        second = waiting("second.csv")
        # Ctrl-C ends a wait at once: killed by SIGINT, the ledger and its lock left to the first.
        with open(ledger, "rb") as f:
            before = f.read()
        third = waiting("third.csv")
        third.send_signal(signal.SIGINT)
        _, err = third.communicate(timeout=60)
        self.assertEqual(third.returncode, -signal.SIGINT, err.decode())
        self.assertIn("interrupted", err.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertTrue(os.path.exists(ledger + ".lock"))
        with open(fifo, "wb") as f:
            f.write(text)
        _, err = first.communicate(timeout=120)
        self.assertEqual(first.returncode, EXIT_OK, err.decode())
        _, err = second.communicate(timeout=120)
        self.assertEqual(second.returncode, EXIT_PRIVACY, err.decode())
        self.assertIn("cap would be exceeded", err.decode())
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([(c["mechanism"], c.get("state")) for c in book["charges"]],
                         [("private_bound", None), ("laplace_sym", None)])
        self.assertTrue(os.path.exists(self.path("first.csv")))
        self.assert_nothing_written(self.path("second.csv"), self.path("third.csv"),
                                    ledger + ".lock")

    def test_a_signal_while_the_outputs_are_written_leaves_no_temporary_file(self):
        # A 1000 x 1000 matrix (about 20 MB of CSV) takes a while to write: SIGINT once its
        # temporary file exists ends the command before the files are renamed into place (or,
        # if it came after that check, once they are all in place), with or without a ledger:
        # killed by SIGINT, no temporary file, and the outputs all or none.
        wide = self.path("wide.csv")
        x = np.random.default_rng(6).standard_normal((20, 1000)) * 0.01
        np.savetxt(wide, x, delimiter=",", header=",".join(f"x{j}" for j in range(1000)),
                   comments="")
        for ledger in ([], self.ledger_args(self.path("signal.json"))):
            with self.subTest(ledger=bool(ledger)):
                out = self.path("big.csv")
                process = subprocess.Popen(
                    [DpcovCase.dpcov, "release", wide, "-m", "analyze_gauss", "-e", "1", "-d",
                     "1e-6", "--bound", "1", "--numerics", "idealized", "-q", "-o", out] + ledger,
                    stderr=subprocess.PIPE)
                self.addCleanup(process.kill)
                deadline = time.monotonic() + 120
                while not any(".big.csv.tmp-" in f for f in os.listdir(self.dir)):
                    self.assertIsNone(process.poll(), "the command ended before writing")
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.001)
                process.send_signal(signal.SIGINT)
                _, err = process.communicate(timeout=120)
                self.assertEqual(process.returncode, -signal.SIGINT, err.decode())
                outputs = [os.path.exists(name) for name in (out, out + ".json")]
                self.assertIn(outputs, ([True, True], [False, False]))
                for name in (out, out + ".json", out + ".curator.json"):
                    if os.path.exists(name):
                        os.remove(name)
                self.assert_nothing_written()

    def test_outputs_refused_before_any_draw_leave_the_ledger_as_it_was(self):
        # An output that is an input (the data, the ledger), a directory, a missing directory, or
        # a pipe (the atomic rename would replace it by a file: /dev/null, as root) is refused
        # before anything is drawn: the ledger file is byte-identical, and the pipe stays a pipe.
        path = self.write_csv()
        ledger = self.path("budget.json")
        first = self.run_dpcov(["release", path] + RELEASES["analyze_gauss exact"][0] +
                               ["-q", "-o", self.path("first.csv")] + self.ledger_args(ledger))
        self.assertEqual(first.returncode, EXIT_OK, first.stderr.decode())
        with open(ledger, "rb") as f:
            before = f.read()
        fifo = self.path("pipe.csv")
        os.mkfifo(fifo)
        os.mkdir(self.path("dir.csv"))
        for output, code in ((["-o", path], 1), (["-o", ledger], 1),
                             (["-o", self.path("x.csv"), "--receipt", ledger], 1),
                             (["-o", self.path("dir.csv")], EXIT_IO),
                             (["-o", self.path("missing/x.csv")], EXIT_IO),
                             (["-o", fifo], EXIT_IO),
                             (["-o", self.path("y.csv"), "--receipt", fifo], EXIT_IO)):
            for name in ("analyze_gauss exact", "laplace_sym --bound auto", "coinpress"):
                with self.subTest(output=output, path=name):
                    result = self.run_dpcov(["release", path] + RELEASES[name][0] + ["-q"] +
                                            output + ["--ledger", ledger])
                    self.assertEqual(result.returncode, code, result.stderr.decode())
                    with open(ledger, "rb") as f:
                        self.assertEqual(f.read(), before)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assert_nothing_written(self.path("x.csv"), self.path("y.csv"))

    def test_a_failure_after_the_bound_step_is_charged_the_release_at_the_chosen_bound(self):
        # The same rows and seed from a file (released) and from a pipe whose second pass fails:
        # the bound step chooses the same B, and the failed release is charged the plan at that
        # B, field for field the receipt's (it was the plan at B = 1, whose rho is 1 ulp lower).
        path = self.write_csv()
        with open(path, "rb") as f:
            text = f.read()
        args = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "auto", "--seed", "5",
                "-q"] + REOPEN
        entries = []
        for name, source, stdin, code in (("file", path, None, EXIT_OK),
                                          ("pipe", "/dev/stdin", text, EXIT_INPUT)):
            ledger = self.path(name + ".json")
            result = self.run_dpcov(["release", source] + args + [
                "-o", self.path(name + ".csv")] + self.ledger_args(ledger), stdin=stdin)
            self.assertEqual(result.returncode, code, result.stderr.decode())
            with open(ledger) as f:
                entries.append(json.load(f)["charges"][1])
        fields = ["mechanism", "epsilon", "delta", "sensitivity", "sigma"]
        self.assertEqual([entries[1][k] for k in fields], [entries[0][k] for k in fields])
        self.assertIn("not written", entries[1]["output"])
        # regress's tighter bound likewise: the fit's plan at the chosen bound.
        entries = []
        for name, source, stdin, code in (("rfile", path, None, EXIT_OK),
                                          ("rpipe", "/dev/stdin", text, EXIT_INPUT)):
            ledger = self.path(name + ".json")
            result = self.run_dpcov(["regress", source, "--label", "y", "--epsilon", "1",
                                     "--bound", "2", "--label-bound", "1", "-q",
                                     "--noise-seed", "5", "--no-intervals"] + REOPEN +
                                    self.ledger_args(ledger), stdin=stdin)
            self.assertEqual(result.returncode, code, result.stderr.decode())
            with open(ledger) as f:
                entries.append(json.load(f)["charges"][1])
        fields = ["mechanism", "rho", "epsilon", "delta"]
        self.assertEqual([entries[1][k] for k in fields], [entries[0][k] for k in fields])

    def start_at_second_pass(self, args, text):
        """Starts `release FIFO args` (a --bound auto release), feeds it `text` and waits until it
        has drawn its bound step and blocks opening the FIFO again; returns it and the FIFO. It is
        killed when the test ends, so that a failing test leaves no process waiting."""
        fifo = self.path("rows.fifo")
        os.mkfifo(fifo)
        process = subprocess.Popen([DpcovCase.dpcov, "release", fifo] + args,
                                   stderr=subprocess.PIPE)
        self.addCleanup(process.kill)
        with open(fifo, "wb") as f:
            f.write(text)
        self.wait_for_fifo_open(process)
        return process, fifo

    def wait_for_fifo_open(self, process):
        """Waits until `process` is blocked opening a FIFO with no writer (the kernel's
        wait_for_partner), that is at --bound auto's second open of its input."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.assertIsNone(process.poll(), "the command ended before its second pass")
            with open(f"/proc/{process.pid}/wchan") as f:
                if f.read().strip() == "wait_for_partner":
                    return
            time.sleep(0.01)
        self.fail("the command did not reach its second pass")

    def test_ctrl_c_after_the_draw_is_charged_once_and_before_it_not(self):
        # --bound auto on a FIFO: the command reads it to its end, draws the bound step and then
        # blocks opening it again, where SIGINT arrives. With a ledger the signal is deferred to
        # the next chunk read, which ends the command as a failure (charged, nothing written),
        # and then kills it with SIGINT. During the first pass nothing is drawn: not charged.
        path = self.write_csv()
        with open(path, "rb") as f:
            text = f.read()
        fifo = self.path("rows.fifo")
        os.mkfifo(fifo)
        ledger = self.path("budget.json")
        out = self.path("o.csv")
        args = [DpcovCase.dpcov, "release", fifo] + RELEASES["laplace_sym --bound auto"][0] + [
            "-q", "-o", out] + self.ledger_args(ledger)
        process = subprocess.Popen(args, stderr=subprocess.PIPE)
        with open(fifo, "wb") as f:
            f.write(text)
        self.wait_for_fifo_open(process)
        process.send_signal(signal.SIGINT)
        with open(fifo, "wb") as f:
            f.write(text)
        _, err = process.communicate(timeout=120)
        self.assertEqual(process.returncode, -signal.SIGINT, err.decode())
        self.assertIn("interrupted", err.decode())
        self.assertEqual(self.charges(ledger), ["private_bound", "laplace_sym"])
        self.assert_nothing_written(out, out + ".json", out + ".curator.json")
        with open(ledger, "rb") as f:
            before = f.read()
        # SIGINT during the first pass: the writer stops half-way, the signal arrives, the rest
        # follows; the next chunk read ends the command before the bound step draws.
        process = subprocess.Popen(args, stderr=subprocess.PIPE)
        with open(fifo, "wb") as f:
            f.write(text[:len(text) // 2])
            f.flush()
            time.sleep(0.2)
            process.send_signal(signal.SIGINT)
            time.sleep(0.2)
            try:
                f.write(text[len(text) // 2:])
            except BrokenPipeError:
                pass
        _, err = process.communicate(timeout=120)
        self.assertEqual(process.returncode, -signal.SIGINT, err.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assert_nothing_written(out, out + ".json", out + ".curator.json")
        # In a pipeline: SIGINT while the release waits on standard input, then the producer
        # stops (end of input): the release ends at the input's end, before its draw.
        for name in ("analyze_gauss exact", "coinpress"):
            with self.subTest(path=name):
                process = subprocess.Popen(
                    [DpcovCase.dpcov, "release", "-"] + RELEASES[name][0] + ["-q", "-o", out] +
                    self.ledger_args(ledger), stdin=subprocess.PIPE, stderr=subprocess.PIPE)
                process.stdin.write(text[:len(text) // 2])
                process.stdin.flush()
                time.sleep(0.2)
                process.send_signal(signal.SIGINT)
                time.sleep(0.1)
                process.stdin.close()
                err = process.stderr.read()
                process.wait(timeout=120)
                self.assertEqual(process.returncode, -signal.SIGINT, err.decode())
                with open(ledger, "rb") as f:
                    self.assertEqual(f.read(), before)
                self.assert_nothing_written(out, out + ".json", out + ".curator.json")


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
