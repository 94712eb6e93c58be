"""Settings: one table, read by ``cli.py`` and ``api/app.py`` only.

Precedence (highest first): command-line flags > environment variables (``OBSIGATE_*``, plus the
seeds' ``BOOKSLM_MAX_*``) > ``<data_dir>/config.json`` > the defaults below. The assistant's provider,
model and API-key settings (``ai_default_provider``, ``ai_default_models``, ``<NAME>_API_KEY``...) are not
here: they change while the server runs, so ``obsigate.agent.settings.AISettings`` reads them.
Everything below the fronts receives plain values, never this object's source.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_DATA_DIR = Path("./data")
CONFIG_FILE_NAME = "config.json"
VAULT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class VaultSettings(BaseModel):
    """One declared vault: ``{"path": "...", "read_only": false, "aiDestructiveTools": true}``."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    path: Path = Field(description="Folder of the vault on disk.")
    read_only: bool = Field(default=False, description="Refuse every write to this vault.")
    ai_destructive_tools: bool = Field(
        default=True,
        alias="aiDestructiveTools",
        description="Allow dangerous tools (rename, move, replace, delete) on this vault.",
    )


def parse_vault_specs(specs: list[str] | str) -> dict[str, VaultSettings]:
    """Parse ``NAME=PATH`` items (a list, or one string separated by commas) into vault settings.

    Raises:
        ValueError: an item without ``=``, or a name that is not 1-64 of ``[A-Za-z0-9_.-]``.
    """
    items = specs.split(",") if isinstance(specs, str) else specs
    out: dict[str, VaultSettings] = {}
    for item in items:
        item = item.strip()
        if not item:
            continue
        name, sep, path = item.partition("=")
        name = name.strip()
        if not sep or not name or not path.strip():
            raise ValueError(f"vault must be NAME=PATH, got {item!r}")
        if not VAULT_NAME.fullmatch(name) or set(name) == {"."}:
            raise ValueError(
                f"vault name {name!r} must be 1-64 of A-Z a-z 0-9 '_' '.' '-' (the names users are granted)"
            )
        if name in out:
            raise ValueError(f"vault {name!r} is declared twice")
        out[name] = VaultSettings(path=Path(path.strip()))
    return out


def seeds_env(env: str, default: int, *, ge: int, le: int, description: str) -> Any:
    """A setting the seeds name by a bare environment variable (``BOOKSLM_MAX_FILES``...), read from it as well as
    from the field's own name in ``config.json`` and flags."""
    return Field(
        default=default,
        ge=ge,
        le=le,
        validation_alias=AliasChoices(env.lower(), env),
        description=f"{description} (env {env}).",
    )


class _ConfigJsonSource(PydanticBaseSettingsSource):
    """Reads ``<data_dir>/config.json``; ``data_dir`` itself comes from flags or env."""

    def __init__(self, settings_cls: type[BaseSettings], data_dir: Path) -> None:
        super().__init__(settings_cls)
        self._path = data_dir / CONFIG_FILE_NAME

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        if not self._path.is_file():
            return {}
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{self._path}: not valid JSON ({exc})") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{self._path}: must hold a JSON object")
        return data


class Settings(BaseSettings):
    """Every ObsiGate setting, its default and its environment variable (``OBSIGATE_<NAME>``)."""

    model_config = SettingsConfigDict(env_prefix="OBSIGATE_", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=DEFAULT_DATA_DIR, description="Where the index, users, keys and tool journal live.")
    host: str = Field(default="127.0.0.1", description="Address to bind. Loopback by default.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to bind.")
    public_url: str | None = Field(
        default=None, description="Base URL clients use (e.g. https://notes.example.org); default http://HOST:PORT."
    )
    auth_enabled: bool = Field(default=True, description="Require a bearer token (JWT or API key).")
    force_no_auth: bool = Field(
        default=False, description="Allow auth_enabled=false on a non-loopback bind (dangerous)."
    )
    vaults: Annotated[dict[str, VaultSettings], NoDecode] = Field(
        default_factory=dict, description="Declared vaults by name."
    )
    token_ttl: int = Field(default=3600, ge=60, description="Lifetime (s) of JWTs from /api/auth/login.")
    max_tool_read_bytes: int = Field(
        default=200_000,
        ge=1024,
        validation_alias=AliasChoices("max_tool_read_bytes", "BOOKSLM_MAX_TOOL_READ_BYTES"),
        description="Most bytes read_file returns in one call (env BOOKSLM_MAX_TOOL_READ_BYTES).",
    )
    tool_result_budget_tokens: int = Field(
        default=25_000, ge=500, description="Size budget of one tool result, in tokens (~4 chars each)."
    )
    tool_rate_limit: int = Field(default=60, ge=1, description="Tool calls allowed per identity per window.")
    tool_rate_limit_per_tool: int | None = Field(
        default=None, ge=1, description="Per tool and identity; default = global."
    )
    tool_rate_window: int = Field(default=60, ge=1, description="Rate-limit window length (s).")
    web_rate_limit: int = Field(
        default=600, ge=1,
        description="The web app's calls per window per user and tool (people typing, not agents); all tools together: 4x.",
    )  # fmt: skip
    agent_rate_limit: int = Field(
        default=300, ge=1,
        description="The in-app assistant's own tool calls per window per user (its runs, not MCP or REST clients); per tool too.",
    )  # fmt: skip
    mcp_confirmation_ttl: int = Field(
        default=300,
        ge=10,
        le=86_400,
        description="Lifetime (s) of the single-use confirmation tokens of propose_*/apply_* (10 s to 1 day).",
    )
    ai_max_iterations: int = Field(
        default=10,
        ge=1,
        le=100,
        description="Most model turns of one assistant run before it stops (env OBSIGATE_AI_MAX_ITERATIONS).",
    )
    bookslm_max_tool_calls: int = seeds_env(
        "BOOKSLM_MAX_TOOL_CALLS", 25, ge=1, le=1000, description="Most tool calls of one assistant run"
    )
    bookslm_max_files: int = seeds_env(
        "BOOKSLM_MAX_FILES",
        200,
        ge=1,
        le=100_000,
        description="Most files the assistant gathers as context for one question",
    )
    bookslm_max_total_chars: int = seeds_env(
        "BOOKSLM_MAX_TOTAL_CHARS",
        200_000,
        ge=1000,
        le=10_000_000,
        description="Most characters of gathered context in one assistant prompt",
    )
    bookslm_max_file_chars: int = seeds_env(
        "BOOKSLM_MAX_FILE_CHARS",
        30_000,
        ge=100,
        le=10_000_000,
        description="Most characters of one file in the assistant's gathered context",
    )
    ai_timeout: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="Connect and idle-read timeout (s) of one request to an LLM provider (env OBSIGATE_AI_TIMEOUT).",
    )
    ai_local_timeout: float = Field(
        default=600.0,
        gt=0,
        le=86_400,
        description="Read timeout (s) of a non-streamed request to a local engine (Ollama, llama.cpp, vLLM on this machine or the local network), which answers only once the whole answer is generated; never re-sent on timeout (env OBSIGATE_AI_LOCAL_TIMEOUT).",
    )
    ai_tool_result_chars: int = Field(
        default=20_000,
        ge=500,
        le=1_000_000,
        description="Most characters of one tool result put into an assistant prompt (env OBSIGATE_AI_TOOL_RESULT_CHARS).",
    )
    ai_max_tool_args_bytes: int = Field(
        default=262_144,
        ge=1024,
        le=50_000_000,
        description="Largest arguments of one assistant tool call (UTF-8 bytes of their JSON); larger: refused, not kept.",
    )
    ai_context_share: float = Field(
        default=0.5,
        gt=0,
        le=1,
        description="Share of the model's context window the gathered notes may fill before a request must accept it.",
    )
    ai_context_window: int = Field(
        default=0,
        ge=0,
        le=100_000_000,
        description="The model's context window in tokens for that share; 0: known per model family, else 32768.",
    )
    ai_context_windows: Annotated[dict[str, int], NoDecode] = Field(
        default_factory=dict,
        description="Context windows per model in tokens (at most 1000000), as MODEL=N,MODEL=N or a JSON object: "
        "they win over ai_context_window and the table per model family (the context gauge, the share check).",
    )
    max_body_bytes: int = Field(
        default=8 * 1024 * 1024,
        ge=64 * 1024,
        le=1024 * 1024 * 1024,
        description="Largest request body on /api in bytes (413 too_large above): bounds a note written in one call.",
    )
    mcp_max_body_bytes: int = Field(
        default=4 * 1024 * 1024,
        ge=64 * 1024,
        le=1024 * 1024 * 1024,
        description="Largest request body on /mcp in bytes (413 with a JSON-RPC -32600 too_large error above).",
    )
    files_max_bytes: int = Field(
        default=32 * 1024 * 1024,
        ge=1024,
        le=1024 * 1024 * 1024,
        description="Largest file of a user's file space (uploads and tool artifacts), in bytes; also the upload "
        "route's body cap (413 file_too_large above).",
    )
    files_quota_bytes: int = Field(
        default=512 * 1024 * 1024,
        ge=1024,
        le=1024**4,
        description="Most bytes one user's file space may hold (507 quota_exceeded above; nothing is stored).",
    )
    files_ttl: int = Field(
        default=86_400,
        ge=60,
        le=10 * 365 * 86_400,
        description="Seconds a conversation's file (every tool artifact, an upload attached to a conversation) is "
        "kept after its last use; a person's upload outside a conversation is kept until deleted.",
    )
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Extra Origin values accepted on /mcp (any loopback origin always is) and on REST writes (this server's own origin always is).",
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Extra Host values accepted on /mcp (loopback hosts always are)."
    )
    trusted_proxies: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Reverse proxies (IPs or CIDRs) whose X-Forwarded-For names the client for sign-in throttling; "
        "from anyone else the header is ignored and the socket peer is the client.",
    )
    fetch_allow: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="The only way through the web tools' outbound guard: CIDRs, IP addresses or host names "
        "(comma-separated) that fetch_url may reach although they are not public (loopback, private), on any port.",
    )
    journal_keep_content: bool = Field(
        default=False,
        description="Keep each tool call's arguments and its result (up to 64 KB) in the tool journal, beside "
        "their salted digests; off: digests and summarised arguments only.",
    )
    journal_checkpoint_every: int = Field(
        default=1000,
        ge=1,
        le=1_000_000,
        description="Sign a tool-journal checkpoint (Ed25519) every this many rows; also at a clean shutdown.",
    )
    journal_checkpoint_seconds: float = Field(
        default=60.0,
        ge=1.0,
        le=86_400.0,
        description="Also sign the tool journal's unsigned rows this often (seconds): after a crash, at most this "
        "long a tail can be cut off unseen.",
    )
    searxng_url: str | None = Field(
        default=None,
        description="Base URL of the SearXNG instance web_search queries (JSON output enabled); unset: no web search. "
        "Its host is trusted as configured.",
    )

    @field_validator("vaults", mode="before")
    @classmethod
    def _vaults_from_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return json.loads(value) if value.startswith("{") else parse_vault_specs(value)
        return value

    @field_validator("vaults")
    @classmethod
    def _vault_names(cls, value: dict[str, VaultSettings]) -> dict[str, VaultSettings]:
        for name in value:
            if not VAULT_NAME.fullmatch(name) or set(name) == {"."}:
                raise ValueError(f"vault name {name!r} must be 1-64 of A-Z a-z 0-9 '_' '.' '-'")
        return value

    @field_validator("allowed_origins", "allowed_hosts", "trusted_proxies", "fetch_allow", mode="before")
    @classmethod
    def _list_from_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return json.loads(value) if value.startswith("[") else [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("ai_context_windows", mode="before")
    @classmethod
    def _windows_from_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            if value.startswith("{"):
                return json.loads(value)
            out: dict[str, Any] = {}
            for item in filter(None, (v.strip() for v in value.split(","))):
                model, sep, size = item.rpartition("=")
                if not sep or not model.strip():
                    raise ValueError(f"context window must be MODEL=TOKENS, got {item!r}")
                out[model.strip()] = int(size) if size.strip().isdigit() else size
            return out
        return value

    @field_validator("ai_context_windows")
    @classmethod
    def _window_sizes(cls, value: dict[str, int]) -> dict[str, int]:
        for model, size in value.items():
            if not 1 <= size <= 1_000_000:
                raise ValueError(f"context window of {model!r} must be 1 to 1000000 tokens, got {size}")
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_networks(cls, value: list[str]) -> list[str]:
        for entry in value:
            try:
                ipaddress.ip_network(entry.strip(), strict=False)
            except ValueError:
                raise ValueError(f"trusted proxy {entry!r} is not an IP address or network (CIDR)") from None
        return [entry.strip() for entry in value if entry.strip()]

    @field_validator("searxng_url")
    @classmethod
    def _searxng_url(cls, value: str | None) -> str | None:
        value = (value or "").strip()
        if value and not re.match(r"^https?://[^/\s]+", value):
            raise ValueError(f"searxng_url {value!r} is not an http(s) URL")
        return value or None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        init_kwargs = getattr(init_settings, "init_kwargs", {})
        data_dir = Path(init_kwargs.get("data_dir") or os.environ.get("OBSIGATE_DATA_DIR") or DEFAULT_DATA_DIR)
        return (init_settings, env_settings, _ConfigJsonSource(settings_cls, data_dir))

    @property
    def base_url(self) -> str:
        """Public base URL without trailing slash."""
        if self.public_url:
            return self.public_url.rstrip("/")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def is_loopback(self) -> bool:
        """True when ``host`` only accepts local connections."""
        return is_loopback_host(self.host)


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (name or IP literal) binds to loopback only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_settings(**overrides: Any) -> Settings:
    """Build settings with flags as ``overrides`` (``None`` values mean "flag not given").

    Raises:
        pydantic.ValidationError: a value of the wrong type or out of range.
        ValueError: an unreadable ``config.json``.
    """
    given = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**given)
