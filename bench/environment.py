"""The machine a benchmark run measured, as JSON on stdout: CPU model, cores, AVX-512 or not, load
average, OpenBLAS's version (its build configuration string), git commit, time.

scripts/bench writes it at the start and at the end of a run (environment_start.json,
environment_end.json in its raw directory): ratios are taken within one run, but they still move
with the load of a shared machine, so the load at both ends goes into the summary.
Usage: environment.py [REPOSITORY]
"""

from __future__ import annotations

import ctypes
import datetime
import json
import os
import subprocess
import sys


def cpu() -> dict:
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == "unknown":
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return {"cpu_model": model, "cores": os.cpu_count(), "avx512": "avx512f" in flags}


def openblas() -> str:
    try:
        library = ctypes.CDLL("libopenblas.so.0")
        library.openblas_get_config.restype = ctypes.c_char_p
        return library.openblas_get_config().decode()
    except (OSError, AttributeError):
        return "unknown"


def commit(repository: str) -> str:
    try:
        found = subprocess.run(["git", "-C", repository, "describe", "--always", "--dirty"],
                               capture_output=True, text=True, check=True)
        return found.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def environment(repository: str) -> dict:
    return {**cpu(), "load_average": list(os.getloadavg()), "openblas": openblas(),
            "commit": commit(repository),
            "utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")}


if __name__ == "__main__":
    print(json.dumps(environment(sys.argv[1] if len(sys.argv) > 1 else "."), indent=1))
