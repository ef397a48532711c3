"""The review: a planted blunder is flagged, every decision of the seat is listed, bad input
gets one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from majiang.bots import make_bot
from majiang.cli import main
from majiang.engine.actions import DISCARDS, Win
from majiang.engine.record import RecordError, record_of, save_record, write_record
from majiang.engine.state import Phase
from majiang.engine.table import Table
from majiang.review import review_records
from majiang.rules.registry import make_rules

BULLETS = Phase.BULLETS


def played(rules_name: str, seed: int, blunder: bool = False) -> tuple[Table, int | None]:
    """A hand of fan (gb) or wild (huangyan) bots; with ``blunder``, seat 0 turns down its
    first self-drawn win by discarding the tile it drew. Returns the table and the blunder's
    step (its action number in the record)."""
    rules = make_rules(rules_name)
    bot = "fan" if rules_name == "gb" else "wild"
    table = Table(rules, seed)
    bots = [make_bot(bot, seed * 4 + s) for s in range(4)]
    planted = None
    while not table.is_over:
        for s in table.to_act():
            obs = table.observation(s)
            action = bots[s](obs)
            if (blunder and planted is None and s == 0 and obs.phase is Phase.TURN
                    and action == Win() and obs.drawn is not None):
                action = DISCARDS[obs.drawn]
                planted = len(table.history) + 1
            table.apply(s, action)
    return table, planted


def test_a_planted_blunder_is_flagged(tmp_path: Path) -> None:
    table, step = played("gb", 5, blunder=True)
    assert step is not None
    review = review_records([record_of(table)], 0, think=None, samples=12, steps=[step])
    (decision,) = review.decisions
    assert decision.step == step and decision.taken != Win()
    assert decision.choices[0].action == Win()
    assert not decision.matched
    assert decision.loss > 5
    assert review.matched == 0 and review.total_loss == decision.loss
    # the win pays the same on every deal: the loss's interval is the discard's, around it
    win, taken = decision.choices[0], next(c for c in decision.choices if c.action != Win())
    assert win.half_width == 0 and taken.action == decision.taken
    assert decision.loss_interval is not None
    low, high = decision.loss_interval
    assert low < decision.loss < high
    assert (high - low) / 2 == pytest.approx(taken.half_width)
    assert review.to_json()["decisions"][0]["loss_interval"] == [round(low, 2), round(high, 2)]


@pytest.mark.parametrize(("rules_name", "seed"), [("gb", 2), ("huangyan", 7)])
def test_every_decision_of_the_seat_is_reviewed_and_the_same_seed_repeats(
    rules_name: str, seed: int
) -> None:
    table, _ = played(rules_name, seed)
    record = record_of(table)
    review = review_records([record], 0, think=None, samples=2, seed=4)
    expected = 0
    replayed = Table(make_rules(rules_name), seed)
    for seat, action in table.history:
        if seat == 0 and len(replayed.legal_actions(0)) > 1 and replayed.phase is not BULLETS:
            expected += 1
        replayed.apply(seat, action)
    assert len(review.decisions) == expected > 0
    for d in review.decisions:
        assert any(c.action == d.taken for c in d.choices)
        assert d.loss >= 0
        assert d.matched == (d.choices[0].action == d.taken)
        assert d.choices[0].rollouts == 2
    losses = [d.loss for d in review.worst_first()]
    assert losses == sorted(losses, reverse=True)
    again = review_records([record], 0, think=None, samples=2, seed=4)
    assert again.to_json() == review.to_json()


def test_the_command_prints_text_json_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, step = played("gb", 5, blunder=True)
    path = tmp_path / "hand.jsonl"
    save_record(table, path)
    args = ["review", str(path), "--seat", "0", "--samples", "8", "--step", str(step)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Seat 0, 1 hand: 1 decisions reviewed" in out
    assert f"1. step {step} (turn" in out and "* discard" in out and "  win " in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["decisions"] == 1 and data["summary"]["matched"] == 0
    (decision,) = data["decisions"]
    assert decision["choices"][0]["action"] == {"type": "win"}
    assert decision["taken"]["type"] == "discard" and decision["loss"] > 0
    page = tmp_path / "review.html"
    assert main([*args, "--html", str(page)]) == 0
    assert f"Wrote {page}." in capsys.readouterr().out
    html = page.read_text()
    assert html.startswith("<!doctype html>") and "class=taken" in html and "win" in html
    # a match: a directory of hand records (the rules are each record's)
    save_record(played("huangyan", 7)[0], tmp_path / "hand2.jsonl")
    assert main(["review", str(tmp_path), "--seat", "0", "--samples", "2", "--step", "1",
                 "--step", str(step), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 2


def test_bad_input_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, _ = played("gb", 2)
    good = tmp_path / "hand.jsonl"
    save_record(table, good)
    lines = good.read_text().splitlines()
    # a seat out of range: a usage error
    with pytest.raises(SystemExit) as usage:
        main(["review", str(good), "--seat", "4"])
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "seat 4 is out of range" in err and len(err.strip().splitlines()) == 1
    # a hand that is not finished
    unfinished = tmp_path / "unfinished.jsonl"
    write_record(record_of(table)[:10], unfinished)  # sealed, but the hand stops at action 9
    assert main(["review", str(unfinished), "--seat", "0"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        "majiang: error: hand 1: the hand is not finished (a review needs its end)"
    )
    # a record that does not replay: an action the table refuses
    broken = tmp_path / "broken.jsonl"
    bad = json.loads(lines[3])
    bad["action"] = {"type": "win"}  # not offered there
    actions = record_of(table)
    write_record([*actions[:3], bad, *actions[4:]], broken)
    assert main(["review", str(broken), "--seat", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("majiang: error: hand 1, line 4:") and len(err.strip().splitlines()) == 1
    # not a record at all, and an empty directory
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    assert main(["review", str(junk), "--seat", "0"]) == 1
    assert "line 1 is not JSON" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["review", str(empty), "--seat", "0"]) == 1
    assert "no *.jsonl hand records" in capsys.readouterr().err
    with pytest.raises(RecordError):
        review_records([[{"seat": 0}]], 0)
    with pytest.raises(Exception, match="out of range"):
        review_records([record_of(table)], 7)
