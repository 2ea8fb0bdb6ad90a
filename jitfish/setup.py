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
from jitfish.i18n import N_, Moves, Msg, Plural

PIECE_LETTERS = "KQRBNPkqrbnp"
VARIANTS = ("standard", "chess960", "fischerandom", "chess 960", "from position")
# What makes a position impossible, by python-chess's status flags, as a player would say it.
IMPOSSIBLE = {
    chess.STATUS_EMPTY: N_("the board is empty"),
    chess.STATUS_NO_WHITE_KING: N_("White has no king"),
    chess.STATUS_NO_BLACK_KING: N_("Black has no king"),
    chess.STATUS_TOO_MANY_KINGS: N_("a side has more than one king"),
    chess.STATUS_TOO_MANY_WHITE_PAWNS: N_("White has more than 8 pawns"),
    chess.STATUS_TOO_MANY_BLACK_PAWNS: N_("Black has more than 8 pawns"),
    chess.STATUS_PAWNS_ON_BACKRANK: N_("a pawn stands on the first or the last rank"),
    chess.STATUS_TOO_MANY_WHITE_PIECES: N_("White has more than 16 pieces"),
    chess.STATUS_TOO_MANY_BLACK_PIECES: N_("Black has more than 16 pieces"),
    chess.STATUS_BAD_CASTLING_RIGHTS: N_("the castling rights do not match where the kings and rooks stand"),
    chess.STATUS_INVALID_EP_SQUARE: N_("the en-passant square does not fit the last move"),
    chess.STATUS_OPPOSITE_CHECK: N_("the side that has just moved is in check"),
    chess.STATUS_TOO_MANY_CHECKERS: N_("the king is in check from more pieces than one move can give"),
    chess.STATUS_IMPOSSIBLE_CHECK: N_("no legal move can have given this check"),
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
            raise GameError(Msg("a Chess960 start number is 0 to 959"))
        return chess.Board.from_chess960_pos(number)
    first = text.split()[0]
    if "/" in first and not text.startswith("["):
        return board_from_fen(text, chess960)
    return _board_from_pgn(text, chess960)


def board_from_fen(text: str, chess960: bool = False) -> chess.Board:
    """The position of a FEN; GameError names the part that is wrong."""
    problem = fen_problem(text)
    if problem is not None:
        raise GameError(problem)
    try:
        board = chess.Board(text, chess960=chess960)
    except ValueError:               # fen_problem let through what python-chess refuses
        raise GameError(Msg("this FEN does not read: check it part by part (board, turn, castling, "
                            "en passant, the two move counters)")) from None
    check_playable(board)
    return board


def fen_problem(text: str) -> Msg | None:
    """What is wrong with a FEN's six fields, as the whole message the player reads ("this FEN
    does not read: ..."); None when they read."""
    parts = text.split()
    if len(parts) > 6:
        return Plural("this FEN does not read: it has {count} part separated by spaces; a FEN has at most 6",
                      "this FEN does not read: it has {count} parts separated by spaces; a FEN has at most 6",
                      "count", count=len(parts))
    ranks = parts[0].split("/") if parts else [""]
    if len(ranks) != 8:
        return Msg("this FEN does not read: the board needs 8 ranks separated by '/', not {count}",
                   count=len(ranks))
    for index, row in enumerate(ranks):
        squares = 0
        for ch in row:
            if ch.isdigit() and ch not in "09":
                squares += int(ch)
            elif ch in PIECE_LETTERS:
                squares += 1
            else:
                return Msg("this FEN does not read: '{char}' in rank {rank} is neither a piece (KQRBNP for "
                           "White, kqrbnp for Black) nor a count of empty squares (1 to 8)",
                           char=ch, rank=8 - index)
        if squares != 8:
            return Plural("this FEN does not read: rank {rank} ('{row}') has {count} square instead of 8",
                          "this FEN does not read: rank {rank} ('{row}') has {count} squares instead of 8",
                          "count", rank=8 - index, row=row, count=squares)
    if len(parts) > 1 and parts[1] not in ("w", "b"):
        return Msg("this FEN does not read: after the board comes whose turn it is, w or b, not '{text}'",
                   text=parts[1])
    if len(parts) > 2 and not re.fullmatch(r"-|[KQkqA-Ha-h]{1,4}", parts[2]):
        return Msg("this FEN does not read: the castling rights are '-' or letters such as KQkq, "
                   "not '{text}'", text=parts[2])
    if len(parts) > 3 and not re.fullmatch(r"-|[a-h][36]", parts[3]):
        return Msg("this FEN does not read: the en-passant square is '-' or a square such as e3 or d6, "
                   "not '{text}'", text=parts[3])
    if len(parts) > 4 and not parts[4].isdigit():
        return Msg("this FEN does not read: the halfmove clock (moves since a capture or pawn move) "
                   "must be a whole number, not '{text}'", text=parts[4])
    if len(parts) > 5 and not parts[5].isdigit():
        return Msg("this FEN does not read: the move number must be a whole number, not '{text}'",
                   text=parts[5])
    return None


def check_playable(board: chess.Board) -> None:
    """GameError when the position cannot occur in a game, saying why."""
    status = board.status()
    if status == chess.STATUS_VALID:
        return
    reasons = [Msg(words) for flag, words in IMPOSSIBLE.items() if flag & status]
    reasons = reasons or [Msg("it breaks the rules")]
    listed = reasons[-1]
    for reason in reversed(reasons[:-1]):
        # Translators: two or more reasons a position cannot occur, one after the other
        listed = Msg("{first}; {rest}", first=reason, rest=listed)
    raise GameError(Msg("this position cannot occur in a game: {reasons}", reasons=listed))


def _board_from_pgn(text: str, chess960: bool) -> chess.Board:
    """A PGN or bare moves: the start from its tags, then every move of its main line, each one
    checked (python-chess skips what it cannot read; a player wants to hear about it)."""
    game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    if game is None:
        raise GameError(Msg("no moves found: paste a FEN, a PGN or moves such as {example}",
                            example=Moves("1. e4 e5 2. Nf3")))
    variant = game.headers.get("Variant", "Standard")
    if variant.lower() not in VARIANTS:
        raise GameError(Msg("the PGN is a {variant} game; only chess and Chess960 are played",
                            variant=variant))
    try:
        board = game.board()
    except ValueError:
        board = None
    if board is None or type(board) is not chess.Board:
        fen = game.headers.get("FEN", "")
        board_from_fen(fen, chess960)               # says what is wrong with the FEN tag
        raise GameError(Msg("the PGN's FEN tag does not read"))
    if chess960:
        board.chess960 = True
    check_playable(board)
    for token in movetext_tokens(text):
        try:
            board.push_san(token)
        except ValueError:
            if not board.move_stack and not _SAN_SHAPE.fullmatch(token):
                raise GameError(Msg("'{token}' is neither a FEN nor a move: paste a FEN (it starts with the "
                                    "board, such as rnbqkbnr/pppppppp/8/...), a PGN, or moves such as "
                                    "{example}, or a Chess960 start number",
                                    token=token, example=Moves("e4 e5 Nf3"))) from None
            raise GameError(_not_legal_there(board, token)) from None
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


def _not_legal_there(board: chess.Board, token: str) -> Msg:
    """"move 2 (White): 'Ke3' is not a legal move there", for the move about to be made in `board`."""
    if board.turn == chess.WHITE:
        return Msg("move {number} (White): '{token}' is not a legal move there",
                   number=board.fullmove_number, token=Moves(token))
    return Msg("move {number} (Black): '{token}' is not a legal move there",
               number=board.fullmove_number, token=Moves(token))
