"""The terminal front end: the board, the odds listed with each roll, a ruling on demand, and a
numbered action applied through the core's Game."""

from __future__ import annotations

from rich.console import Console

from oriflamme.core.record import Game

from kit_lb import RS


def test_the_terminal_shows_the_board_the_odds_and_plays_a_number():
    ui = RS.terminal()
    game = Game(RS, RS.load_scenario("the-bridge-of-vauclair"), seed="terminal")
    board = ui.render(game.state, full=True)
    assert "G2" in board and "bridge: 0605-0705" in board and "banner: 0402-0403" in board
    key, line = ui.status(game.state)
    assert "LB seed 001 l.3-9" in line
    con = Console(record=True, width=200)
    answers = iter(["?1", "1"])
    assert ui.play_turn(con, game, lambda prompt: next(answers))   # ?1: the ruling, nothing applied
    assert not game.actions
    out = con.export_text()
    assert "%" in out and "LB house §5.2" in out
    assert ui.play_turn(con, game, lambda prompt: next(answers))   # 1: the first action
    assert len(game.actions) == 1 and game.actions[0]["type"] == "fire"
    assert not ui.play_turn(con, game, lambda prompt: "quit")
