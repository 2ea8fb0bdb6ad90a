"""Helpers shared by the core tests: where the data lives (tools/paths.py), and python-chess as the
rules reference."""

from __future__ import annotations

import os
import random
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import numpy as np

from engine.board import Board
from engine.defs import BB_KEYS, NO_PIECE, PAWN, ST_UNDO, UNDO_SIZE
from engine.move import CASTLE, EN_PASSANT, PROMOTION_LETTERS, is_promotion, promotion_type
from engine.position import compute_key
from tools.paths import data_dir, shared_file  # noqa: F401  (the tests' way to the shared data)

TESTS_DIR = Path(__file__).resolve().parent
BASE_SEED = int(os.environ.get("JITFISH_SEED", "20240531"))


def seed(*parts: int) -> int:
    """A fixed seed per test case (change them all at once with $JITFISH_SEED)."""
    value = BASE_SEED
    for part in parts:
        value = value * 1_000_003 + part
    return value


def describe(py: chess.Board) -> str:
    """Where a failure happened: the position and how it was reached from the root (use it only in
    assert messages, which are built on failure: it is slow in long games)."""
    moves = " ".join(m.uci() for m in py.move_stack)
    return f"at {py.fen()} (from {py.root().fen()} by [{moves}])"


def our_uci(board: Board, moves: list[int]) -> list[str]:
    return [board.uci(m) for m in moves]


def reference_legal(py: chess.Board) -> set[str]:
    return {m.uci() for m in py.legal_moves}


def reference_noisy(py: chess.Board) -> set[str]:
    """Legal captures (en passant included) and every promotion, quiet ones too."""
    return {m.uci() for m in py.legal_moves if py.is_capture(m) or m.promotion}


def assert_same_moves(ours: list[str], reference: set[str], py: chess.Board) -> None:
    assert len(ours) == len(set(ours)), f"duplicate moves {sorted(ours)} {describe(py)}"
    assert set(ours) == reference, (f"missing {sorted(reference - set(ours))}, "
                                    f"extra {sorted(set(ours) - reference)} {describe(py)}")


def assert_key_matches(board: Board, py: chess.Board) -> None:
    """The incremental key equals the from-scratch key and python-chess's Polyglot hash (which also
    hashes an en-passant file when the capture is only pseudo-legal; ours does not)."""
    assert board.key == int(compute_key(board.tab, board.arrays)), f"incremental key drifted {describe(py)}"
    polyglot = chess.polyglot.zobrist_hash(py)
    if py.has_pseudo_legal_en_passant() != py.has_legal_en_passant():
        polyglot ^= chess.polyglot.POLYGLOT_RANDOM_ARRAY[772 + chess.square_file(py.ep_square)]
    assert board.key == polyglot, f"key differs from the Polyglot hash {describe(py)}"


def snapshot(board: Board) -> tuple[np.ndarray, ...]:
    """Copies of the position arrays as far as they describe the game so far (boards, scalars and
    mailbox whole; undo records and keys up to the current ply)."""
    bb, st = board.arrays
    ply = board.ply
    return (bb[:BB_KEYS].copy(), st[:ST_UNDO].copy(), st[ST_UNDO:ST_UNDO + ply * UNDO_SIZE].copy(),
            bb[BB_KEYS:BB_KEYS + ply + 1].copy())


def assert_restored(before: tuple[np.ndarray, ...], board: Board, move: int, py: chess.Board) -> None:
    """The arrays equal the snapshot taken before `move` was pushed and popped."""
    names = ("boards", "scalars and mailbox", "undo records", "keys")
    for name, old, new in zip(names, before, snapshot(board)):
        assert np.array_equal(old, new), f"{name} not restored after {board.uci(move)} {describe(py)}"


def respects_material_rule(py: chess.Board) -> bool:
    """Our parser's rule beyond python-chess's: each side's pieces beyond the initial set (promoted
    ones) are at most its missing pawns."""
    for colour in chess.COLORS:
        pawns = len(py.pieces(chess.PAWN, colour))
        extra = sum(max(0, len(py.pieces(piece, colour)) - start)
                    for piece, start in ((chess.KNIGHT, 2), (chess.BISHOP, 2), (chess.ROOK, 2), (chess.QUEEN, 1)))
        if extra > 8 - pawns:
            return False
    return True


def check_draw_rules(board: Board, py: chess.Board) -> None:
    """Dead material and the fifty-move rule agree with python-chess. Our fifty-move test is 100
    plies without capture or pawn move and no checkmate; python-chess also wants a legal move."""
    assert board.is_insufficient_material() == py.is_insufficient_material(), describe(py)
    assert board.halfmove_clock == py.halfmove_clock, describe(py)
    assert board.is_fifty_moves() == (py.halfmove_clock >= 100 and not py.is_checkmate()), describe(py)
    if py.is_fifty_moves():
        assert board.is_fifty_moves(), describe(py)
    if board.is_fifty_moves() and not py.is_stalemate():
        assert py.can_claim_fifty_moves(), describe(py)


# ---- random games -----------------------------------------------------------------------------

def kind(board: Board, move: int) -> str:
    """What a move is: castling, en passant, promotion=q/r/b/n, capture, pawn move or quiet."""
    flag = move >> 12
    if flag == CASTLE:
        return "castling"
    if flag == EN_PASSANT:
        return "en passant"
    if is_promotion(move):
        return "promotion=" + PROMOTION_LETTERS[promotion_type(move)]
    if board.piece_at((move >> 6) & 63) != NO_PIECE:
        return "capture"
    if board.piece_at(move & 63) % 6 == PAWN:
        return "pawn move"
    return "quiet"


def choose(rng, board: Board, moves: list[int], weights: dict[str, float]) -> int:
    """A random move, each kind of move weighted by `weights` (promotions by weights['promotion'])."""
    return rng.choices(moves, [weights[kind(board, m).split("=")[0]] for m in moves])[0]


def shuffle_choice(rng, candidates: list[int], py: chess.Board, take_back: float) -> int:
    """A random one of `candidates`; with probability `take_back` the one that undoes our previous
    move, when it is among them (so that positions repeat)."""
    if len(py.move_stack) >= 2 and rng.random() < take_back:
        last = py.move_stack[-2]
        for m in candidates:
            if (m & 63, (m >> 6) & 63) == (last.to_square, last.from_square):
                return m
    return rng.choice(candidates)


def start_position(rng, chess960: bool) -> tuple[Board, chess.Board]:
    """The standard start, or a random one of the 960, on our board and python-chess's."""
    py = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    return Board(py.fen(), chess960=chess960), py


def push_both(board: Board, py: chess.Board, move: int) -> None:
    py.push_uci(board.uci(move))
    board.push(move)


# ---- random placements ------------------------------------------------------------------------

def _place_back_rank(rng, py: chess.Board, colour: chess.Color, free: set[int]) -> None:
    """King and two rooks where castling is possible (any files in Chess960)."""
    back = 0 if colour == chess.WHITE else 56
    king_file = rng.randrange(1, 7) if py.chess960 else 4
    rook_files = rng.sample([f for f in range(8) if f != king_file], 2) if py.chess960 else [0, 7]
    for f, piece in [(king_file, chess.KING)] + [(f, chess.ROOK) for f in rook_files]:
        sq = back + f if back + f in free else rng.choice(sorted(free))
        py.set_piece_at(sq, chess.Piece(piece, colour))
        free.discard(sq)


def _add_en_passant(rng, py: chess.Board) -> None:
    """Make it look as if the opponent's pawn just advanced two squares on a random file, often with
    a pawn of the side to move beside it."""
    f = rng.randrange(8)
    up = 8 if py.turn == chess.WHITE else -8
    ep = (40 if py.turn == chess.WHITE else 16) + f
    pushed = ep - up
    if any(py.piece_type_at(sq) == chess.KING for sq in (ep, ep + up, pushed)):
        return
    py.remove_piece_at(ep)
    py.remove_piece_at(ep + up)
    py.set_piece_at(pushed, chess.Piece(chess.PAWN, not py.turn))
    for side in (-1, 1):
        if 0 <= f + side < 8 and rng.random() < 0.4 and py.piece_type_at(pushed + side) != chess.KING:
            py.set_piece_at(pushed + side, chess.Piece(chess.PAWN, py.turn))
    py.ep_square = ep


def random_board(rng, chess960: bool = False, extra: int | None = None, pool: str = "PPPNBRQpppnbrq",
                 castling: float = 0.5) -> chess.Board:
    """A random placement on a python-chess board, valid or not: two kings (each with probability
    `castling` on castling squares with two rooks), `extra` more pieces drawn from `pool`, random
    side, castling rights, an en-passant square now and then, and random clocks."""
    py = chess.Board(None, chess960=chess960)
    free = set(range(64))
    for colour in chess.COLORS:
        if rng.random() < castling:
            _place_back_rank(rng, py, colour, free)
        else:
            sq = rng.choice(sorted(free))
            py.set_piece_at(sq, chess.Piece(chess.KING, colour))
            free.discard(sq)
    for _ in range(rng.choice([0, 1, 2, 3, 4, 6, 10, 16, 24]) if extra is None else extra):
        sq = rng.choice(sorted(free))
        py.set_piece_at(sq, chess.Piece.from_symbol(rng.choice(pool)))
        free.discard(sq)
    py.turn = rng.random() < 0.5
    back_rooks = py.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    py.castling_rights = sum(chess.BB_SQUARES[sq] for sq in chess.scan_forward(back_rooks) if rng.random() < 0.7)
    py.castling_rights = py.clean_castling_rights()
    if rng.random() < 0.3:
        _add_en_passant(rng, py)
    py.halfmove_clock = rng.randrange(120)
    py.fullmove_number = rng.randrange(1, 150)
    return py


def random_play_fens(count: int, seed: int, min_plies: int, max_plies: int) -> list[str]:
    """FENs of `count` positions reached by random legal play from the start position, each
    after min_plies..max_plies plies (games already over are left out)."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(min_plies, max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


def commented_game(headers: dict[str, str], comments: list[str]) -> chess.pgn.Game:
    """A PGN game of the first legal move (by UCI text) at every ply, each move carrying the next
    comment, as tools.matches.match writes its `{+0.35/12 0.210s}` comments; from the headers'
    FEN if they give one."""
    game = chess.pgn.Game(headers=headers)
    board, node = game.board(), game
    for comment in comments:
        move = sorted(board.legal_moves, key=lambda m: m.uci())[0]
        board.push(move)
        node = node.add_variation(move, comment=comment)
    return game
