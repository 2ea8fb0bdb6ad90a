"""Evaluation training: self-play data (in-process generator, chunk format), Texel tuning of the hand-crafted weights, the network trainer."""
