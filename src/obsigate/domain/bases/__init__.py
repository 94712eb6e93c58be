"""Obsidian Bases (``.base`` files and ```` ```base ```` blocks), read-only: the YAML spec (:mod:`.spec`), the
expression language (:mod:`.expr` parses, :mod:`.evaluate` runs, :mod:`.values` and :mod:`.functions` hold the
types and the documented functions) and the views (:mod:`.query`: filter, sort, group, limit, summaries).

Source of every rule: ``shared/reference/obsidian-app.md`` §1 (Obsidian's help pages *Bases syntax*,
*Functions*, *Views*, and its release notes). Pure: the facts of the vault's files come in through
:class:`.values.Env`, which the service layer implements over the index.
"""
