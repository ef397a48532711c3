"""Imitation learning in about a minute: a small NumPy policy learns to play Guobiao like the
fan-aware bot, then plays against three efficiency bots.

    .venv/bin/python examples/imitation.py [--hands 100] [--eval 200] [--epochs 12]

1. Four fan bots play ``--hands`` hands; every decision with a choice is recorded as the
   encoded observation, the action mask and the bot's action index.
2. A one-hidden-layer MLP over features built from the observation vector (own counts, every
   seat's melds and pond as tile counts, the tile on offer, the drawn tile, phase and winds,
   and on turn which discards keep the best shanten) and the mask is trained with a masked
   softmax cross-entropy (only legal actions compete) and Adam, on the examples under all six
   orders of the three suits.
3. The policy (greedy over the mask) takes a seat in ``MajiangGymEnv`` against three
   ``efficient`` bots for ``--eval`` hands; its win rate is printed with the fraction of hands
   that ended in a draw. A seat among four equal players wins about a quarter of the hands.

NumPy only; not part of the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from majiang.bots import make_bot
from majiang.bots.efficient import Discards
from majiang.engine import Table
from majiang.env import ActionCodec, Layout, MajiangGymEnv, Observer
from majiang.env.encoding import (
    ADDED_KONG0,
    CHOW0,
    CONCEALED_KONG0,
    HAND,
    ROW_MELDS,
    ROW_POND,
    SEATS,
)
from majiang.rules.registry import make_rules

Array = npt.NDArray[Any]


def collect(hands: int, layout: Layout, seed: int = 0) -> tuple[Array, Array, Array]:
    """(observations, masks, actions) of four fan bots' decisions that had a choice."""
    rules = make_rules("gb")
    codec = ActionCodec(layout.throw_limit)
    observer = Observer(layout, codec)
    bots = [make_bot("fan", seed + s) for s in range(4)]
    obs_rows: list[Array] = []
    mask_rows: list[Array] = []
    actions: list[int] = []
    vec = np.zeros(layout.size, np.int16)
    mask = np.zeros(layout.num_actions, np.int8)
    for hand in range(hands):
        table = Table(rules, seed * 100_000 + hand, dealer=hand % 4, every_seat_answers=False)
        observer.reset(table)
        while not table.is_over:
            seat = table.to_act()[0]
            action = bots[seat](table.observation(seat))
            observer.encode(seat, vec, mask)
            if mask.sum() > 1:
                obs_rows.append(vec.copy())
                mask_rows.append(mask.copy())
                actions.append(codec.indices([action])[0])
            table.apply(seat, action)
    return np.array(obs_rows), np.array(mask_rows), np.array(actions)


def features(obs: Array, layout: Layout) -> Array:
    """Float features from a batch of observation vectors (vectorised)."""
    n = len(obs)
    rows = obs[:, SEATS : layout.public_size].reshape(n, 4, layout.row).astype(np.int64)
    seen = np.zeros((n, 4, 35))  # slot 0 collects empty / face-down entries
    melds = rows[:, :, ROW_MELDS : ROW_MELDS + 12].reshape(n, 4, 4, 3)
    kind, tile = melds[..., 0], melds[..., 1]
    b, s = np.indices(kind.shape[:2])
    for m in range(4):
        k, t = kind[:, :, m], tile[:, :, m]
        chow = k == 1
        for step in range(3):
            np.add.at(seen, (b, s, np.where(chow, t + step, 0)), 1.0)
        np.add.at(seen, (b, s, np.where(k >= 2, t, 0)), np.where(k == 3, 4.0, 3.0) * (k >= 2))
    ponds = np.zeros((n, 4, 35))
    pond = rows[:, :, ROW_POND:]
    bb, ss, _ = np.indices(pond.shape)
    np.add.at(ponds, (bb, ss, pond), 1.0)
    eye = np.eye(35)[:, 1:]
    onehot = lambda col, k: np.eye(k)[obs[:, col].astype(np.int64)]  # noqa: E731
    parts = [
        obs[:, HAND : HAND + 34] / 4.0,
        seen[:, :, 1:].reshape(n, -1) / 4.0,
        ponds[:, :, 1:].reshape(n, -1) / 4.0,
        eye[obs[:, 7].astype(np.int64)],  # the tile on offer
        eye[obs[:, 6].astype(np.int64)],  # the drawn tile
        shape_features(obs, rows),
        onehot(4, 5),  # phase
        onehot(3, 4),  # seat wind
        onehot(2, 4),  # prevalent wind
        obs[:, 8:9] / 100.0,  # wall remaining
        rows[:, :, 0] / 14.0,  # hand sizes
    ]
    return np.concatenate(parts, axis=1).astype(np.float32)


TILE_BLOCKS = 13
"""Feature blocks of 34 (one value per tile) at the front of :func:`features`."""


def shape_features(obs: Array, rows: Array) -> Array:
    """Two blocks of 34 on turn with a full hand, from the efficiency bot's shanten table: the
    discards that keep the best shanten, and how much worse each other held tile is. The rest
    (fans, claims, defence) the network must learn from the fan bot."""
    out = np.zeros((len(obs), 68), np.float32)
    for i in np.flatnonzero((obs[:, 4] == 0) & (obs[:, 5] == 0)):
        counts = obs[i, HAND : HAND + 34].tolist()
        melds = int((rows[i, 0, ROW_MELDS : ROW_MELDS + 12 : 3] > 0).sum())
        if sum(counts) + 3 * melds != 14:
            continue
        table = Discards(counts, melds)
        for t, shanten in table.options.items():
            out[i, t] = shanten == table.best
            out[i, 34 + t] = min(shanten - table.best, 4) / 4.0
    return out


def inputs(x: Array, masks: Array) -> Array:
    """The network's input: the features and the action mask."""
    return np.concatenate([x, masks.astype(np.float32)], axis=1)


def suit_permutations(layout: Layout) -> list[tuple[Array, Array]]:
    """For each of the 6 orders of the three suits: the feature and action permutations
    (mahjong is nearly symmetric in its suits: 6x the data for free)."""
    out = []
    for sigma in itertools.permutations(range(3)):
        tiles = np.array([sigma[t // 9] * 9 + t % 9 if t < 27 else t for t in range(34)])
        acts = np.arange(layout.num_actions)
        acts[:34] = tiles
        for suit in range(3):
            acts[CHOW0 + 7 * suit : CHOW0 + 7 * suit + 7] = CHOW0 + 7 * sigma[suit] + np.arange(7)
        acts[CONCEALED_KONG0 : CONCEALED_KONG0 + 34] = CONCEALED_KONG0 + tiles
        acts[ADDED_KONG0 : ADDED_KONG0 + 34] = ADDED_KONG0 + tiles
        out.append((tiles, acts))
    return out


def augment(x: Array, masks: Array, actions: Array, layout: Layout) -> tuple[Array, Array, Array]:
    """The examples under all six suit orders (the first 11 feature blocks are per tile)."""
    xs, ms, ys = [], [], []
    for tiles, acts in suit_permutations(layout):
        x2 = x.copy()
        for block in range(TILE_BLOCKS):
            x2[:, block * 34 + tiles] = x[:, block * 34 : (block + 1) * 34]
        m2 = np.zeros_like(masks)
        m2[:, acts] = masks
        xs.append(x2)
        ms.append(m2)
        ys.append(acts[actions])
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ys)


class Policy:
    """A one-hidden-layer MLP with a masked softmax, trained by Adam (NumPy)."""

    def __init__(self, inputs: int, outputs: int, hidden: int = 256, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.params = [
            rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            rng.normal(0, np.sqrt(1 / hidden), (hidden, outputs)).astype(np.float32),
            np.zeros(outputs, np.float32),
        ]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def logits(self, x: Array, mask: Array) -> tuple[Array, Array]:
        w1, b1, w2, b2 = self.params
        h = np.maximum(x @ w1 + b1, 0)
        z = h @ w2 + b2
        return np.where(mask > 0, z, -1e9), h

    def act(self, x: Array, mask: Array) -> Array:
        """Greedy legal actions for a batch of inputs."""
        return self.logits(x, mask)[0].argmax(axis=1)

    def train_step(self, x: Array, mask: Array, y: Array, lr: float = 1e-3) -> float:
        z, h = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
        dz = p
        dz[np.arange(n), y] -= 1
        dz /= n
        w2 = self.params[2]
        dh = (dz @ w2.T) * (h > 0)
        grads = [x.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]
        self.t += 1
        for i, g in enumerate(grads):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            m_hat = self.m[i] / (1 - 0.9**self.t)
            v_hat = self.v[i] / (1 - 0.999**self.t)
            self.params[i] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return loss


def evaluate(
    policy: Policy | None, layout: Layout, hands: int
) -> tuple[float, float, float]:
    """Win rate, draw rate and mean score of the policy (None: the fan bot itself, the
    teacher) against three efficiency bots, on the same seeds and seats."""
    env = MajiangGymEnv("gb", opponents="efficient", seat=None, dealer=None)
    codec = ActionCodec(layout.throw_limit)
    teacher = make_bot("fan", 0)
    wins = draws = 0
    score = 0.0
    for hand in range(hands):
        obs, info = env.reset(seed=10_000 + hand)
        done = False
        while not done:
            if policy is None:
                assert env.table is not None
                choice = teacher(env.table.observation(env.seat))
                action = codec.indices([choice])[0]
            else:
                mask = obs["action_mask"][None, :]
                x = inputs(features(obs["observation"][None, :], layout), mask)
                action = int(policy.act(x, mask)[0])
            obs, reward, done, _, info = env.step(action)
            score += reward
        result = info["result"]
        wins += result.winner == info["seat"]
        draws += result.winner is None
    return wins / hands, draws / hands, score / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150, help="fan-bot hands to imitate")
    parser.add_argument("--eval", type=int, default=200, help="hands against efficiency bots")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--teacher", action="store_true", help="also evaluate the fan bot")
    args = parser.parse_args()
    layout = Layout()
    start = time.perf_counter()
    obs, masks, actions = collect(args.hands, layout)
    print(f"collected {len(actions)} fan-bot decisions from {args.hands} hands "
          f"in {time.perf_counter() - start:.1f} s")
    x = features(obs, layout)
    rng = np.random.default_rng(0)
    order = rng.permutation(len(x))
    split = int(0.9 * len(x))
    train, test = order[:split], order[split:]
    tx, tm, ty = augment(x[train], masks[train], actions[train], layout)
    tx = inputs(tx, tm)
    test_x = inputs(x[test], masks[test])
    policy = Policy(tx.shape[1], layout.num_actions, hidden=512)
    t0 = time.perf_counter()
    batches = np.arange(len(tx))
    for epoch in range(args.epochs):
        rng.shuffle(batches)
        losses = [
            policy.train_step(tx[idx], tm[idx], ty[idx])
            for idx in np.array_split(batches, max(1, len(batches) // 256))
        ]
        accuracy = float((policy.act(test_x, masks[test]) == actions[test]).mean())
        print(f"epoch {epoch + 1:2}: loss {np.mean(losses):.3f}, "
              f"held-out agreement with the fan bot {accuracy:.1%}")
    print(f"trained on {len(tx)} examples (6 suit orders) in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    win, draw, score = evaluate(policy, layout, args.eval)
    print(f"against 3 efficiency bots, {args.eval} hands: win rate {win:.1%} "
          f"(a quarter would be par), draws {draw:.1%}, mean score {score:+.1f} "
          f"({time.perf_counter() - t0:.1f} s)")
    if args.teacher:
        win, draw, score = evaluate(None, layout, args.eval)
        print(f"the fan bot itself, same hands and seats: win rate {win:.1%}, "
              f"draws {draw:.1%}, mean score {score:+.1f}")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
