"""Obsidian's markdown syntax, as pure functions: ``note.parse_note`` over the block scanner (``blocks``),
one-line rules (``lines``), links and tags in text (``inline``, ``link_syntax``, ``tags``), YAML frontmatter
(``frontmatter``), and byte-exact edits of a note's text (``edit``). Rules: ``shared/reference/obsidian.md``."""
