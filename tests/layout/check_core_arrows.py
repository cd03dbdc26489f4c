#!/usr/bin/env python3
"""Reads the #include lines of core/ and fails on an arrow that runs the wrong way.

core/ is built in rooms (core/math, core/linalg, ...) stacked in the order docs/design.md lists
under "Room order"; the files directly in core/ (error, check, matrix) are the floor. A file may
include its own room, the floor and any room listed before its own, never one listed after it,
never a public C header (dpcov/...: the kernel owns its types and capi/ converts), and never a
file outside core/. Usage: check_core_arrows.py SOURCE_ROOT, or --self-test.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
ORDER_LINE = re.compile(r'^Room order \(lowest first\): (.+)$')
FLOOR = ''


def room_order(root):
    """The rooms, lowest first, from the "Room order" line of docs/design.md."""
    with open(os.path.join(root, 'docs', 'design.md'), encoding='utf-8') as f:
        for line in f:
            m = ORDER_LINE.match(line.strip().strip('`'))
            if m:
                return [r.strip() for r in m.group(1).split('->')]
    raise SystemExit('docs/design.md has no "Room order (lowest first): a -> b -> ..." line')


def room_of(core, path):
    rel = os.path.relpath(path, core)
    return FLOOR if os.sep not in rel else rel.split(os.sep)[0]


def violations(root, order):
    core = os.path.join(root, 'core')
    rank = {FLOOR: -1, **{r: i for i, r in enumerate(order)}}
    found = []
    for directory, _, names in os.walk(core):
        for name in sorted(names):
            if not name.endswith(('.hpp', '.cpp', '.h')):
                continue
            path = os.path.join(directory, name)
            source = room_of(core, path)
            where = os.path.relpath(path, root)
            if source not in rank:
                found.append(f'{where}: room core/{source} is not in the room order')
                continue
            with open(path, encoding='utf-8') as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    bracket, target = m.groups()
                    closing = '>' if bracket == '<' else '"'
                    at = f'{where}:{number}: #include {bracket}{target}{closing}'
                    if target.startswith('dpcov/') or target == 'dpcov.h':
                        found.append(f'{at}: core/ never includes the public C headers')
                        continue
                    if bracket == '<':
                        continue
                    resolved = os.path.normpath(os.path.join(directory, target))
                    if os.path.relpath(resolved, core).startswith('..'):
                        found.append(f'{at}: outside core/')
                        continue
                    to = room_of(core, resolved)
                    if to not in rank:
                        found.append(f'{at}: room core/{to} is not in the room order')
                    elif rank[to] > rank[source]:
                        found.append(f'{at}: core/{source or "."} may not include core/{to}, '
                                     'a room above it')
    return found


def self_test():
    """The check must flag each kind of wrong arrow in a small tree, and pass a right one."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        with open(os.path.join(root, 'docs', 'design.md'), 'w', encoding='utf-8') as f:
            f.write('Room order (lowest first): low -> high\n')
        # Paths built from parts: they name a scratch tree, not files of this repository.
        def core(*parts):
            return '/'.join(('core',) + parts)
        files = {
            core('error.hpp'): '#include <string>\n',
            core('low', 'a.hpp'): '#include "../error.hpp"\n',
            core('high', 'b.cpp'): '#include "../low/a.hpp"\n#include "b.hpp"\n',
            core('low', 'up.cpp'): '#include "../high/b.hpp"\n',
            core('low', 'c.cpp'): '#include "dpcov/common.h"\n',
            core('low', 'd.cpp'): '#include <dpcov/common.h>\n',
            core('low', 'e.cpp'): '#include "../../capi/guard.hpp"\n',
            core('odd', 'f.cpp'): '\n',
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        found = violations(root, room_order(root))
        expected = [core('low', name) for name in ('up.cpp', 'c.cpp', 'd.cpp', 'e.cpp')]
        expected.append(core('odd', 'f.cpp'))
        flagged = sorted(v.split(':')[0] for v in found)
        if flagged != sorted(expected):
            print('self-test: expected violations in', sorted(expected), 'got', found)
            return 1
    print('self-test: every wrong arrow flagged, the right ones passed')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = argv[1]
    found = violations(root, room_order(root))
    for v in found:
        print(v)
    if found:
        print(f'{len(found)} include(s) run the wrong way (rooms and arrows: docs/design.md)')
        return 1
    print('every include in core/ runs down the room order')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
