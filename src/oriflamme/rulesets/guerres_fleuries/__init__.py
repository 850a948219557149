"""Les Guerres Fleuries (seed ``003_97839088d07a509e.txt``): Aztec fantasy miniatures.

Part 1 (issue 12): every table as cited data (``data/``), the referee (``referee/``), the army
builder. Part 2 (issue 13): battles on the table. Readings: ``shared/SEED-NOTES-guerres-fleuries.md``
(GF-A1 … GF-K5), cited in each row's ``decision``.
"""
