"""The ctypes mirrors of the public structs have the C compiler's size and field offsets."""

import ctypes
import json
import subprocess

from dpcov._lib import STRUCTS


def test_every_struct_mirror_matches_the_c_layout(struct_layout_program):
    layout = json.loads(subprocess.run([struct_layout_program], check=True, capture_output=True,
                                       text=True).stdout)
    assert set(layout) == set(STRUCTS)
    for name, mirror in STRUCTS.items():
        c_layout = layout[name]
        assert ctypes.sizeof(mirror) == c_layout.pop("size"), name
        offsets = {field: getattr(mirror, field).offset for field, _ in mirror._fields_}
        assert offsets == c_layout, name
