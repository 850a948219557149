"""Croisades (the Cry Havoc family's crusades box) as an edition of La Magna Carta: its desert,
house and castle terrain tables, its 5-step player phase with cavalry charge announcements,
and a desert scenario. Rules: seed ``000_7acb1efea71e29cd.txt`` (cited ``CR seed 000 l.N``)."""
