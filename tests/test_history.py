"""Pins games longer than the fixed history arrays (engine.defs.HISTORY_SIZE plies): the history is
rebased so it never overflows, repetitions within the last MAX_HISTORY plies are still found, and
pop still takes moves back (replaying the game once the undo records are gone)."""

import random

import chess
import chess.polyglot
import pytest

from engine.board import Board
from engine.defs import BB_KEYS, HISTORY_SIZE, KNIGHT, MAX_HISTORY, MAX_PLY, WHITE
from tests.helpers import assert_key_matches, describe, kind, seed, shuffle_choice

PLIES = HISTORY_SIZE + 250
POPS_PAST_THE_REBASE = 40


def knight_move(rng, board, py, moves):
    """A quiet knight move within our own three ranks (so the knights never check or capture),
    mostly the one that takes back our previous move."""
    own = range(24) if board.turn == WHITE else range(40, 64)
    knights = [m for m in moves if board.piece_at(m & 63) % 6 == KNIGHT and kind(board, m) == "quiet"
               and ((m >> 6) & 63) in own]
    return shuffle_choice(rng, knights, py, take_back=0.8)


def pawn_push(rng, board, moves):
    return rng.choice([m for m in moves if kind(board, m) == "pawn move"])


class Game:
    """Our board and python-chess's in step, with the Polyglot hash of every position so far (equal
    to our keys: these games have no en passant)."""

    def __init__(self):
        self.board, self.py = Board(), chess.Board()
        self.hashes = [chess.polyglot.zobrist_hash(self.py)]

    def push(self, move):
        self.py.push_uci(self.board.uci(move))
        self.board.push(move)
        self.hashes.append(chess.polyglot.zobrist_hash(self.py))

    def pop(self):
        self.board.pop()
        self.py.pop()
        self.hashes.pop()

    def check(self, forward=True):
        """Check the position and return its repetition count. The history arrays hold the keys of
        exactly the last `ply + 1` positions; moving forward they reach back over the whole reversible
        stretch or at least MAX_HISTORY plies (taking moves back may leave fewer until a replay); when
        they hold the whole stretch the count agrees with python-chess."""
        board, py = self.board, self.py
        assert board.fen() == py.fen(), describe(py)
        assert_key_matches(board, py)
        held = [int(k) for k in board.arrays[0][BB_KEYS:BB_KEYS + board.ply + 1]]
        assert held == self.hashes[-len(held):], f"history keys out of step {describe(py)}"
        if forward:
            assert board.ply >= min(py.halfmove_clock, MAX_HISTORY), describe(py)
        earlier = board.repetitions()
        if board.ply >= py.halfmove_clock:
            assert (earlier >= 1, earlier >= 2) == (py.is_repetition(2), py.is_repetition(3)), describe(py)
        return earlier


def play_long_game(rng, pawn_every):
    """Knights shuffle for PLIES plies (a pawn move every `pawn_every` plies when given)."""
    game = Game()
    threefolds = 0
    for ply in range(PLIES):
        threefolds += game.check() >= 2
        assert game.board.ply + MAX_PLY < HISTORY_SIZE, "no room left for a search below this position"
        moves = game.board.legal_moves()
        pawn_time = pawn_every and ply % pawn_every == pawn_every - 1
        game.push(pawn_push(rng, game.board, moves) if pawn_time else knight_move(rng, game.board, game.py, moves))
    assert len(game.board.history) == PLIES > HISTORY_SIZE
    assert threefolds > PLIES // 4
    return game


@pytest.mark.parametrize("pawn_every", [150, None], ids=["pawn-move-every-150-plies", "knights-only"])
def test_long_game_keeps_repetitions_and_pop(pawn_every):
    rng = random.Random(seed(11))
    game = play_long_game(rng, pawn_every)
    replays = 0
    for _ in range(game.board.ply + POPS_PAST_THE_REBASE):   # past the oldest undo record kept
        replays += game.board.ply == 0                        # this pop must replay the game
        game.pop()
        game.check(forward=False)
    assert replays >= 1
    for _ in range(20):  # and the game goes on from there
        game.push(knight_move(rng, game.board, game.py, game.board.legal_moves()))
        game.check()
