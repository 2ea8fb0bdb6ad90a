"""The "How to play" page: the rules of chess, one page per language, made from one English source.

Every text on the page is one whole message of the catalogues (`jitfish/locale/LANG.po`), said by
a `Speaker`: a heading, a paragraph, an item of a list or a diagram's caption is one message, never
a sentence put together from translated pieces. Moves in the text are `Moves` placeholder values, so
that a reader whose notation uses figurines sees `♘f3` where English reads `Nf3`; squares (e4) and
coordinates stay a-h and 1-8 in every language.

The diagrams are small boards drawn here as inline SVG from a FEN and the squares they mark (dots
for the squares a piece can reach, rings for its captures, crosses for squares it may not go to,
highlighted squares and arrows for a move). `tests/test_rules_page.py` checks each one with
python-chess: the marked squares are exactly the legal moves, the checkmate is checkmate, and so on.

The page is served at `/rules?lang=CODE` (the checkers page, checkers_rules.py, made by the same
`book_page` at `/rules?game=checkers&lang=CODE`; each links to the other), under the Content Security Policy
`default-src 'self'; img-src 'self' data:`: no script, no inline style attribute (classes only,
styled by `static/rules.css`); the pieces are the same-origin images `static/pieces/wK.svg`...

Source: the FIDE Laws of Chess, the edition in force from 1 January 2023 (Articles 1-9 and the
guidelines on Chess960), said short and plain for a beginner. Where this page and the Laws differ,
the Laws decide.
"""

# NOTE: the English below is the source of this page. The translations of the seed catalogues are
# NOT the source and must not be used to write or check it: in places they state castling and
# promotion backwards (the rook moving first and the king jumping over it; a pawn promoting only to
# a piece that was captured). Translators translate from these English messages.

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from jitfish.i18n import FIGURINES, LANGUAGES, SOURCE, Moves, Msg, Speaker

FILES = "abcdefgh"
SQUARE = 10                       # one square, in the diagram's SVG units
MARGIN = 5                        # room for the coordinates, left and below the board


# ---- diagrams -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Diagram:
    """A small board: a position (the piece placement of a FEN, the rest of the FEN for the checks)
    and what it marks. `origins` are the squares whose pieces' legal moves the dots and rings show
    (empty when the diagram shows no piece's moves)."""
    key: str
    fen: str
    caption: Msg
    dots: tuple[str, ...] = ()          # squares a piece can move to
    rings: tuple[str, ...] = ()         # squares where a piece can capture
    crosses: tuple[str, ...] = ()       # squares a piece may not go to
    highlights: tuple[str, ...] = ()    # a move's squares
    arrows: tuple[tuple[str, str], ...] = ()   # the first the move's, a second the rook's
    origins: tuple[str, ...] = ()

    @property
    def placement(self) -> str:
        return self.fen.split()[0]


def _center(square: str) -> tuple[float, float]:
    file, rank = FILES.index(square[0]), int(square[1]) - 1
    return (file + 0.5) * SQUARE, (7 - rank + 0.5) * SQUARE


def _corner(square: str) -> tuple[int, int]:
    file, rank = FILES.index(square[0]), int(square[1]) - 1
    return file * SQUARE, (7 - rank) * SQUARE


def pieces(placement: str) -> dict[str, str]:
    """The pieces of a FEN's placement field: square -> its image's name (`wK`, `bP`...)."""
    found: dict[str, str] = {}
    rows = placement.split("/")
    if len(rows) != 8:
        raise ValueError(f"a placement needs 8 ranks: {placement!r}")
    for row_index, row in enumerate(rows):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            elif char.lower() in "kqrbnp":
                if file > 7:
                    raise ValueError(f"too many squares on a rank: {placement!r}")
                found[f"{FILES[file]}{8 - row_index}"] = ("w" if char.isupper() else "b") + char.upper()
                file += 1
            else:
                raise ValueError(f"not a piece: {char!r} in {placement!r}")
        if file != 8:
            raise ValueError(f"a rank of {file} squares: {placement!r}")
    return found


def _arrow(start: str, end: str, second: bool = False, aside: bool = False) -> str:
    """An arrow from one square's centre to the other's, as one polygon (no marker, so no ids). A
    second arrow (the rook's, in castling) has its own colour; `aside` moves an arrow a little to
    its right, so that two arrows along one rank in opposite directions stay apart."""
    (x1, y1), (x2, y2) = _center(start), _center(end)
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length          # along the arrow
    px, py = -uy, ux                                           # across it
    if aside:
        x1, y1, x2, y2 = x1 + px * 2.2, y1 + py * 2.2, x2 + px * 2.2, y2 + py * 2.2
    shaft, head, head_length = 0.9, 2.6, 4.2
    tip_x, tip_y = x2 - ux * 1.5, y2 - uy * 1.5
    base_x, base_y = tip_x - ux * head_length, tip_y - uy * head_length
    start_x, start_y = x1 + ux * 1.5, y1 + uy * 1.5
    points = [
        (start_x + px * shaft, start_y + py * shaft),
        (base_x + px * shaft, base_y + py * shaft),
        (base_x + px * head, base_y + py * head),
        (tip_x, tip_y),
        (base_x - px * head, base_y - py * head),
        (base_x - px * shaft, base_y - py * shaft),
        (start_x - px * shaft, start_y - py * shaft),
    ]
    kind = "arrow second" if second else "arrow"
    return f'<polygon class="{kind}" points="' + " ".join(f"{x:.2f},{y:.2f}" for x, y in points) + '"/>'


def board_svg(diagram: Diagram, label: str) -> str:
    """A diagram as an inline `<svg>`: light and dark squares (a1 dark), the coordinates a-h and 1-8
    along the edge, the pieces as images and the marks; `label` is its accessible name."""
    out = [f'<svg class="board" viewBox="{-MARGIN} 0 {8 * SQUARE + MARGIN} {8 * SQUARE + MARGIN}" '
           f'role="img" aria-label="{html.escape(label)}" xmlns="http://www.w3.org/2000/svg">']
    for rank in range(8):
        for file in range(8):
            square = f"{FILES[file]}{rank + 1}"
            x, y = _corner(square)
            shade = "dark" if (file + rank) % 2 == 0 else "light"
            out.append(f'<rect class="{shade}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>')
    for square in diagram.highlights:
        x, y = _corner(square)
        out.append(f'<rect class="hl" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>')
    out.append('<g class="coords" aria-hidden="true">')
    for index in range(8):
        out.append(f'<text x="{index * SQUARE + SQUARE / 2}" y="{8 * SQUARE + 4.1}">{FILES[index]}</text>')
        rank_y = (7 - index) * SQUARE + SQUARE / 2 + 1.6
        out.append(f'<text x="{-MARGIN / 2}" y="{rank_y}">{index + 1}</text>')
    out.append("</g>")
    for square, name in sorted(pieces(diagram.placement).items()):
        x, y = _corner(square)
        out.append(f'<image href="static/pieces/{name}.svg" x="{x}" y="{y}" '
                   f'width="{SQUARE}" height="{SQUARE}"/>')
    for square in diagram.dots:
        x, y = _center(square)
        out.append(f'<circle class="dot" cx="{x}" cy="{y}" r="1.7"/>')
    for square in diagram.rings:
        x, y = _center(square)
        out.append(f'<circle class="ring" cx="{x}" cy="{y}" r="4.4"/>')
    for square in diagram.crosses:
        x, y = _center(square)
        out.append(f'<path class="cross" d="M{x - 2} {y - 2}L{x + 2} {y + 2}'
                   f'M{x + 2} {y - 2}L{x - 2} {y + 2}"/>')
    for index, (start, end) in enumerate(diagram.arrows):
        out.append(_arrow(start, end, second=index > 0, aside=len(diagram.arrows) > 1))
    out.append("</svg>")
    return "".join(out)


DIAGRAMS: dict[str, Diagram] = {d.key: d for d in (
    Diagram("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Msg("The starting position. White's pieces stand on ranks 1 and 2, Black's on ranks 7 "
                "and 8. Each queen stands on a square of her own colour.")),
    Diagram("king", "8/8/8/r7/4K3/8/8/8 w - - 0 1",
            Msg("The king on e4 can move to each square with a dot. It may not go to d5, e5 or f5: "
                "the black rook attacks them."),
            dots=("d3", "e3", "f3", "d4", "f4"), crosses=("d5", "e5", "f5"), origins=("e4",)),
    Diagram("queen", "8/8/8/8/3Q4/8/8/8 w - - 0 1",
            Msg("The queen on d4 can move to each square with a dot."),
            dots=("d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4", "h4",
                  "a1", "b2", "c3", "e5", "f6", "g7", "h8", "a7", "b6", "c5", "e3", "f2", "g1"),
            origins=("d4",)),
    Diagram("rook", "8/8/3P4/8/3R2n1/8/8/8 w - - 0 1",
            Msg("The rook on d4 moves along its file and its rank. Its own pawn on d6 stops it; it can "
                "capture the black knight on g4 but cannot pass it."),
            dots=("d1", "d2", "d3", "d5", "a4", "b4", "c4", "e4", "f4"), rings=("g4",), origins=("d4",)),
    Diagram("bishop", "8/8/8/8/3B4/8/8/8 w - - 0 1",
            Msg("The bishop on d4 moves along the diagonals. It stays on dark squares all game."),
            dots=("a1", "b2", "c3", "e5", "f6", "g7", "h8", "a7", "b6", "c5", "e3", "f2", "g1"),
            origins=("d4",)),
    Diagram("knight", "8/8/8/2ppp3/3N4/2PPP3/8/8 w - - 0 1",
            Msg("The knight on d4 jumps over the pawns around it to any square with a dot."),
            dots=("b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"), origins=("d4",)),
    Diagram("pawn", "8/8/8/1p6/1P6/3n4/4P3/8 w - - 0 1",
            Msg("The pawn on e2 has not moved yet: it can go to e3 or e4, or capture the knight on "
                "d3. The pawn on b4 is blocked and cannot move."),
            dots=("e3", "e4"), rings=("d3",), origins=("e2", "b4")),
    Diagram("checkmate", "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1",
            Msg("Checkmate. After {move} the rook attacks the black king along the 8th rank, and the "
                "king's own pawns take away its way out. White wins.", move=Moves("Rd8#")),
            highlights=("d1", "d8"), arrows=(("d1", "d8"),)),
    Diagram("castling-before", "4k3/8/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1",
            Msg("Castling on the king's side: the king moves two squares, from e1 to g1, then the "
                "rook moves from h1 to f1, the square the king crossed."),
            arrows=(("e1", "g1"), ("h1", "f1"))),
    Diagram("castling-after", "4k3/8/8/8/8/8/PPPPPPPP/R4RK1 b - - 1 1",
            Msg("After {move}: the king is on g1 and the rook on f1.", move=Moves("O-O")),
            highlights=("e1", "g1", "h1", "f1")),
    Diagram("castling-not-allowed", "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1",
            Msg("White may not castle now: the king would cross f1, which the black bishop attacks. "
                "Later, when f1 is safe, castling is allowed again."),
            crosses=("f1",), arrows=(("c4", "f1"),)),
    Diagram("en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            Msg("Black has just moved the pawn from d7 to d5. The white pawn on e5 can capture it en "
                "passant, {move}: it moves to d6, and the black pawn on d5 is removed.",
                move=Moves("exd6")),
            highlights=("d7", "d5"), rings=("d5",), arrows=(("e5", "d6"),)),
    Diagram("promotion", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1",
            Msg("The pawn on e7 moves to e8 and is exchanged for a queen in the same move: {move}.",
                move=Moves("e8=Q")),
            arrows=(("e7", "e8"),)),
    Diagram("stalemate", "k7/8/1Q6/8/8/8/8/6K1 b - - 0 1",
            Msg("Stalemate. Black is to move and is not in check, but every square the king could go "
                "to is attacked, and Black has no other piece. The game is a draw."),
            crosses=("a7", "b7", "b8")),
)}


# ---- the text ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Section:
    """A part of the page: its anchor, its heading and its blocks, in order. A block is a paragraph
    (a `Msg`), a diagram (`Diagram`), a row of diagrams (a tuple of them), a list (a list of `Msg`),
    a sub-heading (`Sub`) or the table of the pieces' signs (`SIGNS`)."""
    anchor: str
    heading: Msg
    blocks: list = field(default_factory=list)


@dataclass(frozen=True)
class Sub:
    heading: Msg
    piece: str = ""                    # an image beside the heading (`wK`...)


SIGNS = "signs"

TITLE = Msg("Jitfish — How to play")
LANGUAGE_LABEL = Msg("Language")
CONTENTS = Msg("Contents")

KING = Msg("The king")
QUEEN = Msg("The queen")
ROOK = Msg("The rook")
BISHOP = Msg("The bishop")
KNIGHT = Msg("The knight")
PAWN = Msg("The pawn")
PIECE_NAMES = (("K", KING), ("Q", QUEEN), ("R", ROOK), ("B", BISHOP), ("N", KNIGHT))

INTRO = [
    Msg("Chess is a game for two players, White and Black, who move their pieces in turn on a "
        "square board. The aim is to checkmate the opponent's king: to attack it so that it cannot "
        "escape."),
]

SECTIONS: list[Section] = [
    Section("board", Msg("The board and the set-up"), [
        Msg("The board has 64 squares, 8 by 8, light and dark in turn. It is placed so that each "
            "player has a light square in the corner on their right."),
        Msg("The columns of squares are called files and are named a to h. The rows are called "
            "ranks and are numbered 1 to 8. A square is named by its file and rank, such as e4. The "
            "square a1 is dark."),
        Msg("Each player has 16 pieces: a king, a queen, two rooks, two bishops, two knights and "
            "eight pawns. They start as in the diagram."),
        DIAGRAMS["start"],
        Msg("White moves first. Then the players take turns, one move each. A player may not pass."),
    ]),
    Section("moves", Msg("How the pieces move"), [
        Msg("A piece may not move to a square where a piece of its own colour stands. A piece that "
            "moves to a square where an opponent's piece stands captures it: the captured piece is "
            "taken off the board as part of the same move. Capturing is never compulsory."),
        Msg("Only the knight can jump over other pieces; every other piece stops before the first "
            "piece in its way."),
        Sub(KING, "wK"),
        Msg("The king moves one square in any direction. It may never move to a square attacked "
            "by an opponent's piece. Once in a game it may also castle together with a rook (see Castling)."),
        DIAGRAMS["king"],
        Sub(QUEEN, "wQ"),
        Msg("The queen moves any number of squares in a straight line: along a file, a rank or a "
            "diagonal."),
        DIAGRAMS["queen"],
        Sub(ROOK, "wR"),
        Msg("The rook moves any number of squares along a file or a rank."),
        DIAGRAMS["rook"],
        Sub(BISHOP, "wB"),
        Msg("The bishop moves any number of squares along a diagonal, so it always stays on "
            "squares of one colour."),
        DIAGRAMS["bishop"],
        Sub(KNIGHT, "wN"),
        Msg("The knight moves in an L shape: two squares along a file or a rank, then one square "
            "to the side. It jumps over any pieces in between."),
        DIAGRAMS["knight"],
        Sub(PAWN, "wP"),
        Msg("The pawn moves straight forward one square, to an empty square. On its first move it "
            "may instead go two squares forward, if both squares are empty. It never moves back. It "
            "captures differently: one square diagonally forward."),
        DIAGRAMS["pawn"],
    ]),
    Section("check", Msg("Check and checkmate"), [
        Msg("A king that is attacked by an opponent's piece is in check. A player may never make "
            "a move that leaves or puts their own king in check, so a king in check must be saved "
            "at once: by moving it, by capturing the attacking piece, or by putting a piece in "
            "between."),
        Msg("If the king is in check and no legal move ends the check, it is checkmate. The game "
            "ends at once, and the player who gave checkmate wins."),
        DIAGRAMS["checkmate"],
    ]),
    Section("notation", Msg("Writing moves"), [
        # Translators: x, + and # are signs of the moves' notation; keep them as they are.
        Msg("A move is written with the sign of the piece that moves and the square it moves to: "
            "{example} moves a knight to f3. A pawn move has no sign, just the square: {pawn}. An x "
            "marks a capture, as in {capture}; a + marks check and a # checkmate.",
            example=Moves("Nf3"), pawn=Moves("e4"), capture=Moves("Bxe5")),
        SIGNS,
    ]),
    Section("castling", Msg("Castling"), [
        Msg("Castling is a move of the king and a rook together, and it counts as one move of the "
            "king. The king moves two squares towards the rook; then that rook jumps over to the "
            "square the king has just crossed."),
        # Translators: O-O and O-O-O stay as they are; they are the moves' notation.
        Msg("Castling on the king's side is written {short}, on the queen's side {long}.",
            short=Moves("O-O"), long=Moves("O-O-O")),
        (DIAGRAMS["castling-before"], DIAGRAMS["castling-after"]),
        Msg("Castling is never allowed if the king has already moved, and never with a rook that "
            "has already moved."),
        Msg("Castling is not allowed for now if a piece stands between the king and the rook, if "
            "the king is in check, or if the king would cross or land on a square attacked by an "
            "opponent's piece. The rook may cross an attacked square."),
        DIAGRAMS["castling-not-allowed"],
    ]),
    Section("en-passant", Msg("En passant"), [
        # Translators: "en passant" (French, "in passing") is the name of a chess rule. Use the
        # term chess players in your language use; many keep "en passant".
        Msg("When a pawn moves two squares from its starting square and lands beside an "
            "opponent's pawn, that pawn may capture it as if it had moved only one square. This is "
            "called capturing en passant. It is allowed only on the very next move, never later."),
        DIAGRAMS["en-passant"],
    ]),
    Section("promotion", Msg("Promotion"), [
        # Translators: "promotion" is the chess term for a pawn becoming another piece on the last
        # rank.
        Msg("A pawn that reaches the last rank (the 8th for White, the 1st for Black) must, as "
            "part of the same move, be exchanged for a queen, a rook, a bishop or a knight of its "
            "own colour, on that square. The player chooses which, and the choice is not limited "
            "to pieces that have been captured: a player can have two queens or more."),
        DIAGRAMS["promotion"],
    ]),
    Section("end", Msg("How a game ends"), [
        # Translators: to resign: to give up the game, admitting defeat.
        Msg("A game is won by checkmate, or when the opponent resigns (a player may resign at any "
            "time), or when the opponent's time runs out (see the clock below)."),
        Sub(Msg("Stalemate")),
        Msg("If the player to move has no legal move and their king is not in check, it is "
            "stalemate. The game is drawn at once."),
        DIAGRAMS["stalemate"],
        Sub(Msg("Draws")),
        Msg("A game is drawn in these cases:"),
        [
            Msg("Agreement: one player offers a draw and the other accepts it."),
            Msg("Stalemate, as shown above."),
            # Translators: a "dead position": neither player can checkmate by any series of legal
            # moves.
            Msg("Dead position: neither player can checkmate by any series of legal moves. For "
                "example king against king, or king and bishop or king and knight against king."),
            # Translators: a player "claims" a draw: asks the arbiter for it, by the rules.
            Msg("Threefold repetition: a player may claim a draw when the same position is about to "
                "appear, or has appeared, for the third time, with the same player to move and the "
                "same rights to castle and to capture en passant."),
            Msg("Fivefold repetition: when the same position appears for the fifth time, the game is "
                "drawn automatically."),
            Msg("Fifty-move rule: a player may claim a draw when each player has made the last 50 "
                "moves without moving a pawn and without any capture."),
            Msg("Seventy-five-move rule: after 75 such moves by each player, the game is drawn "
                "automatically, unless the last move gave checkmate."),
        ],
        # Translators: "touch-move" is the name of a rule of over-the-board chess.
        Msg("Touch-move: over the board, a player who deliberately touches one of their own pieces must move "
            "it, and one who touches an opponent's piece must capture it, if that is a legal "
            "move."),
    ]),
    Section("clock", Msg("The clock"), [
        Msg("Games are often played with a chess clock, which keeps the time of each player. Only "
            "the clock of the player to move runs. After moving, a player presses the clock: that "
            "stops their own time and starts the opponent's. The time is given in one of these "
            "ways:"),
        [
            # Translators: "sudden death": one fixed time for the whole game, with nothing added.
            Msg("Sudden death: a fixed time for the whole game, for example 5 minutes each."),
            Msg("Moves in a time: a number of moves must be made in a given time, for example 40 "
                "moves in 90 minutes. Then more time is added, for the next moves or for the rest "
                "of the game."),
            # Translators: the increment named after Bobby Fischer, who invented it.
            Msg("Increment (Fischer): a fixed number of seconds is added to the player's time after "
                "each of their moves."),
            # Translators: the delay named after David Bronstein, who proposed it.
            Msg("Bronstein delay: after each move, the time the player used is given back, up to "
                "the delay. A player never gets back more than they used on that move."),
            Msg("Simple delay (also called US delay): at each move the clock waits for the delay "
                "before it starts to count down. A player who moves within the delay loses no time."),
        ],
        # Translators: the "flag" is the small lever of a mechanical clock that falls when the time
        # is up; "the flag falls" means the time has run out.
        Msg("Losing on time: a player whose time runs out (whose flag falls) loses the game. But if "
            "the opponent cannot checkmate by any series of legal moves, the game is a draw "
            "instead."),
    ]),
    Section("chess960", Msg("Chess960"), [
        # Translators: "Chess960" and "Fischer Random Chess" are names; keep the number 960.
        Msg("Chess960 (also called Fischer Random Chess) is chess with the same rules, but the "
            "pieces on the back rank start in a shuffled order, the same for both players. The "
            "bishops stand on squares of opposite colours, and the king stands somewhere between the "
            "two rooks. The pawns start as usual. There are 960 such starting positions."),
        Msg("Castling ends with the king and the rook on the same squares as in ordinary chess: "
            "king on g1 and rook on f1 on the king's side, king on c1 and rook on d1 on the queen's "
            "side (g8, f8, c8 and d8 for Black). Every square they pass or land on must be empty, "
            "apart from the king and the rook themselves."),
    ]),
]

FOOTER = Msg("Written from the FIDE Laws of Chess (the 2023 edition). Where this page and the Laws "
             "differ, the Laws decide.")


OTHER_GAME = Msg("How to play checkers")


def address(game: str, code: str) -> str:
    """The address of a game's "How to play" page in a language: `rules?lang=en` for chess,
    `rules?game=checkers&lang=en` for checkers."""
    return f"rules?lang={code}" if game == "chess" else f"rules?game={game}&lang={code}"


@dataclass(frozen=True)
class Book:
    """One game's "How to play" page: its texts, its sections, how its diagrams are drawn and the
    link to the other game's page. `diagram_type` is the class of its diagrams (each has `key` and
    `caption`); `draw(diagram, label)` makes one's `<svg>`."""
    game: str
    title: Msg
    intro: list
    sections: list
    footer: Msg
    other: Msg
    other_game: str
    diagram_type: type
    draw: object


def book_messages(book: Book) -> list[Msg]:
    """Every message of a book's page, in the order it comes (each once)."""
    found: list[Msg] = [book.title, LANGUAGE_LABEL, book.other, CONTENTS, *book.intro]

    def add(message: Msg) -> None:
        if message not in found:
            found.append(message)

    for section in book.sections:
        add(section.heading)
        for block in section.blocks:
            for item in (block if isinstance(block, (list, tuple)) else [block]):
                if isinstance(item, Msg):
                    add(item)
                elif isinstance(item, book.diagram_type):
                    add(item.caption)
                elif isinstance(item, Sub):
                    add(item.heading)
                elif item == SIGNS:
                    for _, name in PIECE_NAMES:
                        add(name)
    add(book.footer)
    return found


def book_diagrams(book: Book) -> list:
    """The diagrams of a book's page, in the order they come."""
    found = []
    for section in book.sections:
        for block in section.blocks:
            for item in (block if isinstance(block, tuple) else [block]):
                if isinstance(item, book.diagram_type):
                    found.append(item)
    return found


def messages() -> list[Msg]:
    """Every message of the chess page, in the order it comes (each once)."""
    return book_messages(CHESS)


def diagrams() -> list[Diagram]:
    """The diagrams of the chess page, in the order they come."""
    return book_diagrams(CHESS)


# ---- the page ---------------------------------------------------------------------------------------


def _signs(speaker: Speaker) -> str:
    rows = []
    for letter, name in PIECE_NAMES:
        sign = FIGURINES[letter] if speaker.figurines else letter
        rows.append(f'<li><img src="static/pieces/w{letter}.svg" alt="" class="icon">'
                    f'<span class="sign" translate="no">{sign}</span> {html.escape(speaker.say(name))}</li>')
    return '<ul class="signs">' + "".join(rows) + "</ul>"


def book_page(book: Book, code: str, figurines: bool | None = None) -> str:
    """A book's "How to play" page in a language (English for a code Jitfish does not speak), as a
    complete HTML document; `figurines` overrides the language's notation for the moves."""
    speaker = Speaker(code if code in LANGUAGES else SOURCE, figurines)

    def say(message: Msg) -> str:
        return speaker.say(message)

    def text(message: Msg) -> str:
        return html.escape(say(message))

    def figure(diagram) -> str:
        caption = say(diagram.caption)
        return (f'<figure class="diagram" id="diagram-{diagram.key}">{book.draw(diagram, caption)}'
                f"<figcaption>{html.escape(caption)}</figcaption></figure>")

    title = text(book.title)
    out = ["<!doctype html>",
           f'<html lang="{speaker.code}" dir="ltr">',
           "<head>",
           '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="color-scheme" content="light dark">',
           f"<title>{title}</title>",
           '<link rel="icon" type="image/svg+xml" href="static/pieces/wN.svg">',
           '<link rel="stylesheet" href="static/fonts.css">',
           '<link rel="stylesheet" href="static/rules.css">',
           "</head>",
           f'<body class="game-{book.game}">',
           "<header>",
           f'<nav class="langs" aria-label="{text(LANGUAGE_LABEL)}"><ul>']
    for lang in LANGUAGES.values():
        current = ' aria-current="page"' if lang.code == speaker.code else ""
        out.append(f'<li><a href="{html.escape(address(book.game, lang.code))}" lang="{lang.code}" '
                   f'hreflang="{lang.code}" translate="no"{current}>{html.escape(lang.name)}</a></li>')
    out.append("</ul></nav>")
    out.append(f"<h1>{title}</h1>")
    out.append(f'<p class="other-game"><a href="{html.escape(address(book.other_game, speaker.code))}">'
               f"{text(book.other)}</a></p>")
    out.append("</header>")
    out.append("<main>")
    for message in book.intro:
        out.append(f"<p>{text(message)}</p>")
    out.append(f'<nav class="toc" aria-labelledby="toc-heading">'
               f'<h2 id="toc-heading">{text(CONTENTS)}</h2><ol>')
    for section in book.sections:
        out.append(f'<li><a href="#{section.anchor}">{text(section.heading)}</a></li>')
    out.append("</ol></nav>")
    for section in book.sections:
        out.append(f'<section id="{section.anchor}" aria-labelledby="h-{section.anchor}">')
        out.append(f'<h2 id="h-{section.anchor}">{text(section.heading)}</h2>')
        pending: list[str] = []          # paragraphs that go beside the next diagram
        for block in section.blocks:
            if isinstance(block, Msg):
                pending.append(f"<p>{text(block)}</p>")
                continue
            if isinstance(block, book.diagram_type):
                out.append(f'<div class="pair"><div class="text">{"".join(pending)}</div>'
                           f"{figure(block)}</div>")
                pending = []
                continue
            out.extend(pending)
            pending = []
            if isinstance(block, tuple):
                out.append('<div class="diagrams">' + "".join(figure(d) for d in block) + "</div>")
            elif isinstance(block, list):
                out.append("<ul>" + "".join(f"<li>{text(item)}</li>" for item in block) + "</ul>")
            elif isinstance(block, Sub):
                icon = (f'<img src="static/pieces/{block.piece}.svg" alt="" class="icon">'
                        if block.piece else "")
                out.append(f"<h3>{icon}{text(block.heading)}</h3>")
            elif block == SIGNS:
                out.append(_signs(speaker))
            else:
                raise TypeError(f"not a block of the page: {block!r}")
        out.extend(pending)
        out.append("</section>")
    out.append("</main>")
    out.append(f"<footer><p>{text(book.footer)}</p></footer>")
    out.append("</body>")
    out.append("</html>")
    return "\n".join(out) + "\n"


CHESS = Book("chess", TITLE, INTRO, SECTIONS, FOOTER, OTHER_GAME, "checkers", Diagram, board_svg)


def rules_page(code: str, figurines: bool | None = None) -> str:
    """The chess "How to play" page in a language (English for a code Jitfish does not speak), as
    a complete HTML document; `figurines` overrides the language's notation for the moves."""
    return book_page(CHESS, code, figurines)
