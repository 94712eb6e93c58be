"""What ObsiGate keeps on disk besides the index: atomic file writes (``atomic``), versioned backups
(``backups``) and owner-only files and secrets (``private_files``)."""
