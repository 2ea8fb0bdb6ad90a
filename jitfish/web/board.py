"""A position as the page sees it, for the game, the review's exercises and the analysis board:
the legal moves by the squares the page drags between, a drag made into a legal move, the
material each side is up, and where a pre-move may go. The page knows no chess; this module is
what it is told.
"""

from __future__ import annotations

from typing import Any

import chess

from jitfish.game import GameError, landing_square
from jitfish.i18n import Msg
from jitfish.review import PIECE_CP

Targets = dict[tuple[int, int], list[chess.Move]]
PROMOTION_PIECES = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
MATERIAL_ORDER = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def drag_targets(board: chess.Board) -> Targets:
    """Legal moves by (from square, to square) as the page drags them: castling both by the
    king's destination and by moving the king onto its rook (a king move to the same square wins
    over castling there); promotions list one move per piece."""
    found: Targets = {}
    castles = []
    for move in board.legal_moves:
        if board.is_castling(move):
            castles.append(move)
        else:
            found.setdefault((move.from_square, move.to_square), []).append(move)
    for move in castles:
        kingside = board.is_kingside_castling(move)
        rank = chess.square_rank(move.from_square)
        king_to = chess.square(6 if kingside else 2, rank)
        rook = move.to_square if board.chess960 else chess.square(7 if kingside else 0, rank)
        for square in (rook, king_to):
            if square != move.from_square and (move.from_square, square) not in found:
                found[(move.from_square, square)] = [move]
    return found


def drag_squares(origin: Any, target: Any) -> tuple[chess.Square, chess.Square]:
    """The two squares of the page's drag; GameError unless both are square names."""
    try:
        return chess.parse_square(origin), chess.parse_square(target)
    except (ValueError, TypeError):
        raise GameError(Msg("a move needs two squares such as e2 and e4")) from None


def resolve_drag(board: chess.Board, origin: Any, target: Any, promotion: Any = None) -> chess.Move:
    """The legal move from the page's drag (square names and a piece letter for a promotion)."""
    a, b = drag_squares(origin, target)
    moves = drag_targets(board).get((a, b))
    if not moves:
        raise GameError(Msg("{origin}-{target} is not a legal move", origin=str(origin), target=str(target)))
    if len(moves) == 1 and moves[0].promotion is None:
        return moves[0]
    piece = PROMOTION_PIECES.get(promotion.lower() if isinstance(promotion, str) else "")
    for move in moves:
        if move.promotion == piece:
            return move
    raise GameError(Msg("choose the piece to promote to (q, r, b or n)"))


def legal_json(board: chess.Board) -> tuple[dict[str, list[str]], list[str]]:
    """The page's legal moves ({from: [to, ...]}) and the drags that promote (`e7e8`)."""
    legal: dict[str, list[str]] = {}
    promotions = []
    for (a, b), moves in drag_targets(board).items():
        legal.setdefault(chess.square_name(a), []).append(chess.square_name(b))
        if moves[0].promotion is not None:
            promotions.append(chess.square_name(a) + chess.square_name(b))
    return legal, promotions


def arrow(board: chess.Board, move: chess.Move) -> dict[str, str]:
    """A move as the page draws it: from its square to where the piece lands (a castling king's
    own square), with its UCI and SAN."""
    return {"from": chess.square_name(move.from_square),
            "to": chess.square_name(landing_square(move, board.is_castling(move))),
            "uci": move.uci(), "san": board.san(move)}


def check_square(board: chess.Board) -> str | None:
    """The square of the king in check, if any."""
    king = board.king(board.turn) if board.is_check() else None
    return chess.square_name(king) if king is not None else None


def material_json(board: chess.Board) -> dict[str, Any]:
    """What each side is up: the pieces it has more of than the other (as FEN letters of the
    pieces taken from the opponent, strongest first) and the balance for White in pawns."""
    ahead: dict[str, list[str]] = {"white": [], "black": []}
    balance = 0
    for piece in MATERIAL_ORDER:
        difference = len(board.pieces(piece, chess.WHITE)) - len(board.pieces(piece, chess.BLACK))
        balance += difference * PIECE_CP[piece]
        side, letter = ("white", chess.piece_symbol(piece)) if difference > 0 else ("black", chess.piece_symbol(piece).upper())
        ahead[side] += [letter] * abs(difference)
    return {"white": ahead["white"], "black": ahead["black"], "balance": round(balance / PIECE_CP[chess.PAWN])}


def premove_targets(board: chess.Board, colour: chess.Color) -> dict[str, list[str]]:
    """Where each of `colour`'s pieces may be pre-moved while the opponent thinks: every square
    its piece could reach on the board as it may be after the opponent's move (slides as on an
    empty board, pawns forward and diagonally, castling while the rights last). Legality is
    checked when the pre-move is played."""
    targets: dict[str, list[str]] = {}
    forward = 8 if colour == chess.WHITE else -8
    start_rank = 1 if colour == chess.WHITE else 6
    for square in chess.SquareSet(board.occupied_co[colour]):
        piece = board.piece_type_at(square)
        reach = chess.SquareSet()
        if piece == chess.PAWN:
            ahead = square + forward
            if 0 <= ahead < 64:
                reach.add(ahead)
                reach |= chess.SquareSet(chess.BB_PAWN_ATTACKS[colour][square])
                if chess.square_rank(square) == start_rank:
                    reach.add(ahead + forward)
        elif piece == chess.KNIGHT:
            reach = chess.SquareSet(chess.BB_KNIGHT_ATTACKS[square])
        elif piece == chess.KING:
            reach = chess.SquareSet(chess.BB_KING_ATTACKS[square])
            for rook in chess.SquareSet(board.clean_castling_rights() & board.occupied_co[colour]):
                reach.add(rook)
                reach.add(chess.square(6 if rook > square else 2, chess.square_rank(square)))
        else:
            empty = chess.Board.empty()
            empty.set_piece_at(square, chess.Piece(piece, colour))
            reach = empty.attacks(square)
        reach.discard(square)
        if reach:
            targets[chess.square_name(square)] = [chess.square_name(s) for s in reach]
    return targets
