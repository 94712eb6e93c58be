"""Secret redaction: real secret shapes are hidden, look-alikes in notes are left alone."""

from __future__ import annotations

import pytest

from obsigate.domain.redaction import redact_payload, redact_text

OPENAI = "sk-proj-" + "Ab3dEf6hIj" * 4 + "T3BlbkFJ" + "x" * 20


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (f'api_key = "{OPENAI}"', "openai-api-key"),
        ("key sk-ant-api03-" + "a" * 93 + "AA", "anthropic-api-key"),
        ("token ghp_" + "a1B2" * 9, "github-token"),
        ("AKIAQWERTYUIOPASDFGH", "aws-access-key"),
        ("AIza" + "b" * 35, "google-api-key"),
        ("sk_live_" + "c" * 24, "stripe-key"),
        ("password=correct-horse-battery", "secret-assignment"),
        ("DB_PASSWORD: 'hunter2hunter2'", "secret-assignment"),
        ("postgres://bob:s3cretpass@db.local/app", "url-credentials"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----", "private-key"),
        ("og_" + "Z" * 49, "obsigate-api-key"),
    ],
)
def test_secrets_are_redacted(text: str, rule: str) -> None:
    out = redact_text(text)
    assert f"[REDACTED:{rule}]" in out


@pytest.mark.parametrize(
    "text",
    [
        "password: ask Alice",
        "OPENAI_API_KEY=your-api-key-here",
        "commit 3f2a9c0d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c",
        "block id ^a1b2c3 and uuid 123e4567-e89b-12d3-a456-426614174000",
        "#token-economics is a tag",
        "the secret to good notes is linking",
    ],
)
def test_look_alikes_are_kept(text: str) -> None:
    assert redact_text(text) == text


def test_payload_is_redacted_recursively() -> None:
    data = {"a": [f"x {OPENAI}", {"b": "password=correct-horse-battery"}], "n": 3}
    out = redact_payload(data)
    assert OPENAI not in str(out) and "correct-horse" not in str(out)
    assert out["n"] == 3


def test_hostile_input_is_fast_enough_to_finish() -> None:
    # Patterns are bounded; a long run of near-matches must still complete (no catastrophic backtracking).
    text = ("password=" + "a" * 600 + " ") * 200 + "eyJ" + "a" * 5000
    assert "[REDACTED" in redact_text(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("**Password:** boldpassword777", "boldpassword777"),
        ("password    =    x12345678", "x12345678"),
        ("pwd=abcdefgh1", "abcdefgh1"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"),
        ("redis://:pw12345@host", "pw12345"),
        ('db_password: "correct horse battery staple"', "correct horse"),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGX\n-----END PGP PRIVATE KEY BLOCK-----", "lQOYBGX"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIabcdef\nxyz==\n\nnext para", "MIIabcdef"),
        ("client_secret=yourclientsecret11", "yourclientsecret11"),
    ],
)
def test_second_round_shapes(text: str, secret: str) -> None:
    assert secret not in redact_text(text)


def test_truncated_key_keeps_the_following_paragraph() -> None:
    assert redact_text("-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n\nnext para").endswith("next para")


def test_properties_under_a_secret_key_are_redacted_whatever_their_form() -> None:
    from obsigate.domain.redaction import redact_properties

    props = {"password": "blockscalarpw1234\n", "secrets": ["listsecretvalue9876"], "title": "Plan", "n": 3}
    out = redact_properties(props)
    assert out == {
        "password": "[REDACTED:secret-property]",
        "secrets": ["[REDACTED:secret-property]"],
        "title": "Plan",
        "n": 3,
    }


SK = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


def test_redact_note_keeps_links_around_secrets_and_line_numbers() -> None:
    from obsigate.domain.markdown.note import parse_note
    from obsigate.domain.redaction import redact_note

    pem = (
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----"
    )
    text = f"---\ntoken: {SK}\n---\n{pem}\n[[{SK}]] and [{SK}](Self.md) and [[Self|{SK}]] #tok/{SK} #ok\n"
    note = redact_note(parse_note(text))
    assert SK not in repr(note)
    assert [(lk.kind, lk.target, lk.display) for lk in note.links] == [
        ("wikilink", "[REDACTED:openai-api-key]", None),
        ("markdown", "Self.md", "[REDACTED:openai-api-key]"),
        ("wikilink", "Self", "[REDACTED:openai-api-key]"),
    ]
    assert note.tags == ("ok",)  # a tag holding a secret is dropped
    assert note.links[0].line == 8
    body_lines = note.body.split("\n")
    assert body_lines[note.links[0].line - note.body_line].startswith("[[[REDACTED")  # same line after the PEM
    assert note.frontmatter == {"token": "[REDACTED:secret-property]"}


@pytest.mark.parametrize(
    ("front", "hidden", "kept"),
    [
        ("password: tremendous horse battery\n", ["tremendous horse battery"], []),
        ("secrets:\n  db: hunter2hunter2zz\n  port: 5432x\nname: ok\n", ["hunter2hunter2zz", "5432x"], ["name: ok"]),
        ("api_token:\n- one two\n- three four\nother: fine\n", ["one two", "three four"], ["other: fine"]),
        ("private_key: |\n  block one\n  block two\nafter: kept\n", ["block one", "block two"], ["after: kept"]),
        ('"my password": "quoted secret value"\n', ["quoted secret value"], []),
        ("title: Password reset\ntags: [auth]\n", [], ["title: Password reset"]),  # a secret word in a value
    ],
)
def test_values_under_secret_named_frontmatter_keys_are_redacted_in_raw_text(
    front: str, hidden: list[str], kept: list[str]
) -> None:
    text = f"---\n{front}---\n# Body\n"
    shown = redact_text(text)
    assert not any(h in shown for h in hidden), shown
    assert all(k in shown for k in kept) and shown.endswith("---\n# Body\n")


def test_a_body_that_looks_like_frontmatter_is_not_read_as_one() -> None:
    text = "# Title\n---\npassword: a b c d\n---\n"
    assert redact_text(text) == text  # no frontmatter at the top: only the text rules apply


def test_a_secret_used_as_a_frontmatter_key_is_redacted() -> None:
    from obsigate.domain.redaction import redact_properties

    key = "sk-proj-" + "A1b2C3d4E5" * 4
    shown = redact_properties({key: 1, "title": "ok"})
    assert key not in str(shown) and shown["title"] == "ok"


AKIA = "AKIAQWERTYUIOPASDF234"[:20]


@pytest.mark.parametrize(
    "text",
    [
        f"![[{AKIA}.png]]",
        f"{AKIA}/note.md",
        f"Keys/{AKIA}.md",
        f"{AKIA}_old.txt",
        f"backup_{AKIA}.md",
        f"({AKIA})",
        f"id={AKIA}.",
        AKIA,
    ],
)
def test_an_aws_key_id_is_found_whatever_punctuation_ends_it(text: str) -> None:
    """Issue 16: a key id in a file or folder name (before ``.``, ``/`` or ``_``) is a key id too."""
    assert redact_text(text) == text.replace(AKIA, "[REDACTED:aws-access-key]")


@pytest.mark.parametrize("text", [f"X{AKIA}", f"{AKIA}Z", f"{AKIA}7", "AKIA" + "Q" * 17])
def test_an_aws_key_id_inside_a_longer_word_is_not_one(text: str) -> None:
    assert redact_text(text) == text


AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK3h8qLmN0"


@pytest.mark.parametrize(
    "text",
    [
        f"{AKIA}\n{AWS_SECRET}\n",  # the key pair pasted as it was handed out
        f"# Deploy\n\n    {AWS_SECRET}\n\nthen run it",
        f"- {AWS_SECRET}",
        f"`{AWS_SECRET}`\r\n",
        f"{AWS_SECRET}\n{AWS_SECRET[::-1]}\n",  # two keys on consecutive lines
    ],
)
def test_a_bare_aws_secret_key_on_its_own_line_is_redacted(text: str) -> None:
    shown = redact_text(text)
    assert AWS_SECRET not in shown and AWS_SECRET[::-1] not in shown
    assert "[REDACTED:aws-secret-key]" in shown and shown.count("\n") == text.count("\n")


@pytest.mark.parametrize(
    "text",
    [
        f"the key {AWS_SECRET} in a sentence",  # not alone on its line: no rule claims a bare 40-char word
        "3f2a9c0d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c",  # a git SHA: hex, one case
        "3F2A9C0D4E5B6A7C8D9E0F1A2B3C4D5E6F7A8B9C",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS's documented example
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmn",  # one case, no digit
        "Abcdefghijklmnopqrstuvwxyzabcdefghijklmn",  # no digit
        "A1cdefghijklmnopqrstuvwxyzabcdefghijklm",  # 39 characters
        "A1cdefghijklmnopqrstuvwxyzabcdefghijklmno",  # 41
        # the last line of a base64 block (a certificate) is 40 characters by chance
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n"
        + AWS_SECRET
        + "\n-----END CERTIFICATE-----",
    ],
)
def test_look_alikes_of_a_bare_aws_secret_are_kept(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "**Secrets**: [[Vault setup]]",
        "**Secrets**: [[secrets-demo]] holds the fake keys",
        "Secrets: [[Vault-setup-guide|the guide]]",
        "token: [how to rotate](Token%20rotation.md)",
        "api_key: [console](https://console.example.org/keys)",
        "password: ![[password-manager.png]]",
        'db_password: "[[Vault setup]]"',
        '---\npassword_manager: "[[1Password]]"\nsecrets:\n  - "[[Vault setup]]"\n---\n',
        '---\nauthor: Priya Raman\nauthors:\n  - "[[Steph Ango]]"\n---\n',  # `author` is not `auth`
    ],
)
def test_a_link_written_as_a_secret_named_value_is_kept(text: str) -> None:
    """Issue 16: the ``KEY: value`` rules redacted a value that is a link to a note, not a secret."""
    assert redact_text(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("password: [[x]]hunter2hunter2", "hunter2hunter2"),  # a link glued to more text is no link
        ("password: hunter2hunter2 [[Vault setup]]", "hunter2hunter2"),
        ("Secrets: [[sk-proj-" + "A1b2C3d4E5" * 4 + "]]", "A1b2C3d4E5"),  # a token inside a link is still one
        ("auth: hunter2hunter2", "hunter2hunter2"),
        ("authorization = abcdefgh12345678", "abcdefgh12345678"),  # `authorization` is still `auth`
    ],
)
def test_secrets_next_to_links_are_still_redacted(text: str, secret: str) -> None:
    assert secret not in redact_text(text)


def test_link_properties_under_a_secret_key_are_kept_in_parsed_frontmatter() -> None:
    from obsigate.domain.redaction import redact_properties

    props = {"secrets": ["[[Vault setup]]", "hunter2hunter2"], "password": "[[x]]y", "author": "Jane Doe"}
    assert redact_properties(props) == {
        "secrets": ["[[Vault setup]]", "[REDACTED:secret-property]"],
        "password": "[REDACTED:secret-property]",
        "author": "Jane Doe",
    }


@pytest.mark.parametrize(
    "text",
    [
        "AbstractSingletonProxyFactoryBean2Config",
        "ProjectPlanReviewQuarterly2024FinalDraft",
        "Projects/ClientWork2024/QuarterlyReview1",
    ],
)
def test_a_40_character_name_alone_is_not_taken_for_an_aws_secret(text: str) -> None:
    """A class name in a code block, a note title or a folder path shown alone (every path of a result is
    redacted as a string of its own) is not random enough to be a key."""
    assert len(text) == 40 and redact_text(text) == text


def test_every_token_literal_opens_the_one_pass_gate_of_short_strings() -> None:
    """Short strings are checked for every token rule's literal in one pass (issue 20): each literal, anywhere in
    a short string, must still let its rule run, and a secret reads the same below and above the gate's length."""
    from obsigate.domain.redaction import _ANY_TOKEN_LITERAL, _ONE_PASS_BELOW, _TOKEN_RULES

    for _, lits, _, _ in _TOKEN_RULES:
        for lit in (lits,) if isinstance(lits, str) else lits:
            assert _ANY_TOKEN_LITERAL.search(f"see {lit} here") is not None, lit
    padding = "\n\n" + "plain words " * (_ONE_PASS_BELOW // 12 + 1)
    for secret in (OPENAI, "token ghp_" + "a1B2" * 9, "AIza" + "b" * 35, "xoxb-" + "1234567890-abc", "og_" + "Z" * 49):
        short = redact_text(secret)
        assert short != secret and redact_text(secret + padding) == short + padding
