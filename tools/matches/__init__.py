"""Matches and Elo: the match runner with its SPRT, Elo statistics, engine processes, adjudication, the runner's clock, the soak and ladder, frozen copies, where games turned, tactics suites."""
