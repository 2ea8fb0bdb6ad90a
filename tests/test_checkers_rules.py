"""The checkers rules against published perft counts and against pydraughts, an independent
implementation (MIT; `draughts` in the test extra, never imported by checkers/): the legal
moves with every landing square, the position after each of them, perft, and the ends of the
game (no legal move, the 40-move rule, threefold repetition)."""

from __future__ import annotations

import random

import pytest
from draughts import Board as ReferenceBoard

from checkers.board import Board
from checkers.defs import BLACK, WHITE
from checkers.notation import START_FEN, parse_fen
from checkers.perft import count, divide
from tests.helpers import seed

# OEIS A133046: perft of American checkers from the start position, depths 1-12.
START_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673]


# ---- the reference --------------------------------------------------------------------------

def reference(fen: str) -> ReferenceBoard:
    board = ReferenceBoard(variant="english", fen=fen)
    assert board.variant == "english"            # pydraughts, not py-draughts (also `draughts`)
    return board


def reference_moves(board: ReferenceBoard) -> dict[str, object]:
    """pydraughts' legal moves by their notation with every landing square."""
    return {("x" if move.has_captures else "-").join(map(str, move.steps_move)): move
            for move in board.legal_moves()}


def reference_perft(board: ReferenceBoard, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


def same_position(fen_a: str, fen_b: str) -> bool:
    """Two FENs of the same pieces and side to move (pydraughts orders its squares as text)."""
    return parse_fen(fen_a) == parse_fen(fen_b)


# ---- positions ------------------------------------------------------------------------------

def random_game_positions(count_wanted: int, base: int) -> list[str]:
    """FENs met in random games from the start: every 5th ply from the 3rd (games cut at a random
    length up to 160 plies, so openings, middle games and king endings all appear), and besides
    those every position with a multi-jump to play or a piece with two ways to jump, which random
    play meets too seldom otherwise."""
    rng = random.Random(seed(base))
    fens: list[str] = []
    while len(fens) < count_wanted:
        board = Board()
        for ply in range(rng.randrange(20, 160)):
            moves = board.legal_notation()
            if not moves:
                break
            jumps = [m for m in moves if "x" in m]
            if ply % 5 == 2 or any(m.count("x") >= 2 for m in jumps) \
                    or len({m.split("x")[0] for m in jumps}) < len(jumps):
                fens.append(board.fen())
            board.push_notation(rng.choice(moves))
    return list(dict.fromkeys(fens))[:count_wanted]


def random_setups(count_wanted: int, base: int) -> list[str]:
    """Random placements, half the pieces kings: the crowded king positions where jump trees
    branch, turn and loop, which games reach only now and then."""
    rng = random.Random(seed(base))
    fens = []
    while len(fens) < count_wanted:
        squares = rng.sample(range(1, 33), rng.randrange(4, 25))
        half = rng.randrange(1, len(squares))
        sides = {"B": squares[:half][:12], "W": squares[half:][:12]}
        crown_row = {"B": range(29, 33), "W": range(1, 5)}
        listed = {colour: ",".join(("K" if rng.random() < 0.5 or sq in crown_row[colour] else "") + str(sq)
                                   for sq in pieces) for colour, pieces in sides.items()}
        fens.append(f"{rng.choice('BW')}:W{listed['W']}:B{listed['B']}")
    return fens


RANDOM_POSITIONS = random_game_positions(240, 70)
RANDOM_SETUPS = random_setups(200, 73)

# Hand-made positions for each rule, with their legal moves worked out by hand.
RULE_POSITIONS = {
    # Jumping is compulsory: 11-15 and the rest are not legal while 14x23 is.
    "B:W18:B1,2,3,11,14": ["14x23"],
    # Men jump forward only: the white man on 22 cannot take the black man behind it on 26.
    "W:W22:B26,K1": ["22-17", "22-18"],
    # A multi-jump branches; the player chooses (no rule of the most pieces), and must finish.
    "B:W18,19,26,27:B14": ["14x23x30", "14x23x32"],
    "B:W18,19,27:B14,15": ["14x23x32", "15x22", "15x24x31"],
    # A man crowned in the middle of a jump stops there, although as a king it could go on over 25.
    "B:W18,25,26:B14": ["14x23x30"],
    # A king jumps both ways and may change direction; the first jump picks the tree.
    "W:WK15:B10,11,18,19,26": ["15x6", "15x8", "15x22x31", "15x24"],
    # A king's loop, either way round, back to where it started; there it stops, since the
    # piece on 10 (or 9) is jumped already and still on the board.
    "W:WK6:B9,10,17,18": ["6x13x22x15x6", "6x15x22x13x6"],
    # No legal move: Black's man is blocked and has nothing to jump (10 is taken) and has lost.
    "B:W5,6,10:B1": [],
}


def coverage(fens: list[str]) -> dict[str, int]:
    """How many positions have kings, a jump, a multi-jump, a piece with two jump paths, a
    king's jump that comes back to its square."""
    found = dict.fromkeys(["kings", "jumps", "multi", "branching", "loops"], 0)
    for fen in fens:
        board = Board(fen)
        jumps = [m.split("x") for m in board.legal_notation() if "x" in m]
        found["kings"] += board.setup().kings != 0
        found["jumps"] += bool(jumps)
        found["multi"] += any(len(j) > 2 for j in jumps)
        found["branching"] += len({j[0] for j in jumps}) < len(jumps)
        found["loops"] += any(j[0] in j[1:] for j in jumps)
    return found


def test_random_positions_cover_the_rules():
    """The random samples hold what the comparison is meant to exercise (else it proves little)."""
    assert len(set(RANDOM_POSITIONS)) >= 200
    games = coverage(RANDOM_POSITIONS)
    assert games["kings"] >= 60 and games["jumps"] >= 40 and games["multi"] >= 15, games
    setups = coverage(RANDOM_SETUPS)
    assert setups["multi"] >= 20 and setups["branching"] >= 10, setups
    assert coverage(list(RULE_POSITIONS))["loops"] >= 1


# ---- perft ----------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", range(1, 12))
def test_perft_from_the_start(depth):
    assert count(Board(), depth) == START_PERFT[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [12])
def test_perft_from_the_start_deep(depth):
    assert count(Board(), depth) == START_PERFT[depth - 1]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_without_bulk_counting_agrees(depth):
    """Every leaf made and unmade gives the same counts as counting the last ply."""
    assert count(Board(), depth, bulk=False) == START_PERFT[depth - 1]


def test_divide_sums_to_perft():
    board = Board()
    parts = divide(board, 4)
    assert [move for move, _ in parts] == board.legal_notation()
    assert sum(n for _, n in parts) == START_PERFT[3]
    assert board.fen() == START_FEN


# ---- against pydraughts ---------------------------------------------------------------------

def assert_same_moves_and_children(fen: str) -> None:
    """Equal legal move sets, and after each move the same position and equal move sets again
    (a perft(2) compared move by move, with make_move's result checked as well)."""
    ours, theirs = Board(fen), reference(fen)
    our_moves = ours.legal_notation()
    their_moves = reference_moves(theirs)
    assert len(our_moves) == len(set(our_moves))
    assert set(our_moves) == set(their_moves), f"at {fen}"
    for text in our_moves:
        ours.push_notation(text)
        theirs.push(their_moves[text])
        assert same_position(ours.fen(), theirs.fen), f"after {text} at {fen}: {ours.fen()} vs {theirs.fen}"
        assert set(ours.legal_notation()) == set(reference_moves(theirs)), f"after {text} at {fen}"
        ours.pop()
        theirs.pop()
    assert ours.fen() == Board(fen).fen()


@pytest.mark.parametrize("fen", RANDOM_POSITIONS + RANDOM_SETUPS)
def test_random_positions_match_pydraughts(fen):
    assert_same_moves_and_children(fen)


@pytest.mark.parametrize("fen", list(RULE_POSITIONS))
def test_rule_positions(fen):
    assert sorted(Board(fen).legal_notation()) == sorted(RULE_POSITIONS[fen])
    assert_same_moves_and_children(fen)


@pytest.mark.parametrize("fen", RANDOM_POSITIONS[::12] + RANDOM_SETUPS[::12] + list(RULE_POSITIONS))
def test_perft_3_matches_pydraughts(fen):
    for depth in (2, 3):
        assert count(Board(fen), depth) == reference_perft(reference(fen), depth), f"perft({depth}) at {fen}"


@pytest.mark.slow
@pytest.mark.parametrize("fen", RANDOM_POSITIONS + RANDOM_SETUPS)
def test_perft_3_matches_pydraughts_everywhere(fen):
    assert count(Board(fen), 3) == reference_perft(reference(fen), 3)


# ---- the end of the game --------------------------------------------------------------------

def reference_outcome(board: ReferenceBoard) -> int | None:
    """pydraughts' winner in our colours: BLACK, WHITE, -1 for a draw, None while it goes on."""
    winner = board.winner()
    if winner is None:
        return None
    return {0: -1, 1: BLACK, 2: WHITE}[winner]


def our_outcome(board: Board) -> int | None:
    outcome = board.outcome()
    if outcome is None:
        return None
    return -1 if outcome.winner is None else outcome.winner


def play_and_compare(fen: str, rng: random.Random, plies: int) -> list[str]:
    """Random moves from `fen` on both boards, the outcome compared after each; the reasons seen."""
    ours, theirs = Board(fen), reference(fen)
    reasons = []
    for _ in range(plies):
        assert our_outcome(ours) == reference_outcome(theirs), f"{ours.fen()} after {ours.moves_played}"
        outcome = ours.outcome()
        if outcome is not None:
            reasons.append(outcome.reason)
            break
        text = rng.choice(ours.legal_notation())
        ours.push_notation(text)
        theirs.push(reference_moves(theirs)[text])
    return reasons


def test_threefold_repetition():
    """Kings stepping to and fro: the third time the position stands there (Black to move) the
    game is drawn, not before; pydraughts says the same after every ply."""
    ours, theirs = Board("B:WK32:BK1"), reference("B:WK32:BK1")
    shuffle = ["1-5", "32-28", "5-1", "28-32"] * 2
    for ply, text in enumerate(shuffle, 1):
        ours.push_notation(text)
        theirs.push(reference_moves(theirs)[text])
        expected = -1 if ply == 8 else None
        assert our_outcome(ours) == expected == reference_outcome(theirs), ply
    assert ours.repetitions() == 2 and ours.outcome().reason == "threefold repetition"


def test_forty_move_rule():
    """80 plies of king steps with nothing taken draw, not 79; pydraughts agrees after every ply.
    Black's kings keep to squares 1-8 and White's to 25-32, so nothing can be taken, and each
    side plays the step whose position was seen least, so no position comes back three times."""
    fen = "B:WK29,K30:BK1,K2"
    ours, theirs = Board(fen), reference(fen)
    rng = random.Random(seed(71))
    home = {BLACK: range(1, 9), WHITE: range(25, 33)}
    ply = 0
    while ours.outcome() is None:
        steps = [m for m in ours.legal_notation() if int(m.split("-")[1]) in home[ours.turn]]
        rng.shuffle(steps)
        text = min(steps, key=lambda m: _times_seen(ours, m))
        ours.push_notation(text)
        theirs.push(reference_moves(theirs)[text])
        ply += 1
        assert our_outcome(ours) == reference_outcome(theirs), ply
    assert ours.outcome().reason == "40-move rule" and ply == 80 and ours.quiet_plies == 80
    ours.pop()
    assert ours.outcome() is None and ours.quiet_plies == 79


def _times_seen(board: Board, text: str) -> int:
    board.push_notation(text)
    n = board.repetitions()
    board.pop()
    return n


def test_a_man_move_resets_the_forty_move_count():
    board = Board("B:WK29,K30,21:BK1,K2,12")
    board.push_notation("1-5")
    board.push_notation("29-25")
    assert board.quiet_plies == 2
    board.push_notation("12-16")
    assert board.quiet_plies == 0


@pytest.mark.parametrize("game", range(12))
def test_random_games_end_as_pydraughts_says(game):
    """Random games from the start and from king endings: the outcome after every ply agrees."""
    rng = random.Random(seed(72, game))
    fen = START_FEN if game % 2 == 0 else "W:WK25,K26,K27,K28:BK5,K6,K7"
    play_and_compare(fen, rng, 400)


def test_no_legal_move_loses():
    board = Board("B:W5,6,10:B1")
    assert board.outcome().winner == WHITE and board.outcome().reason == "no legal move"
    assert Board("W:W:B1").outcome().winner == BLACK          # no pieces: no move
