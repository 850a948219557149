"""French (and later other) catalogues of the engine's texts; see :mod:`oriflamme.i18n`."""
