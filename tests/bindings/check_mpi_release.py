"""The MPI release equals the single-process release with the same seed, to rounding.

Runs examples/mpi_release under mpirun with several ranks (each reading or generating its own
shard of the rows, the partial Gram matrices and sketches summed on rank 0 with MPI_Reduce; only
rank 0 holds the release generator, and for the JL sketch each rank gets its own shard key), and
the same program with --serial in one process (every shard in turn, JL shards with the same shard
keys), and compares the two outputs: the same counts and receipt, and every released entry equal up to
1e-9 of the matrix's largest entry (the sums differ only in the order of floating-point additions);
with exact numerics, the default of Analyze Gauss and symmetric Laplace (the ranks' exact states
gathered and merged), the outputs are identical, and --idealized asks for floating-point sums.
Without --seed, the release must come from ChaCha20 keyed by the operating system.

Usage: check_mpi_release.py MPIRUN PROGRAM WINE_CSV
       check_mpi_release.py --mpi-missing   (fails: the build found no MPI)
"""
import os
import subprocess
import sys

RELATIVE_TOLERANCE = 1e-9

# OpenMPI refuses to run as root and to put more ranks than cores on a machine unless told; CI
# runs as root on two cores. The unused-component warnings would only add noise to the log.
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_btl_base_warn_component_unused": "0",
}


def run(mpirun, ranks, program, args):
    command = [mpirun, "-np", str(ranks), "--oversubscribe", "--allow-run-as-root", program] + args
    result = subprocess.run(command, env={**os.environ, **MPI_ENV}, capture_output=True, text=True,
                            timeout=120)
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command)} exited with {result.returncode}\n{result.stderr}")
    fields, matrix = {}, []
    lines = result.stdout.splitlines()
    at = lines.index("matrix")
    for line in lines[:at]:
        key, value = line.split(" ", 1)
        fields[key] = value
    for line in lines[at + 1:]:
        matrix.append([float(x) for x in line.split()])
    return fields, matrix


def compare(name, mpirun, program, ranks, args, serial_args=()):
    distributed, m_dist = run(mpirun, ranks, program, args)
    serial, m_serial = run(mpirun, 1, program, args + ["--serial", *serial_args])
    failures = []
    if distributed["ranks"] != str(ranks):
        failures.append(f"ran on {distributed['ranks']} ranks, not {ranks}")
    for key in ("mechanism", "n", "clipped", "dim", "seed_fixed", "epsilon", "delta", "numerics"):
        if distributed[key] != serial[key]:
            failures.append(f"{key}: distributed {distributed[key]}, serial {serial[key]}")
    scale = max(1.0, max(abs(x) for row in m_serial for x in row))
    for key in ("sigma", "threshold_w2", "test_value"):
        a, b = float(distributed[key]), float(serial[key])
        if abs(a - b) > RELATIVE_TOLERANCE * max(1.0, abs(b)):
            failures.append(f"{key}: distributed {a}, serial {b}")
    worst = max(abs(a - b) for ra, rb in zip(m_dist, m_serial) for a, b in zip(ra, rb))
    if len(m_dist) != len(m_serial) or worst > RELATIVE_TOLERANCE * scale:
        failures.append(f"released matrices differ by {worst} (scale {scale})")
    if int(distributed["n"]) <= 0:
        failures.append("no rows were read")
    status = "FAILED" if failures else "ok"
    print(f"{status}: {name}: {ranks} ranks vs one process, n = {distributed['n']}, "
          f"clipped = {distributed['clipped']}, largest difference {worst:.3g} of {scale:.3g}")
    for f in failures:
        print("  " + f)
    return not failures


def compare_exact(mpirun, program, ranks, args):
    """Exact numerics, the default: the ranks' exported states, gathered and merged on rank 0 by
    integer addition, release what one process releases, byte for byte (every printed field and
    entry), and the receipt says exact."""
    distributed, m_dist = run(mpirun, ranks, program, args)
    serial, m_serial = run(mpirun, 1, program, args + ["--serial"])
    del distributed["ranks"], serial["ranks"]
    ok = (distributed == serial and m_dist == m_serial and int(serial["n"]) > 0
          and serial["numerics"] == "exact")
    print(f"{'ok' if ok else 'FAILED'}: {args[1]} (exact by default) on {ranks} ranks vs one process, "
          f"n = {serial['n']}, clipped = {serial['clipped']}: "
          f"{'identical' if ok else 'different'} outputs")
    return ok


def check_unseeded(mpirun, program, ranks, args):
    """Without --seed, rank 0 keys the release generator from the OS: ChaCha20, seed not fixed."""
    fields, _ = run(mpirun, ranks, program, args)
    ok = fields["seed_fixed"] == "0" and fields["generator"] == "2"  # DPCOV_GENERATOR_CHACHA20
    print(f"{'ok' if ok else 'FAILED'}: {args[1]} on {ranks} ranks without a seed: seed_fixed "
          f"{fields['seed_fixed']}, generator {fields['generator']} (want 0 and 2, ChaCha20)")
    return ok


def check_idealized_refused(mpirun, program, args):
    """--idealized asks for what a mechanism without exact numerics does anyway: refused, so
    that no option is silently ignored."""
    command = [mpirun, "-np", "1", "--oversubscribe", "--allow-run-as-root", program] + args
    result = subprocess.run(command, env={**os.environ, **MPI_ENV}, capture_output=True, text=True,
                            timeout=120)
    ok = result.returncode != 0 and "idealized numerics only" in result.stderr
    print(f"{'ok' if ok else 'FAILED'}: {args[1]} --idealized refused: exit {result.returncode}")
    return ok


def main():
    if sys.argv[1:] == ["--mpi-missing"]:
        sys.exit("FAILED: MPI (mpicc, mpirun) was not found when the build was configured; "
                 "install openmpi-bin and libopenmpi-dev (scripts/setup) and reconfigure")
    mpirun, program, wine = sys.argv[1:4]
    ok = compare("Analyze Gauss (--idealized) on wine.csv, CSV read in byte-range shards", mpirun,
                 program, 2,
                 ["--mechanism", "analyze_gauss", "--epsilon", "1", "--delta", "1e-6",
                  "--bound", "1700", "--csv", wine, "--dim", "13", "--seed", "5", "--idealized"])
    ok &= compare("JL ridge with the sigma_min test on generated rows, summed sketch", mpirun,
                  program, 3,
                  ["--mechanism", "jl_ridge_sigma_min", "--epsilon", "1", "--delta", "1e-6",
                   "--bound", "1", "--generate", "5000", "--dim", "6", "--projection-rows", "40",
                   "--seed", "9"], serial_args=["--shards", "3"])
    for mechanism in ("analyze_gauss", "laplace_sym"):
        ok &= compare_exact(mpirun, program, 3,
                            ["--mechanism", mechanism, "--epsilon", "1", "--delta", "1e-6",
                             "--bound", "1700", "--csv", wine, "--dim", "13", "--seed", "7"])
    ok &= check_unseeded(mpirun, program, 2,
                         ["--mechanism", "analyze_gauss", "--epsilon", "1", "--delta", "1e-6",
                          "--bound", "1", "--generate", "500", "--dim", "4"])
    ok &= check_unseeded(mpirun, program, 2,
                         ["--mechanism", "jl_ridge_sigma_min", "--epsilon", "1", "--delta", "1e-6",
                          "--bound", "1", "--generate", "5000", "--dim", "6",
                          "--projection-rows", "40"])
    ok &= check_idealized_refused(mpirun, program,
                                  ["--mechanism", "jl_ridge", "--epsilon", "1", "--delta", "1e-6",
                                   "--bound", "1", "--generate", "50", "--dim", "3",
                                   "--projection-rows", "20", "--idealized"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
