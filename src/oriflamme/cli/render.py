"""Drawing the board in a terminal (rich markup), from the engine's state — no rules here.

Flat-topped hexes in odd-q layout are drawn on two text lines per map row: the even columns
(labels 01, 03, …) on the first line, the odd ones (02, 04, …), half a hex lower, on the second.
"""

from __future__ import annotations

from ..rulesets.magna_carta.engine.state import GameState
from ..geometry.hexgrid import DIRECTION_NAMES, Hex
from rich.markup import escape

TERRAIN_GLYPH = {
    "clear": (" . ", "grey50"), "brush": (" ≈ ", "green"), "tree": (" ♣ ", "bold green"),
    "tree_top": (" ♣ ", "green"), "slope": (" / ", "yellow"), "marsh": (" , ", "cyan"),
    "rock": (" ▲ ", "white"), "garden": (" : ", "green"), "vines": (" ¥ ", "magenta"),
    "beach": (" _ ", "yellow"), "deep_shallows": (" ≋ ", "blue"), "shallows": (" ~ ", "cyan"),
    "water": (" ≈≈", "bold blue"), "building": ("███", "red"),
    "bridge": (" = ", "yellow"), "stone_bridge": (" # ", "white"), "cart": (" ▭ ", "yellow"),
}
SIDE_STYLE = ("bold white on red", "bold white on blue")
STATUS_MARK = {"healthy": "", "wounded": "'", "stunned": "*", "dead": "†"}


def tags(state: GameState) -> dict[str, str]:
    """A short tag per character: side letter + number (A1, B3 …). The letter is the side id's
    first letter in capitals, or A/B by order of play when the two would clash."""
    letters = [s[0].upper() for s in state.sides]
    if len(set(letters)) != len(letters) or not all(x.isalpha() for x in letters):
        letters = [chr(ord("A") + i) for i in range(len(state.sides))]
    out = {}
    for side, letter in zip(state.sides, letters):
        chars = sorted((c for c in state.characters.values() if c.side == side), key=lambda c: c.id)
        for i, c in enumerate(chars, 1):
            out[c.id] = f"{letter}{i}"
    return out


#: where a rider faces, by direction (0 = N, clockwise)
ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def draw_board(state: GameState, highlight: dict[Hex, str] | None = None) -> str:
    m = state.gmap
    t = tags(state)
    occ = {}
    rears = {}   # a rider's rear hex shows an arrow pointing where he faces (§4.4.1)
    for c in state.characters.values():
        if c.hex is None:
            continue
        if c.alive:
            occ[c.hex] = c
            if c.mounted:
                rears[c.rear] = c
        else:
            occ.setdefault(c.hex, c)
    horses = {}
    for x in state.horses.values():
        for h in x.hexes:
            if x.alive or h not in horses:
                horses[h] = x
    hl = highlight or {}
    lines = []
    head = "     " + "".join(f"{c + 1:02d}    " if c % 2 == 0 else "" for c in range(m.width))
    head2 = "        " + "".join(f"{c + 1:02d}    " if c % 2 == 1 else "" for c in range(m.width))
    lines.append(head.rstrip())
    lines.append(head2.rstrip())
    for row in range(m.height):
        for parity in (0, 1):
            parts = [f"{row + 1:02d} " if parity == 0 else "   "]
            for col in range(m.width):
                if col % 2 != parity:
                    parts.append("   ")
                    continue
                h = Hex.from_offset(col, row)
                if h not in m:
                    parts.append("   ")
                    continue
                c = occ.get(h)
                if c is not None:
                    mark = STATUS_MARK[c.status]
                    style = SIDE_STYLE[state.sides.index(c.side)] if c.alive else "grey50"
                    parts.append(f"[{style}]{(t[c.id] + mark):<3}[/]")
                elif h in rears:
                    r = rears[h]
                    style = SIDE_STYLE[state.sides.index(r.side)]
                    parts.append(f"[{style}] {ARROWS[r.facing]} [/]")
                elif state.carcasses.get(h, {}).get("horse"):  # a dead horse (§4.2.2)
                    parts.append("[grey50]h† [/]")
                elif h in hl:
                    parts.append(f"[bold black on yellow]{hl[h]:>3}[/]")
                elif h in horses:
                    x = horses[h]
                    style = SIDE_STYLE[state.sides.index(x.side)] if x.alive and x.side in state.sides else "grey50"
                    parts.append(f"[{style}]{'h' if x.alive else 'h†':<3}[/]")
                else:
                    glyph, style = TERRAIN_GLYPH.get(m.terrain(h), (" ? ", "red"))
                    if m.elevation(h) > 0 and glyph.strip() in (".",):
                        glyph = f" {m.elevation(h)} "
                    parts.append(f"[{style}]{glyph}[/]")
            lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def legend() -> str:
    items = [f"[{s}]{g.strip()}[/] {k}" for k, (g, s) in TERRAIN_GLYPH.items() if k != "tree_top"]
    return ("Terrain: " + ", ".join(items) + ".  Digits: elevation.  ' wounded, * stunned, † dead, h† dead horse.  "
            "Riders: tag on the front hex, an arrow on the rear hex pointing where they face; h a riderless horse.")


def roster(state: GameState) -> str:
    t = tags(state)
    from ..rulesets.magna_carta.engine.movement import points_left
    lines = []
    for side in state.sides:
        lines.append(f"Side {side}:")
        for c in sorted((c for c in state.characters.values() if c.side == side), key=lambda c: c.id):
            extra = ""
            if c.alive and c.side == state.active and state.step == "movement":
                extra = f", {points_left(state, c)} PM left"
            w = f", {c.weapon}" if c.weapon else ""
            arm = " (armour)" if c.armour else ""
            where = c.hex.label if c.hex else "-"
            if c.mounted and c.hex is not None:
                where = f"{c.hex.label}-{c.rear.label} {DIRECTION_NAMES[c.facing]}"
            lines.append(f"  {t[c.id]:<3} {escape(c.id):<10} {escape(c.name):<18} {where}  A{c.current_attack} D{c.current_defence}"
                         f"{arm} M{c.current_movement}{w} — {c.status}{extra}")
    return "\n".join(lines)
