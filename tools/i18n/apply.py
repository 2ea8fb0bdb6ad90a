"""Hand translations to and from a catalogue as JSON, for translators who work outside the `.po`.

    python -m tools.i18n.apply kn --todo [--all]   # the messages without a translation (or all), as JSON
    python -m tools.i18n.apply kn FILE.json        # check FILE and write its translations into kn.po
    python -m tools.i18n.apply kn FILE.json --check   # only check

The JSON is an object: key `msgid`, or `context\\u0004msgid` for a message with a context; value
the translation, or for a plural message the list of its forms (as many as the language has:
index 0 is CLDR's "one"). Every translation must use exactly the placeholders of its message
(for a plural form: those of the singular or the plural). In the `--todo` output each entry is
{"msgid", "plural", "context", "comments", "translation"} in a list, so that a translator sees
the notes; either form is read back.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from jitfish.i18n import LANGUAGES, LOCALE_DIR, SOURCE

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def load(code: str):
    with (LOCALE_DIR / f"{code}.po").open("rb") as handle:
        return read_po(handle, locale=code)


def key_of(message) -> str:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return f"{message.context}\u0004{msgid}" if message.context else msgid


def problems(message, value, forms: int) -> list[str]:
    """What is wrong with a translation of `message` (empty: nothing)."""
    if isinstance(message.id, tuple):
        if not isinstance(value, list) or len(value) != forms or not all(isinstance(v, str) and v for v in value):
            return [f"needs a list of {forms} non-empty forms"]
        allowed = placeholders(message.id[0]) | placeholders(message.id[1])
        found = [placeholders(v) - allowed for v in value]
        bad = set().union(*found)
        needed = placeholders(message.id[1]) - {"count", "n"} - set().union(*(placeholders(v) for v in value[-1:]))
        out = [f"unknown placeholder {{{name}}}" for name in sorted(bad)]
        out += [f"the last form lacks {{{name}}}" for name in sorted(needed)]
        for text in value:
            out += _braces(text)
        return out
    if not isinstance(value, str) or not value:
        return ["needs a non-empty string"]
    want, got = placeholders(message.id), placeholders(value)
    out = [f"unknown placeholder {{{name}}}" for name in sorted(got - want)]
    out += [f"lacks placeholder {{{name}}}" for name in sorted(want - got)]
    return out + _braces(value)


def _braces(text: str) -> list[str]:
    stripped = PLACEHOLDER.sub("", text)
    return ["a stray { or }"] if "{" in stripped or "}" in stripped else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", choices=[code for code in LANGUAGES if code != SOURCE])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--todo", action="store_true", help="print the untranslated messages as JSON")
    parser.add_argument("--all", action="store_true", help="with --todo: every message, translated or not")
    parser.add_argument("--check", action="store_true", help="check FILE without writing")
    args = parser.parse_args(argv)
    catalog = load(args.lang)
    forms = catalog.num_plurals
    by_key = {key_of(m): m for m in catalog if m.id}
    if args.todo:
        todo = []
        for key, message in by_key.items():
            done = all(message.string) if isinstance(message.string, tuple) else bool(message.string)
            if done and not args.all:
                continue
            todo.append({"key": key, "msgid": message.id if isinstance(message.id, str) else message.id[0],
                         "plural": message.id[1] if isinstance(message.id, tuple) else None,
                         "context": message.context, "comments": list(message.auto_comments),
                         "translation": (list(message.string) if isinstance(message.string, tuple)
                                         else message.string) or None})
        json.dump(todo, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    if args.file is None:
        parser.error("give a FILE of translations, or --todo")
    data = json.loads(args.file.read_text(encoding="utf-8"))
    if isinstance(data, list):
        data = {item["key"]: item.get("translation") for item in data if item.get("translation")}
    errors, applied = [], 0
    for key, value in data.items():
        message = by_key.get(key)
        if message is None:
            errors.append(f"{key!r}: no such message in the catalogue")
            continue
        found = problems(message, value, forms)
        if found:
            errors.extend(f"{key!r}: {problem}" for problem in found)
            continue
        applied += 1
        if not args.check:
            message.string = tuple(value) if isinstance(message.id, tuple) else value
            message.flags.discard("fuzzy")
    for error in errors:
        print(error, file=sys.stderr)
    missing = [key for key, m in by_key.items()
               if key not in data and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    print(f"{applied} translations fine, {len(errors)} problems, {len(missing)} messages still untranslated")
    if not args.check and applied:
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=100, sort_output=False, ignore_obsolete=True)
        (LOCALE_DIR / f"{args.lang}.po").write_bytes(buffer.getvalue())
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
