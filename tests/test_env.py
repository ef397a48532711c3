"""The RL environment: PettingZoo's API test, masks, the encoding's round trip, rewards from the
real payments, the Gymnasium wrapper, batched stepping and the documented examples."""

from __future__ import annotations

import dataclasses
import doctest
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from majiang.bots import make_bot  # noqa: E402
from majiang.engine import IllegalAction, Table  # noqa: E402
from majiang.engine.actions import ThrowBullets, action_index  # noqa: E402
from majiang.engine.serialize import observation_to_json  # noqa: E402
from majiang.engine.state import extension_state  # noqa: E402
from majiang.env import (  # noqa: E402
    AGENTS,
    OBSERVATION_VERSION,
    ActionCodec,
    BatchEnv,
    Layout,
    MajiangGymEnv,
    Observer,
    action_list,
    decode_observation,
    encode_observation,
    env,
)
from majiang.env.encoding import ADDED_KONG0, CHOW0, PASS, THROW0, WIN  # noqa: E402
from majiang.rules.registry import make_rules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES = [
    ("gb", {}), ("gb", {"false_win": True}), ("huangyan", {}),
    ("gb", {"flowers": False, "botzone_scoring": True}),  # 136 tiles, the four-part wall
]


def _pick(mask: Any, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    assert len(legal), "an agent asked to act has no legal action"
    return int(legal[rng.randrange(len(legal))])


@pytest.mark.filterwarnings("ignore::UserWarning")  # its hints for Box observations
@pytest.mark.parametrize("rules", ["gb", "huangyan"])
def test_pettingzoo_api(rules: str) -> None:
    api_test(env(rules), num_cycles=400)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: env("huangyan"), num_cycles=200)


def test_action_space_is_documented() -> None:
    actions = action_list(5)
    assert len(actions) == 134 and len(action_list(0)) == 128
    assert [type(actions[i]).__name__ for i in (0, CHOW0, 55, 56, 57, ADDED_KONG0, WIN, PASS)] == [
        "Discard", "Chow", "Pung", "ExposedKong", "ConcealedKong", "AddedKong", "Win", "Pass",
    ]  # fmt: skip
    assert actions[CHOW0 + 7 * 2 + 6].low == 9 * 2 + 6  # type: ignore[union-attr]
    assert actions[THROW0 + 3] == ThrowBullets(3)
    codec = ActionCodec(5)
    assert codec.indices(actions) == list(range(len(actions)))
    copies = [dataclasses.replace(a) for a in actions]
    assert not any(c is a for c, a in zip(copies, actions, strict=True))
    assert codec.indices(copies) == list(range(len(actions)))  # by type, not by identity
    with pytest.raises(TypeError, match="not an action"):
        action_index("pung")  # type: ignore[arg-type]


def test_random_hands_never_take_a_masked_action() -> None:
    """1,000 hands of random play over the mask across both rule sets; every chosen action is
    validated by the table (an illegal one would raise)."""
    total = 0
    for rules, options, hands in (
        ("gb", {}, 300),
        ("gb", {"false_win": True}, 200),
        ("huangyan", {}, 500),
    ):
        batch = BatchEnv(20, rules, every_seat_answers=False, **options)
        _, mask, _ = batch.reset(range(1000, 1020))
        rng = np.random.default_rng(len(options))
        while batch.hands_finished < hands:
            assert mask.any(axis=1).all()
            choice = (rng.random(mask.shape) * mask).argmax(axis=1)
            assert mask[np.arange(len(choice)), choice].all()
            _, mask, _, rewards, dones = batch.step(choice)
            assert (rewards.sum(axis=1) == 0).all()
            for i in np.flatnonzero(dones):
                result = batch.results[i]
                assert result is not None and sum(result.deltas) == 0
        total += batch.hands_finished
    assert total >= 1000


@pytest.mark.parametrize("rules,options", RULES)
def test_encoding_round_trip(rules: str, options: dict[str, Any]) -> None:
    """At every step, every seat: decode(encode(obs)) == obs, and the fast table encoder writes
    exactly the reference encoding; the oracle blocks hold the other hands and the wall."""
    rule_set = make_rules(rules, options)
    layout = Layout(rule_set.throw_limit)
    oracle = Layout(rule_set.throw_limit, oracle=True)
    codec = ActionCodec(rule_set.throw_limit)
    fast, full = Observer(layout, codec), Observer(oracle, codec)
    rng = random.Random(3)
    vec = np.zeros(layout.size, np.int16)
    big = np.zeros(oracle.size, np.int16)
    mask = np.zeros(layout.num_actions, np.int8)
    for seed in range(6):
        table = Table(rule_set, seed)
        fast.reset(table)
        full.reset(table)
        while True:
            for seat in range(4):
                obs = table.observation(seat)
                ref, ref_mask = encode_observation(obs, layout, codec)
                back = decode_observation(ref, ref_mask, layout, codec)
                assert set(back.legal_actions) == set(obs.legal_actions)
                assert back._replace(legal_actions=obs.legal_actions,
                                     extension=obs.extension) == obs
                assert extension_state(back) == extension_state(obs)
                assert observation_to_json(back) == observation_to_json(
                    obs._replace(legal_actions=back.legal_actions))  # the same wire form
                fast.encode(seat, vec, mask)
                assert (vec == ref).all() and (mask == ref_mask).all()
                full.encode(seat, big, mask)
                assert (big[: layout.size] == ref).all() or any(
                    m.is_concealed_kong for s in range(4) if s != seat for m in table.melds[s]
                )
                others = big[oracle.others : oracle.wall].reshape(3, 34)
                for r in range(1, 4):
                    assert others[r - 1].tolist() == table.concealed[(seat + r) % 4]
                wall = [t - 1 for t in big[oracle.wall :] if t]
                assert wall == table.wall.undrawn()
            if table.is_over:
                break
            seat = table.to_act()[0]
            table.apply(seat, rng.choice(table.legal_actions(seat)))


@pytest.mark.parametrize(
    "rules,options",
    [*RULES, ("huangyan", {"bullet_value": 1.5})],
)
def test_rewards_are_the_real_payments(rules: str, options: dict[str, Any]) -> None:
    """Rewards over a hand add up to the table's result (false wins and bullets included)."""
    aec = env(rules, **options)
    bullet_value = options.get("bullet_value", 0.0)
    bots = [make_bot("efficient" if rules == "gb" else "wild", seat) for seat in range(4)]
    codec = aec.codec
    false_wins = wins = 0
    for seed in range(12):
        aec.reset(seed=seed)
        total = dict.fromkeys(AGENTS, 0.0)
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            action = None
            if not (terminated or truncated):
                seat = AGENTS.index(agent)
                assert aec.table is not None
                choice = bots[seat](aec.table.observation(seat))
                action = WIN if obs["action_mask"][WIN] else codec.indices([choice])[0]
            aec.step(action)
            for a, r in aec.rewards.items():
                total[a] += r
        table = aec.table
        assert table is not None and table.result is not None
        false_wins += sum(e["type"] == "false_win" for e in table.events)
        wins += table.result.winner is not None
        bullets = table.result.ledger("bullets")
        expected = [table.result.deltas[s] + bullet_value * bullets[s] for s in range(4)]
        assert [total[a] for a in AGENTS] == pytest.approx(expected)
        assert sum(total.values()) == pytest.approx(0)
    assert wins > 0
    if options.get("false_win"):
        assert false_wins > 0  # every shape is declared, so false wins happen and are paid


def test_claim_windows_ask_every_seat_in_table_order() -> None:
    aec = env("gb")
    aec.reset(seed=4)
    rng = random.Random(0)
    seen_window = False
    for agent in aec.agent_iter(2000):
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        table = aec.table
        assert table is not None
        assert agent == AGENTS[table.to_act()[0]]
        waiting = [AGENTS[s] for s in table.to_act()]
        for other in AGENTS:  # a seat that need not act has an empty mask
            assert aec.observe(other)["action_mask"].any() == (other in waiting)
        if table.phase.value == "claim":
            seen_window = True
            assert len(table.to_act()) >= 1
        aec.step(_pick(obs["action_mask"], rng))
    assert seen_window


def test_explicit_wall_and_seed_reproduce_the_table() -> None:
    rules = make_rules("gb")
    wall = rules.wall_tiles()
    random.Random(5).shuffle(wall)
    aec = env("gb", dealer=2)
    aec.reset(options={"wall": wall})
    reference = Table(rules, 0, dealer=2, wall=wall)
    layout = aec.layout
    for seat in range(4):
        expected, _ = encode_observation(reference.observation(seat), layout)
        assert (aec.observe(AGENTS[seat])["observation"] == expected).all()
    aec.reset(seed=77)
    again = Table(rules, 77, dealer=2)
    expected, _ = encode_observation(again.observation(2), layout)
    assert (aec.observe("player_2")["observation"] == expected).all()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gym_wrapper_against_bots() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(MajiangGymEnv("gb", opponents="random", illegal="penalize"), skip_render_check=True)
    for rules, opponents in (("gb", "efficient"), ("huangyan", "wild")):
        gym_env = MajiangGymEnv(rules, opponents=opponents, seat=None, dealer=None)
        rng = random.Random(2)
        for seed in range(4):
            obs, info = gym_env.reset(seed=seed)
            total, done = 0.0, False
            while not done:
                obs, reward, done, truncated, info = gym_env.step(_pick(obs["action_mask"], rng))
                total += reward
                assert not truncated
            assert total == info["result"].deltas[info["seat"]]
        with pytest.raises(IllegalAction):
            gym_env.reset(seed=1)
            gym_env.step(int(np.flatnonzero(gym_env.action_masks() == 0)[0]))


@pytest.mark.parametrize("every_seat_answers", [True, False])
def test_batched_stepping_equals_single_stepping(every_seat_answers: bool) -> None:
    """Observations, masks, seats, rewards and results of BatchEnv equal the AEC env's, step by
    step (with fast windows nearly every step is a turn, whose discards are masked in bulk)."""
    seeds = [21, 22, 23, 24]
    for rules in ("gb", "huangyan"):
        batch = BatchEnv(len(seeds), rules, every_seat_answers=every_seat_answers)
        obs, mask, seats = batch.reset(seeds)
        singles = [env(rules, every_seat_answers=every_seat_answers) for _ in seeds]
        for single, seed in zip(singles, seeds, strict=True):
            single.reset(seed=seed)
        rngs = [random.Random(seed) for seed in seeds]
        live = [True] * len(seeds)
        while any(live):
            actions = []
            for i, single in enumerate(singles):
                if not live[i]:
                    actions.append(_pick(mask[i], rngs[i]))
                    continue
                agent = single.agent_selection
                assert AGENTS[seats[i]] == agent
                view = single.observe(agent)
                assert (view["observation"] == obs[i]).all()
                assert (view["action_mask"] == mask[i]).all()
                actions.append(_pick(mask[i], rngs[i]))
            obs, mask, seats, rewards, dones = batch.step(actions)
            for i, single in enumerate(singles):
                if not live[i]:
                    continue
                single.step(actions[i])
                assert [single.rewards[a] for a in AGENTS] == rewards[i].tolist()
                if dones[i]:
                    assert all(single.terminations.values())
                    assert single.table is not None
                    assert batch.results[i] == single.table.result
                    live[i] = False


def test_docs_examples() -> None:
    result = doctest.testfile(
        str(ROOT / "docs/env.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0 and result.failed == 0


def test_spec_names_and_version_are_documented() -> None:
    """The observer's feature names, in order, are the field names of docs/env.md's observation
    table (the oracle blocks named in its prose), and the documented version is the layout's."""
    text = (ROOT / "docs/env.md").read_text()
    table = text.split("| Offset | Field |")[1].split("\n\n")[0]
    fields = re.findall(r"^\| [^|]+ \| `(\w+)` \|", table, re.MULTILINE)
    spec = Observer(Layout(5, oracle=True)).spec()
    rows = [f["name"] for f in spec["row_fields"]]
    names = [f["name"] for f in spec["features"]]
    assert fields == names[: names.index("seat_rows") + 1] + rows
    assert names[-2:] == ["other_hands", "wall"]
    assert "`other_hands`" in text and "the `wall`" in text
    assert re.findall(r"`OBSERVATION_VERSION`, version (\d+)", text) == [str(OBSERVATION_VERSION)]
    assert spec["version"] == OBSERVATION_VERSION
    assert sum(math.prod(f["shape"]) for f in spec["features"]) == spec["size"]
    assert sum(math.prod(f["shape"]) for f in spec["row_fields"]) == Layout().row
    private = {f["name"] for f in spec["features"] if f["feature_set"] == "private"}
    assert private == {"hand", "drawn", "win_reaches_minimum"}
    assert Observer(Layout()).spec()["feature_sets"] == ["public", "private"]
