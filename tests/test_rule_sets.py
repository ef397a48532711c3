"""Rule sets describe themselves (``majiang.rules.info``) and own their dispatch.

Nothing outside ``src/majiang/rules/`` names a rule set (an AST scan of the Python, a scan of
the browser's JavaScript); the registry is a mapping with aliases; each rule set's settlement
lines explain its payments; and a third rule set, registered here, is picked up by the command
line's help, ``simulate``, the server's room form and the terminal table without a change
anywhere else.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from majiang.bots import UnknownBotError, check_bot, make_bot
from majiang.cli import main
from majiang.engine.actions import Discard
from majiang.engine.serialize import observation_to_json, public_view_to_json
from majiang.engine.state import extension_state
from majiang.engine.table import Table
from majiang.env import Layout, decode_observation, encode_observation
from majiang.errors import OptionError
from majiang.hints import hints
from majiang.rules.base import TableView
from majiang.rules.guobiao.info import DESCRIPTION as GUOBIAO
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.rules.guobiao.payments import seat_deltas
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.huangyan.options import HuangyanOptions
from majiang.rules.huangyan.sheet import reason
from majiang.rules.info import describe_options
from majiang.rules.registry import (
    DEFAULT_RULES,
    RULE_SETS,
    make_rules,
    rule_set,
    settlement_lines,
)
from majiang.rules.sheet_lines import FanDefinition, text

SRC = Path(__file__).resolve().parents[1] / "src" / "majiang"

def _names() -> set[str]:
    return {n for info in RULE_SETS.values() for n in (info.name, *info.aliases)}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def python_naming_rule_sets() -> list[str]:
    """Every string constant outside rules/ (docstrings aside) that is a rule set's name."""
    names = _names()
    found = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative.startswith("rules/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value in names and id(node) not in docs):
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
    return found


def javascript_naming_rule_sets() -> list[str]:
    """Every quoted rule set name in the browser's JavaScript."""
    alternatives = "|".join(sorted(map(re.escape, _names())))
    quoted = re.compile(rf"""["'`]({alternatives})["'`]""")
    found = []
    for path in sorted((SRC / "server" / "web" / "static").glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    return found


def test_nothing_outside_the_rule_sets_names_one() -> None:
    assert python_naming_rule_sets() == []
    assert javascript_naming_rule_sets() == []


def test_the_scan_finds_dispatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scans see a comparison with a rule set's name, in Python and in JavaScript."""
    fake = tmp_path / "majiang"
    (fake / "server" / "web" / "static").mkdir(parents=True)
    (fake / "cli.py").write_text('"""doc naming "gb" is fine."""\n'
                                 'def f(rules):\n    return rules == "huangyan"\n')
    (fake / "server" / "web" / "static" / "x.js").write_text('if (rules === "gb") go();\n')
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert python_naming_rule_sets() == ["cli.py:3: 'huangyan'"]
    assert javascript_naming_rule_sets() == ['x.js:1: if (rules === "gb") go();']


FRONT_ENDS = ("server/", "tui/", "cli/", "sim/", "tournament/", "env/")
"""The packages that meet a person, a network or a learner: they ask a rule set's description,
never import its modules."""

IMPORTS_LEFT = {
    "cli/analyze.py": "majiang analyze is Guobiao's hand analysis (waits scored in fans)",
}
"""Front-end files that may import a rule set's modules besides the scorers the descriptions
name (docs/engine.md lists them and why); a ceiling: this set may only shrink."""


def _module_of(relative: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``import from`` in ``relative`` (a path under majiang/) names."""
    if not node.level:
        return node.module or ""
    package = ["majiang", *relative.split("/")[:-1]]
    package = package[:len(package) - node.level + 1]
    return ".".join([*package, *([node.module] if node.module else [])])


def front_ends_importing_rule_sets() -> list[str]:
    """Every import of a rule set's modules (``majiang.rules.<set>...``) in a front end, except
    in the scorers the descriptions name and in :data:`IMPORTS_LEFT`."""
    folders = {p.name for p in (SRC / "rules").iterdir() if (p / "__init__.py").exists()}
    scorers = {info.scorer.partition(":")[0] for info in RULE_SETS.values()}
    found = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        module = "majiang." + relative.removesuffix(".py").replace("/", ".")
        if not relative.startswith(FRONT_ENDS) or module in scorers or relative in IMPORTS_LEFT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = _module_of(relative, node)
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["majiang", "rules"] and len(parts) > 2 and parts[2] in folders:
                    found.append(f"{relative}:{node.lineno}: {name}")
                    break
    return found


def test_front_ends_ask_the_description_not_the_rule_set_modules() -> None:
    assert front_ends_importing_rule_sets() == []


def test_the_import_scan_finds_a_rule_set_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "majiang"
    for folder in ("rules/gb_like", "server/web", "tui", "bots"):
        (fake / folder).mkdir(parents=True)
    (fake / "rules" / "gb_like" / "__init__.py").write_text("")
    (fake / "server" / "web" / "__init__.py").write_text(
        "from ...rules.gb_like.fans import FANS\nfrom ...rules.registry import RULE_SETS\n")
    (fake / "tui" / "sheets.py").write_text("from ..rules import gb_like\n")
    (fake / "tui" / "other.py").write_text("import majiang.rules.gb_like.fans\n")
    (fake / "bots" / "fan.py").write_text("from ..rules.gb_like import fans\n")  # not a front end
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert front_ends_importing_rule_sets() == [
        "server/web/__init__.py:1: majiang.rules.gb_like.fans",
        "tui/other.py:1: majiang.rules.gb_like.fans",
        "tui/sheets.py:1: majiang.rules.gb_like",
    ]


SHARED_CLASS_NAMES_LEFT = {
    "Alternative", "Player", "SeatGrant", "Situation", "StoreError", "TournamentResult",
    "_Candidate",
}
"""Class names still defined in more than one module; this set may only shrink."""


def test_a_class_name_names_one_thing() -> None:
    """A rule set's description, its wire form and Botzone's request tracker each have their
    own name (not ``RuleSetInfo`` twice, nor ``SeatView`` in the protocol and in Botzone)."""
    import majiang.botzone
    import majiang.rules.info
    import majiang.server.protocol as protocol

    assert majiang.rules.info.RuleSetDescription is type(RULE_SETS["gb"])
    assert "RuleSetDescription" in protocol.RuleSetListing.__doc__  # type: ignore[operator]
    assert not hasattr(protocol, "RuleSetInfo") and not hasattr(majiang.rules.info, "RuleSetInfo")
    assert hasattr(protocol, "SeatView") and not hasattr(majiang.botzone, "SeatView")
    assert majiang.botzone.RequestTracker.__module__ == "majiang.botzone.tracker"
    defined: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                defined.setdefault(node.name, []).append(path.relative_to(SRC).as_posix())
    shared = {name for name, places in defined.items() if len(places) > 1}
    assert shared <= SHARED_CLASS_NAMES_LEFT, {n: defined[n] for n in shared}


# ---------------------------------------------------------------------- the registry


def test_the_registry_is_a_mapping_of_descriptions() -> None:
    assert list(RULE_SETS) == ["gb", "huangyan"] and DEFAULT_RULES == "gb"
    assert rule_set("guobiao") is RULE_SETS["gb"] and rule_set("hy") is RULE_SETS["huangyan"]
    assert "hy" not in RULE_SETS  # aliases are looked up, not listed
    assert make_rules("hy").name == "huangyan"
    with pytest.raises(OptionError, match="unknown rule set 'sichuan'; known: gb, huangyan"):
        rule_set("sichuan")
    gb, hy = RULE_SETS["gb"], RULE_SETS["huangyan"]
    assert (gb.label, hy.label) == ("国标 GB", "黄岩 Huangyan")
    assert (gb.points_unit, hy.points_unit) == ("fans", "hu")
    assert gb.shows.prevalent_wind and not hy.shows.prevalent_wind
    assert hy.shows.wild and hy.shows.dealer_count and hy.shows.second_ledger == "bullets"
    assert gb.botzone and not hy.botzone
    import pickle

    for info in (gb, hy):  # a description pickles (its make is a LazyClass, not a closure)
        assert pickle.loads(pickle.dumps(info)).make(None).name == info.name


def test_one_default_bot_per_purpose() -> None:
    """Where many hands are played (a server's seats, simulate, tournament) the cheap bot;
    at the terminal table, one table on the player's machine, the strongest quick one."""
    gb, hy = RULE_SETS["gb"], RULE_SETS["huangyan"]
    assert (gb.default_bot, gb.practice_bot) == ("efficient", "fan")
    assert (hy.default_bot, hy.practice_bot) == ("wild", "wild")
    for info in RULE_SETS.values():
        assert {info.default_bot, info.practice_bot} <= set(info.bots)


@pytest.mark.parametrize("cls", [GuobiaoOptions, HuangyanOptions])
def test_option_docs_are_data(cls: type) -> None:
    """Each option's doc, kind and default come from the options class itself (no source
    parsing: a build without sources has them too)."""
    options = describe_options(cls)
    assert [o.name for o in options] == cls.names()  # type: ignore[attr-defined]
    default = cls()
    for option in options:
        assert option.doc and "  " not in option.doc, option.name
        assert option.default == getattr(default, option.name)
    kinds = {o.name: o.kind for o in options}
    assert kinds.get("flowers", kinds.get("rob_kong")) == "bool"
    if cls is HuangyanOptions:
        assert kinds["limit"] == "int" and kinds["gunner_test"] == "choice"


@pytest.mark.parametrize(("cls", "title"), [(GuobiaoOptions, "Guobiao"),
                                            (HuangyanOptions, "Huangyan")])
def test_options_from_names_and_values(cls: Any, title: str) -> None:
    """Both rule sets read their options by one function: on/off and numbers as text, the
    defaults when none are given, one clear error for an unknown name or a value that is no
    mapping."""
    assert cls.from_mapping(None) is cls.from_mapping({}) == cls()
    name = next(o.name for o in describe_options(cls) if o.kind == "bool")
    assert getattr(cls.from_mapping({name: "on"}), name) is True
    with pytest.raises(OptionError, match=f"unknown {title} option 'nope'; known: "):
        cls.from_mapping({"nope": 1})
    with pytest.raises(OptionError, match=f"option {name} takes on/off, not 'maybe'"):
        cls.from_mapping({name: "maybe"})
    with pytest.raises(OptionError, match="options must be a mapping of names to values"):
        cls.from_mapping(["nope"])


# ---------------------------------------------------------------------- settlement lines


def _won(rules_name: str, bot: str, *, options: dict[str, Any] | None = None) -> Table:
    rules = make_rules(rules_name, options)
    for seed in range(200):
        table = Table(rules, seed=seed)
        agents = [make_bot(bot, s) for s in range(4)]
        while not table.is_over:
            seat = table.to_act()[0]
            table.apply(seat, agents[seat](table.observation(seat)))
        assert table.result is not None
        if table.result.winner is not None:
            return table
    raise AssertionError("no win in 200 hands")


def test_guobiao_lines_give_the_payment_formula_that_was_paid() -> None:
    table = _won("gb", "fan")
    result = table.result.to_json()  # type: ignore[union-attr]
    total = result["detail"]["total"]
    for stake in (1, 3):
        result["deltas"] = list(seat_deltas(result["winner"], result["discarder"], total, stake))
        lines = settlement_lines(result, table.rules, stake)["lines"]
        assert [line["id"] for line in lines] == ["payment-formula"]
        (line,) = lines
        assert f"(8 + {total}) × {stake} = {(8 + total) * stake}" in line["text"]["en"]
        assert line["result"] == f"+{result['deltas'][result['winner']]}"
        assert line["seats"] == ([] if result["self_drawn"] else [result["discarder"]])
    result["deltas"] = [0, 0, 0, 0]  # not what the formula pays (Botzone's faults): no line
    assert settlement_lines(result, table.rules, 1)["lines"] == []


def test_huangyan_lines_give_the_arithmetic_and_every_reason_in_both_languages() -> None:
    table = _won("huangyan", "wild")
    result = table.result.to_json()  # type: ignore[union-attr]
    settlement = settlement_lines(result, table.rules, table.stake)
    winner = result["detail"]["winner"]
    (line,) = settlement["lines"]
    assert line["text"]["en"] == f"({winner['hu']} + 20) × 2^{winner['fan']} = {winner['raw']}"
    assert line["result"] == str(winner["total"])
    paid = result["detail"]["payments"]
    assert [(p["payer"], p["payee"], p["amount"]) for p in settlement["payments"]] == [
        (p["payer"], p["payee"], p["amount"]) for p in paid]
    for mine, theirs in zip(settlement["payments"], paid, strict=True):
        assert mine["reason"]["en"] == theirs["reason"]
        assert mine["reason"]["zh"] != theirs["reason"]  # every reason the engine writes
        assert mine["ledger"]["zh"] in ("和数", "子弹")
    assert reason("bullets B×n×z = 2×3×2")["zh"] == "子弹 B×庄数×自摸倍数 = 2×3×2"
    assert settlement_lines({**result, "winner": None}, table.rules, 1) == {
        "lines": [], "payments": []}


# ---------------------------------------------------------------------- a third rule set


class ClubRules(GuobiaoRules):
    """Guobiao as a club plays it: the same engine rules under another name."""

    name = "club"


def club_definitions(result: dict[str, Any]) -> list[FanDefinition]:
    """The club defines one fan of its own for every win."""
    if result.get("winner") is None:
        return []
    return [FanDefinition("club", "俱乐部番", "Club Fan", text("a member's win", "会员和牌"))]


CLUB = replace(
    GUOBIAO, name="club", aliases=("clubgb",), title_zh="俱乐部国标", title_en="Club Guobiao",
    short_zh="俱乐部", short_en="Club", make=ClubRules, bots=("random", "fan"),
    default_bot="fan", practice_bot="random", botzone=False,
    fan_definitions=f"{__name__}:club_definitions",
)


@pytest.fixture()
def club() -> Iterator[None]:
    RULE_SETS.register(CLUB)
    try:
        yield
    finally:
        RULE_SETS.unregister("club")


@pytest.mark.usefixtures("club")
def test_a_third_rule_set_is_in_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("simulate", "tournament", "score", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "club" in capsys.readouterr().out, command
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "efficient for gb, wild for huangyan, fan for club" in shown  # its default bot
    assert main(["simulate", "--rules", "club", "--games", "2", "--seed", "3", "--json",
                 "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "club"
    assert {p["bot"] for p in report["players"]} == {"fan"}  # its own default bot
    assert main(["simulate", "--rules", "club", "--games", "1", "--no-progress"]) == 0
    assert "mean fans" in capsys.readouterr().out
    check_bot("fan", "club")
    with pytest.raises(UnknownBotError, match="does not play club"):
        check_bot("efficient", "club")
    assert main(["score", "--rules", "club", "123m456m789m123p5p5p"]) == 0


@pytest.mark.usefixtures("club")
def test_a_third_rule_set_is_in_the_room_form_and_plays(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from majiang.server import create_app
    from server_helpers import no_rate_limit

    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'club.db'}")) as client:
        answer = {r["name"]: r for r in client.get("/rules").json()}
        assert list(answer) == ["gb", "huangyan", "club"]
        club = answer["club"]
        assert (club["zh"], club["en"]) == ("俱乐部国标", "Club Guobiao")
        assert club["label"] == "俱乐部 Club"
        assert club["bots"] == ["random", "fan"] and club["default_bot"] == "fan"
        assert club["shows"]["prevalent_wind"] and not club["shows"]["wild"]
        response = client.post("/rooms", json={"rules": "club", "hands": 1, "bot_seconds": 0,
                                               "bots": ["fan", "fan", "fan", None]})
        assert response.status_code == 201, response.text
        room = response.json()
        assert room["rules"] == "club"
        assert [s["bot"] for s in room["seats"]][:3] == ["fan", "fan", "fan"]
        refused = client.post("/rooms", json={"rules": "sichuan"})
        assert refused.status_code == 422
        assert "'gb', 'huangyan' or 'club'" in refused.text


@pytest.mark.usefixtures("club")
def test_a_third_rule_set_defines_its_fans_for_both_tables() -> None:
    """The browser's replay and the terminal's sheet show the definitions the rule set's
    description names, and no other rule set's."""
    import io

    from rich.console import Console

    from majiang.server.web import fan_definitions as replay_definitions
    from majiang.server.web import fan_highlights
    from majiang.tui.sheets import fan_definitions as sheet_definitions

    table = _won("club", "fan")
    assert replay_definitions(table) == {"club": {"zh": "会员和牌", "en": "a member's win"}}
    assert set(fan_highlights(table)) == {  # Guobiao's tiles, the club did not change them
        fan["en"] for fan in table.result.detail["fans"]}  # type: ignore[union-attr]
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(sheet_definitions(table.result.to_json(), "club"))  # type: ignore[union-attr]
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "俱乐部番 Club Fan" in shown and "a member's win" in shown
    assert table.result.detail["fans"][0]["name"] not in shown  # type: ignore[union-attr]


@pytest.mark.usefixtures("club")
def test_a_third_rule_set_at_the_terminal_table() -> None:
    from majiang.tui.local import LocalDriver, default_bot
    from majiang.tui.render import rules_title, shows

    assert default_bot("club") == "random"
    assert rules_title("club") == "俱乐部 Club" and shows("club").prevalent_wind
    driver = LocalDriver("club", seed=2, hands=1)
    assert driver.rules == "club"
    table = Table(make_rules("club"), seed=4)
    seat = table.to_act()[0]
    assert hints(table.observation(seat), table.rules)["rules"] == "club"


@dataclass(frozen=True)
class ClubBoard:
    """The club's own public facts on an observation: its table number and the discards so
    far (to see the record follow the table)."""

    number: int
    discards: int
    dealer_count: int
    late: bool = False
    thrown: tuple[int, ...] = (0, 0, 0, 0)

    def to_json(self) -> dict[str, Any]:
        return {"club_table": self.number, "club_discards": self.discards,
                "dealer_count": self.dealer_count}


class ClubBoardRules(ClubRules):
    """The club's rules with an observation extension, through the public hook only."""

    def observation_extension(self, table: TableView) -> ClubBoard:
        return ClubBoard(7, sum(len(pond) for pond in table.ponds), table.dealer_count)


def test_a_third_rule_set_puts_its_own_extension_on_every_observation() -> None:
    table = Table(ClubBoardRules(), seed=4, dealer_count=3)
    first = table.observation(0).extension
    assert first == ClubBoard(7, 0, 3)
    assert all(table.observation(s).extension is first for s in range(4))  # shared: no rebuild
    assert table.public_view().extension is first
    table.apply(0, next(a for a in table.legal_actions(0) if isinstance(a, Discard)))
    assert table.observation(1).extension == ClubBoard(7, 1, 3)  # the event renewed it
    wire = observation_to_json(table.observation(1))
    assert list(wire)[-3:] == ["club_table", "club_discards", "dealer_count"]
    assert (wire["club_table"], wire["club_discards"], wire["dealer_count"]) == (7, 1, 3)
    assert "raw_phase" not in wire and "thrown" not in wire  # its own fields only
    assert public_view_to_json(table.public_view())["club_table"] == 7
    layout = Layout(0)
    vector, _ = encode_observation(table.observation(1), layout)  # neutral readers: its state
    assert vector[15] == 3
    assert extension_state(decode_observation(vector, _, layout)) == (False, 3, (0, 0, 0, 0))


def test_rule_sets_without_the_hook_give_no_extension_and_the_old_wire_fields() -> None:
    table = Table(make_rules("gb"), seed=4)
    obs = table.observation(0)
    assert obs.extension is None and table.public_view().extension is None
    assert extension_state(obs) == (False, 1, (0, 0, 0, 0))
    wire = observation_to_json(obs)
    assert list(wire)[-4:] == ["indicator", "raw_phase", "dealer_count", "thrown"]
    assert (wire["raw_phase"], wire["dealer_count"], wire["thrown"]) == (False, 1, [0, 0, 0, 0])


def test_huangyans_extension_gives_its_fields_where_they_always_were() -> None:
    table = Table(make_rules("huangyan", {"throw_limit": 0}), seed=4, dealer=1, dealer_count=2,
                  thrown=(0, 0, 3, 1))
    obs = table.observation(1)
    assert extension_state(obs) == (False, 2, (0, 0, 3, 1))
    wire = observation_to_json(obs)
    assert list(wire)[-4:] == ["indicator", "raw_phase", "dealer_count", "thrown"]
    assert (wire["raw_phase"], wire["dealer_count"], wire["thrown"]) == (False, 2, [0, 0, 3, 1])
    assert public_view_to_json(table.public_view())["thrown"] == [0, 0, 3, 1]

