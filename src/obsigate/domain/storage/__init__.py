"""What ObsiGate keeps on disk: the one way into a vault's files (``vault_fs``: every path walked from the vault
root's descriptor, no symlink followed), atomic file writes (``atomic``), versioned backups (``backups``),
the change journal (``journal``) and owner-only files and secrets (``private_files``)."""
