"""Each person's own skills, in one JSON file of the data dir (seeds §6bis: ``data/skills.json``).

Shape: ``{"version": 1, "users": {"alice": {"<id>": {"icon", "description", "prompt"}}}}``; keyed by the
user's name, so one person never reads, changes or deletes another's. A person keeps at most
:data:`MAX_SKILLS_PER_USER`; an id of a built-in skill is refused (a person's skill never shadows one). The
file is ``0600``, never read through a symlink, written atomically (temp file, fsync, rename, fsync of the
folder) under a lock held across processes, and re-read when it changes on disk. A file that stops parsing
keeps its last good content for reading, and is never overwritten (a change answers ``unavailable``).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

# the data dir's JSON files share one reader/writer (atomic, 0600, no symlink) and one cross-process lock
from obsigate.agent.data_files import JsonObjectFile, process_lock
from obsigate.agent.skills import DEFAULT_ICON, SKILLS, Skill, SkillInput, skill_prompt
from obsigate.tools.api import BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, parse

__all__ = ["MAX_SKILLS_PER_USER", "SKILLS_FILE", "SkillBook", "check_skill"]

SKILLS_FILE = "skills.json"
LOCK_FILE = ".skills.lock"
MAX_SKILLS_PER_USER = 50
_VERSION = 1


class SkillBook:
    """The built-in skills plus each person's own, over ``<data_dir>/skills.json``. Thread-safe.

    Args:
        data_dir: the data folder (it must exist).
    """

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)
        self._file = JsonObjectFile(self.data_dir / SKILLS_FILE, private=True)
        self._lock = threading.RLock()
        #: the file's object last read, and each person's skills parsed from it (parsed once per version)
        self._seen: dict[str, Any] | None = None
        self._parsed: dict[str, dict[str, Skill]] = {}

    @staticmethod
    def _parse(entries: Any) -> dict[str, Skill]:
        """A person's stored skills; entries a hand edit broke are skipped (the rest stays usable)."""
        out: dict[str, Skill] = {}
        if not isinstance(entries, dict):
            return out
        for skill_id, entry in entries.items():
            if not isinstance(entry, dict) or skill_id in SKILLS:
                continue
            try:
                checked = SkillInput.model_validate(
                    {**entry, "id": skill_id, "icon": entry.get("icon") or DEFAULT_ICON}
                )
            except ValueError:
                continue
            out[skill_id] = checked.skill()
        return out

    def own(self, user: str) -> dict[str, Skill]:
        """``user``'s own skills by id (sorted by id)."""
        with self._lock:
            data = self._file.read()
            if data is not self._seen:
                self._seen, self._parsed = data, {}
            if user not in self._parsed:
                users = data.get("users")
                found = self._parse(users.get(user) if isinstance(users, dict) else None)
                self._parsed[user] = dict(sorted(found.items()))
            return dict(self._parsed[user])

    def list(self, user: str) -> list[dict[str, Any]]:
        """The built-in skills, then ``user``'s own: ``[{id, icon, description, prompt, builtin}]``."""
        return [*(s.as_dict(builtin=True) for s in SKILLS.values()),
                *(s.as_dict(builtin=False) for s in self.own(user).values())]  # fmt: skip

    def prompt(self, user: str, skill: str | None) -> str | None:
        """The prompt of skill ``skill`` for ``user`` (a built-in one or their own); ``None`` → ``None``.

        Raises:
            BadRequest: ``invalid_argument``, an unknown skill (another person's counts as unknown).
        """
        if skill is None:
            return None
        return skill_prompt(skill, None if skill in SKILLS else self.own(user))

    def save(self, user: str, skill: SkillInput) -> bool:
        """Create or replace ``user``'s skill ``skill.id``; ``True`` when it is new.

        Raises:
            Conflict: ``exists``, the id of a built-in skill.
            PayloadTooLarge: ``too_large``, a new skill past :data:`MAX_SKILLS_PER_USER`.
            Unavailable: ``unavailable``, the file exists but cannot be read (it is left as it is).
            OSError: the data folder cannot be written.
        """
        if skill.id in SKILLS:
            raise Conflict(
                f"{skill.id!r} is a built-in skill; yours needs another id", code="exists",
                details={"field": "id"}, hint="pick another id",
            )  # fmt: skip
        with self._lock, process_lock(self._lock_path()):
            data, mine = self._fresh(user)
            created = skill.id not in mine
            if created and len(mine) >= MAX_SKILLS_PER_USER:
                raise PayloadTooLarge(
                    f"you have {len(mine)} skills, the most one person may keep",
                    details={"limit": MAX_SKILLS_PER_USER}, hint="delete one first",
                )  # fmt: skip
            mine[skill.id] = {"icon": skill.icon, "description": skill.description, "prompt": skill.prompt}
            self._file.write(data)
        return created

    def delete(self, user: str, skill_id: str) -> None:
        """Delete ``user``'s skill ``skill_id``.

        Raises:
            Forbidden: ``forbidden``, a built-in skill.
            NotFound: ``not_found``, no skill of that id among ``user``'s own.
            Unavailable: ``unavailable``, the file exists but cannot be read.
        """
        if skill_id in SKILLS:
            raise Forbidden(f"{skill_id!r} is a built-in skill; only your own skills can be deleted", code="forbidden")
        with self._lock, process_lock(self._lock_path()):
            data, mine = self._fresh(user)
            if skill_id not in mine:
                raise NotFound(f"you have no skill {skill_id[:64]!r}", details={"field": "id"})
            del mine[skill_id]
            if not mine:
                del data["users"][user]
            self._file.write(data)

    def _lock_path(self) -> Path:
        return self.data_dir / LOCK_FILE  # the data dir exists: the composition root made it (0700)

    def _fresh(self, user: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The file's object as on disk now, for a change, and ``user``'s entries in it (created if missing)."""
        data = self._file.read_fresh()
        users = data.get("users")
        if not isinstance(users, dict):
            users = data["users"] = {}
        mine = users.get(user)
        if not isinstance(mine, dict):
            mine = users[user] = {}
        data["version"] = _VERSION
        return data, mine


def check_skill(body: Any) -> SkillInput:
    """``body`` as a :class:`SkillInput` (see there).

    Raises:
        BadRequest: ``invalid_argument``, the body does not match (``details.errors`` lists why).
    """
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    skill = parse(SkillInput, body, hint="id: a-z, 0-9, - and _ (1-40); description: one line; see docs/assistant.md")
    assert isinstance(skill, SkillInput)
    return skill
