"""Commands that read their input more than once (release -m dly_*/coinpress, release --bound
auto, regress --errors robust or with a bound step) from standard input or a FIFO: the first pass
spools the parsed rows to a private temporary file that the later passes read. Their releases are
byte-identical to those from the same file with the same seed; the spool has no name while the
command runs (its directory, mode 0700, and file, mode 0600, are removed before any row is
written), nothing is left in TMPDIR after a success, a failure or a signal, and a spool that does
not fit is refused before any draw, saying how many bytes it needed. --spool never opens a FIFO
again for each pass instead, and refuses standard input.

Run by meson as: /usr/bin/python3 spool_test.py DPCOV_EXECUTABLE
"""
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
import time
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_IO, EXIT_OK, EXIT_USAGE, DpcovCase

ZCDP = {"dly_adaptive": ["--bound", "1"], "dly_adaptive_paper": ["--bound", "1"],
        "coinpress": ["--k-bound", "10"], "coinpress_mean": ["--mean-radius", "10"]}


class Spool(DpcovCase):
    def setUp(self):
        super().setUp()
        self.tmp = self.path("tmp")
        os.mkdir(self.tmp)

    def write_csv(self, n=3000, d=4, seed=7):
        gen = np.random.default_rng(seed)
        x = gen.standard_normal((n, d))
        x /= 8 * np.linalg.norm(x, axis=1, keepdims=True)
        x[::300] *= 8  # a few rows on the sphere: dly_adaptive_paper clips to r~ < r
        path = self.path("rows.csv")
        np.savetxt(path, x, delimiter=",", header=",".join(f"x{j}" for j in range(d)),
                   comments="")
        return path

    def run_env(self, args, stdin=None, limit_bytes=None):
        """dpcov with TMPDIR set to the test's own directory (and a file size limit, under which
        a write past it fails with EFBIG instead of raising SIGXFSZ)."""
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
        return subprocess.run([DpcovCase.dpcov] + args, input=stdin, capture_output=True,
                              timeout=120, env=dict(os.environ, TMPDIR=self.tmp),
                              preexec_fn=limit if limit_bytes else None)

    def assert_tmp_empty(self):
        self.assertEqual(os.listdir(self.tmp), [])

    def public(self, receipt_path):
        """The receipt without the input's description (its path)."""
        with open(receipt_path) as f:
            receipt = json.load(f)
        return {k: v for k, v in receipt.items() if not isinstance(v, dict) or "path" not in v}

    @staticmethod
    def feed(fifo, data):
        with open(fifo, "wb") as f:
            f.write(data)

    def release_both_ways(self, args, path):
        """The release of `path` from the file, from standard input and from a FIFO: the three
        outputs' bytes and public receipts."""
        with open(path, "rb") as f:
            data = f.read()
        fifo = self.path("rows.fifo")
        os.mkfifo(fifo)
        outputs = []
        for source in ("file", "stdin", "fifo"):
            out = self.path(f"{source}.npy")
            # --chunk-rows 256: every pass crosses many chunk boundaries.
            command = ["release", {"file": path, "stdin": "-", "fifo": fifo}[source]] + args + [
                "--chunk-rows", "256", "--seed", "11", "--quiet", "-o", out]
            feeder = None
            if source == "fifo":
                feeder = threading.Thread(target=self.feed, args=(fifo, data))
                feeder.start()
            result = self.run_env(command, stdin=data if source == "stdin" else None)
            if feeder:
                feeder.join()
            self.assertEqual(result.returncode, EXIT_OK, (source, result.stderr.decode()))
            with open(out, "rb") as f:
                outputs.append((f.read(), self.public(out + ".json")))
        os.remove(fifo)
        self.assert_tmp_empty()
        return outputs

    def test_zcdp_releases_from_stdin_and_a_fifo_are_byte_identical_to_the_files(self):
        # Before the spool, standard input held every row and was released by the one-call
        # mechanism (matrices equal to about 1e-10 only), and a FIFO given by path was opened
        # again for the second pass, which waited for a writer that never came.
        path = self.write_csv()
        for name, setting in ZCDP.items():
            args = ["-m", name, "--epsilon", "2", "--delta", "1e-6"] + setting
            (matrix, receipt), *others = self.release_both_ways(args, path)
            for other_matrix, other_receipt in others:
                self.maxDiff = None
                self.assertEqual(receipt, other_receipt, name)
                self.assertEqual(matrix, other_matrix, name)

    def test_bound_auto_from_stdin_is_the_files_release(self):
        # --bound auto was refused on standard input (it reads the input twice).
        path = self.write_csv()
        args = ["-m", "analyze_gauss", "--epsilon", "1", "--delta", "1e-6", "--bound", "auto"]
        (matrix, receipt), *others = self.release_both_ways(args, path)
        for other in others:
            self.assertEqual((matrix, receipt), other)

    def test_spool_never_refuses_standard_input_read_more_than_once(self):
        # (--spool never opening a FIFO again for each pass is what draw_guard_test.py relies on
        # to stop a release after its first draw.)
        path = self.write_csv()
        with open(path, "rb") as f:
            data = f.read()
        args = ["-m", "dly_adaptive", "--bound", "1", "--epsilon", "2", "--delta", "1e-6",
                "--quiet", "--spool", "never", "-o", self.path("x.npy")]
        refused = self.run_env(["release", "-"] + args, stdin=data)
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr.decode())
        self.assertIn("--spool never", refused.stderr.decode())
        self.assertFalse(os.path.exists(self.path("x.npy")))
        self.assertEqual(self.run_env(["release", path] + args).returncode, EXIT_OK)
        self.assert_tmp_empty()

    def regress_json(self, source, extra, stdin=None):
        result = self.run_env(["regress", source, "--label", "x3", "--epsilon", "4", "--bound",
                               "1", "--label-bound", "1", "--noise-seed", "3", "--seed", "4",
                               "--quiet", "--bootstrap", "199", "--json"] + extra, stdin=stdin)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        out = json.loads(result.stdout.decode())
        self.assertEqual(out.pop("input"), source)
        return out

    def test_regress_from_stdin_gives_the_files_robust_intervals_and_bound_step(self):
        # Standard input took the homoscedastic path ("cannot be read twice") and used --bound
        # as given; now its robust meat and its bound step read the spool.
        path = self.write_csv(n=20000)
        with open(path, "rb") as f:
            data = f.read()
        for extra in ([], ["--bound-epsilon", "0.4"]):
            from_file = self.regress_json(path, extra)
            from_stdin = self.regress_json("-", extra, stdin=data)
            self.assertEqual(from_stdin["noise_aware"]["errors"], "robust", extra)
            self.assertIn("sandwich", from_stdin)
            self.maxDiff = None
            self.assertEqual(from_file, from_stdin, extra)
        self.assert_tmp_empty()

    def test_nothing_is_left_after_a_failure(self):
        path = self.write_csv()
        with open(path, "rb") as f:
            data = f.read() + b"0.1,oops,0.2,0.3\n"
        for args in (["-m", "dly_adaptive", "--bound", "1", "--delta", "1e-6"],
                     ["-m", "analyze_gauss", "--bound", "auto", "--delta", "1e-6"]):
            result = self.run_env(["release", "-", "--epsilon", "1", "-o", self.path("x.npy")]
                                  + args, stdin=data)
            self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
            self.assertIn("text that is not a number", result.stderr.decode())
            self.assertFalse(os.path.exists(self.path("x.npy")))
            self.assert_tmp_empty()

    def test_the_spool_has_no_name_while_the_command_runs_nor_after_a_signal(self):
        # 6 MB of CSV, of which 5 MB are sent: past the reader's first 4 MiB block, which it reads
        # before the spool is made, and short of the end, so that the command waits for more.
        path = self.write_csv(n=60000)
        with open(path, "rb") as f:
            data = f.read()
        process = subprocess.Popen(
            [DpcovCase.dpcov, "release", "-", "-m", "dly_adaptive", "--bound", "1", "--epsilon",
             "1", "--delta", "1e-6", "--quiet", "-o", self.path("x.npy")],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=dict(os.environ, TMPDIR=self.tmp))
        try:
            process.stdin.write(data[: 5 << 20])
            process.stdin.flush()
            spool = None
            for _ in range(600):  # up to a minute on a loaded machine
                fds = os.listdir(f"/proc/{process.pid}/fd")
                links = {fd: os.readlink(f"/proc/{process.pid}/fd/{fd}") for fd in fds}
                spool = next((fd for fd, link in links.items() if "dpcov-spool-" in link), None)
                if spool is not None:
                    break
                time.sleep(0.1)
            self.assertIsNotNone(spool, links)
            self.assertTrue(links[spool].endswith("(deleted)"), links[spool])
            info = os.stat(f"/proc/{process.pid}/fd/{spool}")
            self.assertEqual(stat.S_IMODE(info.st_mode) & 0o077, 0, oct(info.st_mode))
            self.assert_tmp_empty()
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
        finally:
            process.kill()
            process.wait()
            process.stdin.close()
            process.stderr.close()
        self.assertEqual(process.returncode, -signal.SIGTERM)
        self.assertFalse(os.path.exists(self.path("x.npy")))
        self.assert_tmp_empty()

    def test_a_spool_that_does_not_fit_is_refused_saying_how_many_bytes_it_needed(self):
        path = self.write_csv()
        with open(path, "rb") as f:
            data = f.read()
        out = self.path("x.npy")
        # A file size limit of 64 KiB stands for a full disk: the spool needs 3000 x 4 x 8 bytes.
        result = self.run_env(["release", "-", "-m", "dly_adaptive", "--bound", "1", "--epsilon",
                               "1", "--delta", "1e-6", "--quiet", "-o", out], stdin=data,
                              limit_bytes=65536)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_IO, message)
        self.assertIn("needs 96000 bytes (3000 rows x 4 columns x 8)", message)
        self.assertIn("nothing was released", message)
        self.assertFalse(os.path.exists(out))
        self.assert_tmp_empty()
        # Under add/remove n is private: the refusal gives the cost per row, not the count.
        result = self.run_env(["regress", "-", "--label", "x3", "--epsilon", "4", "--bound", "1",
                               "--label-bound", "1", "--neighbour", "add_remove", "--quiet"],
                              stdin=data, limit_bytes=65536)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_IO, message)
        self.assertIn("32 bytes per row", message)
        self.assertNotIn("3000", message)
        self.assert_tmp_empty()


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
