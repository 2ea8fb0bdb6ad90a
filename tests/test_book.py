"""Opening books: the Polyglot writer of tools/book/make_book.py read back by python-chess, the book's
weighted choice, refusing files that are not books, the shipped book, and the engine's OwnBook,
Book File and Book Best Move options through the real executable."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import chess
import chess.polyglot
import pytest

from engine.board import Board
from jitfish.book import BookError, OpeningBook, python_chess_board
from jitfish.options import ENGINE_OPTIONS, SHIPPED_BOOK
from tests.helpers import seed

# ruff: noqa: F811 - the fixtures imported here are test parameters of the same name
from tests.uci_driver import UciEngine, engine, uci  # noqa: F401
from tools.book.make_book import BookEntry, count_games, encode_move, entries_of, write_book

CASTLING = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
BLACK_CASTLING = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"
PROMOTION = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1"
# After d7d5 the e5 pawn stands beside it, but taking en passant would expose the king on a5
# to the rook on h5: Polyglot still hashes the en passant file, our FEN leaves it out.
PINNED_EP = ("8/3p3k/8/K3P2r/8/8/8/8 b - - 0 1", "d7d5")
NOT_IN_BOOK = ["a2a3", "h7h6"]


def book_file(tmp_path: Path, moves: dict[str, list[tuple[str, int]]], name: str = "test.bin") -> str:
    """A book with the given {FEN: [(UCI move, weight), ...]} written by tools/book/make_book.py."""
    entries = []
    for fen, choices in moves.items():
        board = chess.Board(fen)
        for text, weight in choices:
            move = board.parse_uci(text)
            entries.append(BookEntry(chess.polyglot.zobrist_hash(board), encode_move(board, move), weight))
    path = tmp_path / name
    write_book(path, entries)
    return str(path)


# ---- the writer ---------------------------------------------------------------------------------

def test_encode_move_follows_the_polyglot_layout():
    start = chess.Board()
    assert encode_move(start, chess.Move.from_uci("e2e4")) == 12 << 6 | 28 == 0x031C
    castling = chess.Board(CASTLING)
    assert encode_move(castling, chess.Move.from_uci("e1g1")) == 4 << 6 | 7          # e1h1
    assert encode_move(castling, chess.Move.from_uci("e1c1")) == 4 << 6 | 0          # e1a1
    black = chess.Board(BLACK_CASTLING)
    assert encode_move(black, chess.Move.from_uci("e8g8")) == 60 << 6 | 63           # e8h8
    assert encode_move(black, chess.Move.from_uci("e8c8")) == 60 << 6 | 56           # e8a8
    promotion = chess.Board(PROMOTION)
    for letter, code in zip("nbrq", range(1, 5)):
        assert encode_move(promotion, chess.Move.from_uci(f"e7e8{letter}")) == code << 12 | 52 << 6 | 60


def test_written_book_reads_back_through_python_chess(tmp_path):
    """Keys, moves (castling and every promotion included), weights and the sort order survive."""
    table = {
        chess.STARTING_FEN: [("e2e4", 30), ("d2d4", 20), ("g1f3", 1)],
        CASTLING: [("e1g1", 7), ("e1c1", 3), ("a2a4", 65535)],
        BLACK_CASTLING: [("e8g8", 5), ("e8c8", 4)],
        PROMOTION: [("e7e8q", 9), ("e7e8n", 4), ("e7e8r", 2), ("e7e8b", 1)],
    }
    path = book_file(tmp_path, table)
    assert Path(path).stat().st_size == 16 * sum(len(c) for c in table.values())
    with chess.polyglot.open_reader(path) as reader:
        keys = [entry.key for entry in reader]
        assert keys == sorted(keys)
        for fen, choices in table.items():
            board = chess.Board(fen)
            found = [(e.key, board.uci(e.move), e.weight, e.learn) for e in reader.find_all(board)]
            key = chess.polyglot.zobrist_hash(board)
            assert found == [(key, text, weight, 0) for text, weight in sorted(choices, key=lambda c: -c[1])]
        raw = {e.raw_move for e in reader.find_all(chess.polyglot.zobrist_hash(chess.Board(CASTLING)))}
        assert 4 << 6 | 7 in raw and 4 << 6 | 0 in raw           # king takes own rook on file


def test_writer_refuses_bad_entries(tmp_path):
    with pytest.raises(ValueError, match="twice"):
        write_book(tmp_path / "a.bin", [BookEntry(1, 796, 1), BookEntry(1, 796, 2)])
    with pytest.raises(ValueError, match="out of range"):
        write_book(tmp_path / "b.bin", [BookEntry(1, 796, 70000)])


def test_pgn_counting_weights_by_result(tmp_path):
    """2 per win and 1 per draw to the side that moved; rare moves, moves that only lost and games
    not from the start position are left out; weights too large for 16 bits are scaled."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
        '[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n'
        '[Result "0-1"]\n\n1. e4 c5 0-1\n\n'
        '[Result "0-1"]\n\n1. e4 c5 0-1\n\n'
        '[Result "1-0"]\n\n1. d4 d5 1-0\n\n'
        '[Result "0-1"]\n[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]\n\n'
        '1... e5 0-1\n\n'
        '[Result "*"]\n\n1. e4 e5 *\n')
    table = count_games([str(pgn)], plies=3, min_games=2, log=lambda text: None)
    start, after_e4 = chess.Board(), chess.Board()
    after_e4.push_uci("e2e4")
    after_e4_e5 = after_e4.copy()
    after_e4_e5.push_uci("e7e5")
    key = chess.polyglot.zobrist_hash

    def code(board: chess.Board, text: str) -> int:
        return encode_move(board, chess.Move.from_uci(text))

    assert table[key(start)] == {code(start, "e2e4"): 3}             # d4 once only; the FEN game left out
    assert table[key(after_e4)] == {code(after_e4, "e7e5"): 1, code(after_e4, "c7c5"): 4}
    assert table[key(after_e4_e5)] == {code(after_e4_e5, "g1f3"): 3}
    huge = list(entries_of({5: {796: 200_000, 797: 100_000, 798: 1}}))
    assert sorted(e.weight for e in huge) == [1, 32767, 65535]


# ---- choosing from a book -----------------------------------------------------------------------

def test_weighted_choice_follows_the_weights(tmp_path):
    weights = {"e2e4": 60, "d2d4": 30, "c2c4": 10}
    book = OpeningBook(book_file(tmp_path, {chess.STARTING_FEN: list(weights.items())}))
    board = Board()
    rng = random.Random(seed(1))
    draws = 6000
    counts = Counter(book.choose(board, rng) for _ in range(draws))
    assert set(counts) == set(weights)
    for text, weight in weights.items():
        assert abs(counts[text] / draws - weight / 100) < 0.025, counts
    assert all(book.choose(board, random.Random(i), best_only=True) == "e2e4" for i in range(20))


def test_best_move_takes_the_first_of_equal_weights(tmp_path):
    book = OpeningBook(book_file(tmp_path, {chess.STARTING_FEN: [("d2d4", 5), ("e2e4", 5), ("c2c4", 1)]}))
    first = book.moves(Board())[0][0]
    assert book.choose(Board(), random.Random(0), best_only=True) == first


def test_out_of_book_and_illegal_entries_give_no_move(tmp_path):
    """A position the book does not know gives None; a move the position does not allow (a
    corrupt or foreign entry) is never chosen; weight 0 means never play it."""
    start = chess.Board()
    entries = [BookEntry(chess.polyglot.zobrist_hash(start), 12 << 6 | 36, 50),      # e2e5
               BookEntry(chess.polyglot.zobrist_hash(start), encode_move(start, chess.Move.from_uci("g1f3")), 0)]
    path = tmp_path / "odd.bin"
    write_book(path, entries)
    book = OpeningBook(str(path))
    assert book.moves(Board()) == []
    assert book.choose(Board(), random.Random(0)) is None
    board = Board()
    for text in NOT_IN_BOOK:
        board.push_uci(text)
    assert OpeningBook(SHIPPED_BOOK).choose(board, random.Random(0)) is None


def test_castling_and_promotion_come_back_in_our_notation(tmp_path):
    book = OpeningBook(book_file(tmp_path, {CASTLING: [("e1g1", 1)], PROMOTION: [("e7e8n", 1)]}))
    assert book.moves(Board(CASTLING)) == [("e1g1", 1)]
    assert book.moves(Board(PROMOTION)) == [("e7e8n", 1)]


def test_key_counts_an_en_passant_square_our_fen_drops():
    fen, push = PINNED_EP
    ours, theirs = Board(fen), chess.Board(fen)
    ours.push_uci(push)
    theirs.push_uci(push)
    assert " - " in ours.fen()                  # no legal en passant capture
    assert chess.polyglot.zobrist_hash(python_chess_board(ours)) == chess.polyglot.zobrist_hash(theirs)


@pytest.mark.parametrize("content, message", [
    (None, "not found"), ("dir", "is not a file"), (b"", "is empty"),
    (b"x" * 17, "not a multiple of 16"),
    ((2).to_bytes(8, "big") + bytes(8) + (1).to_bytes(8, "big") + bytes(8), "not sorted"),
])
def test_files_that_are_not_books_are_refused(tmp_path, content, message):
    path = tmp_path / "book.bin"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(BookError, match=message):
        OpeningBook(str(path))


# ---- the shipped book ---------------------------------------------------------------------------

def test_shipped_book_is_small_consistent_and_the_default():
    """Every entry is a legal move of a position reached from the start through the book."""
    defaults = {option.name: option.default for option in ENGINE_OPTIONS}
    assert defaults["Book File"] == SHIPPED_BOOK and defaults["OwnBook"] is False
    assert defaults["Book Best Move"] is False
    assert Path(SHIPPED_BOOK).stat().st_size <= 16 * 1024
    book = OpeningBook(SHIPPED_BOOK)
    with chess.polyglot.open_reader(SHIPPED_BOOK) as reader:
        keys = Counter(entry.key for entry in reader)
    reached, frontier = set(), [Board()]
    while frontier:
        board = frontier.pop()
        key = chess.polyglot.zobrist_hash(python_chess_board(board))
        if key in reached or key not in keys:
            continue
        reached.add(key)
        moves = book.moves(board)
        assert len(moves) == keys[key], board.fen()
        for text, _ in moves:
            child = board.copy()
            child.push_uci(text)
            frontier.append(child)
    assert reached == set(keys)


# ---- through the engine -------------------------------------------------------------------------

def book_line(search) -> str | None:
    """The move of the search's `info string book move` line, if it has one."""
    texts = [i["string"] for i in search.infos if i.get("string", "").startswith("book move ")]
    assert len(texts) <= 1
    return texts[0].split()[-1] if texts else None


def searched(search) -> bool:
    return any("depth" in info for info in search.infos)


def shipped_moves(board: chess.Board) -> dict[str, int]:
    with chess.polyglot.open_reader(SHIPPED_BOOK) as reader:
        return {board.uci(e.move): e.weight for e in reader.find_all(board)}


@pytest.fixture
def own_book(uci: UciEngine) -> UciEngine:
    uci.set_option("OwnBook", "true")
    return uci


@pytest.mark.parametrize("moves", [(), ("g1f3",)])
def test_own_book_answers_at_once_with_a_book_move(own_book, moves):
    board = own_book.position(moves=moves)
    search = own_book.go("wtime 60000 btime 60000")
    assert search.bestmove in shipped_moves(board)
    assert book_line(search) == search.bestmove and not searched(search)
    assert search.seconds < 1.0


def test_own_book_off_searches(uci):
    search = uci.go("wtime 5000 btime 5000 movestogo 40")
    assert searched(search) and book_line(search) is None


@pytest.mark.parametrize("args", ["depth 3", "nodes 2000", "mate 3 movetime 200", "movetime 100 searchmoves a2a3 h2h3"])
def test_analysis_requests_search(own_book, args):
    search = own_book.go(args)
    assert searched(search) and book_line(search) is None


@pytest.mark.parametrize("args", ["infinite", "ponder wtime 1000 btime 1000"])
def test_infinite_and_ponder_search(own_book, args):
    search, _ = own_book.interrupt(args, "stop", after=0.2)
    assert searched(search) and book_line(search) is None


def test_leaves_the_book_when_it_runs_out(own_book):
    own_book.position(moves=NOT_IN_BOOK)
    search = own_book.go("movetime 200")
    assert searched(search) and book_line(search) is None


def test_best_move_option_and_seeded_choice(own_book):
    weights = shipped_moves(chess.Board())
    own_book.set_option("Book Best Move", "true")
    assert {own_book.go("movetime 100").bestmove for _ in range(5)} == {max(weights, key=weights.get)}
    own_book.set_option("Book Best Move", "false")
    own_book.set_option("Random Seed", 12345)
    assert len({own_book.go("movetime 100").bestmove for _ in range(5)}) == 1
    own_book.set_option("Random Seed", 0)
    # The start position has three moves of weight 100, 50 and 48: all alike in 30 draws is
    # less likely than one in a million.
    assert len({own_book.go("movetime 100").bestmove for _ in range(30)}) > 1


def test_bad_book_file_is_refused_and_the_old_book_stays(own_book, tmp_path):
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a book at all\n")
    for path in (tmp_path / "missing.bin", text_file, tmp_path):
        errors = own_book.errors_after(f"setoption name Book File value {path}")
        assert len(errors) == 1 and SHIPPED_BOOK in errors[0], errors
    assert book_line(own_book.go("movetime 100")) is not None


def test_another_book_and_no_book(own_book, tmp_path):
    path = book_file(tmp_path, {chess.STARTING_FEN: [("a2a3", 1)]})
    own_book.set_option("Book File", path)
    assert own_book.go("wtime 1000 btime 1000").bestmove == "a2a3"
    own_book.set_option("Book File", "<empty>")
    search = own_book.go("movetime 100")
    assert searched(search) and book_line(search) is None
    own_book.set_option("OwnBook", "false")
    own_book.send("setoption name OwnBook value true")
    assert any("no book is loaded" in text for text in own_book.sync())


def test_chess960_does_not_use_the_book(own_book):
    own_book.set_option("UCI_Chess960", "true")
    own_book.position(chess960=True)
    search = own_book.go("movetime 100")
    assert searched(search) and book_line(search) is None
