"""The leader-activation battle game (seed 001): a unit-scale battle whose sequence of play
(A–E) and fire rules come from the seed, and whose unit values, tables, command and rally are
Oriflamme's house rules (docs/leader-battle.md)."""
