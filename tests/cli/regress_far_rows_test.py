"""`dpcov regress --epsilon` clips a row's regressors to --bound in their own direction whatever
their norm, as the library clips rows: a row far beyond the bound (a norm above about 1.3e154,
whose sum of squares overflowed, or one whose factor bound / norm underflowed) was zeroed, so the
fit saw (0, y) instead of (x B / ||x||, y). Over random far rows and bounds, a dataset with a far
row fits, with the same noise and bootstrap seeds, as the dataset with that row put on the sphere.

Run by meson as: /usr/bin/python3 regress_far_rows_test.py DPCOV_EXECUTABLE
"""
import json
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase


class FarRows(DpcovCase):
    def fit(self, rows, bound):
        path = self.path("data.csv")
        np.savetxt(path, rows, delimiter=",", header="x1,x2,y", comments="", fmt="%.17g")
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "1e6",
                                 "--delta", "1e-6", "--bound", repr(bound), "--label-bound", "1",
                                 "--bound-epsilon", "0", "--noise-seed", "3", "--seed", "4",
                                 "--quiet", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        out = json.loads(result.stdout.decode())
        return np.array([c["coef"] for c in out["coefficients"]])

    def test_a_far_row_fits_as_the_row_on_the_sphere(self):
        gen = np.random.default_rng(20261124)
        for case in range(12):
            bound = float(gen.choice([0.5, 1.0, 2.0, 1.5e-154]))
            n = 200
            x = gen.uniform(-0.5, 0.5, (n, 2)) * bound
            y = np.clip(0.3 * x[:, 0] / bound + gen.normal(scale=0.05, size=n), -1, 1)
            direction = gen.standard_normal(2)
            direction /= np.linalg.norm(direction)
            magnitude = float(gen.choice([1e150, 1e154, 1e200, 1e300, 1e308]))
            far = np.column_stack([x, y])
            far[0, :2] = direction * magnitude
            near = far.copy()
            near[0, :2] = direction * bound * (1 - 1e-13)  # on the sphere, within the bound
            with self.subTest(case=case, bound=bound, magnitude=magnitude):
                np.testing.assert_allclose(self.fit(far, bound), self.fit(near, bound),
                                           rtol=1e-6, atol=1e-9)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
