"""restore_secrets: each marker of an edited redacted text gets back the secret that stood at its place, and
only where a later read still redacts it; anything else is refused whole (``secret_marker_altered``)."""

from __future__ import annotations

import time

import pytest

from obsigate.domain.markdown.note import parse_note
from obsigate.domain.redaction import redact_note, redact_text
from obsigate.domain.secret_markers import SecretMarkerError, restore_secrets

SK1 = "sk-proj-" + "A1b2C3d4E5" * 4
SK2 = "sk-proj-" + "Z9y8X7w6V5" * 4
GH = "ghp_" + "Qw3r" * 9
PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----"
M = "[REDACTED:openai-api-key]"
NOTE = (
    f"---\ntitle: Keys\napi_key: {GH}\n---\n# Keys\nprod: {SK1}\nstaging: {SK2}\ngithub {GH}\n"
    f'db_password = "correct horse battery"\nurl: postgres://bob:s3cretpass@db.local/app\n{PEM}\nend\n'
)


def refused(original: str, edited: str) -> SecretMarkerError:
    with pytest.raises(SecretMarkerError) as info:
        restore_secrets(original, edited)
    assert info.value.code == "secret_marker_altered"
    return info.value


def test_the_redacted_text_written_back_is_the_original() -> None:
    shown = redact_text(NOTE)
    assert SK1 not in shown and "s3cretpass" not in shown and "MIIEvQ" not in shown
    assert restore_secrets(NOTE, shown) == NOTE
    edited = shown.replace("# Keys", "# All the keys").replace("end\n", "end\nmore\n")
    assert restore_secrets(NOTE, edited) == NOTE.replace("# Keys", "# All the keys").replace("end\n", "end\nmore\n")


def test_text_without_markers_comes_back_at_once() -> None:
    edited = "no markers here\n"
    assert restore_secrets(NOTE, edited) is edited


@pytest.mark.parametrize(
    ("marker", "glued", "line"),
    [
        (f"prod: {M}", f"prod: Zz{M}Zz", 6),  # the tester's edit
        (f"prod: {M}", f"prod: Zz{M}", 6),
        (f"prod: {M}", f"prod:_{M}", 6),
        ("github [REDACTED:github-token]", "github [REDACTED:github-token]Zz", 8),  # a rule with a closing \b
        ("api_key: [REDACTED:github-token]", "api_key: [REDACTED:github-token]Zz", 3),  # a frontmatter value
    ],
)
def test_a_marker_glued_to_text_is_refused(marker: str, glued: str, line: int) -> None:
    """The reported attack: the secret, glued to letters, loses its word boundary and no rule matches it
    (or another rule does: a key's value is then redacted as a plain assignment, not as what it is)."""
    shown = redact_text(NOTE)
    assert marker in shown
    err = refused(NOTE, shown.replace(marker, glued))
    assert err.line == line and SK1 not in str(err) and GH not in str(err)


def test_a_marker_followed_by_what_its_rule_still_covers_is_accepted() -> None:
    """An OpenAI key has no closing word boundary: ``sk-proj-…Zz`` is still one secret, still redacted."""
    restored = restore_secrets(NOTE, redact_text(NOTE).replace(f"prod: {M}", f"prod: {M}Zz"))
    assert SK1 + "Zz" in restored and SK1 not in redact_text(restored)


def test_a_secret_whose_name_made_it_one_cannot_lose_its_name() -> None:
    shown = redact_text(NOTE)
    err = refused(NOTE, shown.replace("db_password =", "db_note ="))
    assert err.rule == "secret-assignment"
    assert restore_secrets(NOTE, shown.replace("db_password =", "DB_PASSWORD =")) == NOTE.replace(
        "db_password =", "DB_PASSWORD ="
    )


def test_a_secret_yaml_would_join_to_text_is_refused() -> None:
    """Covered in the raw text (its own line) but joined by YAML's line continuation to the word before it:
    read_file's frontmatter would show it, so the field-level check refuses it."""
    original = f'---\nnote: "Zz {SK1}"\n---\nbody\n'
    edited = redact_text(original).replace("Zz [", "Zz\\\n  [")
    assert parse_note(edited.replace(M, SK1)).frontmatter == {"note": "Zz" + SK1}  # what a read would show
    assert refused(original, edited).line == 3


def test_secrets_in_links_stay_redacted_field_by_field_so_they_may_go_there() -> None:
    original = f"prod: {SK1} and {SK2}\n"
    restored = restore_secrets(original, f"prod: [[Vault|{M}]] and [{M}](Vault.md)\n")
    assert restored == f"prod: [[Vault|{SK1}]] and [{SK2}](Vault.md)\n"
    assert SK1 not in repr(redact_note(parse_note(restored))) and SK2 not in repr(redact_note(parse_note(restored)))


def test_deleting_the_first_of_two_markers_keeps_the_second_secret() -> None:
    """The reported bug: by rank, the remaining marker got the FIRST secret and the second one vanished."""
    shown = redact_text(NOTE)
    restored = restore_secrets(NOTE, shown.replace(f"prod: {M}\n", ""))
    assert restored == NOTE.replace(f"prod: {SK1}\n", "") and SK1 not in restored


def test_markers_keep_their_secrets_through_edits_around_them() -> None:
    shown = redact_text(NOTE)
    edited = shown.replace(f"prod: {M}", f"the prod key: {M} (rotated)").replace("# Keys", "# Keys\nintro line")
    assert restore_secrets(NOTE, edited) == NOTE.replace(f"prod: {SK1}", f"the prod key: {SK1} (rotated)").replace(
        "# Keys", "# Keys\nintro line"
    )
    swapped = shown.replace(f"prod: {M}\nstaging: {M}", f"staging: {M}\nprod: {M}")  # a line moved whole
    assert restore_secrets(NOTE, swapped) == NOTE.replace(
        f"prod: {SK1}\nstaging: {SK2}", f"staging: {SK2}\nprod: {SK1}"
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s + f"copy: {M}\n",  # a new or copied marker: which secret would it be?
        lambda s: s.replace(f"prod: {M}\n", "").replace("end\n", f"end\nprod moved and edited: {M}\n"),
        lambda s: s.replace(f"prod: {M}\nstaging: {M}", f"both: {M} {M} {M}"),  # more markers than were there
    ],
)
def test_a_marker_with_no_place_in_the_original_is_refused(change) -> None:
    assert refused(NOTE, change(redact_text(NOTE))).rule == "openai-api-key"


def test_identical_lines_hiding_different_secrets_are_never_guessed() -> None:
    original = f"KEY={SK1}\nKEY={SK2}\nend\n"
    shown = redact_text(original)  # "KEY=[REDACTED:…]" twice: deleting one of them cannot be told apart
    assert "more than one secret" in str(refused(original, shown.split("\n", 1)[1]))
    # told apart first (a comment on one line), each keeps its own secret; then the deletion is clear
    step = shown.replace(f"KEY={M}\nend", f"KEY={M} # old\nend")
    assert restore_secrets(original, step) == original.replace(f"KEY={SK2}", f"KEY={SK2} # old")
    same = f"KEY={SK1}\nKEY={SK1}\n"  # the same secret twice: either choice writes the same text
    assert restore_secrets(same, redact_text(same).split("\n", 1)[1]) == f"KEY={SK1}\n"


def test_literal_marker_text_stays_as_written() -> None:
    doc = f"Redacted keys read as {M} in ObsiGate.\nreal: {SK1}\n"
    assert restore_secrets(doc, redact_text(doc)) == doc  # the note's own literal marker is not a secret
    assert restore_secrets("no secrets\n", f"no secrets\n{M}\n") == f"no secrets\n{M}\n"
    other = "[REDACTED:github-token]"  # no github token in this note: nothing to reveal, kept as text
    assert restore_secrets(doc, redact_text(doc) + f"{other}\n") == doc + f"{other}\n"


def test_a_crlf_copy_aligns_with_its_lf_original() -> None:
    shown = redact_text(NOTE).replace("\n", "\r\n")
    restored = restore_secrets(NOTE, shown.replace("end", "END"))
    assert restored.replace("\r\n", "\n") == NOTE.replace("end", "END")


def test_a_long_note_with_scattered_edits_stays_fast() -> None:
    lines = [
        f"key{i}: sk-proj-{i:040d}" if i % 40 == 0 else f"line {i} of the note, words {i * 7}" for i in range(40_000)
    ]
    original = "\n".join(lines) + "\n"
    edited = redact_text(original).split("\n")
    for i in range(3, len(edited), 9):
        edited[i] += " edited"  # marker lines too: key120, key480...
    del edited[80]  # key80's line
    started = time.perf_counter()
    restored = restore_secrets(original, "\n".join(edited))
    assert time.perf_counter() - started < 10
    assert f"sk-proj-{80:040d}" not in restored and f"key120: sk-proj-{120:040d} edited" in restored
    assert restored.count("sk-proj-") == 999


AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK3h8qLmN0"
AWS_NOTE = f"# AWS\nkey id AKIAQWERTYUIOPASDF23\n\n{AWS_SECRET}\n\nrotate yearly\n"


def test_a_bare_aws_secret_goes_back_under_its_marker() -> None:
    shown = redact_text(AWS_NOTE)
    assert AWS_SECRET not in shown and "\n[REDACTED:aws-secret-key]\n" in shown
    assert restore_secrets(AWS_NOTE, shown.replace("yearly", "monthly")) == AWS_NOTE.replace("yearly", "monthly")


def test_a_bare_aws_secret_that_would_stop_being_alone_on_its_line_is_refused() -> None:
    """The rule needs the key alone on its line: text typed next to the marker would uncover it."""
    shown = redact_text(AWS_NOTE)
    assert (
        refused(AWS_NOTE, shown.replace("\n[REDACTED:aws-secret-key]", "\nkey: x [REDACTED:aws-secret-key]")).rule
        == "aws-secret-key"
    )
    block = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo"  # it would read as a base64 block's end
    assert (
        refused(AWS_NOTE, shown.replace("\n\n[REDACTED:aws-secret-key]", f"\n{block}\n[REDACTED:aws-secret-key]")).line
        == 4
    )
