"""The position a game starts from, read from what a player types or pastes: nothing (the usual
start, or a random Chess960 one), a Chess960 start number, a FEN, a PGN, or bare moves such as
`e4 e5 Nf3`. A text that does not read is refused with the reason in the player's words, never
in python-chess's: which part of the FEN is wrong, which move does not fit, what makes a position
impossible.
"""

from __future__ import annotations

import io
import random
import re

import chess
import chess.pgn

from jitfish.game import GameError

PIECE_LETTERS = "KQRBNPkqrbnp"
VARIANTS = ("standard", "chess960", "fischerandom", "chess 960", "from position")
# What makes a position impossible, by python-chess's status flags, as a player would say it.
IMPOSSIBLE = {
    chess.STATUS_EMPTY: "the board is empty",
    chess.STATUS_NO_WHITE_KING: "White has no king",
    chess.STATUS_NO_BLACK_KING: "Black has no king",
    chess.STATUS_TOO_MANY_KINGS: "a side has more than one king",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "White has more than 8 pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "Black has more than 8 pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or the last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "White has more than 16 pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "Black has more than 16 pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "the castling rights do not match where the kings and rooks stand",
    chess.STATUS_INVALID_EP_SQUARE: "the en-passant square does not fit the last move",
    chess.STATUS_OPPOSITE_CHECK: "the side that has just moved is in check",
    chess.STATUS_TOO_MANY_CHECKERS: "the king is in check from more pieces than one move can give",
    chess.STATUS_IMPOSSIBLE_CHECK: "no legal move can have given this check",
}
# PGN movetext that is not a move: comments, variations, move numbers, NAGs, results, escapes.
_NOT_MOVES = re.compile(r"\{[^}]*\}|;[^\n]*|\$\d+|\d+\s*\.(?:\s*\.\.)?|\.\.\.|1-0|0-1|1/2-1/2|\*")
_SUFFIX = re.compile(r"[!?]+$")
_SAN_SHAPE = re.compile(r"[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBN])?[+#]?|[O0]-[O0](-[O0])?[+#]?", re.IGNORECASE)


def start_board(text: str, chess960: bool, rng: random.Random) -> chess.Board:
    """The board a game starts from, with the moves of a PGN or of bare moves on its stack.
    `chess960` asks for a random Chess960 start when `text` is empty and reads a FEN's castling
    as Chess960's; a start number (0-959) is a Chess960 start either way. GameError says what
    is wrong."""
    text = text.strip()
    if not text:
        return chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    if text.isdigit():
        number = int(text)
        if not 0 <= number <= 959:
            raise GameError("a Chess960 start number is 0 to 959")
        return chess.Board.from_chess960_pos(number)
    first = text.split()[0]
    if "/" in first and not text.startswith("["):
        return board_from_fen(text, chess960)
    return _board_from_pgn(text, chess960)


def board_from_fen(text: str, chess960: bool = False) -> chess.Board:
    """The position of a FEN; GameError names the part that is wrong."""
    problem = fen_problem(text)
    if problem:
        raise GameError(f"this FEN does not read: {problem}")
    try:
        board = chess.Board(text, chess960=chess960)
    except ValueError:               # fen_problem let through what python-chess refuses
        raise GameError("this FEN does not read: check it part by part (board, turn, castling, "
                        "en passant, the two move counters)") from None
    check_playable(board)
    return board


def fen_problem(text: str) -> str | None:
    """What is wrong with a FEN's six fields, in words; None when they read."""
    parts = text.split()
    if len(parts) > 6:
        return f"it has {len(parts)} parts separated by spaces; a FEN has at most 6"
    ranks = parts[0].split("/")
    if len(ranks) != 8:
        return f"the board needs 8 ranks separated by '/', not {len(ranks)}"
    for index, row in enumerate(ranks):
        squares = 0
        for ch in row:
            if ch.isdigit() and ch not in "09":
                squares += int(ch)
            elif ch in PIECE_LETTERS:
                squares += 1
            else:
                return (f"'{ch}' in rank {8 - index} is neither a piece (KQRBNP for White, kqrbnp for "
                        "Black) nor a count of empty squares (1 to 8)")
        if squares != 8:
            return f"rank {8 - index} ('{row}') has {squares} squares instead of 8"
    if len(parts) > 1 and parts[1] not in ("w", "b"):
        return f"after the board comes whose turn it is, w or b, not '{parts[1]}'"
    if len(parts) > 2 and not re.fullmatch(r"-|[KQkqA-Ha-h]{1,4}", parts[2]):
        return f"the castling rights are '-' or letters such as KQkq, not '{parts[2]}'"
    if len(parts) > 3 and not re.fullmatch(r"-|[a-h][36]", parts[3]):
        return f"the en-passant square is '-' or a square such as e3 or d6, not '{parts[3]}'"
    for index, name in ((4, "the halfmove clock (moves since a capture or pawn move)"), (5, "the move number")):
        if len(parts) > index and not parts[index].isdigit():
            return f"{name} must be a whole number, not '{parts[index]}'"
    return None


def check_playable(board: chess.Board) -> None:
    """GameError when the position cannot occur in a game, saying why."""
    status = board.status()
    if status == chess.STATUS_VALID:
        return
    reasons = [words for flag, words in IMPOSSIBLE.items() if flag & status]
    raise GameError("this position cannot occur in a game: " + ("; ".join(reasons) or "it breaks the rules"))


def _board_from_pgn(text: str, chess960: bool) -> chess.Board:
    """A PGN or bare moves: the start from its tags, then every move of its main line, each one
    checked (python-chess skips what it cannot read; a player wants to hear about it)."""
    game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    if game is None:
        raise GameError("no moves found: paste a FEN, a PGN or moves such as 1. e4 e5 2. Nf3")
    variant = game.headers.get("Variant", "Standard")
    if variant.lower() not in VARIANTS:
        raise GameError(f"the PGN is a {variant} game; only chess and Chess960 are played")
    try:
        board = game.board()
    except ValueError:
        board = None
    if board is None or type(board) is not chess.Board:
        fen = game.headers.get("FEN", "")
        board_from_fen(fen, chess960)               # says what is wrong with the FEN tag
        raise GameError("the PGN's FEN tag does not read")
    if chess960:
        board.chess960 = True
    check_playable(board)
    for token in movetext_tokens(text):
        try:
            board.push_san(token)
        except ValueError:
            if not board.move_stack and not _SAN_SHAPE.fullmatch(token):
                raise GameError(f"'{token}' is neither a FEN nor a move: paste a FEN (it starts with the "
                                "board, such as rnbqkbnr/pppppppp/8/...), a PGN, or moves such as e4 e5 Nf3, "
                                "or a Chess960 start number") from None
            raise GameError(f"{_move_label(board)}: '{token}' is not a legal move there") from None
    return board


class _QuietBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder without its log lines: every move is checked again above."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def movetext_tokens(text: str) -> list[str]:
    """The moves of a PGN's main line as written (tags, comments, variations, move numbers,
    NAGs, results and !? suffixes removed)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("[", "%")))
    body = _strip_variations(body)
    tokens = []
    for token in _NOT_MOVES.sub(" ", body).split():
        token = _SUFFIX.sub("", token)
        if token:
            tokens.append(token)
    return tokens


def _strip_variations(text: str) -> str:
    """The text without its parenthesised variations (nested ones too) and brace comments."""
    out, depth, in_comment = [], 0, False
    for ch in text:
        if in_comment:
            in_comment = ch != "}"
        elif ch == "{":
            in_comment = True
            out.append(" ")
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
            out.append(" ")
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _move_label(board: chess.Board) -> str:
    """`move 2 (White)` for the move about to be made in `board`."""
    return f"move {board.fullmove_number} ({'White' if board.turn == chess.WHITE else 'Black'})"
