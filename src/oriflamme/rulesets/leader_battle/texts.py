"""The log's messages in English and French (``data/texts.toml``). An argument may be a
``{"en": …, "fr": …}`` pair (a side's name, a result's label): it is read in the language."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def catalogue() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data", "texts.toml").read_text(encoding="utf-8"))


def say(key: str, lang: str, args: dict) -> str:
    vals = {k: (v.get(lang, v.get("en")) if isinstance(v, dict) else v) for k, v in args.items()}
    return catalogue()[key][lang if lang == "fr" else "en"].format(**vals)


def both(en: str, fr: str) -> dict:
    return {"en": en, "fr": fr}
