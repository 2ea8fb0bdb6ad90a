"""The "How to play" page for checkers: American checkers (English draughts) as the WCDF rules have
it, one page per language, made from one English source, beside the chess page (rules.py, whose
page maker, sections and arrows it uses).

Every text on the page is one whole message of the catalogues, as on the chess page. Squares are
the books' numbers 1-32 (docs/checkers.md), written into the messages as they are; the moves and
the FEN that the text shows as examples are placeholder values (plain text, the same in every
language), so that the tests can check each against the checkers package.

The diagrams are small boards drawn here as inline SVG from a PDN FEN: the 32 dark squares with
their numbers, the pieces as circles (a king two stacked circles with a crown), dots for the
squares a piece can reach, rings round the pieces a jump takes, crosses on squares a piece may
not go to and an arrow for each leg of a jump. Black plays from the top, as in the books.
`tests/test_checkers_rules_page.py` checks each one with `checkers.board.Board`: the marked squares
are exactly the legal moves and paths, the start is the start, the blocked side has no move.

Served at `/rules?game=checkers&lang=CODE` under the same Content Security Policy as the chess
page (no script, no inline style: classes only, styled by `static/rules.css`).

Source: the WCDF rules of checkers as the American federation plays them, said short and plain
for a beginner; where this page and those rules differ, the rules decide. The site's own
Gujarati page (the issue's seed) asks for the same things; where it says otherwise, the WCDF rules
win.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from checkers.notation import START_FEN, parse_fen

from jitfish.i18n import Msg, PMsg
from jitfish.web.rules import (FILES, SQUARE, Book, Section, Sub, _arrow, _center, _corner,
                               book_diagrams, book_messages, book_page)

# ---- squares ----------------------------------------------------------------------------------------


def cell(square: int) -> tuple[int, int]:
    """Square 1-32 as (row, column): row 0 the top (Black's side), column 0 the left (White's
    left), as docs/checkers.md draws the board."""
    index = square - 1
    row = index // 4
    return row, 2 * (index % 4) + (1 if row % 2 == 0 else 0)


def name(square: int) -> str:
    """Square 1-32 as the chess name of the same place (1 is b8, 29 is a1), for the drawing."""
    row, col = cell(square)
    return f"{FILES[col]}{8 - row}"


def placed(fen: str) -> dict[int, str]:
    """The pieces of a PDN FEN: square -> `b`, `w` (men), `B`, `W` (kings)."""
    setup = parse_fen(fen)
    found = {}
    for square in range(1, 33):
        bit = 1 << (square - 1)
        king = bool(setup.kings & bit)
        if setup.black & bit:
            found[square] = "B" if king else "b"
        elif setup.white & bit:
            found[square] = "W" if king else "w"
    return found


# ---- diagrams ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckersDiagram:
    """A small checkers board: a position (a PDN FEN) and what it marks. `paths` are moves as their
    squares [from, landing, ...], each leg an arrow (a second path in the second colour);
    `origins` are the pieces whose legal moves the dots and paths show."""
    key: str
    fen: str
    caption: Msg
    dots: tuple[int, ...] = ()          # squares a piece can move to
    rings: tuple[int, ...] = ()         # the pieces a jump takes
    crosses: tuple[int, ...] = ()       # squares a piece may not go to
    paths: tuple[tuple[int, ...], ...] = ()
    origins: tuple[int, ...] = ()
    numbers: bool = False               # the numbering diagram: big numbers, no pieces


def _man(x: float, y: float, colour: str) -> str:
    return (f'<circle class="man {colour}" cx="{x}" cy="{y}" r="4.0"/>'
            f'<circle class="groove {colour}" cx="{x}" cy="{y}" r="2.7"/>')


def _piece(square: int, piece: str) -> str:
    """A man as a disc with a groove; a king as two stacked discs with a crown on the top one."""
    x, y = _center(name(square))
    colour = "black" if piece in "bB" else "white"
    if piece in "bw":
        return f'<g class="piece">{_man(x, y, colour)}</g>'
    top = y - 0.9
    crown = (f'<path class="crown" d="M{x - 2.2:.2f} {top + 1.3:.2f}L{x - 2.5:.2f} {top - 1.5:.2f}'
             f'L{x - 1.1:.2f} {top - 0.2:.2f}L{x:.2f} {top - 2.0:.2f}L{x + 1.1:.2f} {top - 0.2:.2f}'
             f'L{x + 2.5:.2f} {top - 1.5:.2f}L{x + 2.2:.2f} {top + 1.3:.2f}Z"/>')
    return (f'<g class="piece king">{_man(x, y + 1.0, colour)}{_man(x, top, colour)}'
            f"{crown}</g>")


def checkers_svg(diagram: CheckersDiagram, label: str) -> str:
    """A checkers diagram as an inline `<svg>`: light and dark squares (a dark square in each
    player's left corner), each dark square's number (small in a corner; big on the numbering
    diagram), the pieces and the marks; `label` is its accessible name."""
    out = [f'<svg class="board checkers" viewBox="0 0 {8 * SQUARE} {8 * SQUARE}" '
           f'role="img" aria-label="{html.escape(label)}" xmlns="http://www.w3.org/2000/svg">']
    for row in range(8):
        for col in range(8):
            shade = "dark" if (row + col) % 2 == 1 else "light"
            out.append(f'<rect class="{shade}" x="{col * SQUARE}" y="{row * SQUARE}" '
                       f'width="{SQUARE}" height="{SQUARE}"/>')
    for square, piece in sorted(placed(diagram.fen).items()):
        out.append(_piece(square, piece))
    out.append(f'<g class="{"numbers big" if diagram.numbers else "numbers"}" aria-hidden="true">')
    for square in range(1, 33):
        x, y = _corner(name(square))
        if diagram.numbers:
            out.append(f'<text x="{x + SQUARE / 2}" y="{y + SQUARE / 2 + 1.6}">{square}</text>')
        else:
            out.append(f'<text x="{x + 0.4}" y="{y + 2.5}">{square}</text>')
    out.append("</g>")
    for square in diagram.rings:
        x, y = _center(name(square))
        out.append(f'<circle class="ring" cx="{x}" cy="{y}" r="4.7"/>')
    for square in diagram.dots:
        x, y = _center(name(square))
        out.append(f'<circle class="dot" cx="{x}" cy="{y}" r="1.7"/>')
    for square in diagram.crosses:
        x, y = _center(name(square))
        out.append(f'<path class="cross" d="M{x - 2} {y - 2}L{x + 2} {y + 2}'
                   f'M{x + 2} {y - 2}L{x - 2} {y + 2}"/>')
    for index, path in enumerate(diagram.paths):
        for start, end in zip(path, path[1:]):
            out.append(_arrow(name(start), name(end), second=index > 0))
    out.append("</svg>")
    return "".join(out)


DIAGRAMS: dict[str, CheckersDiagram] = {d.key: d for d in (
    CheckersDiagram("numbers", "B:W:B",
                    Msg("The numbers of the 32 dark squares. They run from left to right along each "
                        "row as White sees the board, from 1 in the row on Black's side to 32 in the "
                        "row on White's side."),
                    numbers=True),
    CheckersDiagram("start", START_FEN,
                    Msg("The starting position: Black's 12 men on squares 1 to 12, White's 12 men on "
                        "squares 21 to 32. Black moves first.")),
    CheckersDiagram("man", "B:W30:B14",
                    Msg("The black man on 14 can move to either square with a dot, 17 or 18: one "
                        "square diagonally forward."),
                    dots=(17, 18), origins=(14,)),
    CheckersDiagram("king", "B:W32:BK18",
                    Msg("The black king on 18 can move to any of the four squares with a dot, 14, "
                        "15, 22 and 23: one square diagonally, forward or backward."),
                    dots=(14, 15, 22, 23), origins=(18,)),
    CheckersDiagram("jump", "B:W18,30:B14",
                    Msg("The black man on 14 jumps over the white man on 18 and lands on 23, the "
                        "empty square beyond. The white man is taken off the board. This jump is "
                        "written {move}.", move="14x23"),
                    rings=(18,), paths=((14, 23),), origins=(14,)),
    CheckersDiagram("multi-jump", "B:W15,23,30:B1,11",
                    Msg("A multi-jump, {move}: the black man on 11 jumps the white man on 15 and "
                        "lands on 18, then changes direction, jumps the man on 23 and lands on 27. "
                        "Both white men are taken off.", move="11x18x27"),
                    rings=(15, 23), paths=((11, 18, 27),), origins=(11,)),
    CheckersDiagram("compulsory", "B:W18,31:B9,14",
                    Msg("Black must jump, {move}: it is the only legal move. The plain moves to the "
                        "squares with a cross are not allowed while a jump is possible.",
                        move="14x23"),
                    rings=(18,), crosses=(13, 17), paths=((14, 23),), origins=(9, 14)),
    CheckersDiagram("choice", "B:W9,10,19:B6",
                    Msg("Black may choose either jump: {one}, which takes one man, or {two}, which "
                        "takes two. Neither is compulsory over the other.", one="6x13", two="6x15x24"),
                    rings=(9, 10, 19), paths=((6, 13), (6, 15, 24)), origins=(6,)),
    CheckersDiagram("crowning", "B:W26,27:B22",
                    Msg("The black man on 22 jumps the white man on 26 and lands on 31, in the far "
                        "row: it is crowned and the move ends there, {move}. As a king it could have "
                        "jumped 27 as well, but only on its next move.", move="22x31"),
                    rings=(26,), paths=((22, 31),), origins=(22,)),
    CheckersDiagram("crowned", "W:W27:BK31",
                    Msg("After {move}: the new black king on 31, two pieces stacked. White moves "
                        "next.", move="22x31")),
    CheckersDiagram("blocked", "B:W27,31,32:B24,28",
                    Msg("Black is to move and cannot: the man on 24 has its own man on 28 and a white "
                        "man on 27 with no empty square behind it, and the man on 28 is blocked by "
                        "the white man on 32. Black has lost, although Black still has pieces.")),
)}


# ---- the text ---------------------------------------------------------------------------------------

TITLE = Msg("Jitfish — How to play checkers")
OTHER_GAME = Msg("How to play chess")

# The refusal the board shows (jitfish/web/static/checkers-view.js says the same message).
REFUSAL = Msg("You must jump: a capture is compulsory")

INTRO = [
    # Translators: "checkers" is American checkers, also called English draughts; use the name
    # players in your language use for this game (played on 8 by 8 squares).
    Msg("Checkers (also called draughts) is a game for two players, Black and White, who move "
        "their pieces in turn on the dark squares of the board. Jitfish plays American checkers, by "
        "the rules of the World Checkers/Draughts Federation. A player wins when the opponent can no "
        "longer move: all the opponent's pieces are captured or blocked."),
]

SECTIONS: list[Section] = [
    Section("board", Msg("The board and the set-up"), [
        Msg("The board has 64 squares, 8 by 8, light and dark in turn. The game is played on the 32 "
            "dark squares only. The board is placed so that each player has a dark square in the "
            "corner on their left."),
        Msg("The dark squares are numbered 1 to 32, as in the diagram, and the numbers name them "
            "when moves are written. On this page Black plays from the top of the board, as in the "
            "books."),
        DIAGRAMS["numbers"],
        Msg("Each player has 12 pieces, called men, on the 12 dark squares nearest them. The two "
            "rows in the middle are empty."),
        DIAGRAMS["start"],
        # Translators: the books call the two sides Black and White; some sets and sites have red
        # pieces instead of black.
        Msg("The books call the two sides Black and White, whatever the colours of the set: on some "
            "sets the dark pieces are red. Black (or red) always moves first. Then the players take "
            "turns, one move each. A player may not pass."),
    ]),
    # Translators: the heading of checkers' moves: say "pieces" with the checkers word (men and kings).
    Section("moves", PMsg("checkers", "How the pieces move"), [
        # Translators: a "man" is an ordinary checkers piece, one that is not a king.
        Sub(Msg("Men")),
        Msg("A man moves one square diagonally forward, towards the opponent's side, to an empty "
            "square. It never moves backward."),
        DIAGRAMS["man"],
        Sub(Msg("Kings")),
        Msg("A king moves one square diagonally, forward or backward, to an empty square. It jumps "
            "forward and backward too. How a man becomes a king is told below, under Crowning."),
        DIAGRAMS["king"],
    ]),
    Section("jumps", Msg("Jumping"), [
        Msg("A piece captures by jumping: it jumps diagonally over an opponent's piece on the next "
            "square and lands on the empty square just beyond it. The piece jumped over is taken "
            "off the board. A man jumps forward only; a king jumps forward and backward. A man may "
            "jump a king."),
        DIAGRAMS["jump"],
        Sub(Msg("Multi-jumps")),
        Msg("If the piece can jump again from the square where it lands, it goes on jumping in the "
            "same move, and it may change direction from one jump to the next. A multi-jump must be "
            "finished: a player may not stop part of the way. No piece may be jumped twice, and the "
            "pieces jumped are taken off when the move is over."),
        DIAGRAMS["multi-jump"],
        Sub(Msg("Jumping is compulsory")),
        Msg("If a player can jump, they must: a plain move is not allowed while a jump is possible. "
            "If the game seems stuck and a piece will not move, this is why: one of your pieces can "
            "jump, and it must."),
        DIAGRAMS["compulsory"],
        Msg("When there are several jumps, the player chooses any one of them, even one that takes "
            "fewer pieces than another: there is no rule to take the most. The jump chosen must "
            "still be finished."),
        DIAGRAMS["choice"],
    ]),
    # Translators: "crowning": a man reaching the far row becomes a king.
    Section("crowning", Msg("Crowning"), [
        Msg("A man that reaches the far row (squares 29 to 32 for Black, 1 to 4 for White) becomes a "
            "king: it is crowned by putting a second piece of its colour on top of it. On this site "
            "a king is a stacked piece with a crown."),
        Msg("Crowning ends the move, even in the middle of a jump: a man that reaches the far row "
            "by a jump stops there, although a king could jump on. The new king moves on the "
            "player's next turn."),
        (DIAGRAMS["crowning"], DIAGRAMS["crowned"]),
    ]),
    Section("end", Msg("How a game ends"), [
        Msg("A player who cannot move when it is their turn loses the game: because all their "
            "pieces have been captured, or because every piece they have left is blocked."),
        DIAGRAMS["blocked"],
        # Translators: to resign: to give up the game, admitting defeat. The "flag" is the small
        # lever of a mechanical clock that falls when the time is up.
        Msg("A player may also resign at any time, and loses. In a game with a clock, a player "
            "whose time runs out (whose flag falls) loses."),
        Sub(Msg("Draws")),
        Msg("A game is drawn in these cases:"),
        [
            Msg("Agreement: one player offers a draw and the other accepts it."),
            # Translators: a player "claims" a draw: asks for it, by the rules.
            Msg("Threefold repetition: the player to move may claim a draw when the same position, "
                "with the same player to move, appears for the third time."),
            Msg("The 40-move rule: the player to move may claim a draw when, during each player's "
                "last 40 moves, no man moved and nothing was captured."),
        ],
    ]),
    Section("notation", Msg("Writing moves"), [
        # Translators: the moves in the placeholders are written with square numbers, "-" and
        # "x"; they stay as they are in every language.
        Msg("A move is written with the numbers of its squares: {step} is a move from 11 to 15. A "
            "jump is written with an x and every square the piece lands on: {jump} jumps from 15 to "
            "24 and on to 31. When only one jump fits, the squares in between may be left out: "
            "{short}.", step="11-15", jump="15x24x31", short="15x31"),
        # Translators: PDN (Portable Draughts Notation) and FEN are the names of formats; keep them.
        Msg("A position is written in FEN, as PDN game files have it: the side to move (B or W), "
            "then White's pieces and Black's, each a list of square numbers with a K before a "
            "king's. For example, {fen} is the starting position.", fen=START_FEN),
    ]),
    Section("here", Msg("Playing on this page"), [
        Msg("To move a piece, click it and then click the square it goes to, or drag it there and "
            "let go. The squares it can reach are marked with dots."),
        Msg("Make a multi-jump one landing square at a time: click each square where the piece "
            "lands, in order. When only one jump ends on a square, clicking that square is "
            "enough."),
        Msg("A plain move tried while a jump is compulsory is refused, and the board says: "
            "“{refusal}”. The pieces that can jump are marked: jump with one of them.",
            refusal=REFUSAL),
        Msg("The buttons under the board:"),
        [
            Msg("Take back: takes back the last move, if the game allows it."),
            Msg("Hint: shows a good move on the board."),
            Msg("Offer draw: offers a draw, which the opponent may accept. Claim draw appears when "
                "a repetition or the 40-move rule lets you claim one."),
            Msg("Resign: gives up the game."),
            # Translators: PDN (Portable Draughts Notation) is the file format of checkers games.
            Msg("Save PDN: saves the game as a PDN file, which other checkers programs read."),
        ],
    ]),
]

FOOTER = Msg("Written from the rules of the World Checkers/Draughts Federation (WCDF), which "
             "American checkers is played by. Where this page and those rules differ, the rules "
             "decide.")

CHECKERS = Book("checkers", TITLE, INTRO, SECTIONS, FOOTER, OTHER_GAME, "chess", CheckersDiagram,
                checkers_svg)


def messages() -> list[Msg]:
    """Every message of the checkers page, in the order it comes (each once)."""
    return book_messages(CHECKERS)


def diagrams() -> list[CheckersDiagram]:
    """The diagrams of the checkers page, in the order they come."""
    return book_diagrams(CHECKERS)


def checkers_rules_page(code: str) -> str:
    """The checkers "How to play" page in a language (English for a code Jitfish does not
    speak), as a complete HTML document."""
    return book_page(CHECKERS, code)
