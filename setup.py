"""Build hook: with MAJIANG_COMPILE=1 the scorer's, the engine's, the RL encoder's and the
efficiency bot's hot modules are compiled by mypyc (scorer 2-3x faster, engine and bots ~1.5-1.8x).

The same Python sources are compiled; nothing is written twice. The build backend
(``build_support/majiang_build.py``) sets the variable: a plain ``pip install .`` compiles where a
C compiler is present and builds pure Python where not; editable installs are pure Python.
"""

import os

from setuptools import setup

COMPILED = [
    # The hot path only: modules whose functions receive values the boundary has checked.
    # The boundary (api, analysis, the engine's actions, the CLI) stays Python, so that bad input
    # of any type still raises the documented MajiangError (compiled functions check the types of
    # their arguments: see the notes in engine/table.py's ``apply`` and shanten's ``hand_key``;
    # the notation's public functions take ``object`` and check the type themselves). Compiled classes cannot be subclassed in Python; the frozen dataclasses
    # below copy and pickle through ``__reduce__``.
    "src/majiang/tiles.py",
    "src/majiang/hand.py",
    "src/majiang/notation.py",
    "src/majiang/shapes.py",
    "src/majiang/rules/guobiao/fans.py",
    "src/majiang/rules/guobiao/exclusions.py",
    "src/majiang/rules/guobiao/payments.py",
    "src/majiang/rules/guobiao/scoring.py",
    "src/majiang/rules/guobiao/fast_batch.py",
    "src/majiang/shanten.py",
    # The engine (not actions.py: its dataclasses are built from user input; not the records,
    # matches or replays; wall_random.py subclasses random.Random, which mypyc cannot compile).
    "src/majiang/engine/state.py",
    "src/majiang/engine/wall.py",
    "src/majiang/engine/legality.py",
    "src/majiang/engine/table.py",
    # The RL action codec and observation encoder, and the efficiency bot's shanten blocks.
    "src/majiang/env/encoding.py",
    "src/majiang/env/observer.py",
    "src/majiang/bots/view.py",
    "src/majiang/bots/blocks.py",
    "src/majiang/bots/efficient.py",
]


def ext_modules() -> list:
    if os.environ.get("MAJIANG_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    # NumPy is not in the isolated build environment: the encoder's arrays are plain objects to
    # mypyc with or without its stubs, so its missing import is no error.
    return mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3")


setup(ext_modules=ext_modules())
