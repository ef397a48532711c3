"""The contest dataset's plain-text games replayed through the engine (docs/botzone.md,
"Match logs"): small games written by hand in the format its README documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from majiang.botzone.dataset import read_dataset, replay_game
from majiang.cli import main
from test_botzone_judge import BAMBOO, HONOURS, P3, READY, names

DEALS = "\n".join(f"Player {p} Deal {' '.join(names(d))}" for p, d in
                  enumerate([HONOURS, READY, BAMBOO, P3]))
WIN = f"""Match 1
Wind 0
{DEALS}
Player 0 Draw B5
Player 0 Play B5
Player 1 Hu B5
Fan 23 清龙 门前清 平和 喜相逢 缺一门 单钓将
Score -31 47 -8 -8
"""


def game(text: str) -> str | None:
    (only,) = read_dataset(text)
    return replay_game(only)


def test_a_game_of_the_dataset_replays() -> None:
    assert game(WIN) is None


def test_an_overridden_claim_is_resolved_as_the_record_says() -> None:
    """Player 1 wins the 5p the dealer discards while player 2 pungs it (an Ignore line): the
    engine, given both claims, gives the tile to the winner, as the record says."""
    deals = "\n".join(f"Player {p} Deal {' '.join(names(d))}" for p, d in
                      enumerate([HONOURS, READY, "5p5p123456789m1s2s", "111666777s11p99m"]))
    text = WIN.replace(DEALS, deals).replace("Player 1 Hu B5",
                                             "Player 1 Hu B5 Ignore Player 2 Peng B5")
    assert game(text) is None
    wrong = text.replace("Player 1 Hu B5 Ignore Player 2 Peng B5",
                         "Player 2 Peng B5 Ignore Player 1 Hu B5")
    assert game(wrong) == ("line 9 ('Player 2 Peng B5 Ignore Player 1 Hu B5'): the engine gives "
                           "the win to player 1")


@pytest.mark.parametrize(
    ("change", "problem"),
    [(("Player 1 Hu B5", "Player 2 Chi B5"),
      "line 9 ('Player 2 Chi B5'): player 2 may not claim this tile"),
     (("Player 0 Draw B5", "Player 0 Draw B6"),  # the draws make the wall: B5 is not held
      "line 8 ('Player 0 Play B5'): illegal: "),
     (("Fan 23", "Fan 24"), "line 11 ('Score -31 47 -8 -8'): 24 fans, majiang counts 23"),
     (("Score -31 47 -8 -8", "Score -31 47 -9 -8"), "majiang's scores are -31 47 -8 -8"),
     (("Player 0 Play B5", "Player 1 Play B5"), "it is not player 1's turn")],
)
def test_the_first_wrong_line_is_reported(change: tuple[str, str], problem: str) -> None:
    found = game(WIN.replace(*change))
    assert found is not None and problem in found


def test_cli_dataset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_text(WIN + WIN.replace("Match 1", "Match 2").replace("Fan 23", "Fan 22"))
    assert main(["botzone", "dataset", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Match 1: every action legal, fans and scores match"
    assert out[1].startswith("Match 2: line 22 ('Score -31 47 -8 -8'): 22 fans")
    assert out[-1] == "2 games: 1 agrees"
    assert main(["botzone", "dataset", str(path), "--limit", "1"]) == 0
