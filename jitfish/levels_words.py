"""What a level of the human model is, in words a person reads in their language: one source for
the terminal game (`jitfish play`) and the browser game's server (search/levels.py's `plays_like`
is the English for logs and tools)."""

from __future__ import annotations

from search.levels import level_for_elo

from jitfish.i18n import Msg


def plays_like_words(elo: int) -> Msg | None:
    """"plays like a lichess 1200 player" (the rating to the nearest 50), "... who blunders less"
    for a level with a veto; None for the levels that weaken the search (and full strength)."""
    level = level_for_elo(elo)
    if level is None or not level.human:
        return None
    rating = round(level.human / 50) * 50
    if level.veto is None:
        return Msg("plays like a lichess {rating} player", rating=rating)
    return Msg("plays like a lichess {rating} player who blunders less", rating=rating)


def plays_like_sentence(elo: int, robot: str) -> Msg | None:
    """The same said of the robot by name, as one sentence ("Jitfish 1400 plays like a lichess 1400
    player."), for the terminal game; None where `plays_like_words` is."""
    level = level_for_elo(elo)
    if level is None or not level.human:
        return None
    rating = round(level.human / 50) * 50
    if level.veto is None:
        return Msg("{robot} plays like a lichess {rating} player.", robot=robot, rating=rating)
    return Msg("{robot} plays like a lichess {rating} player who blunders less.", robot=robot, rating=rating)
