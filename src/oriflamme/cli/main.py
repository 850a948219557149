"""The ``oriflamme`` command: a thin adapter over the core (rulesets are reached through the registry).

Subcommands are registered by their own modules (``adjudicate``, ``play`` ...); each module
exposes ``register(subparsers)`` that adds its parser and sets ``func``; ``func(args)``
returns the exit code.
"""

from __future__ import annotations

import argparse
import sys

SUBCOMMAND_MODULES = ("adjudicate", "army", "catalog", "play", "rules", "serve", "simulate")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="oriflamme",
        description="Cry Havoc family skirmish games with every rule enforced and explained.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(f"oriflamme.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
