"""French (and later other) catalogues of the engine's texts; see :mod:`oriflamme.rulesets.magna_carta.i18n`."""
