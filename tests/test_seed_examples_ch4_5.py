"""The worked examples of La Magna Carta v1.2 (seed 004), chapters 4 and 5 (and the mounted
javelin of §7.5), re-created on small inline boards and played through the engine.

The seed's pictures are lost: each test builds the simplest board that makes every sentence of
its example true, and its docstring says how the geometry was read. Positions are written as
map labels (``CCRR``) and, where it helps, as directions from a hex (N, NE, SE, S, SW, NW;
flat-topped hexes, see ``oriflamme.geometry.hexgrid``). Each docstring quotes the sentence it checks.

Where the engine disagreed with the seed (§7.5 example 2, the three javelins) the engine was fixed.
"""

from __future__ import annotations

import pytest

from gamekit import H, ScriptedDice, game, fork
from oriflamme.rulesets.magna_carta.engine import Attack, EndStep, Fire, IllegalAction, Move, apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.actions import Advance, Designate, Retreat, Volley
from oriflamme.rulesets.magna_carta.engine.state import MELEE, MOVEMENT, OFFENSIVE_FIRE
from oriflamme.geometry.hexgrid import DIRECTION_NAMES, in_front_arc

OPEN = [" ".join("." * 10)] * 10


def infiltrations(st) -> list[tuple[str, str]]:
    """The infiltration tests (§4.3) rolled so far: (opposer, hex crossed)."""
    return [(e["opposer"], e["hex"]) for e in st.log if e["type"] == "infiltration"]


def with_row(rows, row: int, col: int, sym: str):
    """``rows`` with the terrain of the hex at 1-based ``col``/``row`` replaced by ``sym``."""
    out = [r.split(" ") for r in rows]
    out[row - 1][col - 1] = sym
    return [" ".join(r) for r in out]


# === §4.3 Infiltration des lignes ennemies ======================================================
# Example 1. Bohémond, a knight on foot (4 PM), in 0407; the two Saracen foot soldiers in 0305
# (NW-N of him) and 0404 (straight N), both 3 hexes away and side by side. He walks N to 0406
# (next to nobody), NW to 0306 — the first orange hex, next to 0305 only — and NE to 0405 — the
# second orange hex, next to both, from which he can attack them.
EX1 = [("bohemond", "knight_on_foot", "A", "0407"), ("s1", "spearman", "B", "0305"),
       ("s2", "spearman", "B", "0404")]
EX1_PATH = ("0406", "0306", "0405")


def test_s4_3_example1_one_test_on_the_first_orange_hex_none_on_the_second():
    """MC §4.3 Exemple 1: « il s'arrête sur la première case orangée. Le joueur adversaire place
    une attaque d'opportunité et jette immédiatement 1D10. [...] A noter : il ne peut pas y avoir
    d'attaque d'opportunité sur la seconde case orange. » — and §4.3: « Un personnage qui termine
    son mouvement sur une case adjacente à l'ennemi n'entraîne pas de lancer de dé. »"""
    st = game(OPEN, EX1, step=MOVEMENT, dice=[3])
    apply(st, Move("bohemond", EX1_PATH))
    assert infiltrations(st) == [("s1", "0306")]  # one die, by the only soldier next to 0306
    assert st.dice.values == []
    b = st.characters["bohemond"]
    assert b.hex == H("0405") and b.status == "healthy"
    # from the second orange hex he can attack both soldiers in his combat step
    assert H("0405").distance(H("0305")) == H("0405").distance(H("0404")) == 1


def test_s4_3_example1_the_result_may_stop_him_on_the_first_orange_hex():
    """MC §4.3 Exemple 1: « Bohémond peut éventuellement poursuivre le mouvement en fonction du
    résultat de la table. » — §4.3.1: « 6 ou 7 Arrêt du déplacement ». Die 7, the armoured
    infiltrator's −1 makes 6: stopped."""
    st = game(OPEN, EX1, step=MOVEMENT, dice=[7])
    apply(st, Move("bohemond", EX1_PATH))
    ev = [e for e in st.log if e["type"] == "infiltration"]
    assert ev[0]["ruling"]["result"] == "stop" and ev[0]["ruling"]["modified_die"] == 6
    assert st.characters["bohemond"].hex == H("0306")


def test_s4_3_one_test_per_enemy_per_phase():
    """MC §4.3: « Le personnage subit autant d'attaques d'opportunité qu'il y a d'ennemis qui
    remplissent les conditions (une seule attaque par ennemi et par phase). » Example 1's board,
    Bohémond going on past the second orange hex (next to both soldiers) to 0505: the soldier in
    0305, who tested him in 0306, cannot test him again; the one in 0404 can."""
    st = game(OPEN, EX1, step=MOVEMENT, dice=[3, 3])
    apply(st, Move("bohemond", EX1_PATH + ("0505",)))
    assert infiltrations(st) == [("s1", "0306"), ("s2", "0405")]
    assert st.dice.values == [] and st.characters["bohemond"].hex == H("0505")


# Example 2. Bohémond (knight on foot, 4 PM) in 0407 wants to reach Ali the Syrian in 0404.
# Left route 0307 → 0306 (a tree) → 0305; the mounted mameluke stands in 0204 facing N (his
# horse in 0205), next to the tree 0306 and to the final hex 0305 only. Right route 0507 → 0506
# → 0505; the Fatimid pikeman in 0606 is next to 0507 and 0506. 0305 and 0505 are next to Ali.
EX2 = [("bohemond", "knight_on_foot", "A", "0407"), ("ali", "spearman", "B", "0404"),
       ("mameluke", "light_cavalry", "B", "0204", {"facing": "N"}), ("pikeman", "pikeman", "B", "0606")]
EX2_ROWS = with_row(OPEN, 6, 3, "T")  # 0306 is a tree


def test_s4_3_example2_a_mounted_enemy_cannot_oppose_a_man_under_a_tree():
    """MC §4.3 Exemple 2: « il vaut mieux passer par le chemin adjacent au mamelouk monté car ce
    dernier ne peut pas attaquer le Normand qui est sous un arbre, et il n'y a donc pas d'attaque
    d'opportunité. » — §4.3.1.1: « Un ennemi ne peut faire un test d'infiltration que s'il est en
    mesure d'attaquer la case [...] s'il est à cheval et que l'infiltration a lieu dans une case
    forêt. » No die at all (ScriptedDice fails on any roll)."""
    st = game(EX2_ROWS, EX2, step=MOVEMENT, dice=[])
    r = explain(st, Move("bohemond", ("0307", "0306", "0305")))
    assert r.legal and r.data["cost"] == 4  # 1 + tree 2 + 1 (§3.1): his whole allowance
    apply(st, Move("bohemond", ("0307", "0306", "0305")))
    assert infiltrations(st) == [] and st.characters["bohemond"].hex == H("0305")
    # the mameluke stands next to the tree: only the tree saves Bohémond — on clear ground he tests
    st = game(OPEN, EX2, step=MOVEMENT, dice=[3])
    apply(st, Move("bohemond", ("0307", "0306", "0305")))
    assert infiltrations(st) == [("mameluke", "0306")]


def test_s4_3_example2_the_right_route_is_tested_by_the_pikeman_and_not_on_the_final_hex():
    """MC §4.3 Exemple 2: « Inversement, passer plus à droite entraîne un test d'infiltration à
    cause du piquier fatimide. Dans les deux cas, il n'y a pas de tests d'infiltration sur la
    case finale ». The pikeman's polearm counts against the infiltrator (§4.3.1 « Arme d'hast
    +1 »), the knight's armour for him (« Armure -1 »): die 5 stays 5."""
    st = game(EX2_ROWS, EX2, step=MOVEMENT, dice=[5])
    apply(st, Move("bohemond", ("0507", "0506", "0505")))
    assert infiltrations(st) == [("pikeman", "0507")]  # once, though 0506 is next to him too
    ev = [e for e in st.log if e["type"] == "infiltration"][0]
    assert ev["ruling"]["modified_die"] == 5 and ev["ruling"]["result"] == "none"
    assert st.characters["bohemond"].hex == H("0505")  # next to Ali: no test there


# Example 3. Bohémond (knight on foot, attack 20) in 0407 attacks the Syrian foot soldier
# (spearman, defence 6) in 0406: 20:6 = 3-1, die 4 → C, the defender retreats one hex (§6.5);
# he retreats N to 0405. Bohémond advances into 0406 (the hex the Syrian left, next to the
# Syrian's new hex) and stops in 0306 (§6.6: 2 hexes on foot).
EX3 = [("bohemond", "knight_on_foot", "A", "0407"), ("syrian", "spearman", "B", "0406")]


def _ex3(extra=(), dice=(4,)):
    st = game(OPEN, EX3 + list(extra), step=MELEE, dice=list(dice))
    apply(st, Attack(("bohemond",), ("syrian",)))
    assert st.pending[0].kind == "retreat"
    apply(st, Retreat("syrian", ("0405",)))
    assert st.pending and st.pending[0].kind == "advance"
    assert Advance("bohemond", ("0406", "0306")) in legal_actions(st)
    apply(st, Advance("bohemond", ("0406", "0306")))
    return st


def test_s4_3_example3_the_defeated_cannot_test_the_advance_after_combat():
    """MC §4.3 Exemple 3: « Bohémond avance après combat en passant d'abord sur la case occupée
    précédemment par le syrien puis s'arrête sur une deuxième case. Il n'y a pas de test
    d'infiltration. » — « En cas d'avance après combat, le ou les personnages vaincus ne peuvent
    pas déclencher un test d'infiltration. » Only the combat die is rolled."""
    st = _ex3()
    assert st.characters["bohemond"].hex == H("0306")
    assert H("0406").distance(st.characters["syrian"].hex) == 1  # the crossed hex is next to him
    assert infiltrations(st) == [] and st.dice.values == []


def test_s4_3_advance_after_combat_is_tested_by_an_enemy_out_of_the_combat():
    """MC §4.3: « Seuls les avances ou reculs de plus d'une case donne lieu à test d'infiltration
    sur la ou les cases traversées avant la case de destination finale. » Example 3 with another
    Saracen in 0506 (next to 0406, in no combat, §6.6 N.B.): he tests the advance; the Syrian
    still does not."""
    st = _ex3(extra=[("other", "spearman", "B", "0506")], dice=(4, 2))
    assert infiltrations(st) == [("other", "0406")]
    assert st.characters["bohemond"].hex == H("0306")


# Example 4. Sir Amalric, a Templar on foot (knight on foot, armoured), in 0606; the crossbowman
# in 0206, 4 hexes due west (the line runs along hexsides). Reading of the lost picture: the
# fire comes from the west, so the first retreat hex must be one of the two hexes farther from
# the crossbowman, H1 = 0706 (NE of Amalric) and H4 = 0707 (SE); the "case Nord-Ouest de H1" is
# 0605 (N of Amalric), no farther from the shooter. Enemies: one next to H1 in 0805, two next to
# H4 in 0807 and 0708; none next to 0605. Blue 0706 → 0705, red 0706 → 0806, green 0707 → 0806;
# the route 0605 → H2 = 0604 would cross no threatened hex.
EX4 = [("crossbowman", "crossbowman", "A", "0206"), ("amalric", "knight_on_foot", "B", "0606"),
       ("e1", "spearman", "A", "0805"), ("e2", "spearman", "A", "0807"), ("e3", "spearman", "A", "0708")]
BLUE, RED, GREEN = ("0706", "0705"), ("0706", "0806"), ("0707", "0806")


def _ex4(tests):
    """Crossbow at 4 hexes (short), Amalric armoured (+1): die 5 → 6 in column 2 → A, retreat 2
    hexes (§5.4.3); then one die per infiltration test."""
    st = game(OPEN, EX4, step=OFFENSIVE_FIRE, dice=[5] + [1] * tests)
    apply(st, Fire("crossbowman", "amalric"))
    assert st.pending and st.pending[0].kind == "retreat" and st.pending[0].chars == ["amalric"]
    return st


def test_s4_3_example4_three_routes():
    """MC §4.3 Exemple 4: « Sir Amalric doit subir un recul de 2 cases suite à un tir d'arbalète.
    Le templier a le choix entre 3 itinéraires » — « la première case du mouvement de recul doit
    être opposée à la direction du feu ennemi. Sir Amalric ne peut donc pas reculer dans la case
    « Nord-Ouest » de H1 et terminer en H2. »"""
    st = _ex4(0)
    opts = legal_actions(st)
    assert all(isinstance(a, Retreat) for a in opts)
    assert sorted(a.path for a in opts) == sorted([BLUE, RED, GREEN])
    assert Retreat("amalric", ("0605", "0604")) not in opts


@pytest.mark.parametrize("route, expected", [
    (BLUE, [("e1", "0706")]),
    (RED, [("e1", "0706")]),
    (GREEN, [("e2", "0707"), ("e3", "0707")]),
])
def test_s4_3_example4_tests_on_each_route(route, expected):
    """MC §4.3 Exemple 4: « un seul test d'infiltration en H1 pour le trajet bleu - un test
    également en H1 pour le trajet rouge - deux tests en H4 pour le tracé vert. » — « Le test
    d'infiltration s'applique normalement [...] pour toutes les cases traversées, à l'exception de
    la case de destination. » (H1 = 0706, H4 = 0707)"""
    st = _ex4(len(expected))
    apply(st, Retreat("amalric", route))
    assert infiltrations(st) == expected and st.dice.values == []
    assert st.characters["amalric"].hex == H(route[-1])


def test_s4_3_example4_he_cannot_avoid_the_test():
    """MC §4.3 Exemple 4: « Il ne peut donc pas éviter le test d'infiltration. » The route through
    0605 is refused with the rule, the state unchanged."""
    st = _ex4(0)
    before = st.digest()
    with pytest.raises(IllegalAction) as e:
        apply(st, Retreat("amalric", ("0605", "0604")))
    assert "not one of the options" in e.value.reason
    assert st.digest() == before
    # every route offered crosses a threatened hex
    for a in legal_actions(st):
        st2 = fork(st)
        st2.dice = ScriptedDice([1, 1])
        apply(st2, a)
        assert infiltrations(st2)


# === §4.3.2 La volte ===========================================================================
# Example 5. Bohémond, a mounted knight, front hex 0606 facing N (his horse's rear in 0607). The
# Sudanese stands on a central side hex, 0707 (SE of the front, NE of the rear); the two other
# Saracens on a front side hex, 0506 (NW of the front), and a rear side hex, 0708 (SE of the rear).
EX5 = [("bohemond", "knight", "A", "0606", {"facing": "N"}), ("sudanese", "spearman", "B", "0707"),
       ("saracen1", "spearman", "B", "0506"), ("saracen2", "spearman", "B", "0708")]


def test_s4_3_2_example5_only_the_sudanese_opposes_the_volte():
    """MC §4.3.2 Exemple 5: « Bohémond veut faire une volte-face. Seul le soudanais (encore lui !)
    pourra s'y opposer par une attaque d'opportunité car il est sur une des 2 cases latérales
    centrales. Les 2 autres sarrasins ne peuvent pas s'y opposer. » The volte (front into the rear
    hex 0607, 3 PM) then one step on, S to 0608."""
    st = game(OPEN, EX5, step=MOVEMENT, dice=[3])
    assert explain(st, Move("bohemond", ("0607", "0608"))).data["cost"] == 3 + 1
    apply(st, Move("bohemond", ("0607", "0608")))
    ev = [e for e in st.log if e["type"] == "infiltration"]
    assert [(e["opposer"], e["ref"]) for e in ev] == [("sudanese", "MC §4.3.2")]
    assert st.dice.values == []
    b = st.characters["bohemond"]
    assert [h.label for h in b.hexes] == ["0608", "0607"] and DIRECTION_NAMES[b.facing] == "S"


def test_s4_3_2_without_central_side_enemies_the_volte_is_free():
    """MC §4.3.2: « si les ennemis ne sont au contact que sur des cases frontales ou latérales
    avant ou arrière, alors un cavalier peut effectuer une volte pendant sa phase de mouvement, et
    s'éloigner tranquillement, sans faire l'objet d'un « test d'infiltration » ». Example 5
    without the Sudanese, and an enemy straight in front (0605) too: no die."""
    chars = [c for c in EX5 if c[0] != "sudanese"] + [("front", "spearman", "B", "0605")]
    st = game(OPEN, chars, step=MOVEMENT, dice=[])
    apply(st, Move("bohemond", ("0607", "0608")))
    assert infiltrations(st) == [] and st.characters["bohemond"].hex == H("0608")


# === §4.4.1 Faire tourner le cheval ==============================================================
# The lost figure: the cost of each hex around the two-hex counter "par rapport à la position
# initiale du cavalier". Read as: ahead (the arrow's hex and the two beside it) +0, the two
# central side hexes +1, the two rear side hexes +2, straight behind +3; half-turn on the spot 3.
#: (hex of the counter the step leaves from, direction relative to the facing, extra cost)
FIGURE = [("front", 0, 0), ("front", 1, 0), ("front", 5, 0), ("front", 2, 1), ("front", 4, 1),
          ("rear", 2, 2), ("rear", 4, 2), ("rear", 3, 3)]


@pytest.mark.parametrize("facing", ["N", "SE"])
def test_s4_4_1_turning_cost_figure(facing):
    """MC §4.4.1: « Pour avancer sur la case vers laquelle pointe la flèche ou sur l'une des deux
    cases directement adjacentes, le cavalier dépense ses points de mouvement normalement. Par
    contre, si le cavalier fait tourner son cheval de façon plus marquée, il doit dépenser un,
    deux ou trois points de plus que le coût normal de la case » ; « N.B. Un cavalier qui effectue
    un demi-tour complet sur place dépense trois points de mouvement. » ; « Les flèches indiquent
    les rangées d'hexagones qui délimitent l'arc frontal du cavalier ». Every hex around the
    counter (on clear ground, 1 PM), for two facings."""
    st = game(OPEN, [("k", "knight", "A", "0505", {"facing": facing}), ("z", "spearman", "B", "1010")],
              step=MOVEMENT)
    k = st.characters["k"]
    f = DIRECTION_NAMES.index(facing)
    seen = set()
    for where, rel, extra in FIGURE:
        h = (k.hex if where == "front" else k.rear).neighbour(f + rel)
        seen.add(h)
        r = explain(st, Move("k", (h.label,)))
        assert r.legal and r.data["cost"] == 1 + extra, (where, rel, r.data)
        assert in_front_arc(k.hex, k.facing, h) == (extra == 0)
    ring = {n for x in k.hexes for n in x.neighbours()} - set(k.hexes)
    assert seen == ring  # the figure covers the whole ring of 8 hexes
    assert explain(st, Move("k", (k.rear.label,))).data["cost"] == 3  # the half-turn


def test_s4_4_1_turning_cost_is_added_to_the_terrain():
    """MC §4.4.1: « un, deux ou trois points de plus que le coût normal de la case ». A central
    side hex of brush: 4 PM for a rider (§3.1) + 1."""
    side = H("0505").neighbour(2)  # SE of the front, facing N
    rows = with_row(OPEN, side.row + 1, side.col + 1, "b")
    st = game(rows, [("k", "knight", "A", "0505", {"facing": "N"}), ("z", "spearman", "B", "1010")], step=MOVEMENT)
    assert explain(st, Move("k", (side.label,))).data["cost"] == 4 + 1


# === §5.3 Tir défensif ===========================================================================
def test_s5_3_three_shooters_designated_the_third_has_fired():
    """MC §5.3: « si un joueur désigne, par exemple, trois tireurs et que le personnage ennemi est
    tué dès le deuxième tir, le troisième tireur aura tout de même tiré. » Three crossbowmen of B
    ready for defensive fire; A's spearman walks down column 01. The first misses (die 10, then a
    harmless stray-shot die 10), the second kills (die 1 → C), the third rolls nothing."""
    chars = [("a", "spearman", "A", "0101"), ("f", "spearman", "A", "1001"), ("x", "crossbowman", "B", "0610"),
             ("y", "crossbowman", "B", "0810"), ("z", "crossbowman", "B", "1010")]
    st = game(OPEN, chars, step=MOVEMENT, dice=[10, 10, 1])
    st.defensive_fire.defensive_ready = {"x", "y", "z"}
    apply(st, Move("a", ("0102", "0103", "0104")))
    for s in ("x", "y", "z"):
        apply(st, Designate(s))
    apply(st, Volley())
    assert [(e["shooter"], e["result"]) for e in st.log if e["type"] == "fire"] == [("x", "-"), ("y", "C")]
    assert not st.characters["a"].alive and st.dice.values == []
    assert st.defensive_fire.df_fired == {"x", "y", "z"}


# === §5.5.4 Cavaliers à couvert ===================================================================
def test_s5_5_4_rider_on_clear_and_brush_has_light_cover():
    """MC §5.5.4: « Exemple: un personnage à cheval qui occupe une case terrain plat et une case
    broussailles bénéficie d'une couverture légère. » A knight facing S, front in 0505 (clear),
    horse's rear in 0504 (brush); an archer in 0510 aims at the nearer, clear front hex."""
    rows = with_row(OPEN, 4, 5, "b")
    st = game(rows, [("x", "archer", "A", "0510"), ("k", "knight", "B", "0505", {"facing": "S"})],
              step=OFFENSIVE_FIRE)
    r = explain(st, Fire("x", "k"))
    assert r.legal and r.data["cover"] == "light"
    assert "0505" in r.steps[0].text  # aimed at the clear hex, the brush's cover still counts
    st = game(OPEN, [("x", "archer", "A", "0510"), ("k", "knight", "B", "0505", {"facing": "S"})],
              step=OFFENSIVE_FIRE)
    assert explain(st, Fire("x", "k")).data["cover"] == "none"


# === §7.5 Lanceurs de javelot montés ================================================================
# The turcopole: a light rider armed with the mounted javelin, front hex 0406 facing N.
TURCOPOLE = ("turcopole", "light_cavalry", "A", "0406", {"facing": "N", "weapon": "javelin_mounted"})


def test_s7_5_example1_javelin_only_in_the_front_arc():
    """MC §7.5: « Pour pouvoir lancer un javelot, le lanceur doit toujours avoir la cible dans son
    arc frontal. Exemple 1 : Le turcopole peut tirer sur les 2 fantassins syriens mais pas sur les
    2 piquiers fatimides. » Syrians ahead in 0403 (3 hexes N) and 0503 (4 hexes, NNE); pikemen on
    his flanks in 0708 (3 hexes ESE) and 0108 (3 hexes WSW), outside the arc."""
    st = game(OPEN, [TURCOPOLE, ("syrian1", "spearman", "B", "0403"), ("syrian2", "spearman", "B", "0503"),
                     ("pike1", "pikeman", "B", "0708"), ("pike2", "pikeman", "B", "0108")], step=OFFENSIVE_FIRE)
    for t in ("syrian1", "syrian2"):
        assert explain(st, Fire("turcopole", t)).legal, t
    for t in ("pike1", "pike2"):
        r = explain(st, Fire("turcopole", t))
        assert not r.legal and "front arc" in r.reason and "§7.5" in r.reason, t
    assert {a.target for a in legal_actions(st) if isinstance(a, Fire)} == {"syrian1", "syrian2"}


# Example 2: two friends on foot next to the turcopole, in 0405 (N) and 0306 (NW). The Syrians at
# 3 hexes, 0403 (the line crosses 0405) and 0105 (the line crosses 0306); the Fatimid pikeman at
# 2 hexes, 0305 (the line runs along the hexside between 0405 and 0306: over one or the other).
EX7_5_2 = [TURCOPOLE, ("friend1", "spearman", "A", "0405"), ("friend2", "spearman", "A", "0306"),
           ("syrian1", "spearman", "B", "0403"), ("syrian2", "spearman", "B", "0105"),
           ("pikeman", "pikeman", "B", "0305")]


def test_s7_5_example2_not_over_a_friend_at_two_hexes():
    """MC §7.5: « Un lanceur de javelot peut tirer par dessus un personnage ami à pied, qui lui est
    adjacent. Cela n'est possible que si la cible se trouve au moins à 3 cases de distance du
    tireur. » Exemple 2: « [...] mais pas sur le piquier fatimide. »"""
    st = game(OPEN, EX7_5_2, step=OFFENSIVE_FIRE)
    r = explain(st, Fire("turcopole", "pikeman"))
    assert not r.legal


def test_s7_5_example2_over_an_adjacent_friend_on_foot_from_three_hexes():
    """MC §7.5: « Un lanceur de javelot peut tirer par dessus un personnage ami à pied, qui lui est
    adjacent. Cela n'est possible que si la cible se trouve au moins à 3 cases de distance du
    tireur. » Exemple 2: « Le turcopole peut tirer sur les 2 fantassins syriens, mais pas sur le
    piquier fatimide. » (the Syrians at 3 hexes, over friend1 and friend2)"""
    st = game(OPEN, EX7_5_2, step=OFFENSIVE_FIRE)
    for t in ("syrian1", "syrian2"):
        r = explain(st, Fire("turcopole", t))
        assert r.legal, (t, r.reason)


# === §5.5.3.1 Tir par-dessus une ligne en formation =================================================
# The lost figure: four crossbowmen A, B, C, D one above the other in column 02 (0203 to 0206),
# behind a front line of five spearmen in column 03 (0303 to 0307), each crossbowman next to two
# of them (his NE and SE neighbours). "Droit devant lui" is the strip leaving his hex through the
# hexside between those two, due east along his row: 4 hexes straight ahead of A, B, C, D are
# 0603, 0604, 0605, 0606.
SHOOTERS = {"a": "0203", "b": "0204", "c": "0205", "d": "0206"}


def _formation(target_hex):
    front = sorted({H(s).neighbour(d).label for s in SHOOTERS.values() for d in (1, 2)})
    assert len(front) == 5
    chars = [(k, "crossbowman", "A", h) for k, h in SHOOTERS.items()]
    chars += [(f"f{i}", "spearman", "A", h) for i, h in enumerate(front)]
    chars.append(("t", "spearman", "B", target_hex))
    return game([" ".join("." * 14)] * 12, chars, step=OFFENSIVE_FIRE)


def _ahead(shooter: str, steps: int) -> str:
    """The hex straight ahead of a crossbowman, ``steps`` double steps east (2 hexes each)."""
    h = H(SHOOTERS[shooter])
    for _ in range(steps):
        h = h.neighbour(1).neighbour(2)
    return h.label


def test_s5_5_3_1_formation_each_shooter_fires_straight_ahead():
    """MC §5.5.3.1: « Certaines formations de combat permettent à des archers, des arbalétriers
    ou des lanceurs de javelot de tirer par-dessus une ligne de personnages amis qui leur sont
    immédiatement adjacents. Cette ligne doit être composée d'au moins trois personnages possédant
    tous le même armement » ; the figure: « Chaque tireur ne peut tirer que droit devant lui entre
    deux personnages de première ligne. » A target 4 hexes straight ahead of each crossbowman (3
    from the front line): only he can reach it."""
    for own in SHOOTERS:
        st = _formation(_ahead(own, 2))
        for s in SHOOTERS:
            r = explain(st, Fire(s, "t"))
            assert r.legal == (s == own), (own, s, r.reason)
            if s == own:
                assert any("front line of a formation" in x.text for x in r.steps)


def test_s5_5_3_1_formation_not_within_three_hexes_of_the_front_line():
    """MC §5.5.3.1, the figure: « Tout ennemi se trouvant à moins de 3 cases de la première ligne
    ne peut plus être atteint par les tirs. » A target straight ahead of B, 2 hexes from the
    front line (3 from B): nobody can fire at it."""
    st = _formation(H(_ahead("b", 1)).neighbour(1).label)  # 0504: 3 hexes from B, 2 from the line
    assert H(st.characters["t"].hex.label).distance(H(SHOOTERS["b"])) == 3
    assert not [a for a in legal_actions(st) if isinstance(a, Fire)]


def test_s7_5_three_javelins_only():
    """MC §7.5: « Les lanceurs de javelots montés sont obligatoirement des cavaliers légers et ils
    ne portent que 3 javelots. » The turcopole throws at a Syrian 12 hexes ahead (long range) in
    three of his phases (each a miss, then a harmless stray-shot die); in the fourth he has no
    javelin left."""
    turcopole = ("turcopole", "light_cavalry", "A", "0415", {"facing": "N", "weapon": "javelin_mounted"})
    st = game([" ".join("." * 10)] * 16, [turcopole, ("syrian", "spearman", "B", "0403")],
              step=OFFENSIVE_FIRE, turns=10, dice=[10, 10] * 3)
    for turn in (1, 2, 3):
        assert st.active == "A" and st.step == OFFENSIVE_FIRE and st.turn == turn
        apply(st, Fire("turcopole", "syrian"))
        while not (st.active == "A" and st.turn == turn + 1):
            apply(st, EndStep())
    # turn 4: nothing left to throw (the empty fire step passes by itself)
    assert st.characters["turcopole"].shots == 3 and st.step != OFFENSIVE_FIRE
    st.step = OFFENSIVE_FIRE
    r = explain(st, Fire("turcopole", "syrian"))
    assert not r.legal and "used his 3 missiles" in r.reason
