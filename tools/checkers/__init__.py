"""Tools for the checkers core (checkers/): its speed benchmark against the Python libraries."""
