"""The self-play data format: whole games, chained, a little over two bytes a position.

A chunk file is an xz stream of

    b"JFSP" version(u8 = 1), then games back to back:
    flags(u8)           bits 0-1: result (0 black won, 1 draw, 2 white won); bit 2: Chess960
    fen_length(u8) fen  the start position (Shredder-FEN in Chess960), ASCII
    plies(u16, little-endian)
    per ply: move(u8)   the move played, as its index in the position's legal moves sorted by
                        (from, to, promotion piece), castling written king-takes-rook
             score      the search score of the position, White's view, as the zigzag LEB128
                        varint of its change from the previous ply (the first from 0)

Every move was the search's choice, so whether a position was quiet (not in check, best move
neither a capture nor a promotion) is read from the replay, not stored. The replay runs on the
engine's own move generator in numba (`positions`); `games` gives the records as text for tools
and tests, which check it against python-chess.
"""

from __future__ import annotations

import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from engine.board import Board
from engine.defs import MAX_MOVES, NO_PIECE, ST_BOARD, ST_SIDE
from engine.kernel import kernel
from engine.move import CASTLE, EN_PASSANT, is_promotion, move_flag, move_to, move_to_uci, sort_moves
from engine.movegen import ALL, generate
from engine.position import in_check, make_move

MAGIC = b"JFSP"
VERSION = 1
HEADER = MAGIC + bytes([VERSION])
SCORE_LIMIT = 32767
MAX_PIECES = 32

# Position flags (positions()["flags"]).
IN_CHECK = 1
NOISY_BEST = 2               # the move played (the search's best) captures or promotes


@dataclass
class Game:
    """One game of a chunk: its start, result (from White's view: 1.0, 0.5, 0.0), moves (UCI) and
    the search score of each position before its move (White's view, centipawns)."""
    fen: str
    chess960: bool
    result: float
    moves: list[str]
    scores: list[int]


@kernel
def encode_plies(indices, scores, plies, white_first, out):
    """Write the per-ply bytes of a game into `out`; returns their length. scores are for the
    side to move, white_first tells who moves at ply 0."""
    n = 0
    previous = 0
    for ply in range(plies):
        out[n] = indices[ply]
        n += 1
        score = scores[ply] if (ply % 2 == 0) == white_first else -scores[ply]
        score = min(max(score, -SCORE_LIMIT), SCORE_LIMIT)
        delta = score - previous
        previous = score
        zigzag = (delta << 1) ^ (delta >> 63)
        while zigzag >= 128:
            out[n] = (zigzag & 127) | 128
            zigzag >>= 7
            n += 1
        out[n] = zigzag
        n += 1
    return n


def encode_game(fen: str, chess960: bool, result: int, indices: np.ndarray, scores: np.ndarray,
                white_first: bool) -> bytes:
    """A game's record (result 0, 1, 2 for black won, draw, white won)."""
    plies = len(indices)
    text = fen.encode("ascii")
    if len(text) > 255 or plies > 65535:
        raise ValueError("a game record holds a FEN of at most 255 characters and 65535 plies")
    body = np.zeros(4 * plies + 1, dtype=np.uint8)
    length = encode_plies(indices.astype(np.int64), scores.astype(np.int64), plies, white_first, body)
    head = bytes([result | (4 if chess960 else 0), len(text)]) + text + plies.to_bytes(2, "little")
    return head + body[:length].tobytes()


def write_chunk(path: Path, records: list[bytes]) -> bytes:
    """Compress the game records into `path`; returns the file's bytes."""
    data = lzma.compress(HEADER + b"".join(records), preset=9)
    path.write_bytes(data)
    return data


def read_chunk(path: str | Path) -> np.ndarray:
    """The uncompressed games of a chunk file (without its header), as bytes in a uint8 array."""
    raw = lzma.decompress(Path(path).read_bytes())
    if raw[:len(MAGIC)] != MAGIC or raw[len(MAGIC)] != VERSION:
        raise ValueError(f"{path} is no version-{VERSION} self-play chunk")
    return np.frombuffer(raw, dtype=np.uint8)[len(HEADER):]


@kernel
def _scan(buf, starts):
    """Each game's offset in `buf` into starts[]; returns (games, positions)."""
    i, games, positions = 0, 0, 0
    while i < buf.shape[0]:
        starts[games] = i
        games += 1
        i += 2 + buf[i + 1]
        plies = buf[i] | (np.int64(buf[i + 1]) << 8)
        i += 2
        positions += plies
        for _ in range(plies):
            i += 1
            while buf[i] & 128:
                i += 1
            i += 1
    return games, positions


def index_games(buf: np.ndarray) -> tuple[np.ndarray, int]:
    """(start offset of every game, total positions) of a chunk's bytes."""
    starts = np.zeros(len(buf) // 4 + 1, dtype=np.int64)
    games, positions = _scan(buf, starts)
    return starts[:games], int(positions)


def _header(buf: np.ndarray, start: int) -> tuple[str, bool, int, int, int]:
    """(fen, chess960, result 0..2, plies, offset of the first ply) of the game at `start`."""
    flags, length = int(buf[start]), int(buf[start + 1])
    fen = buf[start + 2:start + 2 + length].tobytes().decode("ascii")
    at = start + 2 + length
    plies = int(buf[at]) | int(buf[at + 1]) << 8
    return fen, bool(flags & 4), flags & 3, plies, at + 2


@kernel
def _replay(tab, pos, moves, buf, at, plies, result, row, out_moves, pieces, stm, scores, results, flags):
    """Replay one game from `pos`, writing each position's features from `row` on; returns the
    next row, or -1 when a move index is out of range (a corrupt record)."""
    white_score = 0
    for _ in range(plies):
        index = buf[at]
        at += 1
        shift, zigzag = 0, np.int64(0)
        while True:
            byte = np.int64(buf[at])
            at += 1
            zigzag |= (byte & 127) << shift
            shift += 7
            if byte < 128:
                break
        white_score += (zigzag >> 1) ^ -(zigzag & 1)
        n = generate(tab, pos, moves, 0, ALL)
        if index >= n:
            return -1
        sort_moves(moves, n)
        move = moves[index]
        st = pos[1]
        side = st[ST_SIDE]
        count = 0
        for sq in range(64):
            piece = st[ST_BOARD + sq]
            if piece != NO_PIECE and count < MAX_PIECES:
                pieces[row, count] = (piece // 6) * 384 + (piece % 6) * 64 + sq
                count += 1
        for k in range(count, MAX_PIECES):
            pieces[row, k] = -1
        stm[row] = side
        scores[row] = white_score if side == 0 else -white_score
        results[row] = result if side == 0 else 2 - result
        f = IN_CHECK if in_check(tab, pos) else 0
        flag = move_flag(move)
        if is_promotion(move) or flag == EN_PASSANT \
                or (flag != CASTLE and st[ST_BOARD + move_to(move)] != NO_PIECE):
            f |= NOISY_BEST
        flags[row] = f
        out_moves[row] = move
        make_move(tab, pos, move)
        row += 1
    return row


class Positions:
    """Every position of some chunks, as arrays (one row each): `pieces` (colour * 384 + type * 64
    + square, -1 padded), `stm` (0 white), `score` and `result` (0 loss, 1 draw, 2 win) from the
    side to move's view, `flags` (IN_CHECK, NOISY_BEST), `move` (the engine's encoding) and
    `game` (the game's number across the chunks read)."""

    def __init__(self, paths: list[str | Path]) -> None:
        parts = []
        game_base = 0
        for path in paths:
            buf = read_chunk(path)
            starts, total = index_games(buf)
            part = {"pieces": np.empty((total, MAX_PIECES), dtype=np.int16),
                    "stm": np.empty(total, dtype=np.int8), "score": np.empty(total, dtype=np.int16),
                    "result": np.empty(total, dtype=np.int8), "flags": np.empty(total, dtype=np.int8),
                    "move": np.empty(total, dtype=np.int32), "game": np.empty(total, dtype=np.int32)}
            board = Board()
            row = 0
            for number, start in enumerate(starts):
                fen, chess960, result, plies, at = _header(buf, int(start))
                board.set_fen(fen, chess960)
                end = _replay(board.tab, board.arrays, board._moves, buf, at, plies, result, row,
                              part["move"], part["pieces"], part["stm"], part["score"], part["result"],
                              part["flags"])
                if end < 0:
                    raise ValueError(f"{path}: game {number} has a move that is not legal")
                part["game"][row:end] = game_base + number
                row = end
            game_base += len(starts)
            parts.append(part)
        for name in ("pieces", "stm", "score", "result", "flags", "move", "game"):
            arrays = [part[name] for part in parts]
            setattr(self, name, np.concatenate(arrays) if arrays else np.empty(0))

    def __len__(self) -> int:
        return len(self.stm)


def games(path: str | Path) -> Iterator[Game]:
    """The games of a chunk file, as text."""
    buf = read_chunk(path)
    starts, _ = index_games(buf)
    board = Board()
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    for start in starts:
        fen, chess960, result, plies, at = _header(buf, int(start))
        board.set_fen(fen, chess960)
        out = {"move": np.empty(plies, dtype=np.int32), "pieces": np.empty((plies, MAX_PIECES), dtype=np.int16),
               "stm": np.empty(plies, dtype=np.int8), "score": np.empty(plies, dtype=np.int16),
               "result": np.empty(plies, dtype=np.int8), "flags": np.empty(plies, dtype=np.int8)}
        if _replay(board.tab, board.arrays, moves, buf, at, plies, result, 0, out["move"], out["pieces"],
                   out["stm"], out["score"], out["result"], out["flags"]) < 0:
            raise ValueError(f"{path}: a game has a move that is not legal")
        white = [int(s) if side == 0 else -int(s) for s, side in zip(out["score"], out["stm"])]
        yield Game(fen, chess960, result / 2, [move_to_uci(int(m), chess960) for m in out["move"]], white)
