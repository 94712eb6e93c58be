"""A vault's own Obsidian settings: the JSON files of its config folder (``.obsidian/``) that change how its notes
render, link, and where new notes go, read into one normalised shape with Obsidian's defaults filled in.

Obsidian writes only the keys that differ from its defaults, so a missing file or key means the default. The keys,
their defaults and meanings are from ``shared/reference/obsidian-app.md`` §3 (Obsidian's ``AppVaultConfig`` and
``DailyNotesOptions`` types, its help pages on Daily notes, Templates, Bookmarks and Properties). A malformed file
(bad JSON, a wrong type) never fails the read: its defaults apply and the problem is named in ``problems``.

Pure: :func:`parse_config` takes the files' bytes (``None`` when absent); reading them is the service's job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The config folder (Obsidian allows another per device; every shared vault and the demo use this one).
CONFIG_DIR = ".obsidian"

#: The files read, each at most :data:`MAX_FILE_BYTES`.
FILES = ("app.json", "daily-notes.json", "templates.json", "bookmarks.json", "types.json", "graph.json")
MAX_FILE_BYTES = 1 << 20

LINK_FORMATS = ("shortest", "relative", "absolute")
PROPERTY_TYPES = ("text", "multitext", "number", "checkbox", "date", "datetime", "tags", "aliases")
BOOKMARK_TYPES = ("file", "folder", "search", "graph", "url", "group")
MAX_BOOKMARK_DEPTH = 8  # groups nest; deeper ones are dropped (and named in problems)


@dataclass
class Reader:
    """Takes typed values out of one file's JSON object, recording each wrong type as a problem."""

    file: str
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any, choices: tuple[str, ...] = ()) -> Any:
        """``data[key]`` when it is a ``kind`` (and one of ``choices`` if given), else ``default``."""
        if key not in self.data:
            return default
        value = self.data[key]
        # bool is an int in Python: a number key must not take True
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            value = None
        if not isinstance(value, kind) or (choices and value not in choices):
            self.problems.append(f"{self.file}: {key!r} ignored (unexpected value {value!r:.60})")
            return default
        return value


def _object(name: str, raw: bytes | None, problems: list[str]) -> dict[str, Any]:
    if raw is None:
        return {}
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        problems.append(f"{name}: not valid JSON ({str(exc)[:80]}); Obsidian's defaults apply")
        return {}
    if not isinstance(data, dict):
        problems.append(f"{name}: not a JSON object; Obsidian's defaults apply")
        return {}
    return data


def _strip_md(path: str) -> str:
    return path[:-3] if path.lower().endswith(".md") else path


def _folder(path: str) -> str:
    """A config folder setting as a vault path: no leading/trailing ``/`` (``"/"`` and ``""`` are the root)."""
    return path.strip().strip("/")


def _vault_path(path: str) -> bool:
    """Whether a bookmark's path names a place inside the vault as Obsidian writes it: relative, ``/``-separated,
    no ``..``/``.`` or hidden segment, no NUL or backslash (``"../../etc/passwd"`` is not one)."""
    segs = path.split("/")
    return bool(path) and "\x00" not in path and "\\" not in path and all(s and not s.startswith(".") for s in segs)


def _bookmarks(items: Any, problems: list[str], depth: int = 0) -> list[dict[str, Any]]:
    if not isinstance(items, list):
        problems.append("bookmarks.json: 'items' is not a list")
        return []
    out: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in BOOKMARK_TYPES:
            problems.append(f"bookmarks.json: an item of unknown shape ignored ({str(item)[:60]})")
            continue
        kind = item["type"]
        entry: dict[str, Any] = {"type": kind}
        if isinstance(item.get("title"), str):
            entry["title"] = item["title"]
        for key in ("path", "subpath", "query", "url"):
            if isinstance(item.get(key), str):
                entry[key] = item[key]
        if kind == "group":
            if depth >= MAX_BOOKMARK_DEPTH:
                problems.append("bookmarks.json: groups nested too deep, the deepest ignored")
                continue
            entry["items"] = _bookmarks(item.get("items", []), problems, depth + 1)
        elif kind in ("file", "folder") and "path" not in entry:
            problems.append(f"bookmarks.json: a {kind} bookmark without a path ignored")
            continue
        elif kind in ("file", "folder") and not _vault_path(entry["path"]):
            problems.append(f"bookmarks.json: a {kind} bookmark outside the vault ignored ({entry['path'][:60]!r})")
            continue
        out.append(entry)
    return out


def _graph_groups(groups: Any, problems: list[str]) -> list[dict[str, Any]]:
    """``colorGroups: [{query, color: {a, rgb: int}}]`` as ``[{query, color: "#rrggbb"}]``."""
    if not isinstance(groups, list):
        return []
    out = []
    for g in groups:
        color = g.get("color") if isinstance(g, dict) else None
        rgb = color.get("rgb") if isinstance(color, dict) else None
        if not (isinstance(g, dict) and isinstance(g.get("query"), str) and isinstance(rgb, int)):
            problems.append("graph.json: a colour group of unknown shape ignored")
            continue
        out.append({"query": g["query"], "color": f"#{rgb & 0xFFFFFF:06x}"})
    return out


def parse_config(files: dict[str, bytes | None]) -> dict[str, Any]:
    """The vault's settings from its config files' bytes (``{"app.json": b"...", "types.json": None, ...}``).

    Returns ``{"app", "daily_notes", "templates", "bookmarks", "property_types", "graph_groups", "problems"}``:

    * ``app``: ``strict_line_breaks`` (bool, default false: a single newline is a ``<br>``),
      ``new_link_format`` (``shortest``/``relative``/``absolute``), ``use_markdown_links``,
      ``properties_in_document`` (``visible``/``hidden``/``source``), ``show_inline_title``,
      ``default_view_mode`` (``source``/``preview``), ``live_preview``, ``readable_line_length``,
      ``attachment_folder_path``, ``new_file_location`` (``root``/``current``/``folder``), ``new_file_folder_path``;
    * ``daily_notes``: ``folder`` (vault path, ``""`` = root), ``format`` (moment.js, default ``YYYY-MM-DD``),
      ``template`` (vault path without ``.md``, ``""`` = none), ``autorun``;
    * ``templates``: ``folder``, ``date_format`` (default ``YYYY-MM-DD``), ``time_format`` (default ``HH:mm``);
    * ``bookmarks``: Obsidian's items (``type`` file/folder/search/graph/url/group, ``title``, ``path``,
      ``subpath``, ``query``, ``url``, a group's ``items``), unknown shapes dropped;
    * ``property_types``: ``{name: type}`` from ``types.json`` (known types only);
    * ``graph_groups``: ``[{query, color: "#rrggbb"}]`` from ``graph.json``'s ``colorGroups``;
    * ``problems``: one line per file or key that was ignored.
    """
    problems: list[str] = []
    app = Reader("app.json", _object("app.json", files.get("app.json"), problems), problems)
    legacy_fm = app.get("showFrontmatter", bool, None)  # pre-1.4 boolean, replaced by propertiesInDocument
    daily = Reader("daily-notes.json", _object("daily-notes.json", files.get("daily-notes.json"), problems), problems)
    tpl = Reader("templates.json", _object("templates.json", files.get("templates.json"), problems), problems)
    marks = _object("bookmarks.json", files.get("bookmarks.json"), problems)
    types = _object("types.json", files.get("types.json"), problems).get("types", {})
    graph = _object("graph.json", files.get("graph.json"), problems)
    return {
        "app": {
            "strict_line_breaks": app.get("strictLineBreaks", bool, False),
            "new_link_format": app.get("newLinkFormat", str, "shortest", LINK_FORMATS),
            "use_markdown_links": app.get("useMarkdownLinks", bool, False),
            "properties_in_document": app.get(
                "propertiesInDocument",
                str,
                "visible" if legacy_fm is not False else "hidden",
                ("visible", "hidden", "source"),
            ),
            "show_inline_title": app.get("showInlineTitle", bool, True),
            "default_view_mode": app.get("defaultViewMode", str, "source", ("source", "preview")),
            "live_preview": app.get("livePreview", bool, True),
            "readable_line_length": app.get("readableLineLength", bool, True),
            "attachment_folder_path": app.get("attachmentFolderPath", str, "/"),
            "new_file_location": app.get("newFileLocation", str, "root", ("root", "current", "folder")),
            "new_file_folder_path": _folder(app.get("newFileFolderPath", str, "")),
        },
        "daily_notes": {
            "folder": _folder(daily.get("folder", str, "")),
            "format": daily.get("format", str, "").strip() or "YYYY-MM-DD",
            "template": _folder(_strip_md(daily.get("template", str, ""))),
            "autorun": daily.get("autorun", bool, False),
        },
        "templates": {
            "folder": _folder(tpl.get("folder", str, "")),
            "date_format": tpl.get("dateFormat", str, "").strip() or "YYYY-MM-DD",
            "time_format": tpl.get("timeFormat", str, "").strip() or "HH:mm",
        },
        "bookmarks": _bookmarks(marks.get("items", []), problems) if marks else [],
        "property_types": {
            k: v
            for k, v in (types.items() if isinstance(types, dict) else ())
            if isinstance(v, str) and v in PROPERTY_TYPES
        },
        "graph_groups": _graph_groups(graph.get("colorGroups", []), problems),
        "problems": problems,
    }
