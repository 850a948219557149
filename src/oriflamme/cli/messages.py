"""Error lines of the CLI: one line on stderr whatever the input put in the message."""

from __future__ import annotations


def one_line(text: str) -> str:
    """``text`` with its control characters (newlines, carriage returns...) escaped, so an
    error quoting hostile input stays one line."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(text))
