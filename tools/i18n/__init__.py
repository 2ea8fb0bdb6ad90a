"""Tools for the translations: catalogues and the web game's fonts."""
