"""Les Guerres Fleuries on the 180 × 120 cm table (issue 13): the battle state, the 11-phase turn
with hidden orders, moves, the scenario and victory (gf-engine), the geometry, terrain and
battlefield (gf-geom), fire, melee, morale and rallies (gf-combat). docs/guerres-fleuries/battle.md."""
