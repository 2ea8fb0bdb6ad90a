"""Self-play for training data, the whole game loop in numba: no UCI pipe, no python-chess per move.

One call of `play_game` plays a game from the position in `pos` to its end: each move is an
iterative-deepening search (the engine's own `search`, aspiration windows from depth 4, like
search/driver.py) that starts no new iteration once it has used `soft_nodes` and is cut off at
`hard_nodes` (the last finished iteration then decides). A game ends by the rules (mate,
stalemate, threefold repetition, fifty moves, dead material) or by adjudication on the search
scores: a win when the score has said so for WIN_PLIES plies in a row, a draw when it has stayed
near zero for DRAW_PLIES plies after DRAW_FROM_PLY, a draw at `max_plies`. Every move played is
the search's choice, so what a position's best move was (a capture? a promotion?) can be read
from the game itself.

`random_opening` makes the random plies a game starts with. Everything random comes from a
splitmix64 state the caller seeds, so (seed, game) always give the same game at a node limit.
"""

import numpy as np

from engine.defs import INFINITE, MATE_IN_MAX, MAX_MOVES, MAX_PLY, ST_PLY, ST_SIDE, WHITE
from engine.draw import fifty_move_counter_expired, insufficient_material, repetitions
from engine.kernel import kernel, threaded_kernel
from engine.move import sort_moves
from engine.movegen import ALL, generate
from engine.position import in_check, make_move
from search.search import search
from search.workspace import (CTL_GENERATION, CTL_NODE_LIMIT, CTL_NODES, CTL_PROVE_MATE, CTL_ROOT_COUNT,
                              CTL_ROOT_FIRST, CTL_ROOT_PLY, CTL_SELDEPTH, CTL_STOP, CTL_TB_PIECES, WS_CTL,
                              WS_PV, WS_PV_LEN, WS_ROOT_MOVES)

ASPIRATION_DELTA = 20        # as search/driver.py
WIN_SCORE = 1000             # adjudicated a win after WIN_PLIES plies at or beyond this ...
WIN_PLIES = 6                # ... (three moves of each side agreeing)
DRAW_SCORE = 10              # adjudicated a draw after DRAW_PLIES plies within this ...
DRAW_PLIES = 12
DRAW_FROM_PLY = 80           # ... from this ply of the game on

# Results, as play_game returns them.
BLACK_WINS, DRAW, WHITE_WINS = 0, 1, 2


@kernel
def next_random(rng):
    """The next 64 random bits (as int64) of the splitmix64 state rng[0]."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64((z ^ (z >> np.uint64(31))) >> np.uint64(1))


@kernel
def game_over(tab, pos, moves):
    """The result if the game is over by the rules (BLACK_WINS, DRAW, WHITE_WINS), else -1; leaves
    the legal moves in `moves` and their count in the return value's second slot."""
    n = generate(tab, pos, moves, 0, ALL)
    if n == 0:
        if in_check(tab, pos):
            return (BLACK_WINS if pos[1][ST_SIDE] == WHITE else WHITE_WINS), n
        return DRAW, n
    if insufficient_material(pos) or fifty_move_counter_expired(pos) \
            or repetitions(pos, pos[1][ST_PLY], 2) >= 2:
        return DRAW, n
    return -1, n


@kernel
def _promote(ws, move, count):
    """Move `move` to the front of the root move list."""
    i = 0
    while i < count and ws[WS_ROOT_MOVES + i] != move:
        i += 1
    while i > 0:
        ws[WS_ROOT_MOVES + i] = ws[WS_ROOT_MOVES + i - 1]
        i -= 1
    ws[WS_ROOT_MOVES] = move


@kernel
def think(tab, pos, ws, tt, moves, n, soft_nodes, hard_nodes):
    """Search the position (its legal moves in moves[:n]); (best move, score for the side to move,
    nodes). Depth 1 always finishes."""
    ctl = WS_CTL
    ws[ctl + CTL_NODES] = 0
    ws[ctl + CTL_SELDEPTH] = 0
    ws[ctl + CTL_STOP] = 0
    ws[ctl + CTL_NODE_LIMIT] = 0
    ws[ctl + CTL_GENERATION] = (ws[ctl + CTL_GENERATION] + 1) & 63
    ws[ctl + CTL_ROOT_PLY] = pos[1][ST_PLY]
    ws[ctl + CTL_ROOT_FIRST] = 0
    ws[ctl + CTL_ROOT_COUNT] = n
    ws[ctl + CTL_PROVE_MATE] = 0
    ws[ctl + CTL_TB_PIECES] = 0
    for i in range(n):
        ws[WS_ROOT_MOVES + i] = moves[i]
    best, best_score = moves[0], np.int64(0)
    cut = np.bool_(False)
    ply = np.int64(0)
    for depth in range(1, MAX_PLY - 4):
        alpha, beta = -np.int64(INFINITE), np.int64(INFINITE)
        delta = np.int64(ASPIRATION_DELTA)
        if depth >= 4 and abs(best_score) < MATE_IN_MAX:
            alpha, beta = max(best_score - delta, -INFINITE), min(best_score + delta, INFINITE)
        score = np.int64(0)
        while True:
            score = search(tab, pos, ws, tt, alpha, beta, np.int64(depth), ply, cut)
            if ws[ctl + CTL_STOP]:
                break
            if score <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(score - delta, -INFINITE)
            elif score >= beta:
                beta = min(score + delta, INFINITE)
            else:
                break
            delta += delta // 2 + 5
        if ws[ctl + CTL_STOP]:
            break
        if ws[WS_PV_LEN] > 0:
            best = ws[WS_PV]
        best_score = score
        _promote(ws, best, n)
        if depth == 1:
            ws[ctl + CTL_NODE_LIMIT] = hard_nodes
        if ws[ctl + CTL_NODES] >= soft_nodes or n == 1:
            break
        if abs(score) >= MATE_IN_MAX and depth > MATE_IN_MAX - abs(score) + 8:
            break
    return best, best_score, ws[ctl + CTL_NODES]


@kernel
def move_index(moves, n, move):
    """Index of `move` in moves[:n] (sorted canonically first)."""
    sort_moves(moves, n)
    for i in range(n):
        if moves[i] == move:
            return i
    return -1


@threaded_kernel
def random_opening(tab, pos, moves, rng, plies):
    """Play `plies` uniformly random legal moves on `pos`; False if the game ended on the way (the
    caller starts again from a fresh position)."""
    for _ in range(plies):
        result, n = game_over(tab, pos, moves)
        if result >= 0:
            return False
        sort_moves(moves, n)                   # the generator's order must not matter
        make_move(tab, pos, moves[next_random(rng) % n])
    result, n = game_over(tab, pos, moves)
    return result < 0


@threaded_kernel
def evaluate_start(tab, pos, ws, tt, moves, soft_nodes, hard_nodes):
    """The search score of a game's start position for the side to move (to filter unbalanced
    openings)."""
    result, n = game_over(tab, pos, moves)
    if n == 0:
        return 0
    best, score, nodes = think(tab, pos, ws, tt, moves, n, soft_nodes, hard_nodes)
    return score


@kernel
def adjudicate(win_run, draw_run, plies, white_score):
    """After `plies` plies, the last searched `white_score` (White's view): the runs of plies
    agreeing on a win (signed, + for White) and near a draw, and the adjudicated result or -1."""
    if abs(white_score) >= WIN_SCORE:
        if win_run != 0 and (win_run > 0) == (white_score > 0):
            win_run += 1 if win_run > 0 else -1
        else:
            win_run = 1 if white_score > 0 else -1
    else:
        win_run = 0
    if abs(win_run) >= WIN_PLIES:
        return win_run, draw_run, WHITE_WINS if win_run > 0 else BLACK_WINS
    draw_run = draw_run + 1 if plies > DRAW_FROM_PLY and abs(white_score) <= DRAW_SCORE else 0
    return win_run, draw_run, DRAW if draw_run >= DRAW_PLIES else -1


@threaded_kernel
def play_game(tab, pos, ws, tt, moves, soft_nodes, hard_nodes, max_plies, indices, scores, stats):
    """Play the game out from `pos`. Per ply, indices[ply] gets the move's canonical index and
    scores[ply] the search score for the side to move; returns (result, plies). stats[0] counts
    the nodes searched."""
    win_run = 0
    draw_run = 0
    plies = 0
    result = DRAW
    while True:
        over, n = game_over(tab, pos, moves)
        if over >= 0:
            result = over
            break
        if plies >= max_plies:
            break
        best, score, nodes = think(tab, pos, ws, tt, moves, n, soft_nodes, hard_nodes)
        stats[0] += nodes
        indices[plies] = move_index(moves, n, best)
        scores[plies] = score
        plies += 1
        white_score = score if pos[1][ST_SIDE] == WHITE else -score
        make_move(tab, pos, best)
        win_run, draw_run, adjudged = adjudicate(win_run, draw_run, plies, white_score)
        if adjudged >= 0:
            result = adjudged
            break
    return result, plies


@threaded_kernel
def play_between(tab, pos, ws_white, tt_white, ws_black, tt_black, moves, soft_nodes, hard_nodes, max_plies):
    """Play the game out from `pos` between two searchers (each its own workspace and table, so
    each its own tunables and histories); the result (BLACK_WINS, DRAW, WHITE_WINS). The same
    node limits and adjudication as play_game."""
    win_run = 0
    draw_run = 0
    plies = 0
    while True:
        over, n = game_over(tab, pos, moves)
        if over >= 0:
            return over
        if plies >= max_plies:
            return DRAW
        white = pos[1][ST_SIDE] == WHITE
        ws, tt = (ws_white, tt_white) if white else (ws_black, tt_black)
        best, score, nodes = think(tab, pos, ws, tt, moves, n, soft_nodes, hard_nodes)
        plies += 1
        make_move(tab, pos, best)
        win_run, draw_run, adjudged = adjudicate(win_run, draw_run, plies, score if white else -score)
        if adjudged >= 0:
            return adjudged
