"""Self-play training data (tools/training): the in-process games, the chained chunk format and its
reader, checked against python-chess."""

from __future__ import annotations

import argparse
import hashlib
import json
import random

import chess
import numpy as np
import pytest

from engine.board import Board
from tests.helpers import seed
from tools.paths import ROOT
from tools.training import records
from tools.training.datagen import Generator


def canonical(board: chess.Board) -> list[chess.Move]:
    """python-chess's legal moves in the format's order: from, to (a castling king's to is its
    rook's square), promotion piece."""
    def key(move: chess.Move) -> tuple[int, int, int]:
        to = move.to_square
        if board.is_castling(move) and not board.chess960:
            to = chess.H1 if chess.square_file(to) == 6 else chess.A1
            to += 56 * (board.turn == chess.BLACK)
        return move.from_square, to, (move.promotion - 1) if move.promotion else 0
    return sorted(board.legal_moves, key=key)


def reference_record(board: chess.Board, moves: list[chess.Move], scores: list[int], result: int) -> bytes:
    """A game record written by python-chess alone (scores for the side to move)."""
    indices, start = [], board.copy()
    for move in moves:
        indices.append(canonical(board).index(move))
        board.push(move)
    fen = start.fen(shredder=start.chess960)
    return records.encode_game(fen, start.chess960, result, np.array(indices), np.array(scores),
                               start.turn == chess.WHITE)


def random_game(rng: random.Random, chess960: bool) -> tuple[chess.Board, list[chess.Move]]:
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    start, moves = board.copy(), []
    for _ in range(rng.randrange(20, 160)):
        legal = list(board.legal_moves)
        if not legal:
            break
        # castling, promotions and en passant come up more often when preferred
        special = [m for m in legal if board.is_castling(m) or m.promotion or board.is_en_passant(m)]
        move = rng.choice(special if special and rng.random() < 0.5 else legal)
        moves.append(move)
        board.push(move)
    return start, moves


@pytest.mark.parametrize("chess960", [False, True])
def test_python_chess_records_replay_exactly(tmp_path, chess960):
    """Games written with python-chess's move order come back move for move, with every
    position, score, flag and result, through the engine's reader."""
    rng = random.Random(seed(5, chess960))
    games, expected = [], []
    for number in range(12):
        start, moves = random_game(rng, chess960)
        scores = [rng.choice([0, 7, -13, 250, -3000, 31990, -32767]) + rng.randrange(-40, 40)
                  for _ in moves]
        result = number % 3
        games.append(reference_record(start.copy(), moves, scores, result))
        expected.append((start, moves, scores, result))
    path = tmp_path / "chunk.jfsp.xz"
    records.write_chunk(path, games)
    read = list(records.games(path))
    positions = records.Positions([path])
    assert len(read) == 12 and len(positions) == sum(len(m) for _, m, _, _ in expected)
    row = 0
    for game, (start, moves, scores, result) in zip(read, expected):
        board = start.copy()
        assert game.result == result / 2 and game.chess960 == chess960
        assert [board.parse_uci(m) for m in game.moves[:1]] == moves[:1]
        for ply, (text, move) in enumerate(zip(game.moves, moves)):
            assert board.parse_uci(text) == move
            white = scores[ply] if board.turn == chess.WHITE else -scores[ply]
            assert game.scores[ply] == max(-32767, min(32767, white))
            ours = sorted(int(code) for code in positions.pieces[row] if code >= 0)
            theirs = sorted((not piece.color) * 384 + (piece.piece_type - 1) * 64 + square
                            for square, piece in board.piece_map().items())
            assert ours == theirs
            assert positions.stm[row] == (board.turn == chess.BLACK)
            assert positions.flags[row] & records.IN_CHECK == bool(board.is_check()) * records.IN_CHECK
            noisy = board.is_capture(move) or move.promotion is not None
            assert bool(positions.flags[row] & records.NOISY_BEST) == noisy
            stm_result = result if board.turn == chess.WHITE else 2 - result
            assert positions.result[row] == stm_result
            board.push(move)
            row += 1


def test_a_corrupt_move_index_is_refused(tmp_path):
    record = bytearray(records.encode_game(chess.STARTING_FEN, False, 1, np.array([250]), np.array([0]), True))
    path = tmp_path / "bad.jfsp.xz"
    records.write_chunk(path, [bytes(record)])
    with pytest.raises(ValueError, match="not legal"):
        records.Positions([path])
    path.write_bytes(b"not a chunk")
    with pytest.raises(Exception):
        records.read_chunk(path)


def generator(**overrides) -> Generator:
    args = argparse.Namespace(nodes=300, hard_nodes=2400, random_plies=(8, 9), balanced=400, chess960=0.5,
                              network=None, games=3, seed=7)
    vars(args).update(overrides)
    return Generator(args)


def test_self_play_games_are_legal_end_as_recorded_and_repeat_exactly(tmp_path):
    """Each generated game replays legally in python-chess; one that ends by the rules ends there
    with the recorded result; the same seed gives the same bytes."""
    first = generator()
    out = tmp_path / "chunk-00000.jfsp.xz"
    entry = first.chunk(0, out, {})
    assert entry["games"] == 3 and entry["positions"] > 0 and entry["sha256"]
    games = list(records.games(out))
    assert sum(len(g.moves) for g in games) == entry["positions"]
    for game in games:
        board = chess.Board(game.fen, chess960=game.chess960)
        assert board.outcome() is None
        for text in game.moves:
            board.push(board.parse_uci(text))
        over = board.outcome(claim_draw=True)
        if over is not None:
            winner = {chess.WHITE: 1.0, chess.BLACK: 0.0, None: 0.5}[over.winner]
            assert game.result == winner
    again = tmp_path / "again.jfsp.xz"
    generator().chunk(0, again, {})
    assert again.read_bytes() == out.read_bytes()


def test_the_start_is_random_but_balanced():
    gen = generator(balanced=50)
    rng = np.array([11], dtype=np.uint64)
    board, chess960 = gen.start_position(rng, np.random.default_rng(11))
    py = chess.Board(board.fen(shredder=chess960), chess960=chess960)
    assert py.is_valid() and py.outcome() is None
    assert py.fullmove_number >= 5 or chess960          # 8 or 9 random plies were played
    assert isinstance(board, Board)


def test_the_committed_chunks_are_the_ones_their_manifests_describe():
    """Every chunk under data/selfplay has its manifest line (bytes, sha256) and every line of a
    committed generation its chunk, so the digests a network records of its training data can be
    checked from a checkout. A generation of the local store (gen6 on) commits no chunk, and each of
    its lines says how to make its chunk again."""
    folders = sorted(path.parent for path in (ROOT / "data" / "selfplay").glob("*/manifest.jsonl"))
    assert len(folders) >= 6
    for folder in folders:
        entries = [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines() if line]
        committed = sorted(p.name for p in folder.glob("*.jfsp.xz"))
        if not committed:                         # a store generation
            for entry in entries:
                assert entry["command"].startswith("python -m tools.training.datagen ") and entry["engine"], entry
                assert len(entry["sha256"]) == 64 and entry["network_sha256"], entry
            continue
        assert sorted(e["file"] for e in entries) == committed, folder
        for entry in entries:
            data = (folder / entry["file"]).read_bytes()
            assert len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"], entry
