"""Developer scripts: match runner, tuning, magic generation."""
