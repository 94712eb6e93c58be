"""Which LLM provider and model a request uses, with which key: the assistant's own settings.

Sources (seeds §6, issue 10 item 1), highest first:

* **provider**: the request's ``provider`` > ``config.json`` ``ai_default_provider`` > env
  ``AI_DEFAULT_PROVIDER`` > ``deepseek``;
* **model**: the request's ``model`` > ``config.json`` ``ai_default_models[provider]`` > env ``<NAME>_MODEL`` >
  the built-in default (:mod:`obsigate.agent.providers.catalog`);
* **base URL**: ``config.json`` ``ai_base_urls[provider]`` > env ``<NAME>_BASE_URL`` > the built-in endpoint;
* **API key**: ``<data_dir>/api_keys.json`` (``{"deepseek": "sk-..."}``, mode 0600) > ``<NAME>_API_KEY`` in
  ``<data_dir>/.env`` (:mod:`obsigate.agent.dotenv_file`; only the keys are read from it) > env ``<NAME>_API_KEY``;
* **per-vault dangerous tools**: ``config.json`` ``ai_destructive_tools`` (``{"notes": false}``, set from the web
  app's settings) > the vault's declared ``aiDestructiveTools`` (the composition root combines them, live).

The files are re-read when they change on disk (inode, size or mtime), so ``POST /api/config``, ``obsigate ai
key set`` from another process, or a hand edit take effect on the next request without a restart. A file that
stops parsing (an editor half-way through a save) keeps its last good values, with a warning in the log.
Writes are atomic (temp file in the same folder, fsync, rename): ``config.json`` keeps every other key it
holds; ``api_keys.json`` is created ``0600`` and stays so. No key is ever logged, echoed in an error, or
shown beyond its last four characters (:func:`mask_key`).

This module sees no ``obsigate.config``: the composition root passes the data folder and a copy of the
environment taken at start.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from obsigate.agent.data_files import JsonObjectFile, process_lock
from obsigate.agent.dotenv_file import DOTENV_FILE, DotEnvFile
from obsigate.agent.providers.base import TURN_TIMEOUT_S, ProviderConfig, ProviderError
from obsigate.agent.providers.catalog import (
    DEFAULT_PROVIDER,
    DEFAULT_PROVIDER_ENV,
    PROVIDERS,
    ProviderSpec,
    get_spec,
    is_local_engine,
    normalise_name,
)
from obsigate.tools.errors import BadRequest

__all__ = [
    "CONFIG_FILE",
    "DESTRUCTIVE_KEY",
    "KEYS_FILE",
    "AISettings",
    "known_provider",
    "mask_key",
    "validate_base_url",
    "validate_key",
    "validate_model",
]

log = logging.getLogger(__name__)

CONFIG_FILE = "config.json"
KEYS_FILE = "api_keys.json"
#: Held (``flock``) around every read-modify-write of the two files, so the CLI and a running server writing
#: at the same moment do not lose each other's change.
LOCK_FILE = ".ai_settings.lock"
MODEL_MAX_CHARS = 200
KEY_MAX_CHARS = 4096
BASE_URL_MAX_CHARS = 2048
#: The ``config.json`` key of the per-vault ``aiDestructiveTools`` switches set at run time: ``{vault: bool}``.
DESTRUCTIVE_KEY = "ai_destructive_tools"
_VAULT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
#: A masked key shows its last 4 characters only when it has at least this many (else just "set").
MASK_MIN_CHARS = 12
_UNSET: Any = object()
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _bad_chars(value: str) -> bool:
    """Whitespace or a control character anywhere (a model name or key travels in a URL or a header)."""
    return any(c.isspace() or ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u2028\u2029" for c in value)


def validate_model(model: Any, *, field: str = "model") -> str:
    """``model`` if it is a usable model name: a string of 1-200 characters without whitespace or control
    characters (``deepseek-v4-flash``, ``openai/gpt-4o-mini``, ``llama3.1:8b``).

    Raises:
        BadRequest (``invalid_argument``): anything else.
    """
    if not isinstance(model, str) or not model:
        raise BadRequest(f"{field} must be a non-empty string", details={"field": field})
    if len(model) > MODEL_MAX_CHARS:
        raise BadRequest(f"{field} is longer than {MODEL_MAX_CHARS} characters", details={"field": field})
    if _bad_chars(model):
        raise BadRequest(f"{field} holds spaces or control characters", details={"field": field})
    return model


def validate_key(key: Any, *, field: str = "api_key") -> str:
    """``key`` without surrounding whitespace, if it is usable as an API key: 1-4096 characters, no inner
    whitespace or control characters (it goes into an HTTP header). The key never appears in the error.

    Raises:
        BadRequest (``invalid_argument``): anything else.
    """
    if not isinstance(key, str) or not key.strip():
        raise BadRequest(f"{field} must be a non-empty string", details={"field": field})
    key = key.strip()
    if len(key) > KEY_MAX_CHARS:
        raise BadRequest(f"{field} is longer than {KEY_MAX_CHARS} characters", details={"field": field})
    if _bad_chars(key):
        raise BadRequest(f"{field} holds spaces or control characters", details={"field": field})
    return key


def validate_base_url(url: Any, *, field: str = "base_url") -> str:
    """``url`` without its trailing slash, if it is an ``http(s)`` URL with a host and no user info, query or
    fragment, at most 2048 characters (e.g. ``http://127.0.0.1:8080/v1``).

    Raises:
        BadRequest (``invalid_argument``): anything else.
    """
    if not isinstance(url, str) or not url.strip():
        raise BadRequest(f"{field} must be a non-empty string", details={"field": field})
    url = url.strip().rstrip("/")
    if len(url) > BASE_URL_MAX_CHARS or _bad_chars(url):
        raise BadRequest(f"{field} is too long or holds spaces or control characters", details={"field": field})
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — raises ValueError on a bad port
    except ValueError:
        raise BadRequest(f"{field} is not a valid URL", details={"field": field}) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise BadRequest(f"{field} must be an http:// or https:// URL with a host", details={"field": field})
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        raise BadRequest(
            f"{field} must not carry user info, a query or a fragment", details={"field": field},
            hint="give the key separately (api_keys)",
        )  # fmt: skip
    if _link_local(parts.hostname):
        raise BadRequest(
            f"{field} points at a link-local address (cloud metadata services live there), never a model server",
            details={"field": field},
        )
    return url


def _link_local(host: str) -> bool:
    """Whether ``host`` is a link-local IP literal (169.254.0.0/16, fe80::/10: RFC 3927, RFC 4291) or the
    usual cloud metadata names. Loopback and private networks stay allowed: local engines (Ollama, llama.cpp)
    live there. Names are not resolved here; the check is on what the admin typed."""
    if host.lower().rstrip(".") in {"metadata.google.internal", "metadata"}:
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_link_local or bool(mapped and mapped.is_link_local)


def known_provider(name: Any, *, field: str = "provider") -> str:
    """``name`` as the catalog spells it (``"DeepSeek"`` → ``"deepseek"``) if it is a known provider.

    Raises:
        BadRequest (``invalid_argument``): anything else; the message lists the known providers.
    """
    if isinstance(name, str) and normalise_name(name) in PROVIDERS:
        return normalise_name(name)
    shown = name[:64] if isinstance(name, str) else type(name).__name__
    raise BadRequest(
        f"{field}: unknown AI provider {shown!r}; known providers: {', '.join(PROVIDERS)}", details={"field": field}
    )


def mask_key(key: str | None) -> str | None:
    """What may be shown of ``key``: ``None`` when there is none, ``"…abcd"`` (its last 4 characters) when it
    has at least 12, else ``"set"`` (a short key would be half revealed)."""
    if not key:
        return None
    return f"…{key[-4:]}" if len(key) >= MASK_MIN_CHARS else "set"


def _shown_url(url: str | None) -> str | None:
    """``url`` as :meth:`AISettings.status` shows it: user info (a password in ``<NAME>_BASE_URL``) and the
    query replaced by ``***``."""
    if url is None:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return "***"
    if "@" in parts.netloc:
        parts = parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1])
    if parts.query:
        parts = parts._replace(query="***")
    return parts.geturl()


def _bool_map(value: Any) -> dict[str, bool]:
    """The ``{vault: bool}`` entries of a hand-editable ``config.json`` mapping; anything else is ignored."""
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, bool)}


def _check_switches(value: Any) -> dict[str, bool | None]:
    """``{vault: bool or None}`` with valid vault names, else BadRequest (``invalid_argument``)."""
    if not isinstance(value, Mapping):
        raise BadRequest(
            f"{DESTRUCTIVE_KEY} must be an object {{vault: true, false or null}}", details={"field": DESTRUCTIVE_KEY}
        )
    for name, on in value.items():
        if not isinstance(name, str) or not _VAULT_NAME.fullmatch(name) or set(name) == {"."}:
            raise BadRequest(
                f"{DESTRUCTIVE_KEY}: {str(name)[:64]!r} is not a vault name", details={"field": DESTRUCTIVE_KEY}
            )
        if on is not None and not isinstance(on, bool):
            raise BadRequest(
                f"{DESTRUCTIVE_KEY}.{name} must be true, false or null", details={"field": f"{DESTRUCTIVE_KEY}.{name}"}
            )
    return dict(value)


def _str_map(value: Any) -> dict[str, str]:
    """The ``{provider: text}`` entries of a hand-editable ``config.json`` mapping; anything else is ignored."""
    if not isinstance(value, dict):
        return {}
    return {
        normalise_name(k): v.strip()
        for k, v in value.items()
        if isinstance(k, str) and isinstance(v, str) and v.strip()
    }


class AISettings:
    """The assistant's provider settings over ``<data_dir>/config.json``, ``<data_dir>/api_keys.json``,
    ``<data_dir>/.env`` (keys only) and ``environ`` (a copy of the environment taken at start). Thread-safe; every read sees the files' current
    content (see the module docstring for the precedence).

    Args:
        data_dir: the data folder (the one ``obsigate serve`` uses).
        environ: environment variables (``DEEPSEEK_API_KEY``, ``AI_DEFAULT_PROVIDER``...); default none.
        timeout_s: the connect/idle timeout put into every :class:`ProviderConfig` (``ai_timeout``).
        local_timeout_s: the read timeout of a non-streamed request to a local engine (``ai_local_timeout``,
            :func:`~obsigate.agent.providers.catalog.is_local_engine`); such a provider's whole turn is bounded
            by twice that (a streamed try the engine refuses, then the non-streamed one), 600 s at least.
    """

    def __init__(
        self,
        data_dir: Path | str,
        environ: Mapping[str, str] | None = None,
        *,
        timeout_s: float = 60.0,
        local_timeout_s: float = 600.0,
    ) -> None:
        self.data_dir = Path(data_dir)
        self._environ = dict(environ or {})
        self._timeout_s = timeout_s
        self._local_timeout_s = local_timeout_s
        self._lock = threading.RLock()
        self._config = JsonObjectFile(self.data_dir / CONFIG_FILE, private=False)
        self._keys = JsonObjectFile(self.data_dir / KEYS_FILE, private=True)
        self._dotenv = DotEnvFile(self.data_dir / DOTENV_FILE)

    # ---- reading -------------------------------------------------------------------------------------

    def _env(self, name: str) -> str | None:
        value = self._environ.get(name)
        return value.strip() if isinstance(value, str) and value.strip() else None

    def _default_provider(self, config: dict[str, Any]) -> tuple[str, str]:
        """``(name as written, source)`` of the default provider; the name may be unknown."""
        value = config.get("ai_default_provider")
        if isinstance(value, str) and value.strip():
            return normalise_name(value), "config"
        env = self._env(DEFAULT_PROVIDER_ENV)
        if env:
            return normalise_name(env), "env"
        return DEFAULT_PROVIDER, "builtin"

    def _model(self, spec: ProviderSpec, config: dict[str, Any]) -> tuple[str | None, str | None]:
        configured = _str_map(config.get("ai_default_models")).get(spec.name)
        if configured:
            return configured, "config"
        env = self._env(spec.model_env)
        if env:
            return env, "env"
        return spec.default_model, ("builtin" if spec.default_model else None)

    def _base_url(self, spec: ProviderSpec, config: dict[str, Any]) -> tuple[str | None, str | None]:
        configured = _str_map(config.get("ai_base_urls")).get(spec.name)
        if configured:
            return configured, "config"
        env = self._env(spec.base_url_env)
        if env:
            return env, "env"
        return spec.base_url, ("builtin" if spec.base_url else None)

    def _key(self, spec: ProviderSpec, keys: dict[str, Any]) -> tuple[str | None, str | None]:
        stored = keys.get(spec.name)
        if isinstance(stored, str) and stored.strip():
            return stored.strip(), "file"
        dotenv = self._dotenv.read().get(spec.api_key_env, "").strip()
        if dotenv:
            return dotenv, "dotenv"
        env = self._env(spec.api_key_env)
        if env:
            return env, "env"
        return None, None

    def _problem(
        self, spec: ProviderSpec, config: dict[str, Any], keys: dict[str, Any], *, model_given: bool = False
    ) -> str | None:
        """Why ``spec`` cannot be called as configured (no secret in the sentence), or ``None``;
        ``model_given``: the request names the model, so a missing default model does not matter."""
        base_url, url_source = self._base_url(spec, config)
        if base_url is None:
            return f"{spec.name} has no base URL: set {spec.base_url_env} or ai_base_urls.{spec.name} in config.json"
        try:
            validate_base_url(base_url)
        except BadRequest:
            where = spec.base_url_env if url_source == "env" else f"ai_base_urls.{spec.name} in config.json"
            return f"the base URL of {spec.name} ({where}) is not a valid http(s) URL without user info"
        model, model_source = self._model(spec, config)
        if model is None and not model_given:
            return f"{spec.name} has no default model: set {spec.model_env} or ai_default_models.{spec.name} in config.json"
        if model is not None and not model_given:
            try:
                validate_model(model)
            except BadRequest:
                where = spec.model_env if model_source == "env" else f"ai_default_models.{spec.name} in config.json"
                return f"the default model of {spec.name} ({where}) is empty, too long, or holds spaces or control characters"
        key, key_source = self._key(spec, keys)
        if key is None and spec.key_required:
            return (
                f"no API key for {spec.name}: set {spec.api_key_env} (environment or {DOTENV_FILE} in the data dir)"
                f" or run: obsigate ai key set {spec.name}"
            )
        if key is not None:
            try:
                validate_key(key)
            except BadRequest:
                where = {"env": spec.api_key_env, "dotenv": f"{spec.api_key_env} of {DOTENV_FILE}"}.get(
                    key_source or "", KEYS_FILE
                )
                return f"the API key of {spec.name} in {where} holds spaces or control characters, or is too long"
        return None

    def resolve(self, provider: str | None = None, model: str | None = None) -> ProviderConfig:
        """The provider configuration for one request: ``provider`` and ``model`` are the request's overrides
        (``None``: use the defaults, see the module docstring).

        Raises:
            ProviderError (``provider_not_configured``, 503): the server's configuration cannot serve the
                request: a configured default provider that is unknown (the message lists the known ones), no
                API key for a provider that needs one, ``custom`` without a base URL or a model, or an unusable
                configured value. The message says what to set; it never holds a key.
            BadRequest (``invalid_argument``, 400): ``model`` is empty, over 200 characters, or holds whitespace
                or control characters; ``provider`` is not a string, or names no known provider (the caller's
                mistake, not the server's: retrying cannot help).
        """
        if provider is not None and not isinstance(provider, str):
            raise BadRequest("provider must be a string", details={"field": "provider"})
        if provider is not None and provider.strip():
            known_provider(provider)
        if model is not None:
            validate_model(model)
        with self._lock:
            config, keys = self._config.read(), self._keys.read()
            name = provider if provider is not None and provider.strip() else self._default_provider(config)[0]
            spec = get_spec(name)
            problem = self._problem(spec, config, keys, model_given=model is not None)
            if problem is not None:
                raise ProviderError(problem, code="provider_not_configured", details={"provider": spec.name})
            chosen = model if model is not None else self._model(spec, config)[0]
            base_url = self._base_url(spec, config)[0]
            key = self._key(spec, keys)[0]
        assert chosen is not None and base_url is not None
        base_url = validate_base_url(base_url)
        local = is_local_engine(spec.name, base_url)
        # a local engine's turn may be a refused streamed try, then the non-streamed one: twice its timeout
        turn_timeout_s = max(TURN_TIMEOUT_S, 2 * self._local_timeout_s) if local else TURN_TIMEOUT_S
        return ProviderConfig(
            name=spec.name, dialect=spec.dialect, base_url=base_url, model=chosen, api_key=key,
            timeout_s=self._timeout_s, turn_timeout_s=turn_timeout_s, local=local,
            local_timeout_s=self._local_timeout_s,
        )  # fmt: skip

    def default_provider(self) -> tuple[str, str]:
        """``(name, source)`` of the provider used when a request names none; ``source`` is ``config``,
        ``env`` or ``builtin``. The name is as configured, so it may be unknown (:meth:`resolve` says so)."""
        with self._lock:
            return self._default_provider(self._config.read())

    def status(self) -> dict[str, Any]:
        """What is configured, safe to show any signed-in user (keys masked by :func:`mask_key`).

        Shape: ``{"default_provider": str, "default_provider_source": "config"|"env"|"builtin",
        "default_configured": bool, "providers": [{"name", "label", "dialect", "configured": bool,
        "problem": str|None, "key_required": bool, "key": "…abcd"|"set"|None, "key_source": "file"|"dotenv"|"env"|None,
        "base_url": str|None, "base_url_source", "default_model": str|None, "model_source":
        "config"|"env"|"builtin"|None, "env": {"api_key", "base_url", "model"}}]}`` (env: the variable names).
        """
        with self._lock:
            config, keys = self._config.read(), self._keys.read()
            default, default_source = self._default_provider(config)
            providers = []
            for spec in PROVIDERS.values():
                key, key_source = self._key(spec, keys)
                base_url, url_source = self._base_url(spec, config)
                model, model_source = self._model(spec, config)
                problem = self._problem(spec, config, keys)
                providers.append({
                    "name": spec.name, "label": spec.label, "dialect": spec.dialect, "configured": problem is None,
                    "problem": problem, "key_required": spec.key_required, "key": mask_key(key),
                    "key_source": key_source, "base_url": _shown_url(base_url), "base_url_source": url_source,
                    "default_model": model, "model_source": model_source,
                    "env": {"api_key": spec.api_key_env, "base_url": spec.base_url_env, "model": spec.model_env},
                })  # fmt: skip
        configured = next((p["configured"] for p in providers if p["name"] == default), False)
        return {
            "default_provider": default, "default_provider_source": default_source,
            "default_configured": configured, "providers": providers,
        }  # fmt: skip

    def stored_config(self) -> dict[str, Any]:
        """The AI keys of ``config.json`` as stored: ``{"ai_default_provider": str|None, "ai_default_models":
        {provider: model}, "ai_base_urls": {provider: url}, "ai_destructive_tools": {vault: bool}}`` (no API keys)."""
        with self._lock:
            config = self._config.read()
        provider = config.get("ai_default_provider")
        return {
            "ai_default_provider": provider if isinstance(provider, str) and provider.strip() else None,
            "ai_default_models": _str_map(config.get("ai_default_models")),
            "ai_base_urls": _str_map(config.get("ai_base_urls")),
            DESTRUCTIVE_KEY: _bool_map(config.get(DESTRUCTIVE_KEY)),
        }

    def destructive_overrides(self) -> dict[str, bool]:
        """``config.json``'s ``ai_destructive_tools``: ``{vault: bool}`` set at run time (the web app's settings),
        winning over each vault's declared ``aiDestructiveTools``; re-read when the file changes."""
        with self._lock:
            return _bool_map(self._config.read().get(DESTRUCTIVE_KEY))

    # ---- writing -------------------------------------------------------------------------------------

    def _changes(self, value: Any, field: str, check: Any) -> dict[str, str | None]:
        if not isinstance(value, Mapping):
            raise BadRequest(f"{field} must be an object {{provider: value or null}}", details={"field": field})
        out: dict[str, str | None] = {}
        for name, item in value.items():
            provider = known_provider(name, field=field)
            out[provider] = None if item is None else check(item, field=f"{field}.{provider}")
        return out

    def update(
        self,
        *,
        ai_default_provider: str | None = _UNSET,
        ai_default_models: Mapping[str, str | None] | None = None,
        ai_base_urls: Mapping[str, str | None] | None = None,
        keys: Mapping[str, str | None] | None = None,
        ai_destructive_tools: Mapping[str, bool | None] | None = None,
    ) -> dict[str, Any]:
        """Change the stored settings; everything is validated before anything is written. Effective at once
        (for this object and, through the files, for any other process).

        Args:
            ai_default_provider: a known provider name, or ``None`` to remove the setting (the environment's or
                the built-in default applies again); left out: unchanged.
            ai_default_models: ``{provider: model}`` merged into ``config.json``'s; a ``None`` value removes
                that provider's entry.
            ai_base_urls: ``{provider: url}`` likewise (``http(s)``, no user info, query or fragment).
            keys: ``{provider: key}`` merged into ``api_keys.json``; ``None`` removes a stored key.
            ai_destructive_tools: ``{vault: bool}`` merged into ``config.json``'s; ``None`` removes that vault's
                switch (its declared ``aiDestructiveTools`` applies again). The caller checks the vaults exist.

        Returns:
            :meth:`status` after the change.

        Raises:
            BadRequest (``invalid_argument``): an unknown provider, or a bad model, URL or key (never echoed).
            Unavailable (``unavailable``): a file to change exists but cannot be read (left untouched).
            OSError: the data folder cannot be written.
        """
        provider = _UNSET
        if ai_default_provider is not _UNSET:
            provider = (
                None
                if ai_default_provider is None
                else known_provider(ai_default_provider, field="ai_default_provider")
            )
        models = (
            self._changes(ai_default_models, "ai_default_models", validate_model)
            if ai_default_models is not None
            else {}
        )
        urls = self._changes(ai_base_urls, "ai_base_urls", validate_base_url) if ai_base_urls is not None else {}
        new_keys = self._changes(keys, "api_keys", validate_key) if keys is not None else {}
        switches = _check_switches(ai_destructive_tools) if ai_destructive_tools is not None else {}
        with self._lock, process_lock(self.data_dir / LOCK_FILE):
            self._write(provider, models, urls, new_keys, switches)
            return self.status()

    def _write(
        self,
        provider: Any,
        models: dict[str, str | None],
        urls: dict[str, str | None],
        keys: dict[str, str | None],
        switches: dict[str, bool | None] | None = None,
    ) -> None:
        """Merge validated changes into the files; the caller holds both locks. ``provider``: ``_UNSET`` (no
        change), ``None`` (remove) or a known name; a ``None`` value in the maps removes that entry. Both
        files are read before either is written, so an unreadable one stops the change before any write."""
        switches = switches or {}
        change_config = provider is not _UNSET or bool(models) or bool(urls) or bool(switches)
        config = self._config.read_fresh() if change_config else {}  # every other key is written back as it was
        if keys:
            stored = self._keys.read_fresh()
            for name, key in keys.items():
                if key is None:
                    stored.pop(name, None)
                else:
                    stored[name] = key
            self._keys.write(stored)
        if change_config:
            if provider is None:
                config.pop("ai_default_provider", None)
            elif provider is not _UNSET:
                config["ai_default_provider"] = provider
            for field, changes in (("ai_default_models", models), ("ai_base_urls", urls), (DESTRUCTIVE_KEY, switches)):
                if not changes:
                    continue
                current = config.get(field)
                merged = dict(current) if isinstance(current, dict) else {}
                for name, value in changes.items():
                    if value is None:
                        merged.pop(name, None)
                    else:
                        merged[name] = value
                if merged:
                    config[field] = merged
                else:
                    config.pop(field, None)
            self._config.write(config)

    def set_key(self, name: str, key: str) -> None:
        """Store ``key`` for provider ``name`` in ``api_keys.json`` (it wins over ``<NAME>_API_KEY``).

        Raises:
            BadRequest (``invalid_argument``): an unknown provider, or an empty or malformed key.
            Unavailable (``unavailable``): ``api_keys.json`` exists but cannot be read.
        """
        self.update(keys={name: validate_key(key)})

    def remove_key(self, name: str) -> bool:
        """Remove the stored key of provider ``name``; ``False`` when there was none in ``api_keys.json`` (an
        environment key, if any, applies again or still).

        Raises:
            BadRequest (``invalid_argument``): an unknown provider.
            Unavailable (``unavailable``): ``api_keys.json`` exists but cannot be read.
        """
        provider = known_provider(name)
        with self._lock, process_lock(self.data_dir / LOCK_FILE):
            present = provider in self._keys.read_fresh()
            if present:
                self._write(_UNSET, {}, {}, {provider: None})
        return present
