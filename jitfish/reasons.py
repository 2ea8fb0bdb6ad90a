"""Why a move is bad, in one sentence that is true, from one account of what happened.

The account: the move played followed by the engine's line after it, and the best move followed
by its line, each played out LINE_PLIES plies past its first move and then resolved by a search
of captures only (a static exchange, as far as it goes), with every piece followed by identity.
Material is counted in piece values (pawn 1, knight and bishop 3, rook 5, queen 9): a bishop for
a knight is even. Within a line, a gain is paired with a loss of the same value, on the same
square first, else the nearest, so an exchange and its recapture cancel; a piece that the played
move and the best move both take is no difference between them.

What is said, in this order: a mate the move allows, a mate the best move had, a stalemate that
throws a win away; then, when the material of the two lines differs and that difference explains
the evaluation's drop, either what the move loses (a piece named on the square where it stands
after the move, with the move that takes it, the line that brings it there, or the fork, trap or
pin that wins it; a promotion it allows) or what the best move wins (counted against what it
gives up, a piece lost either way counting nothing; a promotion). When no such reason is
certain, the drop in the evaluation, nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import chess

from jitfish.i18n import N_, NP_, Moves, Msg, Plural, PMsg
from jitfish.review import BLUNDER_CP, DECISIVE_CP, Evaluation, Verdict, clamp, pawns_text
from search.driver import mate_moves

LINE_PLIES = 8                    # plies of the engine's line followed after the line's first move
EXCHANGE_PLIES = 8                # captures the resolving search may play at the end of a line
EXCHANGE_NODES = 4000             # and the positions it may visit (python-chess is slow)
SHOWN_PLIES = 8                   # longest line quoted in a reason (a loss later than that is not said)
BETTER_PLIES = 4                  # the better move's line quoted where no concrete reason is certain
LOST_CP = 500                     # a position this far down is lost already: allowing mate there is no blunder
MISSED_PLIES = 2                  # a win the best move misses comes by the mover's next move
                                  # (a promotion: within SHOWN_PLIES)
PAWN_PLIES = 4                    # a pawn the move loses goes by the opponent's second move
SETTLES_PLIES = 2                 # a line shown goes on this far for an exchange to settle
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
MATERIAL_CP = 100                 # a material reason needs at least a pawn...
EXPLAINS = 0.5                    # ...and must account for this share of the evaluation's drop
OVERSTATES_CP = 200               # material may exceed twice the drop by this much, no more
# The words of the sentences. Each sentence is one message with named placeholders; a piece's name
# fills a placeholder in the form its place in the sentence needs, chosen by a context: "object"
# (the piece lost, trapped, pinned or forked: "loses the {piece} on {square}") and "instrument"
# (the piece a capture is made with: "takes with the {piece}").
OBJECT = {chess.PAWN: PMsg("object", "pawn"), chess.KNIGHT: PMsg("object", "knight"),
          chess.BISHOP: PMsg("object", "bishop"), chess.ROOK: PMsg("object", "rook"),
          chess.QUEEN: PMsg("object", "queen"), chess.KING: PMsg("object", "king")}
INSTRUMENT = {chess.PAWN: PMsg("instrument", "pawn"), chess.KNIGHT: PMsg("instrument", "knight"),
              chess.BISHOP: PMsg("instrument", "bishop"), chess.ROOK: PMsg("instrument", "rook"),
              chess.QUEEN: PMsg("instrument", "queen"), chess.KING: PMsg("instrument", "king")}
# A number of pieces of one kind: "a rook", "two pawns" (the count as a word in English).
COUNTED = {chess.PAWN: NP_("a pawn", "{count} pawns"), chess.KNIGHT: NP_("a knight", "{count} knights"),
           chess.BISHOP: NP_("a bishop", "{count} bishops"), chess.ROOK: NP_("a rook", "{count} rooks"),
           chess.QUEEN: NP_("a queen", "{count} queens"), chess.KING: NP_("a king", "{count} kings")}
NUMBERS = {2: PMsg("number of pieces", "two"), 3: PMsg("number of pieces", "three"),
           4: PMsg("number of pieces", "four"), 5: PMsg("number of pieces", "five"),
           6: PMsg("number of pieces", "six"), 7: PMsg("number of pieces", "seven"),
           8: PMsg("number of pieces", "eight")}


# ---- the account: a line played out, every piece followed ----------------------------------------


@dataclass
class Fate:
    """What a line did to one piece of its first position: its kind there, its kind at the end
    (None: taken), the index in the line of the move that took or promoted it, and that move."""
    ident: int
    colour: chess.Color
    start: chess.PieceType
    end: chess.PieceType | None
    ply: int = -1
    move: chess.Move | None = None

    def delta(self, side: chess.Color) -> int:
        """The change in `side`'s material this piece made, in pawns."""
        change = (VALUE[self.end] if self.end is not None else 0) - VALUE[self.start]
        return change if self.colour == side else -change

    @property
    def changed(self) -> bool:
        return self.end != self.start


@dataclass
class Account:
    """A line from a position played out: its moves (the engine's, then the resolving captures),
    the boards before each of them, and the fate of every piece."""
    start: chess.Board
    moves: list[chess.Move] = field(default_factory=list)
    boards: list[chess.Board] = field(default_factory=list)
    fates: dict[int, Fate] = field(default_factory=dict)
    where: list[dict[int, int]] = field(default_factory=list)   # per position: identity -> square

    def net(self, side: chess.Color) -> int:
        return sum(f.delta(side) for f in self.fates.values())

    def square_of(self, ident: int, ply: int) -> int | None:
        """Where the piece stands before move `ply` (None when it is gone)."""
        for square, who in self.where[ply].items():
            if who == ident:
                return square
        return None

    def mover_of(self, ply: int) -> int:
        """The identity of the piece that makes move `ply`."""
        return self.where[ply][self.moves[ply].from_square]

    def san(self, ply: int) -> str:
        return self.boards[ply].san(self.moves[ply])


def account(position: chess.Board, line: Sequence[chess.Move], plies: int) -> Account:
    """Play the first `plies` legal moves of `line` from `position`, then the captures a static
    exchange search finds there, following every piece."""
    board = position.copy(stack=False)
    where = {square: index for index, square in enumerate(sorted(board.piece_map()))}
    result = Account(position.copy(stack=False), where=[dict(where)])
    for square, ident in where.items():
        piece = board.piece_at(square)
        result.fates[ident] = Fate(ident, piece.color, piece.piece_type, piece.piece_type)
    for move in line[:plies]:
        if not board.is_legal(move):
            break
        _play(result, board, move)
    for move in exchange(board):
        _play(result, board, move)
    return result


def _play(result: Account, board: chess.Board, move: chess.Move) -> None:
    """Play `move`, moving identities with it and recording a capture or a promotion."""
    where = dict(result.where[-1])
    ply = len(result.moves)
    result.boards.append(board.copy(stack=False))
    result.moves.append(move)
    taken_square = None
    if board.is_en_passant(move):
        taken_square = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
    elif board.is_capture(move):
        taken_square = move.to_square
    castling = board.is_castling(move)
    colour = board.turn
    rooks = set(board.pieces(chess.ROOK, colour)) if castling else set()
    mover = where.pop(move.from_square)
    if taken_square is not None:
        taken = where.pop(taken_square)
        fate = result.fates[taken]
        fate.end, fate.ply, fate.move = None, ply, move
    board.push(move)
    if castling:
        now = set(board.pieces(chess.ROOK, colour))
        gone, arrived = rooks - now, now - rooks
        if gone and arrived:
            where[arrived.pop()] = where.pop(gone.pop())
        where[board.king(colour)] = mover
    else:
        where[move.to_square] = mover
    if move.promotion:
        fate = result.fates[mover]
        fate.end, fate.ply, fate.move = move.promotion, ply, move
    result.where.append(where)


def exchange(board: chess.Board) -> list[chess.Move]:
    """The captures (and promotions) that the side to move, then each side in turn, gains most
    material by, each free to stop at any point: the end of a line resolved."""
    budget = [EXCHANGE_NODES]
    _, line = _exchange(board.copy(stack=False), -100, 100, EXCHANGE_PLIES, budget)
    return line


def _gain(board: chess.Board, move: chess.Move) -> int:
    taken = board.piece_type_at(move.to_square) if not board.is_en_passant(move) else chess.PAWN
    gain = VALUE[taken] if taken else 0
    return gain + (VALUE[move.promotion] - 1 if move.promotion else 0)


def _exchange(board: chess.Board, alpha: int, beta: int, depth: int,
              budget: list[int]) -> tuple[int, list[chess.Move]]:
    best, line = 0, []                     # stopping here: nothing more gained
    if best >= beta or depth == 0 or budget[0] <= 0:
        return best, line
    alpha = max(alpha, best)
    budget[0] -= 1
    moves = [m for m in board.generate_legal_moves()
             if board.is_capture(m) or m.promotion == chess.QUEEN]
    moves.sort(key=lambda m: (-_gain(board, m), VALUE[board.piece_type_at(m.from_square)]))
    for move in moves:
        gain = _gain(board, move)
        board.push(move)
        reply, rest = _exchange(board, gain - beta, gain - alpha, depth - 1, budget)
        board.pop()
        score = gain - reply
        if score > best:
            best, line = score, [move] + rest
            alpha = max(alpha, score)
            if best >= beta:
                break
    return best, line


# ---- comparing the two accounts ---------------------------------------------------------------


@dataclass
class Ledger:
    """One line's material events for the mover, after pairing: the losses and gains that no
    event of the same value in the same line makes up for, each (fate, value)."""
    losses: list[Fate]
    gains: list[Fate]


def ledger(line: Account, side: chess.Color, common: set[int]) -> Ledger:
    """The unpaired losses and gains of `side` in `line`, identities in `common` left out. A gain
    is paired with the loss of the same value nearest to it in the line (an exchange and its
    recapture are next to each other)."""
    events = sorted((f for f in line.fates.values() if f.changed and f.ident not in common),
                    key=lambda f: f.ply)
    losses = [f for f in events if f.delta(side) < 0]
    gains = [f for f in events if f.delta(side) > 0]
    for gain in list(gains):
        matches = [loss for loss in losses if -loss.delta(side) == gain.delta(side)]
        if matches:    # on the same square first (an exchange there), then the nearest, the later
            losses.remove(min(matches, key=lambda loss: (_square(loss) != _square(gain),
                                                         abs(loss.ply - gain.ply), -loss.ply)))
            gains.remove(gain)
    return Ledger(losses, gains)


def _square(fate: Fate) -> int | None:
    """Where the move that decided a piece's fate went."""
    return fate.move.to_square if fate.move is not None else None


def worth(fates: Sequence[Fate], side: chess.Color) -> int:
    return sum(abs(f.delta(side)) for f in fates)


def _piece_words(kinds: Sequence[chess.PieceType]) -> Msg:
    """`a rook`, `two pawns`, `a knight and a pawn`, strongest first."""
    counts: dict[chess.PieceType, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = []
    for kind in sorted(counts, key=lambda k: -VALUE[k]):
        n = counts[kind]
        one, many = COUNTED[kind]
        parts.append(Plural(one, many, "n", n=n, count=NUMBERS.get(n, str(n))))
    return listing(parts)


def listing(parts: Sequence[object]) -> object:
    """`A`, `A and B`, `A, B and C`: a list said as the language joins one (one message a length)."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return Msg("{first} and {second}", first=parts[0], second=parts[1])
    text = Msg("{first}, {second} and {third}", first=parts[-3], second=parts[-2], third=parts[-1])
    for part in reversed(parts[:-3]):
        text = Msg("{first}, {rest}", first=part, rest=text)
    return text


def _material_words(fates: Sequence[Fate]) -> Msg:
    """What a list of pieces taken amounts to: `a rook`, `two pawns`."""
    return _piece_words([f.start for f in fates])


def numbered_line(board: chess.Board, moves: Sequence[chess.Move]) -> str:
    """`17. a3 Nd3 18. cxd3` (`17... Nd3 18. cxd3` from a black move) from `board`."""
    board = board.copy(stack=False)
    words = []
    for index, move in enumerate(moves):
        if board.turn == chess.WHITE:
            words.append(f"{board.fullmove_number}.")
        elif index == 0:
            words.append(f"{board.fullmove_number}...")
        words.append(board.san(move))
        board.push(move)
    return " ".join(words)


def fork_targets(board: chess.Board, square: int) -> list[int]:
    """The pieces the piece on `square` attacks that its side would win if they were left: the
    king (a check), a piece worth more than the attacker or undefended (a pawn is no target).
    Strongest first."""
    attacker = board.piece_at(square)
    targets = []
    for target in board.attacks(square):
        piece = board.piece_at(target)
        if piece is None or piece.color == attacker.color:
            continue
        if piece.piece_type == chess.PAWN:
            continue
        if piece.piece_type == chess.KING or VALUE[piece.piece_type] > VALUE[attacker.piece_type] \
                or not board.is_attacked_by(piece.color, target):
            targets.append(target)
    return sorted(targets, key=lambda t: (board.piece_type_at(t) != chess.KING,
                                          -VALUE[board.piece_type_at(t)]))


def _fork_words(board: chess.Board, targets: Sequence[int], move: object, story: str) -> Msg:
    """`allows Nc7+, forking the king and the rook on a8` (story "allows") or `misses ..., forking
    the queen on d8 and the rook on a8` (story "misses"): the two pieces attacked, the king first."""
    first, second = targets[:2]
    kind, other = board.piece_type_at(first), board.piece_type_at(second)
    args = dict(move=move, piece=OBJECT[other], square=chess.square_name(second))
    if kind == chess.KING:
        template = N_("allows {move}, forking the king and the {piece} on {square}") if story == "allows" else \
            N_("misses {move}, forking the king and the {piece} on {square}")
        return Msg(template, **args)
    template = N_("allows {move}, forking the {first_piece} on {first_square} and the {piece} on {square}") \
        if story == "allows" else \
        N_("misses {move}, forking the {first_piece} on {first_square} and the {piece} on {square}")
    return Msg(template, first_piece=OBJECT[kind], first_square=chess.square_name(first), **args)


# What a move does to a piece it wins by force, as `_fork` and `_trap` find it: the story of the
# sentence ("allows" the move, or "misses" it), then the kind of win.
WINS = {("allows", "trap"): N_("allows {move}, trapping the {piece} on {square}"),
        ("allows", "pin"): N_("allows {move}, pinning the {piece} on {square}"),
        ("allows", "pinned"): N_("allows {move}, winning the pinned {piece} on {square}"),
        ("misses", "trap"): N_("misses {move}, trapping the {piece} on {square}"),
        ("misses", "pin"): N_("misses {move}, pinning the {piece} on {square}"),
        ("misses", "pinned"): N_("misses {move}, winning the pinned {piece} on {square}")}


def _fork(line: Account, ply: int, victim: Fate) -> tuple | None:
    """`forking the king and the rook on a8` when move `ply` of `line` attacks two pieces worth
    winning, `victim` among them, and the same piece takes `victim` later in the line."""
    if victim.move is None or not ply < victim.ply <= ply + 2 \
            or line.mover_of(victim.ply) != line.mover_of(ply):
        return None
    board = line.boards[ply + 1] if ply + 1 < len(line.boards) else None
    if board is None:
        board = line.boards[ply].copy(stack=False)
        board.push(line.moves[ply])
    targets = fork_targets(board, line.moves[ply].to_square)
    square = line.square_of(victim.ident, ply + 1)
    if len(targets) < 2 or square not in targets:
        return None
    shown = [t for t in targets if board.piece_type_at(t) == chess.KING][:1] + [square]
    if len(shown) < 2:
        shown = [t for t in targets if t != square][:1] + [square]
    return ("fork", board, shown)


def see(board: chess.Board, move: chess.Move) -> int:
    """What the capture `move` gains once the recaptures on its square are through, the cheapest
    piece first, each side free to stop (a static exchange, in pawns)."""
    board = board.copy(stack=False)
    gain = _gain(board, move)
    board.push(move)
    return gain - _recaptures(board, move.to_square)


def _recaptures(board: chess.Board, square: int) -> int:
    takes = [m for m in board.generate_legal_captures() if m.to_square == square]
    if not takes:
        return 0
    move = min(takes, key=lambda m: VALUE[board.piece_type_at(m.from_square)] or 100)
    gain = _gain(board, move)
    board.push(move)
    return max(0, gain - _recaptures(board, square))


def _won_there(board: chess.Board, square: int) -> bool:
    """Whether the side to move wins material by taking on `square`."""
    return any(see(board, m) > 0 for m in board.generate_legal_captures() if m.to_square == square)


def _en_prise(board: chess.Board, square: int | None) -> bool:
    """Whether the piece on `square` could be taken at a profit if its opponent were to move."""
    if square is None:
        return False
    threat = board.copy(stack=False)
    threat.turn, threat.ep_square = not board.piece_at(square).color, None
    return not threat.was_into_check() and _won_there(threat, square)


def trapped(board: chess.Board, square: int) -> bool:
    """Whether the piece on `square`, its side to move, is attacked so that taking it wins, and
    every move it has goes where taking it wins too (or trades it for less)."""
    piece = board.piece_at(square)
    if piece is None or piece.color != board.turn or piece.piece_type in (chess.PAWN, chess.KING) \
            or board.is_check():
        return False
    threat = board.copy(stack=False)
    threat.turn, threat.ep_square = not board.turn, None
    if threat.is_check() or not _won_there(threat, square):
        return False
    for move in board.generate_legal_moves(chess.BB_SQUARES[square]):
        if board.is_capture(move) and see(board, move) >= 0:
            return False
        after = board.copy(stack=False)
        after.push(move)
        if not _won_there(after, move.to_square):
            return False
    return True


def _trap(line: Account, ply: int, victim: Fate) -> tuple | None:
    """`trapping the knight on b4` when move `ply` of `line` attacks `victim`, which then has no
    safe square, and the line wins it later (`pinning the rook on d6` when the move pins it to
    its king, `winning the pinned knight on e5` when it was pinned already)."""
    if victim.move is None or victim.ply <= ply + 1 or ply + 2 > len(line.boards):
        return None
    board = line.boards[ply + 1] if ply + 1 < len(line.boards) else None
    if board is None:
        return None
    square = line.square_of(victim.ident, ply + 1)
    if square is None or square not in board.attacks(line.moves[ply].to_square) or not trapped(board, square):
        return None
    if not board.is_pinned(board.turn, square):
        return ("trap", victim.start, square)
    if board.pin(board.turn, square) & chess.BB_SQUARES[line.moves[ply].to_square]:
        return ("pin", victim.start, square)
    return ("pinned", victim.start, square)


def _win_words(found: tuple, move: object, story: str) -> Msg:
    """The sentence for a fork, trap or pin that `_fork` or `_trap` found, `move` allowed or missed."""
    if found[0] == "fork":
        return _fork_words(found[1], found[2], move, story)
    kind, piece, square = found
    return Msg(WINS[story, kind], move=move, piece=OBJECT[piece], square=chess.square_name(square))


# ---- the sentence -------------------------------------------------------------------------------


def reason(position: chess.Board, played: chess.Move, verdict: Verdict, after: Evaluation) -> Msg:
    """One sentence on why the move `played` in `position` is worse than the engine's best
    (`verdict`; `after`: the engine's view of the position after the move): the concrete cause
    when one is certain, else the better move with its line and the evaluations."""
    return cause(position, played, verdict, after) or better_move(position, verdict)


def better_move(position: chess.Board, verdict: Verdict) -> Msg:
    """`better was Rb8 (37... Rb8 38. Rxg7 Rxg7): the evaluation drops from −0.8 to −2.1 for
    Black`: the engine's move and the start of its line, where no concrete reason is certain (the
    drop alone when there is no better move to name)."""
    if verdict.best is None:
        return evaluation_drop(verdict, position.turn)
    line = Moves(numbered_line(position, _legal_prefix(position, verdict.line[:BETTER_PLIES])))
    template = N_("better was {move} ({line}); the evaluation drops from {before} to {after} for White") \
        if position.turn == chess.WHITE else \
        N_("better was {move} ({line}); the evaluation drops from {before} to {after} for Black")
    return Msg(template, move=Moves(position.san(verdict.best)), line=line,
               before=pawns_text(clamp(verdict.best_score)), after=pawns_text(clamp(verdict.played_score)))


def evaluation_drop(verdict: Verdict, mover: chess.Color) -> Msg:
    """`the evaluation drops from +0.4 to −0.9 for White` (the mover's view, in pawns)."""
    template = N_("the evaluation drops from {before} to {after} for White") if mover == chess.WHITE else \
        N_("the evaluation drops from {before} to {after} for Black")
    return Msg(template, before=pawns_text(clamp(verdict.best_score)), after=pawns_text(clamp(verdict.played_score)))


def cause(position: chess.Board, played: chess.Move, verdict: Verdict, after: Evaluation) -> Msg | None:
    """The concrete reason the move is worse, None when none is certain: a mate it allows or
    misses, a stalemate instead of a win, the material it loses or the best move wins."""
    board = position.copy(stack=False)
    board.push(played)
    best_san = Moves(position.san(verdict.best) if verdict.best is not None else "")
    best_mate, played_mate = mate_moves(verdict.best_score), mate_moves(verdict.played_score)
    if played_mate is not None and played_mate < 0:
        refutation = _legal_prefix(board, after.pv[:1])
        moves = -played_mate
        if verdict.best_score <= -LOST_CP and (verdict.judgement is None or verdict.judgement.threshold < BLUNDER_CP):
            # Marked less than a blunder only because the game was lost anyway: the words say so.
            before = pawns_text(clamp(verdict.best_score))
            if refutation and moves == 1:
                return Msg("allows mate in 1 ({move}), in a position already lost ({before})",
                           move=Moves(board.san(refutation[0])), before=before)
            if refutation:
                return Plural("allows mate in {n}, starting with {move}, in a position already lost ({before})",
                              "allows mate in {n}, starting with {move}, in a position already lost ({before})",
                              "n", n=moves, move=Moves(board.san(refutation[0])), before=before)
            return Plural("allows mate in {n}, in a position already lost ({before})",
                          "allows mate in {n}, in a position already lost ({before})", "n", n=moves, before=before)
        if refutation and moves == 1:
            return Msg("allows mate in 1 ({move})", move=Moves(board.san(refutation[0])))
        if refutation:
            return Plural("allows mate in {n}, starting with {move}", "allows mate in {n}, starting with {move}", "n",
                          n=moves, move=Moves(board.san(refutation[0])))
        return Plural("allows mate in {n}", "allows mate in {n}", "n", n=moves)
    if board.is_stalemate() and verdict.best_score > 0:
        return Msg("stalemates the king: a draw where {move} kept the win", move=best_san)
    if best_mate is not None and best_mate > 0 and (played_mate is None or played_mate <= 0):
        if verdict.played_score >= LOST_CP and (verdict.judgement is None or verdict.judgement.threshold < BLUNDER_CP):
            # Marked less than a blunder because the move still wins: the words say so.
            return Plural("misses mate in {n} with {move}, though the position stays won ({after})",
                          "misses mate in {n} with {move}, though the position stays won ({after})", "n",
                          n=best_mate, move=best_san, after=pawns_text(clamp(verdict.played_score)))
        return Plural("misses mate in {n} with {move}", "misses mate in {n} with {move}", "n", n=best_mate,
                      move=best_san)
    return material_reason(position, played, verdict, after)


def _legal_prefix(board: chess.Board, moves: Sequence[chess.Move]) -> list[chess.Move]:
    board = board.copy(stack=False)
    legal = []
    for move in moves:
        if not board.is_legal(move):
            break
        legal.append(move)
        board.push(move)
    return legal


def material_reason(position: chess.Board, played: chess.Move, verdict: Verdict,
                    after: Evaluation) -> Msg | None:
    """What the move loses or the best move wins in material, when that is the point; None when
    the two lines' material does not explain the evaluation's drop."""
    if verdict.best is None:
        return None
    mover = position.turn
    mine = account(position, (played,) + tuple(after.pv), LINE_PLIES + 1)
    best = account(position, verdict.line, LINE_PLIES + 1)
    difference = best.net(mover) - mine.net(mover)
    loss = min(verdict.loss, DECISIVE_CP)        # a win thrown into a loss needs a decisive reason, no more
    raw = verdict.best_score - verdict.played_score
    if difference * 100 < max(MATERIAL_CP, EXPLAINS * loss) or difference * 100 > 2 * raw + OVERSTATES_CP:
        return None
    # A piece that the played move and the best move both take is no difference between them.
    common = {i for i, f in mine.fates.items() if f.changed and f.ply == 0 and best.fates[i].ply == 0}
    played_ledger, best_ledger = ledger(mine, mover, common), ledger(best, mover, common)
    # A piece already en prise that the best line gives up for less than its worth, and the played
    # line loses too, is lost either way: it is no loss of the played move's, and what the best
    # line got for it is won.
    free = [f for f in best_ledger.losses if mine.fates[f.ident].delta(mover) < 0
            and _en_prise(position, best.square_of(f.ident, 0))]
    free_ids = {f.ident for f in free}
    # A loss the better move suffers too (lost in its line with nothing of the same value back) is
    # not the reason (issue 72: 36...Rg8? "loses the rook on b6" when the best line loses that rook
    # as well), nor a win the move played makes too.
    both = ({f.ident for f in played_ledger.losses} & {f.ident for f in best_ledger.losses}) | \
        ({f.ident for f in played_ledger.gains} & {f.ident for f in best_ledger.gains})
    lost = [f for f in played_ledger.losses if f.ident not in free_ids and f.ident not in both
            and f.ply <= (PAWN_PLIES if f.start == chess.PAWN and f.colour == mover else SHOWN_PLIES)]
    won = [f for f in best_ledger.gains if f.ident not in both
           and (f.ply <= MISSED_PLIES or (f.colour == mover and f.ply <= SHOWN_PLIES))]
    costs = [f for f in best_ledger.losses if f not in free]
    loses = worth(lost, mover) - worth(played_ledger.gains, mover)
    wins = worth(won, mover) - worth(costs, mover)
    if lost and loses >= 1 and loses > wins:
        story, size = "loses", loses
    elif won and wins >= 1:
        story, size = "misses", wins
    else:
        return None
    told = max(loses, 0) + max(wins, 0)          # the two stories together, the larger one said
    if size * 100 < EXPLAINS * loss or 2 * told < difference or size * 100 > 2 * raw + OVERSTATES_CP:
        return None
    if story == "loses" and max((VALUE[f.start] for f in best_ledger.losses if f.colour == mover), default=0) \
            >= max(VALUE[f.start] for f in lost):
        # The better move gives up a piece as heavy in its own line: the loss is no difference
        # between them (issue 72: 36...Rg8? "loses the rook on b6" where the best line loses the
        # rook on f8 instead, the material ending the same). Not the reason.
        return None
    if story == "loses":
        return _loses(mine, lost, played_ledger.gains, mover, best)
    return _misses(best, won, costs, mover)


def _loses(line: Account, lost: list[Fate], gains: list[Fate], mover: chess.Color, best: Account) -> Msg:
    """`loses the knight on f5 to exf5`, `allows Nc7+, forking the king and the rook on a8`,
    `loses the pawn on d5 (18. Bxf6 Bxf6 19. Qxd5)`, `takes with the bishop, which Qxd4 wins; Rxd4
    takes safely`, `allows a1=Q`."""
    lost = sorted(lost, key=lambda f: (-abs(f.delta(mover)), f.ply))
    first, others = lost[0], lost[1:]
    after = line.boards[1]
    if first.colour != mover:                          # the opponent promotes
        if first.ply == 1:
            return Msg("allows {move}", move=Moves(line.san(1)))
        file = chess.FILE_NAMES[chess.square_file(first.move.from_square)]
        return Msg("allows the {file}-pawn to promote ({line})", file=file,
                   line=Moves(numbered_line(after, line.moves[1:first.ply + 1])))
    square = line.square_of(first.ident, 1)
    if first.ply == 1 and first.ident == line.mover_of(0) and line.boards[0].is_capture(line.moves[0]) \
            and best.moves and best.moves[0].to_square == line.moves[0].to_square:
        back = [g for g in gains if g.ply <= 2]
        args = dict(piece=INSTRUMENT[first.start], move=Moves(line.san(1)), best=Moves(best.san(0)))
        if back:
            return Msg("takes with the {piece}, which {move} wins for {material}; {best} takes safely",
                       material=_material_words(back), **args)
        return Msg("takes with the {piece}, which {move} wins; {best} takes safely", **args)
    pieces: list[Fate] = []
    if first.start == chess.PAWN:                      # pawns only: each named where it stands
        said = sorted([first] + [f for f in others if f.colour == mover][:2], key=lambda f: f.ply)
    else:                                              # the piece named, other pieces counted
        pieces = [f for f in others if f.start != chess.PAWN and f.colour == mover]
        said = [first] + pieces
    last = max(f.ply for f in said)
    back = [g for g in gains if g.ply <= last + 1]      # what comes with the loss, not later events
    fork = _fork(line, 1, first) or _trap(line, 1, first)
    if fork is not None:
        return _win_words(fork, Moves(line.san(1)), "allows")
    change = worth(back, mover) - worth(said, mover)
    shown = _settled(line, mover, max([last] + [g.ply for g in back]), change)
    ending = ("to", Moves(line.san(1))) if shown == 1 else \
        ("line", Moves(numbered_line(after, line.moves[1:shown + 1])))
    args: dict[str, object] = {ending[0] if ending[0] == "line" else "move": ending[1]}
    if back:
        args["material"] = _material_words(back)
    if first.start == chess.PAWN:
        args["squares"] = listing([chess.square_name(line.square_of(f.ident, 1)) for f in said])
        template = PAWNS_LOST[ending[0], bool(back)]
        return Plural(template[0], template[1], "n", n=len(said), **args)
    args.update(piece=OBJECT[first.start], square=chess.square_name(square))
    if pieces and ending[0] == "line":
        args["extra"] = _material_words(pieces)
    return Msg(PIECE_LOST[ending[0], bool(back), "extra" in args], **args)


# "loses ..." by how the loss is shown ("to": the move that takes; "line": the line that brings it
# about), whether something comes back for it ("for ...") and, for a piece, other pieces lost with it.
PAWNS_LOST = {
    ("to", False): NP_("loses the pawn on {squares} to {move}", "loses the pawns on {squares} to {move}"),
    ("to", True): NP_("loses the pawn on {squares} to {move} for {material}",
                   "loses the pawns on {squares} to {move} for {material}"),
    ("line", False): NP_("loses the pawn on {squares} ({line})", "loses the pawns on {squares} ({line})"),
    ("line", True): NP_("loses the pawn on {squares} for {material} ({line})",
                     "loses the pawns on {squares} for {material} ({line})"),
}
PIECE_LOST = {
    ("to", False, False): N_("loses the {piece} on {square} to {move}"),
    ("to", True, False): N_("loses the {piece} on {square} to {move} for {material}"),
    ("line", False, False): N_("loses the {piece} on {square} ({line})"),
    ("line", True, False): N_("loses the {piece} on {square} for {material} ({line})"),
    ("line", False, True): N_("loses the {piece} on {square} and {extra} ({line})"),
    ("line", True, True): N_("loses the {piece} on {square} and {extra} for {material} ({line})"),
}


def _settled(line: Account, mover: chess.Color, start: int, change: int) -> int:
    """The first ply from `start` on (at most SETTLES_PLIES later) after which the mover's material,
    counted from the position before the move, is `change` and stays so a ply longer: where the
    line shown ends (a loss taken back and won again is shown to its end), else `start`."""
    balance = [0] * (len(line.moves) + 1)
    for fate in line.fates.values():
        if fate.changed:
            balance[fate.ply] += fate.delta(mover)
    for ply in range(1, len(balance)):
        balance[ply] += balance[ply - 1]
    for ply in range(start, min(start + SETTLES_PLIES + 1, len(line.moves))):
        following = balance[ply + 1] if ply + 1 < len(line.moves) else balance[ply]
        if balance[ply] == change and following == change:
            return ply
    return start


def _misses(line: Account, gains: list[Fate], costs: list[Fate], mover: chess.Color) -> Msg:
    """`misses Nxc1, winning a rook`, `misses Bxe6, winning the exchange`, `misses Nc7+, forking
    the king and the rook on a8`, `misses c8=Q, promoting the pawn`, `misses hxg3, winning a pawn
    (23. hxg3 h6 24. Ncxd5)` (the line shown when the win comes after the move)."""
    best_san = Moves(line.san(0))
    gains = sorted(gains, key=lambda f: (-abs(f.delta(mover)), f.ply))
    first = gains[0]
    last = max(f.ply for f in gains)
    shown = Moves(numbered_line(line.boards[0], line.moves[:last + 1])) if last > 0 else None
    if first.colour == mover:                          # the mover promotes
        if first.ply == 0 or shown is None:
            return Msg("misses {move}, promoting the pawn", move=best_san)
        file = chess.FILE_NAMES[chess.square_file(line.square_of(first.ident, 0))]
        return Msg("misses {move}, promoting the {file}-pawn ({line})", move=best_san, file=file, line=shown)
    fork = _fork(line, 0, first) or _trap(line, 0, first)
    if fork is not None:
        return _win_words(fork, best_san, "misses")
    taken = [f.start for f in gains if f.colour != mover]
    given = [f.start for f in costs]
    if taken == [chess.ROOK] and len(given) == 1 and given[0] in (chess.KNIGHT, chess.BISHOP):
        if shown is None:
            return Msg("misses {move}, winning the exchange", move=best_san)
        return Msg("misses {move}, winning the exchange ({line})", move=best_san, line=shown)
    args: dict[str, object] = {"move": best_san, "material": _piece_words(taken)}
    if given:
        args["given"] = _piece_words(given)
    if shown is not None:
        args["line"] = shown
    return Msg(MISSED_WIN[bool(given), shown is not None], **args)


MISSED_WIN = {      # "misses ..., winning ..." by whether it gives something up and shows a line
    (False, False): N_("misses {move}, winning {material}"),
    (False, True): N_("misses {move}, winning {material} ({line})"),
    (True, False): N_("misses {move}, winning {material} for {given}"),
    (True, True): N_("misses {move}, winning {material} for {given} ({line})"),
}
