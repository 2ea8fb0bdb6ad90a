"""Pins static exchange evaluation (see_ge) against a plain swap-list SEE written here on top of
python-chess's attack masks: every capture and promotion of random positions, at thresholds
around its exact value."""

import random

import chess

from engine.board import Board
from engine.move import move_to_uci
from search.movepick import see_ge
from tests.helpers import shared_file

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900,
          chess.KING: 20000}


def reference_see(board: chess.Board, move: chess.Move) -> int:
    """Material the mover gains when both sides keep recapturing on the target square with their
    least valuable piece (either side may stop), ignoring pins, as engines' SEE does."""
    to = move.to_square
    victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(to)
    gains = [VALUES[victim] if victim else 0]
    mover = board.piece_type_at(move.from_square)
    if move.promotion:
        gains[0] += VALUES[move.promotion] - VALUES[chess.PAWN]
        mover = move.promotion
    occupied = board.occupied ^ chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[to]
    if board.is_en_passant(move):
        occupied ^= chess.BB_SQUARES[to ^ 8]
    side = not board.turn
    on_square = mover
    while True:
        attackers = board.attackers_mask(side, to, occupied) & occupied
        if not attackers:
            break
        kind = min((board.piece_type_at(sq) for sq in chess.scan_forward(attackers)), key=VALUES.get)
        if kind == chess.KING and board.attackers_mask(not side, to, occupied) & occupied:
            break   # the king may not capture into a defended square
        square = min((sq for sq in chess.scan_forward(attackers) if board.piece_type_at(sq) == kind))
        gains.append(VALUES[on_square] - gains[-1])
        occupied ^= chess.BB_SQUARES[square]
        on_square = kind
        side = not side
    while len(gains) > 1:
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0]


def test_see_matches_a_swap_list_reference():
    rng = random.Random(11)
    fens = [line.split(" bm ")[0] + " 0 1" for line in open(shared_file("wac.epd"))]
    checked = 0
    for fen in fens:
        py = chess.Board(fen)
        for _ in range(6):
            board = Board(py.fen())
            for move in board.noisy_moves():
                pm = chess.Move.from_uci(move_to_uci(move, False))
                value = reference_see(py, pm)
                for threshold in (value - 1, value, value + 1):
                    assert see_ge(board.tab, board.arrays, move, threshold) == (value >= threshold), \
                        (py.fen(), pm.uci(), value, threshold)
                checked += 1
            if py.is_game_over():
                break
            py.push(rng.choice(list(py.legal_moves)))
    assert checked > 3000
