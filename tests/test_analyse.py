"""`jitfish analyse`: annotated PGN from games with known blunders, through the real command line."""

import argparse
import io
import re

import chess
import chess.engine
import chess.pgn
import pytest

from jitfish.analyse import Analyser, output_path
from jitfish.review import BLUNDER_CP, INACCURACY_CP, MISTAKE_CP, clamp, judge, parent_score
from search.driver import mate_moves
from jitfish.cli import main
from jitfish.progress import ProgressBar
from engine.defs import MATE

DEPTH = "4"

# 3...Nf6?? allows Qxf7# and 4.d3?? misses it (and hangs the queen).
MISSED_MATE = """[Event "Missed mate"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. d3 Nxh5 *
"""
# 5.Nxf7?? loses to Qxg2, and White goes down to 7...Nf3#.
MATED = """[Event "Mated"]
[White "Careless"]
[Black "Sharp"]
[Result "0-1"]

1. e4 { [%clk 0:05:00] } e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1
"""
# 1.Qb6?? stalemates a king that Qc6+ would have mated soon.
STALEMATE = """[Event "Stalemate"]
[White "E"]
[Black "F"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1"]

1. Qb6 1/2-1/2
"""
CHESS960 = """[Event "Castling"]
[White "G"]
[Black "H"]
[Result "*"]
[Variant "{variant}"]
[SetUp "1"]
[FEN "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"]

1. O-O O-O 2. d4 d5 *
"""


def analyse(tmp_path, pgn: str, *options: str, limit: tuple[str, ...] = ("--depth", DEPTH, "--hash", "4")
            ) -> tuple[int, str, list[chess.pgn.Game]]:
    """Run `jitfish analyse` on `pgn`; the exit status, the output text and its games re-read."""
    source = tmp_path / "game.pgn"
    source.write_text(pgn)
    target = tmp_path / "out.pgn"
    status = main(["analyse", str(source), "-o", str(target), *limit, "-q", *options])
    text = target.read_text() if target.exists() else ""
    stream = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return status, text, games


def moves_of(pgn: str) -> list[str]:
    return [move.uci() for move in chess.pgn.read_game(io.StringIO(pgn)).mainline_moves()]


def test_missed_mate_and_hung_queen_are_blunders_with_the_mate_as_variation(tmp_path):
    status, text, [game] = analyse(tmp_path, MISSED_MATE)
    assert status == 0 and not game.errors
    assert [m.uci() for m in game.mainline_moves()] == moves_of(MISSED_MATE)
    nodes = list(game.mainline())
    nf6, d3 = nodes[5], nodes[6]
    assert chess.pgn.NAG_BLUNDER in nf6.nags and "allows mate in 1" in nf6.comment
    assert nf6.eval().white() == chess.engine.Mate(1)           # White mates in 1 after Nf6
    assert "[%eval #1," in text
    assert chess.pgn.NAG_BLUNDER in d3.nags and "misses mate in 1" in d3.comment
    assert "Best was Qxf7#" in d3.comment
    better = nf6.variations[1]                                   # the played d3 stays the main line
    assert better.san() == "Qxf7#" and better.board().is_checkmate()
    assert game.headers["Annotator"].startswith("Jitfish")


def test_a_position_gets_the_same_verdict_whatever_was_searched_before(tmp_path):
    """Every position is searched from an empty table and history: the same game analysed twice
    gives the same PGN, and two move orders of one game get the same evaluations, marks, reasons
    and better lines from the position where they meet (with the table kept from position to
    position they differ)."""
    limit = ("--nodes", "60000", "--hash", "16")
    transposed = MATED.replace("1. e4 { [%clk 0:05:00] } e5 2. Nf3 Nc6", "1. Nf3 { [%clk 0:05:00] } Nc6 2. e4 e5")
    status, text, [game] = analyse(tmp_path, MATED, limit=limit)
    assert status == 0 and analyse(tmp_path, MATED, limit=limit)[1] == text
    status, _, [other] = analyse(tmp_path, transposed, limit=limit)
    assert status == 0
    nodes, others = list(game.mainline()), list(other.mainline())
    assert nodes[3].board().epd() == others[3].board().epd() and nodes[2].board().epd() != others[2].board().epd()
    for node, same in zip(nodes[4:], others[4:]):
        assert (node.comment, node.nags) == (same.comment, same.nags)
        assert [str(v) for v in node.parent.variations] == [str(v) for v in same.parent.variations]
    assert any(node.nags for node in nodes[4:])


def test_every_move_gets_an_eval_with_depth_that_python_chess_reads(tmp_path):
    status, _, [game] = analyse(tmp_path, MATED)
    assert status == 0
    nodes = list(game.mainline())
    assert [node.move.uci() for node in nodes] == moves_of(MATED)
    for node in nodes[:-1]:
        assert node.eval() is not None and node.eval_depth() is not None and node.eval_depth() >= 1
    assert nodes[-1].eval() is None and nodes[-1].board().is_checkmate()   # nothing to evaluate after mate
    assert "[%clk 0:05:00]" in nodes[0].comment                  # the player's own annotations stay
    be2 = nodes[12]
    assert be2.san() == "Be2" and be2.eval().white() == chess.engine.Mate(-1)   # "#-1": Black mates in 1
    # White's 4.Nxe5, 5.Nxf7 and 6.Rf1 throw the game away; which of them depth 4 calls the blunder
    # (and whether it also marks the gambit 3...Nd4) depends on the evaluation, so White's first
    # blunder mark is checked, wherever it falls.
    blunder = next(node for node in nodes if chess.pgn.NAG_BLUNDER in node.nags and node.turn() == chess.BLACK)
    assert blunder.san() in ("Nxe5", "Nxf7", "Rf1") and "Best was" in blunder.comment
    assert len(blunder.parent.variations) == 2                   # the better move as a variation
    assert all(len(node.parent.variations) == 1 for node in nodes if not node.nags)
    for side, name in ((chess.WHITE, "White"), (chess.BLACK, "Black")):   # the summary counts the marks
        moves = [node for node in nodes if node.turn() != side]
        counts = [sum(nag in node.nags for node in moves) for nag in (6, 2, 4)]
        found = re.search(rf"{name}: (\d+) inaccurac\w+, (\d+) mistakes?, (\d+) blunders?, "
                          r"average loss \d+ cp", game.comment)
        assert found and [int(n) for n in found.groups()] == counts


def test_stalemate_ends_the_game_without_a_search_and_counts_as_a_blunder(tmp_path):
    status, _, [game] = analyse(tmp_path, STALEMATE)
    assert status == 0 and game.headers["FEN"] == "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1"
    [move] = game.mainline()
    assert move.eval().white() == chess.engine.Cp(0) and move.eval_depth() is None
    assert chess.pgn.NAG_BLUNDER in move.nags
    assert move.parent.variations[1].eval().white().score() > BLUNDER_CP


@pytest.mark.parametrize("variant", ["Chess960", "Fischerandom"])
def test_chess960_games_keep_their_castling_moves(tmp_path, variant):
    pgn = CHESS960.format(variant=variant)
    status, _, [game] = analyse(tmp_path, pgn)
    assert status == 0 and game.board().chess960
    assert [m.uci() for m in game.mainline_moves()] == moves_of(pgn)
    assert list(game.mainline())[0].san() == "O-O"
    assert all(node.eval() is not None for node in game.mainline())


def test_all_games_or_the_chosen_one(tmp_path, capsys):
    pgn = f"{MISSED_MATE}\n{STALEMATE}\n{MATED}"
    status, _, games = analyse(tmp_path, pgn, "--all")
    assert status == 0 and [g.headers["Event"] for g in games] == ["Missed mate", "Stalemate", "Mated"]
    status, _, games = analyse(tmp_path, pgn, "--game", "2")
    assert status == 0 and [g.headers["Event"] for g in games] == ["Stalemate"]
    source = tmp_path / "game.pgn"
    status = main(["analyse", str(source), "--depth", "2", "--hash", "4"])   # default: game 1 only, beside
    assert status == 0
    written = (tmp_path / "game-analysed.pgn").read_text()
    assert "Missed mate" in written and "Stalemate" not in written
    err = capsys.readouterr().err
    assert "holds 3 games; analysing game 1" in err and "game-analysed.pgn" in err


def test_pgn_to_stdout(tmp_path, capsys):
    source = tmp_path / "game.pgn"
    source.write_text(STALEMATE)
    assert main(["analyze", str(source), "-o", "-", "--nodes", "2000", "--hash", "4", "-q"]) == 0
    out, err = capsys.readouterr()
    assert chess.pgn.read_game(io.StringIO(out)).headers["Event"] == "Stalemate" and err == ""


@pytest.mark.parametrize("content, options, message", [
    (None, [], "cannot read"),
    (MISSED_MATE.replace("Nf6", "Ke3"), [], "illegal san: 'Ke3'"),
    ("this is not a chess game\n", [], "no PGN game found"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", [], "not a PGN file"),
    (MISSED_MATE, ["--game", "3"], "holds 1 game; there is no game 3"),
    (MISSED_MATE, ["--game", "0"], "argument --game: must be 1 or more, not 0"),
    (MISSED_MATE, ["--hash", "0"], "argument --hash: must be 1..33554432, not 0"),
    ('[Variant "Atomic"]\n\n1. e4 e5 *\n', [], "variant 'Atomic' is not supported"),
    ('[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n', [], "game 1"),
])
def test_bad_input_is_one_error_line_and_a_failing_status(tmp_path, capsys, content, options, message):
    source = tmp_path / "game.pgn"
    if isinstance(content, bytes):
        source.write_bytes(content)
    elif content is not None:
        source.write_text(content)
    target = tmp_path / "out.pgn"
    status = main(["analyse", str(source), "-o", str(target), "--depth", "1", *options])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("error: ") and message in err and "Traceback" not in err
    assert not target.exists()


def test_ctrl_c_keeps_the_games_already_written(tmp_path, capsys, monkeypatch):
    annotate = Analyser.annotate

    def interrupted_on_the_second(self, game, tick):
        if game.headers["Event"] == "Stalemate":
            raise KeyboardInterrupt
        return annotate(self, game, tick)

    monkeypatch.setattr(Analyser, "annotate", interrupted_on_the_second)
    status, _, games = analyse(tmp_path, MISSED_MATE + "\n" + STALEMATE, "--all")
    assert status == 130 and [g.headers["Event"] for g in games] == ["Missed mate"]
    assert "interrupted: 1 complete game written to" in capsys.readouterr().err


def test_the_input_is_never_overwritten(tmp_path, capsys):
    source = tmp_path / "game.pgn"
    source.write_text(MISSED_MATE)
    assert main(["analyse", str(source), "-o", str(source), "--depth", "1"]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err and source.read_text() == MISSED_MATE


def test_default_output_sits_beside_the_input():
    args = argparse.Namespace(pgn="games/round1.pgn", output=None)
    assert output_path(args) == "games/round1-analysed.pgn"
    assert output_path(argparse.Namespace(pgn="x.pgn", output="-")) is None


def test_losses_are_clamped_and_judged_by_the_thresholds():
    assert judge(INACCURACY_CP - 1) is None
    assert judge(INACCURACY_CP)[0] == chess.pgn.NAG_DUBIOUS_MOVE
    assert judge(MISTAKE_CP)[0] == chess.pgn.NAG_MISTAKE
    assert judge(BLUNDER_CP - 1)[0] == chess.pgn.NAG_MISTAKE
    assert judge(BLUNDER_CP)[0] == chess.pgn.NAG_BLUNDER
    assert clamp(MATE - 3) == 1000 and clamp(-5000) == -1000 and clamp(35) == 35
    # A checkmated side to move is a mate in 1 for the side that moved; mates move a ply away.
    assert parent_score(-MATE) == MATE - 1 and mate_moves(parent_score(-MATE)) == 1
    assert mate_moves(parent_score(MATE - 1)) == -1 and parent_score(-40) == 40
    assert mate_moves(120) is None and mate_moves(-MATE) == 0


def test_progress_bar_counts_and_estimates():
    now = [0.0]
    stream = io.StringIO()
    bar = ProgressBar(10, stream, enabled=True, clock=lambda: now[0])
    now[0] = 30.0
    bar.update(3, "game 1")
    assert "game 1" in bar.line() and "3/10 moves" in bar.line() and "ETA 1:10" in bar.line()
    bar.update(10)
    bar.finish()
    drawn = stream.getvalue()
    assert drawn.count("\r") == 2 and "done" in drawn and drawn.endswith("\n")
    quiet = io.StringIO()
    silent = ProgressBar(10, quiet, enabled=False)
    silent.update(5)
    silent.finish()
    assert quiet.getvalue() == ""
