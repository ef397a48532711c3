"""The RL environment: PettingZoo AEC, a Gymnasium wrapper, batched tables, the encoding.

``majiang.env.env(rules="gb" | "huangyan", **options)`` returns a PettingZoo AEC environment
(one hand per episode); :class:`MajiangGymEnv` seats one learner against bots;
:class:`BatchEnv` steps many tables in one call. The action space and the observation vector
are documented in :mod:`majiang.env.encoding` and ``docs/env.md``; :class:`Observer` encodes
them. Needs the ``env`` extra
(``pip install '.[env]'`` in a clone: numpy, gymnasium, pettingzoo).
"""

from ..extras import require_extra

require_extra("env", "majiang.env")

# ruff: noqa: E402 (the extra is checked before its modules are imported)

from .aec import AGENTS, MajiangEnv, env
from .batch import BatchEnv
from .encoding import OBSERVATION_VERSION, ActionCodec, Layout, action_count, action_list
from .gym import MajiangGymEnv
from .observer import BatchObserver, Observer, decode_observation, encode_observation

raw_env = MajiangEnv

__all__ = [
    "AGENTS",
    "OBSERVATION_VERSION",
    "ActionCodec",
    "BatchEnv",
    "BatchObserver",
    "Layout",
    "MajiangEnv",
    "MajiangGymEnv",
    "Observer",
    "action_count",
    "action_list",
    "decode_observation",
    "encode_observation",
    "env",
    "raw_env",
]
