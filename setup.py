"""Build hook: with MAJIANG_COMPILE=1 the scorer's modules are compiled by mypyc (2-3x faster).

The same Python sources are compiled; nothing is written twice. Without the variable (the
default, and every editable install for development) majiang is pure Python.
"""

import os

from setuptools import setup

COMPILED = [
    # The hot path only: modules whose functions receive values the boundary has checked.
    # The boundary (notation, api, analysis, shanten's public functions, the CLI) stays Python,
    # so that bad input of any type still raises the documented MajiangError.
    "src/majiang/tiles.py",
    "src/majiang/hand.py",
    "src/majiang/shapes.py",
    "src/majiang/rules/guobiao/fans.py",
    "src/majiang/rules/guobiao/exclusions.py",
    "src/majiang/rules/guobiao/payments.py",
    "src/majiang/rules/guobiao/scoring.py",
    "src/majiang/rules/guobiao/fast_notation.py",
    "src/majiang/rules/guobiao/fast_batch.py",
]


def ext_modules() -> list:
    if os.environ.get("MAJIANG_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=ext_modules())
