"""A pointer-to-number parameter takes an address (an int, as NumPy gives), None for NULL, or a
ctypes pointer or byref of exactly its C type: a byref of another width is refused before the call
(the library would otherwise write 8 bytes into a 4-byte c_int32)."""

import ctypes
from ctypes import byref, c_double, c_int32, c_int64

import numpy as np
import pytest

from dpcov._lib import C


def test_a_byref_of_the_parameter_type_and_an_address_are_accepted():
    count = c_int64()
    assert C.dpcov_private_bound_grid(1.0, 8.0, 2.0, None, 0, byref(count)) == 0
    grid = np.zeros(count.value)
    assert C.dpcov_private_bound_grid(1.0, 8.0, 2.0, grid.ctypes.data, grid.size,
                                      byref(count)) == 0
    assert grid[0] == 1.0 and np.all(np.diff(grid) > 0)


@pytest.mark.parametrize("wrong", [c_int32, c_double])
def test_a_byref_of_another_type_is_refused(wrong):
    with pytest.raises(ctypes.ArgumentError):
        C.dpcov_private_bound_grid(1.0, 8.0, 2.0, None, 0, byref(wrong()))
