"""The battle's interface texts in English and French (the terminal's prompts, headings and
notices; the browser module carries its own, docs/guerres-fleuries/battle-ui.md). Each entry is
an (English, French) pair with ``{name}`` fields; :func:`say` reads one in a language. Rules
texts (orders, phases, terrain) are not here: they come with their citations from the data
files through the view."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "turn_line": ("Turn {turn}, phase {number}: {phase} ({ref}) — {side} to act",
                  "Tour {turn}, phase {number} : {phase} ({ref}) — à {side} de jouer"),
    "over": ("The battle is over.", "La bataille est terminée."),
    "units_of": ("{side}: {n} units, {figures} figures", "{side} : {n} unités, {figures} figurines"),
    "unit_row": ("{id:<6} {name:<30} {kind:<10} {figures:>5} fig.  {formation:<10} ({x:>5.1f}, {y:>5.1f}) {heading:>3}°  {order}",
                 "{id:<6} {name:<30} {kind:<10} {figures:>5} fig.  {formation:<10} ({x:>5.1f}, {y:>5.1f}) {heading:>3}°  {order}"),
    "order_hidden": ("order face down", "ordre face cachée"),
    "order_none": ("no order", "pas d'ordre"),
    "order_draft": ("chosen: {order}", "choisi : {order}"),
    "disorder": ("disorder", "désordre"),
    "legend": ("Map: 1 character = 3 cm across, 6 cm down. Capitals: side A; lower case: side B; "
               "* a character. Terrain: ^ hill, T wood, "
               "~ marsh, # buildings, = road or bridge, - stream or ford, + hedge, wall or fence, ! cliff, : field, "
               "% broken ground or scrub. ? a movement base (an encounter battle).",
               "Carte : 1 caractère = 3 cm de large, 6 cm de haut. Majuscules : camp A ; minuscules : camp B ; "
               "* un personnage. Terrain : ^ colline, T bois, "
               "~ marais, # bâtiments, = route ou pont, - ruisseau ou gué, + haie, mur ou clôture, ! falaise, : champ, "
               "% terrain irrégulier ou broussailles. ? une base de mouvement (bataille de rencontre)."),
    "help": (
        "Commands:\n"
        "  units                  the units on the table (your orders face up, the enemy's face down)\n"
        "  map                    the table, top-down (side B's edge at the top)\n"
        "  order UNIT ORDER [TARGET]   choose a unit's order (phase 3; ORDER: an id or a number of 'orders UNIT';\n"
        "                         tirer: up to three targets, order UNIT tirer T1 T2 T3)\n"
        "  orders [UNIT]          the orders chosen so far, or the orders a unit may receive\n"
        "  give                   give the chosen orders, face down (the other side cannot see them until phase 4)\n"
        "  move UNIT X Y [HEADING]     move a unit to (X, Y) cm, facing HEADING degrees (0 = towards side B's edge)\n"
        "  ?move UNIT X Y [HEADING]    the referee's ruling on that move: allowance, terrain penalties, citations\n"
        "  odds UNIT              the unit's fire and charge percentages before any roll\n"
        "  list                   the other actions offered now, numbered; N takes one, ?N explains it\n"
        "  brigades               the brigades on the table and your written battle orders\n"
        "  write CHAR ORDER [TARGET]   write a battle order, secret (attaquer, harceler, soutenir FRIEND, tenir)\n"
        "  undo | lang en|fr | help | quit",
        "Commandes :\n"
        "  units                  les unités sur la table (vos ordres visibles, ceux de l'ennemi face cachée)\n"
        "  map                    la table vue de dessus (le bord du camp B en haut)\n"
        "  order UNITÉ ORDRE [CIBLE]   choisir l'ordre d'une unité (phase 3 ; ORDRE : un id ou un numéro de 'orders UNITÉ' ;\n"
        "                         tirer : jusqu'à trois cibles, order UNITÉ tirer C1 C2 C3)\n"
        "  orders [UNITÉ]         les ordres choisis, ou ceux qu'une unité peut recevoir\n"
        "  give                   donner les ordres choisis, face cachée (l'adversaire ne les voit qu'en phase 4)\n"
        "  move UNITÉ X Y [ORIENTATION]   déplacer une unité en (X, Y) cm, orientée de ORIENTATION degrés (0 = vers le bord du camp B)\n"
        "  ?move UNITÉ X Y [ORIENTATION]  l'arbitrage de ce mouvement : potentiel, pénalités de terrain, citations\n"
        "  odds UNITÉ             les pourcentages de tir et de charge de l'unité avant tout jet\n"
        "  list                   les autres actions offertes, numérotées ; N en prend une, ?N l'explique\n"
        "  brigades               les brigades sur la table et vos ordres de bataille écrits\n"
        "  write PERS ORDRE [CIBLE]    écrire un ordre de bataille, secret (attaquer, harceler, soutenir AMIE, tenir)\n"
        "  undo | lang en|fr | help | quit"),
    "prompt": ("[{side}] units, map, order, give, move, odds, list, help or quit > ",
               "[{side}] units, map, order, give, move, odds, list, help ou quit > "),
    "pass_screen": ("{done} has given its orders, face down. Pass the keyboard to {side}, then press Enter.",
                    "{done} a donné ses ordres, face cachée. Passez le clavier à {side}, puis appuyez sur Entrée."),
    "plan_away": ("{side} deploys on its battle plan in secret (OR-GF141): {other} looks away. Press Enter.",
                  "{side} se déploie sur son plan de bataille en secret (OR-GF141) : {other} détourne le regard. "
                  "Appuyez sur Entrée."),
    "look_away": ("{side} gives its orders in secret: {other} looks away. Press Enter.",
                  "{side} donne ses ordres en secret : {other} détourne le regard. Appuyez sur Entrée."),
    "no_unit": ("no unit {uid!r} of yours here (see 'units')", "aucune unité {uid!r} à vous ici (voir 'units')"),
    "no_order": ("{uid} cannot receive the order {order!r}; it may: {choices}",
                 "{uid} ne peut recevoir l'ordre {order!r} ; ordres possibles : {choices}"),
    "needs_target": ("the order {order} needs a target: order {uid} {order} TARGET",
                     "l'ordre {order} demande une cible : order {uid} {order} CIBLE"),
    "chosen": ("{uid}: {order}{target} (face down until you give your orders)",
               "{uid} : {order}{target} (face cachée jusqu'à ce que vous donniez vos ordres)"),
    "not_orders_phase": ("orders are chosen in phase 3 only", "les ordres se donnent en phase 3 seulement"),
    "no_orders_chosen": ("no order chosen yet: a unit without an order does nothing (GF seed 003 l.337)",
                         "aucun ordre choisi : une unité sans ordre ne fait rien (GF seed 003 l.337)"),
    "refused": ("Refused: {reason}", "Refusé : {reason}"),
    "bad_number": ("expected numbers: {what}", "nombres attendus : {what}"),
    "no_moves": ("{uid} has no move to make now", "{uid} n'a pas de mouvement à faire maintenant"),
    "allowance": ("allowance {max_cm:.1f} cm", "potentiel {max_cm:.1f} cm"),
    "fire_odds": ("fire at {target}: {percent} %", "tir sur {target} : {percent} %"),
    "melee_odds": ("melee against {target}: {percent} % (theirs: {theirs} %)", "mêlée contre {target} : {percent} % (eux : {theirs} %)"),
    "charge_odds": ("charge {target}: {distance:.1f} cm{percent}", "charge sur {target} : {distance:.1f} cm{percent}"),
    "no_odds": ("{uid}: no fire or charge now", "{uid} : ni tir ni charge maintenant"),
    "choose": ("choose 1–{n} — type 'help'", "choisir 1–{n} — tapez 'help'"),
    "nothing_listed": ("no other action offered now", "aucune autre action offerte maintenant"),
    "undone": ("Undone.", "Annulé."),
    "brigade_row": ("Brigade of {character} ({side}): {units}", "Brigade de {character} ({side}) : {units}"),
    "brigade_dissolved": ("dissolved for the rest of the battle", "dissoute pour le reste de la bataille"),
    "battle_order_row": ("    battle order (secret): {order} ({ref})", "    ordre de bataille (secret) : {order} ({ref})"),
    "battle_order_next": ("· next turn: {order}", "· au prochain tour : {order}"),
    "no_brigades": ("No brigade on the table.", "Aucune brigade sur la table."),
    "write_usage": ("write CHARACTER ORDER [TARGET] …  (orders: attaquer, harceler, soutenir FRIEND, tenir)",
                    "write PERSONNAGE ORDRE [CIBLE] …  (ordres : attaquer, harceler, soutenir AMIE, tenir)"),
    "lang": ("Language: English.", "Langue : français."),
}


def say(key: str, lang: str = "en", **fields) -> str:
    en, fr = TEXTS[key]
    return (fr if lang == "fr" else en).format(**fields)
