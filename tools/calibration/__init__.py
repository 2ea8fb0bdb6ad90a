"""Level calibration: the pairings against anchors, the fit of one Elo scale, the floor anchors, how human the mistakes are."""
