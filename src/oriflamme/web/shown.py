"""The texts a page shows, in one language, the sides called by their names (issue 15).

The ruleset renders its log, rulings and results in the language (``render_events``,
``render_text``); :meth:`oriflamme.core.ruleset.Ruleset.name_sides` then names the sides where a
text names them by id ("Side A" → side “Raiders”), and a ruling whose result is a side id
(who won the initiative) gets the side's name as ``result_text``.
"""

from __future__ import annotations

from ..core.ruleset import SideInfo


def side_infos(sides) -> list[SideInfo]:
    """The view's ``sides`` ([{id, name, name_fr}]) or the ruleset's, as :class:`SideInfo`."""
    out = []
    for s in sides or []:
        if isinstance(s, SideInfo):
            out.append(s)
        elif isinstance(s, dict) and "id" in s:
            out.append(SideInfo(str(s["id"]), s.get("name") or str(s["id"]), s.get("name_fr") or ""))
    return out


def _name_of(side_id, lang: str, sides: list[SideInfo]):
    for s in sides:
        if s.id == side_id:
            return (s.name_fr or s.name) if lang == "fr" else s.name
    return None


def text(rs, t, lang: str, sides: list[SideInfo]):
    """A text already in ``lang`` with the sides named."""
    if not isinstance(t, str) or not t or not sides:
        return t
    return rs.name_sides(t, lang, sides)


def ruling(rs, r, lang: str, sides: list[SideInfo]):
    if not isinstance(r, dict) or not sides:
        return r
    out = dict(r)
    if isinstance(out.get("explanation"), list):
        out["explanation"] = [text(rs, x, lang, sides) for x in out["explanation"]]
    if isinstance(out.get("reason"), str):
        out["reason"] = text(rs, out["reason"], lang, sides)
    name = _name_of(out.get("result"), lang, sides)
    if name is not None:
        out["result_text"] = name
    elif isinstance(out.get("result_text"), str):
        out["result_text"] = text(rs, out["result_text"], lang, sides)
    return out


def events(rs, evs: list[dict], lang: str, sides: list[SideInfo]) -> list[dict]:
    """Log events as the seat reads them: rendered in ``lang``, the sides named."""
    out = []
    for e in rs.render_events(evs, lang):
        if isinstance(e, dict) and sides:
            e = dict(e)
            if isinstance(e.get("text"), str):
                e["text"] = text(rs, e["text"], lang, sides)
            if isinstance(e.get("ruling"), dict):
                e["ruling"] = ruling(rs, e["ruling"], lang, sides)
        out.append(e)
    return out
