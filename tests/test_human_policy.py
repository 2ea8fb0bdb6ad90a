"""The board policy of the human model (search/human_policy.py) and its trainer
(tools/calibration/train_policy.py): what it sees of a board and a move, and that its gradient
is the derivative of its loss."""

import random

import chess
import numpy as np

from engine.board import Board
from search.human_model import FeatureSearch, features
from search.human_policy import ATTACKED, LAST_FROM, LAST_TO, MAX_ACTIVE, inputs, load
from tools.calibration import train_policy


def board_after(moves: list[str]) -> Board:
    board = Board()
    for text in moves:
        board.push_uci(text)
    return board


def test_the_board_is_seen_from_the_mover_side():
    board = board_after(["e2e4"])                        # black to move
    active, _ = inputs(board, board.legal_moves())
    assert len(active) == 32 + 2                         # the pieces, none attacked, and the last move
    own_e_pawn = 0 * 384 + 0 * 64 + (52 ^ 56)            # black's e7 pawn, seen as an own pawn on e2
    their_e_pawn = 384 + 0 * 64 + (28 ^ 56)              # white's e4 pawn, seen as an opponent's pawn on e5
    own_king = 5 * 64 + (60 ^ 56)                        # black's king on e8, seen on e1
    last_to, last_from = LAST_TO + 0 * 64 + (28 ^ 56), LAST_FROM + (12 ^ 56)   # the pawn's e2-e4, seen as e7-e5
    assert {own_e_pawn, their_e_pawn, own_king, last_to, last_from} <= set(active.tolist())
    white = Board()
    assert set(inputs(white, white.legal_moves())[0].tolist()) == \
        set(inputs(board_after(["g1f3", "g8f6", "f3g1", "f6g8"]), white.legal_moves())[0].tolist()[:-2])


def expected_board_inputs(board: chess.Board) -> set[int]:
    """The board inputs search/human_policy.py documents, computed with python-chess."""
    us = board.turn
    view = (lambda sq: sq) if us == chess.WHITE else (lambda sq: sq ^ 56)
    found = set()
    for sq, piece in board.piece_map().items():
        index = (0 if piece.color == us else 384) + (piece.piece_type - 1) * 64 + view(sq)
        found.add(index)
        if board.is_attacked_by(not piece.color, sq):
            found.add(ATTACKED + index)
    if board.move_stack:
        last = board.peek()
        to = last.to_square
        if board.piece_at(to) is None or board.piece_at(to).color == us:   # castling as king takes rook
            to = chess.square(6 if chess.square_file(to) > chess.square_file(last.from_square) else 2,
                              chess.square_rank(to))
        found.add(LAST_TO + (board.piece_type_at(to) - 1) * 64 + view(to))
        found.add(LAST_FROM + view(last.from_square))
    return found


def test_the_board_inputs_agree_with_python_chess_on_random_games():
    """Pieces, the attacked ones and the last move (castling and en passant included) on 40
    random games of up to 120 plies, every position, against python-chess."""
    rng = random.Random(71)
    checked = 0
    for _ in range(40):
        ours, theirs = Board(), chess.Board()
        for _ in range(rng.randrange(1, 120)):
            legal = list(theirs.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            ours.push_uci(move.uci())
            theirs.push(move)
            active, _ = inputs(ours, ours.legal_moves())
            assert len(active) == len(set(active.tolist())) <= MAX_ACTIVE
            assert set(active.tolist()) == expected_board_inputs(theirs), theirs.fen()
            checked += 1
    assert checked > 1000


def test_move_rows_are_the_choice_model_square_features():
    board = board_after(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"])
    moves, raw = FeatureSearch().raw(board)
    _, rows = inputs(board, moves)
    _, squares = features(raw, 0, np.zeros(len(raw)))
    assert np.array_equal(rows, squares)


def small_data():
    """Three positions with their inputs, as the trainer's arrays."""
    boards = [Board(), board_after(["e2e4"]), board_after(["d2d4", "d7d5", "c2c4"])]
    active = np.zeros((3, MAX_ACTIVE), dtype=np.int64)
    count, rows, offsets = [], [], [0]
    for i, board in enumerate(boards):
        moves = board.legal_moves()
        a, r = inputs(board, moves)
        active[i, :len(a)] = a
        count.append(len(a))
        rows.append(r)
        offsets.append(offsets[-1] + len(moves))
    return (active, np.array(count), np.concatenate(rows), np.array(offsets), np.array([3, 7, 11]),
            np.array([-0.5, 0.25, 1.0]))


def test_the_gradient_is_the_derivative_of_the_loss():
    h = 4
    arrays = small_data()
    theta = np.random.default_rng(3).normal(0, 0.3, train_policy._layout(h)[-1])
    scratch = [np.zeros(h), np.zeros(h), np.zeros(h), np.zeros(256)]

    def loss(t, grad=None):
        g = np.zeros(len(t)) if grad is None else grad
        return sum(train_policy._position(t, g, h, i, *arrays, *scratch, grad is not None)[0] for i in range(3))

    grad = np.zeros(len(theta))
    loss(theta, grad)
    touched = np.flatnonzero(grad)
    assert len(touched) > 100
    for p in np.random.default_rng(4).choice(touched, 40, replace=False):
        step = np.zeros(len(theta))
        step[p] = 1e-6
        numeric = (loss(theta + step) - loss(theta - step)) / 2e-6
        assert abs(numeric - grad[p]) < 1e-5 * max(1.0, abs(numeric))


def test_training_learns_the_moves_and_the_policy_computes_the_same_logits(tmp_path):
    h = 8
    arrays = small_data()
    size = train_policy._layout(h)[-1]
    theta = np.random.default_rng(5).normal(0, 0.1, size)
    m, v, step = np.zeros(size), np.zeros(size), 0
    before = train_policy._score(theta, h, np.arange(3), *arrays)
    for _ in range(60):
        _, step = train_policy._epoch(theta, h, np.arange(3), 3, *arrays, m, v, step, 0.01, 0.0, 1)
    loss, top1 = train_policy._score(theta, h, np.arange(3), *arrays)
    assert loss < before[0] / 4 and top1 == 1.0
    train_policy.policy_of(theta, h).save(tmp_path / "p.npz")
    policy = load(tmp_path / "p.npz")
    active, count, rows, offsets, chosen, r = arrays
    for i in range(3):
        logits = policy.logits(active[i, :count[i]], rows[offsets[i]:offsets[i + 1]], r[i])
        assert int(np.argmax(logits)) == chosen[i]
