"""JSON read from outside (a request body, a file given to the CLI) within bounds.

``json.loads`` alone answers hostile text with exceptions nobody reports well: a deeply nested
text raises ``RecursionError``, an integer of more than 4,300 digits raises ``ValueError``
(Python's guard against quadratic int parsing). :func:`loads` turns both, and any nesting deeper
than ``max_depth``, into :class:`JsonInputError` with a one-line reason, so the web app answers
a JSON 400 and the CLI one line on stderr.
"""

from __future__ import annotations

import json

from .errors import OriflammeError

#: objects and arrays nested deeper than this are refused (the deepest legitimate input, a
#: scenario inside a record, is about 8 levels)
MAX_DEPTH = 64


class JsonInputError(OriflammeError):
    """Text that is not JSON, or JSON out of bounds (nesting, huge integers)."""


def depth(data, limit: int) -> int:
    """The nesting depth of ``data`` (a scalar is 0), counted without recursion; stops
    counting once past ``limit``."""
    deepest = 0
    todo = [(data, 1)] if isinstance(data, (dict, list)) else []
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            break
        children = node.values() if isinstance(node, dict) else node
        todo.extend((c, d + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def loads(text: str | bytes, max_depth: int = MAX_DEPTH):
    """Parse ``text``; :class:`JsonInputError` for invalid JSON (line and column), nesting
    deeper than ``max_depth`` or an integer too long to convert."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise JsonInputError(f"not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise JsonInputError(f"JSON nested too deeply (more than {max_depth} levels)") from None
    except ValueError as exc:  # int() refusing more than sys.get_int_max_str_digits() digits
        raise JsonInputError(f"a number is too long: {str(exc).split(';')[0]}") from None
    if depth(data, max_depth) > max_depth:
        raise JsonInputError(f"JSON nested too deeply (more than {max_depth} levels)")
    return data
