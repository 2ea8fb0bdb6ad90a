"""Static evaluation and its parameters."""
