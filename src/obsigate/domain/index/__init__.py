"""The search index of the vaults: the ``VaultIndex`` facade (``vault_index``) over SQLite metadata
(``sqlite_store``), tantivy full text (``fulltext``), the stored link graph (``linkgraph``), the in-memory
overlay of recent writes (``overlay``), the write path (``committer``), snippets (``snippets``), and the
background build plus file watcher (``watcher``)."""
