"""The review's reasons against a corpus of reviewed positions (tests/data/review_corpus.txt): moves
from rated human games and the tester's examples of issue 51, each with the sentence a strong
player would write and what the review must and must not say. Each move is reviewed as the
browser reviews it (jitfish.web.review.review_game: the position searched, the position after the
move, the best move searched again), by the engine in this process at the browser's node count
with the table cleared before every search, so the verdicts are the browser's own.

Besides each entry's own rules, every reason must pass the checks of tools/review/audit.py (a
piece named where it stands, a move named that can be played there, no even trade or recapture
called a loss, no `??` explained by a pawn)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import chess
import pytest

from engine.board import Board
from eval.shipped import review_network
from jitfish.web.review import REVIEW_NODES, MoveReview, review_game
from search.driver import Searcher
from tools.review.audit import Engine, faults

CORPUS = Path(__file__).parent / "data" / "review_corpus.txt"
MARKS = {"?!": 1, "?": 2, "??": 3}


@dataclass
class Entry:
    """One reviewed position: where it comes from, the position (a FEN, or the game's moves in UCI
    from the start), the move played (SAN), the least mark it must get, the strong player's
    sentence, and the text the reason must and must not contain."""
    name: str
    source: str = ""
    fen: str = chess.STARTING_FEN
    moves: list[str] = field(default_factory=list)
    played: str = ""
    mark: str = "?!"
    strong: str = ""
    say: list[str] = field(default_factory=list)
    never: list[str] = field(default_factory=list)

    def board(self) -> chess.Board:
        board = chess.Board(self.fen)
        for uci in self.moves:
            board.push_uci(uci)
        return board


def read_corpus(path: Path = CORPUS) -> list[Entry]:
    """The entries of the corpus file: blocks of `key: value` lines, `#` comments, `say` and
    `never` repeatable."""
    entries: list[Entry] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        if not lines:
            continue
        fields: dict[str, list[str]] = {}
        for line in lines:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), []).append(value.strip())
        entry = Entry(fields["name"][0])
        for key, values in fields.items():
            if key in ("say", "never"):
                getattr(entry, key).extend(values)
            elif key == "moves":
                entry.moves = values[0].split()
            elif key != "name":
                assert hasattr(entry, key), f"{entry.name}: unknown key {key}"
                setattr(entry, key, values[0])
        entries.append(entry)
    return entries


ENTRIES = read_corpus()
_engine: Engine | None = None


def reviewed(entry: Entry) -> MoveReview:
    """The review of the entry's move, as the browser gives it."""
    global _engine
    if _engine is None:
        _engine = Engine(REVIEW_NODES)
    board = entry.board()
    move = board.parse_san(entry.played)

    async def progress(done: int, total: int) -> None:
        return None

    review = asyncio.run(review_game(board, [move], _engine.evaluate, progress, REVIEW_NODES))
    return review.reviews[0]


def test_the_corpus_covers_every_kind_of_reason():
    names = " ".join(entry.name for entry in ENTRIES)
    for kind in ("mate-allowed", "mate-missed", "hung", "even-trade", "uneven-trade", "recapture", "fork",
                 "trapped", "promotion", "endgame", "issue51"):
        assert kind in names, kind
    assert len(ENTRIES) >= 30 and len({entry.name for entry in ENTRIES}) == len(ENTRIES)
    assert all(entry.strong and (entry.say or entry.never) for entry in ENTRIES)


def test_the_corpus_is_judged_by_the_review_network():
    """The review's searches (the browser's adviser, `jitfish analyse`, this corpus' engine) use
    eval/review-network.npz, the network the corpus was checked against, not the playing network."""
    board = Board("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7")
    judge, player = Searcher(1, review_network()), Searcher(1)
    assert Engine(1000).searcher.static_eval(board) == judge.static_eval(board) != player.static_eval(board)


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_the_reason_is_what_a_strong_player_would_say(entry):
    review = reviewed(entry)
    judgement = review.verdict.judgement
    assert judgement is not None and MARKS[judgement.symbol] >= MARKS[entry.mark], \
        f"{entry.played} got {judgement and judgement.symbol}, wanted at least {entry.mark}"
    reason = str(review.why)
    for text in entry.say:
        assert text in reason, f"{reason!r} lacks {text!r} (strong: {entry.strong})"
    for text in entry.never:
        assert text not in reason, f"{reason!r} says {text!r} (strong: {entry.strong})"
    assert faults(review.before, review.move, judgement.symbol, reason) == [], reason
