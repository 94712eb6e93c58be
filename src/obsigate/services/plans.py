"""The assistant's plans (issue 21 item 4; ``arsenal.md`` §d, the schema of OpenAI Codex's ``update_plan``).

A plan is a markdown file in its owner's own space, one per conversation:
``<data-dir>/users/<user>/plans/<conversation>.md`` (a call without a conversation, REST or a stateless MCP
request, uses the user's default plan ``_default.md``). It is never a vault: no index, no backups, no
confirmation. The file is the only copy: it is re-read at every call (never cached), so a person who edits it
between two steps of a run (the panel, or the file itself) is seen by the next step.

The file::

    ---
    conversation: "4f0c..."
    revision: 3
    created: "2026-12-04T17:31:00Z"
    updated: "2026-12-04T17:35:12Z"
    status: in_progress
    edited_by: assistant
    digest: "9b1e..."
    ---
    # Plan

    > Why the plan changed (the last update's explanation),
    > kept as written, each of its lines behind "> ".

    - [x] Read the notes
    - [~] Draft the summary
    - [ ] Link it from Home

``- [ ]`` pending, ``- [~]`` (or ``- [/]``) in progress, ``- [x]`` completed. Every update re-renders the whole
file and writes it atomically (temp + fsync + rename). ``revision`` grows by one per write; an update naming
another revision than the one on disk is refused (``conflict``, the current plan in ``details``). ``digest`` is
the SHA-256 of the body as written: a body edited by hand (the digest no longer matches) counts as one more
revision, so an update from a model that read the plan before the edit is refused too.

The explanation is a block quote so that it reads back exactly as it was sent (blank lines, leading and
trailing spaces, lines that look like steps or headings): every one of its lines is behind ``>`` (``> `` and
the line; a bare ``>`` for an empty line), and reading removes ``>`` and one space. No line of it can become a
step. An explanation of only whitespace is none (``null``).

Reading tolerates a person's edits: ``*``/``+``/numbered items, ``[X]``, a bullet without a box (a pending
step), indented lines (they continue the step above), blank lines, and an explanation written as a plain
paragraph before the first step (as files were before the block quote: its lines are read stripped, blank
lines dropped, and a list line in it is a step). Anything else (prose after the first step,
an unknown box ``[?]``, broken frontmatter) makes the plan ``plan_unreadable``: nothing is guessed, and an
update naming the revision it stands at (``details.revision``) then moves the person's file aside (``<name>.md.unreadable-<time>``, ``-2``, ``-3``... when that name
is taken: never over another file) before it writes, so nothing is lost.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from obsigate.domain.markdown.frontmatter import load_frontmatter, split_frontmatter
from obsigate.domain.storage.atomic import atomic_write_at
from obsigate.domain.storage.user_space import UnsafeUserName, user_dir
from obsigate.services.errors import BadRequest, Conflict, ServiceError, Unavailable, is_storage_full
from obsigate.services.results import Result

__all__ = [
    "DEFAULT_PLAN", "MAX_EXPLANATION_CHARS", "MAX_FILE_BYTES", "MAX_STEPS", "MAX_STEP_CHARS", "PlanStep",
    "PlanUnreadable", "PlanView", "Status", "check_steps", "get_plan", "parse_plan", "plan_name", "render_body",
    "render_plan", "update_plan",
]  # fmt: skip

#: At most this many steps per update, each at most this many characters; the explanation at most this many.
MAX_STEPS = 50
MAX_STEP_CHARS = 500
MAX_EXPLANATION_CHARS = 2000
#: A plan file over this size is not read (a person's paste gone wrong); a rendered plan is far below it.
MAX_FILE_BYTES = 256 * 1024
#: The plan of calls that belong to no conversation (REST, stateless MCP): one per user.
DEFAULT_PLAN = "_default"
PLANS_DIR = "plans"
#: The names of MCP sessions' plans (:func:`plan_name`): a session has no delete, so they expire instead.
SESSION_PREFIX = "mcp-"
#: How long an MCP session's plan outlives its last use when the server has no file space (whose TTL it takes).
SESSION_TTL_S = 24 * 3600
_SESSION_FILE = re.compile(r"mcp-[0-9a-f]{32}\.md")
#: How many names :func:`_set_aside` tries for the unreadable files of one second.
_ASIDE_TRIES = 1000
#: ``os.link`` errors that mean "no hard link here" (as in ``domain/storage/atomic.py``): rename instead.
_NO_HARDLINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}

Status = Literal["pending", "in_progress", "completed"]
_MARK = {"pending": " ", "in_progress": "~", "completed": "x"}
_STATUS_OF: dict[str, Status] = {" ": "pending", "~": "in_progress", "/": "in_progress", "x": "completed"}
_STATUS_OF["X"] = "completed"
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,3}[.)])\s+(?:\[(.)\](?:\s+|$))?(.*)$")
_HEADING = re.compile(r"^#{1,6}\s")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")


class PlanStep(BaseModel):
    """One step: its text and its status (the tool's arguments hold the bounds: this is also what is read back
    from a person's file, which may hold longer steps)."""

    step: str
    status: Status


class PlanView(Result):
    """A plan as read from its file: ``exists`` false when none was made yet (``revision`` 0, no steps).
    ``revision``: pass it to ``update_plan``; ``status``: ``empty``/``pending``/``in_progress``/``completed``;
    ``markdown``: the file's body (what a person sees); ``edited_by``: who wrote it last (``assistant`` or
    ``person``; a hand edit of the file is the person's). Lean on purpose: its schema is in every MCP tools/list."""

    exists: bool
    revision: int = 0
    status: str = "empty"
    explanation: str | None = None
    plan: list[PlanStep] = Field(default_factory=list)
    edited_by: str | None = None
    markdown: str = ""

    @property
    def in_progress(self) -> str | None:
        """The text of the step in progress, if any."""
        return next((s.step for s in self.plan if s.status == "in_progress"), None)


@dataclass(frozen=True, slots=True)
class _Parsed:
    revision: int
    explanation: str | None
    steps: list[PlanStep]
    meta: dict[str, object]
    edited_by_hand: bool
    body: str


def plan_name(conversation: str | None, *, session: bool = False) -> str:
    """The file name (without ``.md``) of ``conversation``'s plan: the id itself when it is a plain name
    (letters, digits, ``_``, ``-``; up to 100), else ``c-`` and the first 32 hex digits of its SHA-256;
    :data:`DEFAULT_PLAN` for ``None``. ``session``: ``conversation`` is an MCP session id (any visible
    character): :data:`SESSION_PREFIX` and its hash, a name of its own that no in-app conversation can take and
    that :func:`sweep_session_plans` expires."""
    if conversation is None:
        return DEFAULT_PLAN
    if session:
        return SESSION_PREFIX + hashlib.sha256(conversation.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    if _SAFE_ID.fullmatch(conversation):
        return conversation
    return "c-" + hashlib.sha256(conversation.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]


def _overall(steps: list[PlanStep]) -> str:
    if not steps:
        return "empty"
    if all(s.status == "completed" for s in steps):
        return "completed"
    if all(s.status == "pending" for s in steps):
        return "pending"
    return "in_progress"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render_body(explanation: str | None, steps: list[PlanStep]) -> str:
    """The markdown below the frontmatter: a ``# Plan`` heading, the explanation as a block quote (each line as
    it is, behind ``> ``; none when it is only whitespace), the checklist."""
    lines = ["# Plan", ""]
    if explanation and explanation.strip():
        # behind '>', no line of the explanation reads as a step or a heading; parse_plan removes '> ' again
        lines += [f"> {line}" if line else ">" for line in explanation.split("\n")]
        lines.append("")
    lines += [f"- [{_MARK[s.status]}] {_one_line(s.step)}" for s in steps]
    return "\n".join(lines) + "\n"


def render_plan(
    conversation: str | None, revision: int, created: str, explanation: str | None, steps: list[PlanStep], by: str
) -> str:
    """The whole file: frontmatter (every value a JSON scalar, which YAML reads as is) and :func:`render_body`."""
    body = render_body(explanation, steps)
    meta = {
        "conversation": conversation, "revision": revision, "created": created, "updated": _now(),
        "status": _overall(steps), "edited_by": by, "digest": _digest(body),
    }  # fmt: skip
    head = "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in meta.items())
    return f"---\n{head}\n---\n{body}"


class PlanUnreadable(ServiceError):
    """The plan file is not one this module can read back (``details.line``: the first line it could not)."""

    code = "plan_unreadable"


def parse_plan(text: str) -> _Parsed:
    """Read a plan file's text (see the module docstring for what a person may change).

    Raises:
        PlanUnreadable: no frontmatter, invalid YAML, a revision that is not a whole number, or a body line
            that is neither the heading, the explanation (before the first step: quoted lines, or a plain
            paragraph), a step, its continuation, nor blank (``details.line``: its line number in the file).
    """
    text = text.replace("\r\n", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    source, body, body_line = split_frontmatter(text)
    if source is None:
        raise PlanUnreadable("the plan file has no frontmatter (--- ... ---)", details={"line": 1})
    meta, error = load_frontmatter(source)
    if error is not None:
        raise PlanUnreadable(f"the plan's frontmatter is not valid: {error}", details={"line": 1})
    revision = meta.get("revision", 0)
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
        raise PlanUnreadable("the plan's revision is not a whole number", details={"line": 1})
    explanation: list[str] = []
    steps: list[tuple[Status, str]] = []
    heading_seen = False
    for n, line in enumerate(body.split("\n"), start=body_line):
        if not line.strip():
            continue
        if not steps and (quoted := _QUOTE.match(line)) is not None:
            explanation.append(quoted.group(1))  # as written: spaces and list-looking text included
            continue
        item = _ITEM.match(line)
        if item is not None:
            mark, rest = item.group(1), item.group(2).strip()
            if mark is not None and mark not in _STATUS_OF:
                raise PlanUnreadable(
                    f"line {n}: [{mark}] is not a step status ([ ], [~], [/], [x])", details={"line": n}
                )
            if rest:
                steps.append((_STATUS_OF[mark] if mark is not None else "pending", rest))
            continue
        if steps and line[:1] in (" ", "\t"):
            status, prior = steps[-1]
            steps[-1] = (status, f"{prior} {line.strip()}")
            continue
        if not steps and not explanation and not heading_seen and _HEADING.match(line):
            heading_seen = True
            continue
        if not steps:
            explanation.append(line.strip())
            continue
        raise PlanUnreadable(
            f"line {n} is not a step ('- [ ] text'): the plan keeps only steps after the first one",
            details={"line": n},
        )
    # a person's step may be longer than an update allows: read as it is (model_construct skips the bounds)
    parsed = [PlanStep.model_construct(step=_one_line(t), status=s) for s, t in steps]
    digest = meta.get("digest")
    edited = not (isinstance(digest, str) and digest == _digest(body))
    said = "\n".join(explanation)
    return _Parsed(revision, said if said.strip() else None, parsed, meta, edited, body)


# --- files ----------------------------------------------------------------------------------------------------


def _plans_dir(data_dir: Path | None, user: str) -> Path:
    if data_dir is None:
        raise Unavailable("plans need the server's data dir", hint="run the server with a data dir")
    try:
        return user_dir(data_dir, user, PLANS_DIR)
    except UnsafeUserName:
        raise BadRequest("this user name cannot own a plan") from None
    except OSError as exc:
        raise ServiceError(f"the plans folder cannot be used: {exc.strerror}", code="write_failed") from exc


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[int]:
    """The plans folder open (``O_DIRECTORY|O_NOFOLLOW``) and locked (``flock``) for one read-check-write: two
    updates of the same user's plans (the model and the person) never interleave."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # releases the lock


def _read(dir_fd: int, name: str) -> str | None:
    """The text of ``name`` in the folder, ``None`` when there is none.

    Raises:
        PlanUnreadable: a symlink or not a regular file there, over :data:`MAX_FILE_BYTES`, or not UTF-8.
    """
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PlanUnreadable(f"the plan file cannot be opened: {exc.strerror}", details={"line": 0}) from exc
    try:
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000 == 0o100000):
            raise PlanUnreadable("the plan is not a regular file", details={"line": 0})
        if info.st_size > MAX_FILE_BYTES:
            raise PlanUnreadable(f"the plan file is over {MAX_FILE_BYTES} bytes", details={"line": 0})
        data = os.read(fd, MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PlanUnreadable("the plan file is not UTF-8 text", details={"line": 0}) from exc


def _set_aside(dir_fd: int, name: str) -> str | None:
    """Move the unreadable ``name`` of the folder aside, as ``<name>.unreadable-<unix time>`` (``-2``, ``-3``...
    when that name is taken), and return the new name; ``None`` when ``name`` is gone. It never replaces a file
    (``os.rename`` would, silently: two plans set aside in the same second would lose the first): a hard link
    refuses a taken name, then the old name is removed. Where a hard link cannot be made (a folder at ``name``,
    a file system without them), the new name is checked, then renamed to: the folder lock keeps every other
    update out in between.

    Raises:
        OSError: the file could not be moved, or :data:`_ASIDE_TRIES` names were all taken.
    """
    stamp = int(time.time())
    for n in range(1, _ASIDE_TRIES + 1):
        aside = f"{name}.unreadable-{stamp}" + (f"-{n}" if n > 1 else "")
        try:
            os.link(name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        except FileExistsError:
            continue
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno not in _NO_HARDLINKS:
                raise
            try:
                os.stat(aside, dir_fd=dir_fd, follow_symlinks=False)
                continue
            except FileNotFoundError:
                pass
            try:
                os.rename(name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except FileNotFoundError:
                return None
            return aside
        # a crash before this unlink leaves both names on the same text: still nothing lost
        os.unlink(name, dir_fd=dir_fd)
        return aside
    raise FileExistsError(errno.EEXIST, f"{_ASIDE_TRIES} names to keep the plan aside are taken", name)


#: A ``revision:`` line of a frontmatter that does not parse: a number, quoted or not, a comment after it.
_REVISION_LINE = re.compile(r"""^revision:[ \t]*["']?(\d{1,40})["']?[ \t]*(?:#.*)?$""", re.MULTILINE)


def _revision_said(data: bytes) -> int:
    """The revision an unreadable plan file still names in its frontmatter (never in its body): its
    ``revision`` when the frontmatter parses (the file is unreadable for its body), else its first
    ``revision:`` line; 0 when it names none."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").removeprefix("\ufeff")
    source, _, _ = split_frontmatter(text)
    if source is None:
        return 0
    meta, error = load_frontmatter(source)
    said = meta.get("revision") if error is None else None
    if isinstance(said, int) and not isinstance(said, bool) and said >= 0:
        return said
    found = _REVISION_LINE.search(source)
    return int(found.group(1)) if found else 0


def _unreadable_at(dir_fd: int, name: str) -> int:
    """The revision an unreadable plan file stands at: the one it names, plus one for the hand edit that made
    it unreadable (as a readable edit counts, :func:`_view`); 1 when it names none or is no regular file."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return 1
    try:
        data = os.read(fd, MAX_FILE_BYTES) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    finally:
        os.close(fd)
    return _revision_said(data) + 1


def _unreadable(exc: PlanUnreadable, at: int) -> PlanUnreadable:
    """``exc`` with the revision the unreadable file stands at (``details.revision``) and how to replace it."""
    return PlanUnreadable(
        exc.message,
        hint=f"update_plan with revision {at} replaces it (the file is kept aside, nothing is lost)",
        details={**(exc.details or {}), "revision": at},
    )


def _view(parsed: _Parsed | None) -> PlanView:
    if parsed is None:
        return PlanView(exists=False)
    return PlanView(
        exists=True, revision=parsed.revision + (1 if parsed.edited_by_hand else 0), status=_overall(parsed.steps),
        explanation=parsed.explanation, plan=parsed.steps, markdown=parsed.body,
        edited_by="person" if parsed.edited_by_hand else str(parsed.meta.get("edited_by") or "person"),
    )  # fmt: skip


def get_plan(data_dir: Path | None, user: str, conversation: str | None, *, session: bool = False) -> PlanView:
    """``user``'s plan of ``conversation`` (``None``: the default plan; ``session``: an MCP session's, see
    :func:`plan_name`), read from its file now. Reading a session's plan is a use: it keeps it from expiring.

    Raises:
        PlanUnreadable: ``plan_unreadable`` (see :func:`parse_plan`; ``details.revision``: the revision an
            update must name to replace it); the file is left as it is.
        Unavailable: no data dir.
    """
    folder = _plans_dir(data_dir, user)
    name = plan_name(conversation, session=session) + ".md"
    with _locked(folder) as fd:
        try:
            text = _read(fd, name)
            parsed = parse_plan(text) if text is not None else None
        except PlanUnreadable as exc:
            raise _unreadable(exc, _unreadable_at(fd, name)) from None
        if session and text is not None:
            with contextlib.suppress(OSError):  # gone since, or a read-only disk: the read still answers
                os.utime(name, dir_fd=fd, follow_symlinks=False)
    return _view(parsed)


def _control(text: str, keep: str) -> str | None:
    """The first control character of ``text`` not in ``keep`` (``U+XXXX``), or ``None``."""
    bad = next((c for c in text if unicodedata.category(c) == "Cc" and c not in keep), None)
    return None if bad is None else f"U+{ord(bad):04X}"


def check_steps(steps: list[PlanStep], explanation: str | None) -> None:
    """The bounds of an update: at most :data:`MAX_STEPS` steps, one ``in_progress``, and no control character
    (except a tab, and a line break in the explanation, which the file keeps on several lines).

    Raises:
        BadRequest: ``invalid_argument`` with ``details.errors`` (``[{"field", "problem"}]``) and a hint saying
            how to fix it; two steps ``in_progress`` also give ``details.in_progress``, their texts.
    """
    if len(steps) > MAX_STEPS:
        raise BadRequest(f"a plan holds at most {MAX_STEPS} steps, not {len(steps)}", hint="merge small steps")
    if explanation is not None and len(explanation) > MAX_EXPLANATION_CHARS:
        raise BadRequest(f"the explanation is over {MAX_EXPLANATION_CHARS} characters")
    bad = [
        {"field": f"plan.{i}.step", "problem": f"contains the control character {c}"}
        for i, s in enumerate(steps)
        if (c := _control(s.step, "\t"))
    ]
    if explanation is not None and (c := _control(explanation, "\t\n")):
        bad.append({"field": "explanation", "problem": f"contains the control character {c}"})
    if bad:
        summary = "; ".join(f"{p['field']}: {p['problem']}" for p in bad[:5])
        raise BadRequest(
            f"invalid arguments: {summary}", hint="remove control characters from the text", details={"errors": bad}
        )
    running = [s.step for s in steps if s.status == "in_progress"]
    if len(running) > 1:
        raise BadRequest(
            f"{len(running)} steps are in_progress; at most one may be",
            hint="keep one step in_progress, mark the others pending or completed",
            details={
                "errors": [{"field": "plan", "problem": "at most one step may be in_progress"}],
                "in_progress": running,
            },
        )
    if any(not s.step.strip() for s in steps):
        raise BadRequest("a step has no text")


def update_plan(
    data_dir: Path | None,
    user: str,
    conversation: str | None,
    steps: list[PlanStep],
    *,
    explanation: str | None = None,
    revision: int | None = None,
    by: Literal["assistant", "person"] = "assistant",
    session: bool = False,
) -> PlanView:
    """Replace ``user``'s plan of ``conversation`` with ``steps`` (the whole plan), as written by ``by``.

    ``session``: ``conversation`` is an MCP session id (:func:`plan_name`).
    ``explanation``: kept exactly as sent (blank lines, spaces and list-looking lines included; never a step);
    ``None``, empty or only whitespace: no explanation.
    ``revision``: the revision the caller read (``get_plan``, or the last update's result); another one than the
    plan's current revision is refused. Without it, the update goes through only when there is no plan yet or
    the assistant wrote it last (a person's edit since must have been read first). An unreadable file is moved
    aside first (``<name>.md.unreadable-<unix time>``, a ``-2``... suffix when that name is taken; never over
    a file) and the notice says so. Such a file stands at the revision it still names plus one (the hand edit):
    an update replaces it only when it names that revision (``details.revision`` of ``plan_unreadable`` and of
    the ``conflict``), or without a revision when ``by`` is the person.

    Returns:
        The plan as written (``revision`` one more than before).

    Raises:
        BadRequest: ``invalid_argument`` (:func:`check_steps`); nothing written.
        Conflict: ``conflict``, a stale or missing ``revision`` (``details.plan``: the current plan; for an
            unreadable file ``details.revision``, the one to name); nothing written.
        ServiceError: ``write_failed``/``storage_full``: the disk refused the write; the old file stays.
    """
    check_steps(steps, explanation)
    folder = _plans_dir(data_dir, user)
    name = plan_name(conversation, session=session) + ".md"
    with _locked(folder) as fd:
        notice, at = None, 0
        try:
            text = _read(fd, name)
            parsed = parse_plan(text) if text is not None else None
        except PlanUnreadable as exc:
            # a hand edit the server cannot read: it counts as a revision, which the update must name (a
            # writer that read the plan before it is stale), and is then kept aside, never overwritten
            at = _unreadable_at(fd, name)
            if revision != at and (revision is not None or by == "assistant"):
                said = f"it stands at revision {at}" + (f", not {revision}" if revision is not None else "")
                raise Conflict(
                    f"the plan file was edited into something that cannot be read ({exc.message}); {said}",
                    hint=f"send the whole plan with revision {at} to replace it (the file is kept aside)",
                    details={"revision": at, "line": (exc.details or {}).get("line")},
                ) from None
            try:
                aside = _set_aside(fd, name)
            except OSError as err:
                raise exc from err
            kept = f"it was kept as plans/{aside}" if aside else "it was gone when it was to be kept aside"
            parsed, notice = None, f"the plan file could not be read ({exc.message}); {kept}"
        current = _view(parsed)
        if at:
            current = current.model_copy(update={"revision": at})
        if revision is not None and current.exists and revision != current.revision:
            raise Conflict(
                f"the plan is at revision {current.revision}, not {revision}: it changed since you read it",
                hint="read it again (get_plan) and send the whole plan with its revision",
                details={"plan": current.model_dump(exclude={"markdown"})},
            )
        if revision is None and current.exists and current.edited_by != "assistant" and by == "assistant":
            raise Conflict(
                "the person edited the plan since your last update",
                hint="read it (get_plan), then send the whole plan with its revision",
                details={"plan": current.model_dump(exclude={"markdown"})},
            )
        created = str(parsed.meta.get("created") or _now()) if parsed is not None else _now()
        data = render_plan(conversation, current.revision + 1, created, explanation, steps, by)
        try:
            atomic_write_at(fd, name, data.encode("utf-8"), mode=0o600)
        except OSError as exc:
            code = "storage_full" if is_storage_full(exc) else "write_failed"
            raise ServiceError(f"the plan could not be written: {exc.strerror}", code=code) from exc
    view = _view(parse_plan(data))
    return view.model_copy(update={"notice": notice}) if notice else view


def delete_plan(data_dir: Path | None, user: str, conversation: str) -> bool:
    """Delete ``user``'s plan of ``conversation`` (the conversation was deleted); ``True`` if there was one. A
    plan moved aside as unreadable stays: it holds a person's text the server could not read.

    Raises:
        Unavailable: no data dir. OSError: the file could not be removed.
    """
    folder = _plans_dir(data_dir, user)
    with _locked(folder) as fd:
        try:
            os.unlink(plan_name(conversation) + ".md", dir_fd=fd)
        except FileNotFoundError:
            return False
    return True


def sweep_session_plans(data_dir: Path | None, older_than_s: float, *, now: float | None = None) -> int:
    """Delete every user's MCP session plans (:data:`SESSION_PREFIX`) not used (written or read) for
    ``older_than_s`` seconds: a session ends without a word, so its plan expires like its files. Plans of
    in-app conversations (deleted with them), default plans and files set aside as unreadable (a person's text)
    are never touched. The walk goes from ``<data_dir>/users`` by directory descriptors and follows no symlink
    (``users``, a user's folder or ``plans`` that is one is skipped). Returns how many went; 0 without a data
    dir or a ``users`` folder.

    Raises:
        OSError: ``users`` cannot be listed, or a plan that is due cannot be removed.
    """
    if data_dir is None:
        return 0
    cutoff = (time.time() if now is None else now) - older_than_s
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        users = os.open(data_dir / "users", flags)
    except OSError:  # none yet, or a symlink: nothing of ours to sweep
        return 0
    gone = 0
    try:
        for user in os.listdir(users):
            try:
                home = os.open(user, flags, dir_fd=users)
                try:
                    folder = os.open(PLANS_DIR, flags, dir_fd=home)
                finally:
                    os.close(home)
            except OSError:  # not a folder, a symlink, or no plans
                continue
            try:
                fcntl.flock(folder, fcntl.LOCK_EX)  # an update of this user's plans never sees one half-swept
                gone += _sweep_folder(folder, cutoff)
            finally:
                os.close(folder)
    finally:
        os.close(users)
    return gone


def _sweep_folder(dir_fd: int, cutoff: float) -> int:
    """Delete the session plans of one locked plans folder last changed or read before ``cutoff`` (epoch s)."""
    gone = 0
    for name in os.listdir(dir_fd):
        if not _SESSION_FILE.fullmatch(name):
            continue
        with contextlib.suppress(FileNotFoundError):
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                os.unlink(name, dir_fd=dir_fd)
                gone += 1
    return gone
