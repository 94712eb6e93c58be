"""Secret redaction for anything that leaves ObsiGate towards a client or a model.

Two layers, as measured in ``shared/reference/security.md`` §5: provider token shapes (formats published by
the providers; patterns written here) and structural rules (PEM blocks, URL user-info, ``name = value``
assignments whose name says secret). A match becomes ``[REDACTED:<rule>]`` so the reader still knows a
secret was there. Patterns are anchored on fixed prefixes and bounded repeats, so a hostile note cannot make
them backtrack badly. Putting secrets back under the markers of an edited text is
``domain/secret_markers.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from obsigate.domain.markdown.note import ParsedNote

_PLACEHOLDERS = ("example", "xxxx", "changeme", "<", "${", "placeholder", "redacted", "****", "...")
_PLACEHOLDER_STARTS = ("your-", "your_", "your ", "my-", "my_")

# (rule id, literal(s) one of which every match contains — a cheap prefilter, pattern, secret group)
_TOKEN_RULES: list[tuple[str, str | tuple[str, ...], re.Pattern[str], int]] = [
    # PEM and PGP private keys; a paste that lost its END line is redacted up to the end of its base64 run
    (
        "private-key",
        "-----BEGIN",
        re.compile(
            r"-----BEGIN[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,10000}?-----END[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
            r"|(?:[ \t]*\r?\n[A-Za-z0-9+/=:-]{1,120}){0,200})"
        ),
        0,
    ),
    (
        "authorization-header",
        "uthorization",
        re.compile(r"(?i)authorization\s{0,3}:\s{0,3}(?:basic|bearer|token)\s+([A-Za-z0-9+/=._~-]{8,2000})"),
        1,
    ),
    ("anthropic-api-key", "sk-ant-", re.compile(r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,120}"), 0),
    (
        "openai-api-key",
        ("sk-proj-", "sk-svcacct-", "sk-admin-"),
        re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,200}"),
        0,
    ),
    ("openai-api-key", "T3BlbkFJ", re.compile(r"\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b"), 0),
    (
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b"),
        0,
    ),
    ("github-token", "github_pat_", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{60,100}\b"), 0),
    # a key id ends a word wherever a letter or digit does not follow: in `AKIA….png`, `AKIA…/note.md` and
    # `AKIA…_old.txt` (file and folder names) as in prose; `\b` would see `_` as part of the word
    (
        "aws-access-key",
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])"),
        0,
    ),
    ("google-api-key", "AIza", re.compile(r"\bAIza[A-Za-z0-9_-]{35}\b"), 0),
    ("slack-token", "xox", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,100}"), 0),
    ("slack-webhook", "hooks.slack.com", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,100}"), 0),
    ("stripe-key", ("sk_", "rk_"), re.compile(r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b"), 0),
    ("obsigate-api-key", "og_", re.compile(r"\bog_[A-Za-z0-9]{40,60}\b"), 0),
    ("jwt", "eyJ", re.compile(r"\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,1000}"), 0),
]
#: Every literal of :data:`_TOKEN_RULES` in one pattern. A short string (most strings of a tool result: names,
#: link targets, headings) is checked for all of them in one pass instead of one ``in`` per literal (issue 20:
#: 0.75 against 5.9 µs a string); with none of them in it, no token rule can match. A long text keeps the
#: per-literal scans, each a fast substring search.
_ANY_TOKEN_LITERAL = re.compile(
    "|".join(re.escape(lit) for _, lits, _, _ in _TOKEN_RULES for lit in ((lits,) if isinstance(lits, str) else lits))
)
_ONE_PASS_BELOW = 512  # characters
# An AWS secret access key has no prefix: 40 characters of base64's alphabet. Alone on its line (indented, a
# list item or in backticks: how a key pair is pasted below its key id), with upper case, lower case and a
# digit, and random (the kind of character changes at 16 or more of its 39 steps: 99.7 % of random keys, but
# not a CamelCase name such as `AbstractSingletonProxyFactoryBean2Config`, a title or a folder path), it is
# one; a 40-character line of a longer base64 block (a certificate) is not, nor a git SHA (hex, one case),
# nor AWS's documented example key. Two keys on consecutive lines are two keys.
# a key alone on its line, maybe in a blockquote, a list item (bullet or number), a table cell, quotes or
# backticks, with a trailing comment
_BARE_AWS_SECRET = re.compile(
    r"^[ \t]{0,12}(?:>[ \t]?){0,4}(?:(?:[-*+]|\d{1,3}[.)])[ \t]{1,4})?(?:\|[ \t]*)?([`\"']?)([A-Za-z0-9/+]{40})\1"
    r"[ \t]*(?:\|[ \t]*)?(?:(?:#|//)[^\n]*)?\r?$",
    re.MULTILINE,
)
_BASE64_BLOCK_LINE = re.compile(r"[ \t]*[A-Za-z0-9/+]{41,}={0,2}[ \t]*\r?")  # a block's lines are 64 or 76 wide
_HEX = frozenset("0123456789abcdefABCDEF")
_MIN_CLASS_CHANGES = 16


def _class_changes(key: str) -> int:
    """How many neighbouring characters of ``key`` differ in kind (upper case, lower case, digit, other)."""
    kinds = [0 if c.isupper() else 1 if c.islower() else 2 if c.isdigit() else 3 for c in key]
    return sum(a != b for a, b in itertools.pairwise(kinds))


def _bare_aws_secret_spans(text: str) -> list[tuple[int, int, str]]:
    """Lines that are nothing but an AWS secret access key (see :data:`_BARE_AWS_SECRET`)."""
    spans = []
    for m in _BARE_AWS_SECRET.finditer(text):
        key = m.group(2)
        if (
            any(c.isupper() for c in key)
            and any(c.islower() for c in key)
            and any(c.isdigit() for c in key)
            and not set(key) <= _HEX
            and "example" not in key.lower()
            and _class_changes(key) >= _MIN_CLASS_CHANGES
        ):
            line_start, line_end = m.start(), m.end()
            before = text.rfind("\n", 0, max(0, line_start - 1)) + 1
            after = text.find("\n", line_end + 1)
            prev = text[before : max(before, line_start - 1)]
            nxt = text[line_end + 1 : len(text) if after == -1 else after] if line_end < len(text) else ""
            if not _BASE64_BLOCK_LINE.fullmatch(prev) and not _BASE64_BLOCK_LINE.fullmatch(nxt):
                spans.append((m.start(2), m.end(2), "aws-secret-key"))
    return spans


# `scheme://user:password@host`: matched from each "://" (a scan for the scheme at every word is 10x slower)
_URL_USERINFO = re.compile(r"//[^\s:/@]{0,100}:([^\s@/]{3,200})@")
# `api_key = "..."`, `password: hunter22`, `export DB_PASSWORD=...`: found from the secret-ish word, then the
# rest of the name, the `:`/`=` and the value are matched forward (no scan that backtracks at every position).
_SECRET_WORDS = (
    "password", "passwd", "passphrase", "pwd", "secret", "token", "auth", "credential",
    "api_key", "api-key", "apikey", "private_key", "private-key", "privatekey", "access_key", "access-key", "accesskey",
)  # fmt: skip
# `auth` names a credential (`auth_token`, `Auth:`, `authorization`), `author` a person: `author: Jane` is no secret
_NOT_SECRET_AFTER = {"auth": re.compile(r"or(?!i[sz])", re.IGNORECASE)}
_SECRET_WORD = re.compile(
    "|".join(
        re.escape(w) + (f"(?!{_NOT_SECRET_AFTER[w].pattern})" if w in _NOT_SECRET_AFTER else "") for w in _SECRET_WORDS
    ),
    re.IGNORECASE,
)


def _secret_word_ends(text: str) -> list[int]:
    """End offsets of secret-ish words in ``text``, case-insensitive (``author`` is not ``auth``). ``str.find``
    on a lower-cased copy is ~20x faster than a case-insensitive alternation regex; the regex is the fallback
    when lower-casing changes the length (a few non-ASCII letters)."""
    low = text.lower()
    if len(low) != len(text):
        return [m.end() for m in _SECRET_WORD.finditer(text)]
    ends = []
    for word in _SECRET_WORDS:
        unless = _NOT_SECRET_AFTER.get(word)
        pos = low.find(word)
        while pos != -1:
            end = pos + len(word)
            if unless is None or not unless.match(low, end):
                ends.append(end)
            pos = low.find(word, pos + 1)
    return ends


# name rest, optional markdown emphasis (`**Password:** x`), `:`/`=`, then a quoted value (spaces allowed) or a bare one
_ASSIGNMENT_TAIL = re.compile(
    r"[A-Za-z0-9_.-]{0,20}[*_]{0,2}[ \t]{0,10}[:=][*_]{0,2}[ \t]{0,10}"
    r"(?:([\"'])([^\"'\n]{4,500})\1|([^\s\"'`|]{8,500}))"
)


def _is_placeholder(value: str) -> bool:
    low = value.lower()
    return any(p in low for p in _PLACEHOLDERS) or low.startswith(_PLACEHOLDER_STARTS) or low.startswith("[redacted")


# A link written as a value (`**Secrets**: [[Vault setup]]`, `token: [how to rotate](Rotation.md)`,
# `password: ![[diagram.png]]`): a wikilink or embed, or a markdown link or image, whatever its target. It
# points to where a secret is explained, it is not one; a secret inside it is still found by the token rules.
_LINK_VALUE = re.compile(r"!?\[\[[^\[\]\n]{1,1000}\]\]|!?\[[^\[\]\n]{0,1000}\]\([^()\s]{0,2000}\)")


def _is_link(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, a value a structural rule matched, is a link: one of :data:`_LINK_VALUE`
    starting at ``start`` and reaching at least ``end`` (a wikilink with spaces runs past a bare value, which
    stops at the first space); a link glued to more text (``[[x]]hunter2``) is not."""
    m = _LINK_VALUE.match(text, start)
    return m is not None and m.end() >= end and (m.end() == len(text) or not text[m.end()].isalnum())


_MIN_SECRET_CHARS = 8  # the shortest text any rule matches (`pwd:"ab12"`, `//u:pwd@`): shorter text holds none


_FM_KEY = re.compile(r"([ \t]*)(?:-[ \t]+)?(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^\s:#\"'-][^:\n]*?))[ \t]*:(?:[ \t]+(.*))?$")
_FM_ITEM = re.compile(r"([ \t]*)-[ \t]+(.+)$")
_FM_MAX_CHARS = 64_000  # a frontmatter block longer than this is not one Obsidian would show as properties


def _value_span(line_start: int, line: str, value_at: int) -> tuple[int, int] | None:
    """The span of a YAML scalar written from ``value_at`` of ``line`` (quotes left out), if any."""
    value = line[value_at:].rstrip()
    if not value or value.startswith(("[REDACTED", "|", ">", "&", "*", "{", "[")):
        return None
    if value[0] in "\"'" and _is_link(value, 1, len(value) - 1):
        return None  # a link property (`related: "[[Vault setup]]"`) names a note, it holds no secret
    if len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
        return line_start + value_at + 1, line_start + value_at + len(value) - 1
    return line_start + value_at, line_start + value_at + len(value)


def _frontmatter_spans(text: str) -> list[tuple[int, int, str]]:
    """Values under a secret-named frontmatter key (``password``, ``secrets: {db: …}``, lists and block
    scalars under one), as spans of the raw text: the text rules do not see a multi-word or nested value, and
    :func:`redact_properties` hides them in parsed frontmatter, so raw reads must hide them too. A line-based
    reading of the YAML block mappings, sequences and block scalars Obsidian's properties use."""
    if not text.startswith("---"):
        return []
    first = text.find("\n")
    if first == -1 or text[:first].rstrip("\r") != "---":
        return []
    spans: list[tuple[int, int, str]] = []
    stack: list[tuple[int, bool]] = []  # (indent, secret) of the keys whose values are nested below
    block: tuple[int, bool] | None = None  # a block scalar's key (indent, secret) while its lines run
    pos = first + 1
    while pos < len(text) and pos < _FM_MAX_CHARS:
        end = text.find("\n", pos)
        end = len(text) if end == -1 else end
        line = text[pos:end].rstrip("\r")
        if line in ("---", "..."):
            break
        indent = len(line) - len(line.lstrip(" \t"))
        if block is not None:
            if not line.strip() or indent > block[0]:
                if block[1] and line.strip():
                    spans.append((pos + indent, pos + len(line.rstrip()), "secret-property"))
                pos = end + 1
                continue
            block = None
        if not line.strip() or line.lstrip().startswith("#"):
            pos = end + 1
            continue
        key = _FM_KEY.match(line)
        if key:
            while stack and stack[-1][0] >= indent:
                stack.pop()
            name = (
                key.group(2) if key.group(2) is not None else key.group(3) if key.group(3) is not None else key.group(4)
            )
            secret = bool(_secret_word_ends(name)) or bool(stack and stack[-1][1])
            value = key.group(5)
            if value is None or not value.strip():
                stack.append((indent, secret))
            elif value.lstrip().startswith(("|", ">")):
                block = (indent, secret)
            elif secret and (span := _value_span(pos, line, key.start(5))):
                spans.append((*span, "secret-property"))
        elif (item := _FM_ITEM.match(line)) is not None:
            while stack and stack[-1][0] > indent:
                stack.pop()
            if stack and stack[-1][1] and (span := _value_span(pos, line, item.start(2))):
                spans.append((*span, "secret-property"))
        pos = end + 1
    return spans


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """Where the secrets are: sorted, non-overlapping ``(start, end, rule)`` character spans of ``text``."""
    if len(text) < _MIN_SECRET_CHARS:
        return []  # most strings of a tool result (kinds, short names): skip the ~30 prefilter scans
    found: list[tuple[int, int, str]] = []
    if len(text) >= _ONE_PASS_BELOW or _ANY_TOKEN_LITERAL.search(text):
        for rule, literal, pattern, group in _TOKEN_RULES:
            if (literal in text) if isinstance(literal, str) else any(lit in text for lit in literal):
                found.extend((m.start(group), m.end(group), rule) for m in pattern.finditer(text))
    if len(text) >= 40:
        found.extend(_bare_aws_secret_spans(text))
    pos = text.find("://")
    while pos != -1:
        m = _URL_USERINFO.match(text, pos + 1)
        if m:
            found.append((m.start(1), m.end(1), "url-credentials"))
        pos = text.find("://", pos + 3)
    for end in _secret_word_ends(text):
        tail = _ASSIGNMENT_TAIL.match(text, end)
        if tail:
            group = 2 if tail.group(2) is not None else 3
            value = tail.group(group)
            if not _is_placeholder(value) and not _is_link(text, tail.start(group), tail.end(group)):
                found.append((tail.start(group), tail.end(group), "secret-assignment"))
    found.extend(_frontmatter_spans(text))  # last: where a token rule finds the same value, its name is kept
    found.sort(key=lambda s: (s[0], -s[1]))
    spans: list[tuple[int, int, str]] = []
    for start, end, rule in found:
        if spans and start < spans[-1][1]:
            if end > spans[-1][1]:
                spans[-1] = (spans[-1][0], end, spans[-1][2])
            continue
        spans.append((start, end, rule))
    return spans


def redact_text(text: str, *, keep_lines: bool = False) -> str:
    """Return ``text`` with every detected secret replaced by ``[REDACTED:<rule>]``.

    With ``keep_lines``, a secret spanning lines (a PEM private key) leaves its line breaks after the marker,
    so line numbers computed on the original text stay true on the redacted one.

    Shapes: str → str; text without secrets comes back unchanged (same object).
    """
    if not text:
        return text
    spans = secret_spans(text)
    if not spans:
        return text
    out, pos = [], 0
    for start, end, rule in spans:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{rule}]")
        if keep_lines:
            out.append("\n" * text.count("\n", start, end))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact_note(parsed: ParsedNote, text: str | None = None, *, clean: bool | None = None) -> ParsedNote:
    """A parsed note with every secret redacted, field by field, keeping its line numbers.

    Parse first, redact second: a secret inside link syntax (``[[sk-…]]``, ``[sk-…](Note.md)``) must not
    break the link it sits in, which redacting the text first would (the marker holds brackets). Body text
    keeps its lines (:func:`redact_text` ``keep_lines``); link targets, subpaths and display texts, aliases
    and heading texts are redacted; tags holding a secret are dropped (a marker is not a tag); frontmatter
    goes through :func:`redact_properties`.

    ``text``, the note the parse came from, allows a shortcut: when it holds no secret, only the frontmatter
    is checked (by key, which text rules cannot see) instead of every field. ``clean``: whether ``text`` holds
    no secret, when the caller already knows (``redact_text(text) is text``), so it is not scanned twice.
    """
    if text is not None and (clean if clean is not None else not secret_spans(text)):
        return dataclasses.replace(parsed, frontmatter=redact_properties(parsed.frontmatter))

    def red(value: str | None) -> str | None:
        return redact_text(value) if value else value

    return dataclasses.replace(
        parsed,
        frontmatter=redact_properties(parsed.frontmatter),
        frontmatter_error=red(parsed.frontmatter_error),
        body=redact_text(parsed.body, keep_lines=True),
        tags=tuple(t for t in parsed.tags if redact_text(t) is t),
        aliases=tuple(redact_text(a) for a in parsed.aliases),
        links=tuple(
            dataclasses.replace(lk, target=redact_text(lk.target), subpath=red(lk.subpath), display=red(lk.display))
            for lk in parsed.links
        ),
        headings=tuple(dataclasses.replace(h, text=redact_text(h.text)) for h in parsed.headings),
    )


def _secret_key(key: object) -> bool:
    return isinstance(key, str) and bool(_secret_word_ends(key))


def redact_properties(value: Any, *, under_secret: bool = False) -> Any:
    """Redact parsed frontmatter by key: every string under a key whose name says secret (``password``,
    ``api_key``, ``secrets``...) is replaced, whatever its YAML form (block scalars, lists, multi-word
    quoted values); other strings go through :func:`redact_text`."""
    if isinstance(value, dict):  # a key can be a secret too (`sk-…: 1`): shown redacted like any text
        return {
            redact_text(k) if isinstance(k, str) else k: redact_properties(
                v, under_secret=under_secret or _secret_key(k)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact_properties(v, under_secret=under_secret) for v in value]
    if isinstance(value, str):
        link = value.strip()
        if under_secret and link and not value.startswith("[REDACTED") and not _is_link(link, 0, len(link)):
            return "[REDACTED:secret-property]"
        return redact_text(value)
    return value


def redact_payload(value: Any) -> Any:
    """Redact every string inside a JSON-like value (dicts, lists, tuples, str); other values pass through.

    Dict keys are strings like any other (a result keyed by path, ``{"links_updated": {path: n}}``): a file or
    folder name is redacted wherever it shows, by the one rule, :func:`redact_text` over the whole path."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {redact_text(k) if isinstance(k, str) else k: redact_payload(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_payload(v) for v in value]
    return value
