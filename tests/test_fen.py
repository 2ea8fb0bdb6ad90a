"""Pins FEN parsing: what is rejected and why, that a rejected FEN leaves the board alone, what is
accepted (EPD, X-FEN, Shredder-FEN), and that no input can raise anything but FenError."""

import random
import signal
from contextlib import contextmanager

import chess
import pytest

from engine.board import Board
from engine.fen import STARTING_FEN, FenError
from perft.suite import read_suite
from tests.helpers import TESTS_DIR, seed, shared_file

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START_BOARD = STARTING_FEN.split()[0]


def bad(fen, message, chess960=False):
    return pytest.param(fen, chess960, message, id=message[:40])


INVALID = [
    bad("", "FEN has 0 fields"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "FEN has 3 fields"),
    bad(STARTING_FEN + " 7", "FEN has 7 fields"),
    bad("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad character 'x' in piece placement"),
    bad("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad character '9' in piece placement"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has 9 squares, expected 8"),
    bad("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares, expected 8"),
    bad("rnbqkbnr/pppppppp/8/8/3p5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 4 has 9 squares, expected 8"),
    bad("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement has 7 ranks, expected 8"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement has 9 ranks"),
    bad("rnbqkbnr/pppppppp/8/44/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 5 has two empty-square counts"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white has 0 kings, expected exactly 1"),
    bad("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 2 kings, expected exactly 1"),
    bad("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on a1: pawns cannot stand"),
    bad("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on h8: pawns cannot stand"),
    bad("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has 9 pawns"),
    bad("4k3/8/8/8/8/P7/PPPPPPPP/RNBQKBNR w - - 0 1", "white has 17 pieces"),
    bad("QQQQQQQQ/QQ4k1/8/8/8/8/8/4K3 w - - 0 1", "white has more promoted pieces than missing pawns"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x' must be 'w' or 'b'"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move 'W' must be 'w' or 'b'"),
    bad("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side not to move is in check"),
    bad("4k3/4r3/8/8/8/8/8/4K3 b - - 0 1", "the side not to move is in check"),
    bad("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "must be on rank 3"),
    bad("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 2", "must be on rank 6"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "no pawn that just advanced two squares"),
    bad("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "the squares the pawn crossed are not"),
    bad("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPQPPP/RNB1KBNR b KQkq e3 0 1", "the squares the pawn crossed are not"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en-passant field 'e9' is not a square"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E6 0 1", "en-passant field 'E6' is not a square"),
    bad("r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", "needs the white king on e1 and a rook in the corner"),
    bad("r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1", "needs the white king on e1 and a rook in the corner"),
    bad("r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right 'K' but there is no white rook for it"),
    bad("r3k3/8/8/8/8/8/8/R3K2R w KQk - 0 1", "castling right 'k' but there is no black rook for it"),
    bad("r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "needs the white king on e1", chess960=False),
    bad("r3k2r/8/8/8/4K3/8/8/R6R w K - 0 1", "castling right 'K' but the white king is not on its back"),
    bad("4k3/8/8/8/8/8/8/1R2K2R w C - 0 1", "castling right 'C' but there is no white rook for it", True),
    bad("4k3/8/8/8/8/8/8/1R2K2R w E - 0 1", "castling right 'E' but there is no white rook for it", True),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1", "name the same right twice"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1", "name the same right twice"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w HKkq - 0 1", "name the same right twice", True),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQxq - 0 1", "bad character 'x' in castling rights"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - -1 1", "halfmove clock '-1' is not a non-negative number"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 -3", "fullmove number '-3' is not a non-negative number"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - x 1", "halfmove clock 'x' is not a non-negative number"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1.5", "fullmove number '1.5' is not a non-negative number"),
    bad("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99999999999999999999 1", "halfmove clock 99999999999999999999 is"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq \u2013 0 1", "FEN must be ASCII text"),
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \u0661", "FEN must be ASCII text"),
]


def played_board(chess960=False):
    """A valid position with some game history behind it."""
    board = Board(KIWIPETE, chess960=chess960)
    for text in ("e1g1", "e7d8", "d5e6"):
        board.push_uci(text)
    return board


def state(board):
    return board.fen(), board.key, board.chess960, list(board.history), board.start_fen


@pytest.mark.parametrize("fen, chess960, message", INVALID)
def test_invalid_fen_is_rejected_and_the_board_kept(fen, chess960, message):
    board = played_board(chess960)
    before = state(board)
    with pytest.raises(FenError, match=None) as error:
        board.set_fen(fen, chess960)
    assert message in str(error.value)
    assert state(board) == before
    reference = played_board(chess960)
    assert board.pop() == reference.pop()
    assert board.fen() == reference.fen()
    with pytest.raises(FenError):
        Board(fen, chess960=chess960)


@pytest.mark.parametrize("fen, expected", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", STARTING_FEN),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7", STARTING_FEN.replace("- 0 1", "- 7 1")),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", STARTING_FEN),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", STARTING_FEN),
    # an en-passant square with no legal capture is dropped, as python-chess's fen() does
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
    # ... and kept when the capture is legal
    ("rnbqkbnr/ppp1pppp/8/8/2PpP3/8/PP1P1PPP/RNBQKBNR b KQkq e3 0 3",
     "rnbqkbnr/ppp1pppp/8/8/2PpP3/8/PP1P1PPP/RNBQKBNR b KQkq e3 0 3"),
    # ... but not when it would leave the king in check along the rank
    ("8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1", "8/8/8/8/k2pP2Q/8/8/4K3 b - - 0 1"),
])
def test_accepted_standard_fens(fen, expected):
    assert Board(fen).fen() == expected
    assert expected == chess.Board(fen).fen()


@pytest.mark.parametrize("fen, xfen, shredder", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", STARTING_FEN, "HAha"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", STARTING_FEN, "HAha"),
    ("r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w HCfa - 0 1",
     "r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w KCfq - 0 1", "HCfa"),
    ("r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w KCfq - 0 1",
     "r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w KCfq - 0 1", "HCfa"),
    # two rooks on the a-side: the outer one is Q, the inner one needs its file letter
    ("1rr3k1/8/8/8/8/8/8/1RR3K1 w Bb - 0 1", "1rr3k1/8/8/8/8/8/8/1RR3K1 w Qq - 0 1", "Bb"),
    ("1rr3k1/8/8/8/8/8/8/1RR3K1 w Qq - 0 1", "1rr3k1/8/8/8/8/8/8/1RR3K1 w Qq - 0 1", "Bb"),
    ("1rr3k1/8/8/8/8/8/8/1RR3K1 w Cc - 0 1", "1rr3k1/8/8/8/8/8/8/1RR3K1 w Cc - 0 1", "Cc"),
])
def test_accepted_chess960_fens(fen, xfen, shredder):
    board = Board(fen, chess960=True)
    assert board.fen() == xfen == chess.Board(fen, chess960=True).fen()
    assert board.fen(shredder=True).split()[2] == shredder
    again = Board(board.fen(shredder=True), chess960=True)
    assert (again.fen(), again.key, again.legal_moves()) == (board.fen(), board.key, board.legal_moves())


def test_set_fen_keeps_the_variant_unless_told():
    board = Board(chess960=True)
    board.set_fen(KIWIPETE)
    assert board.chess960
    board.set_fen(KIWIPETE, chess960=False)
    assert not board.chess960


def test_every_suite_fen_round_trips_like_python_chess():
    entries = read_suite(shared_file("perft.epd"))
    for entry in entries:
        assert Board(entry.fen).fen() == chess.Board(entry.fen).fen()
    for entry in read_suite(str(TESTS_DIR / "data" / "chess960_perft.epd")):
        assert Board(entry.fen, chess960=True).fen() == chess.Board(entry.fen, chess960=True).fen()


# ---- fuzzing ----------------------------------------------------------------------------------

ALPHABET = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefghABCDEFGH0123456789"
JUNK = "90x. \t\n\x00\u00e9\u2013+#"
FUZZ_CASES = 2000


@contextmanager
def deadline(seconds):
    """Fail instead of hanging (a parse loop that never ends is a bug too)."""
    def expire(signum, frame):
        raise TimeoutError(f"FEN fuzzing took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def random_char(rng):
    return rng.choice(JUNK) if rng.random() < 0.1 else rng.choice(ALPHABET)


def mutate(rng, fen):
    """One to three random edits: a character of a random field flipped, deleted or inserted, or
    fields swapped, dropped or repeated."""
    for _ in range(rng.randint(1, 3)):
        fields = fen.split(" ")
        edit = rng.randrange(6)
        f = rng.randrange(len(fields))
        text = fields[f]
        i = rng.randrange(len(text) + 1)
        if edit == 0 and text:
            i = min(i, len(text) - 1)
            fields[f] = text[:i] + random_char(rng) + text[i + 1:]
        elif edit == 1:
            fields[f] = text[:i] + text[i + 1:]
        elif edit == 2:
            fields[f] = text[:i] + random_char(rng) + text[i:]
        elif edit == 3:
            g = rng.randrange(len(fields))
            fields[f], fields[g] = fields[g], fields[f]
        elif edit == 4 and len(fields) > 1:
            del fields[f]
        else:
            fields.insert(f, fields[rng.randrange(len(fields))])
        fen = " ".join(fields)
    return fen


def fuzz_inputs(rng):
    """(text, chess960) pairs: random strings and mutations of valid standard and 960 FENs."""
    valid = [(e.fen, False) for e in read_suite(shared_file("perft.epd"))]
    valid += [(e.fen, True) for e in read_suite(str(TESTS_DIR / "data" / "chess960_perft.epd"))]
    for _ in range(FUZZ_CASES // 4):
        yield "".join(random_char(rng) for _ in range(rng.randrange(90))), rng.random() < 0.5
    for _ in range(FUZZ_CASES - FUZZ_CASES // 4):
        fen, chess960 = rng.choice(valid)
        yield mutate(rng, fen), chess960


def test_fuzzed_fens_parse_cleanly_or_raise_fen_error():
    rng = random.Random(seed(1))
    board = played_board()
    accepted = rejected = 0
    with deadline(120):
        for text, chess960 in fuzz_inputs(rng):
            before = board.fen()
            try:
                board.set_fen(text, chess960)
            except FenError:
                rejected += 1
                assert board.fen() == before, text
                continue
            accepted += 1
            fen = board.fen()
            assert Board(fen, chess960=chess960).fen() == fen, text
    assert accepted + rejected == FUZZ_CASES
    assert accepted > FUZZ_CASES // 20 and rejected > FUZZ_CASES // 2, (accepted, rejected)
