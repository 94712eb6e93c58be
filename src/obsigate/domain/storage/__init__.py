"""What ObsiGate keeps on disk besides the index: atomic file writes (``atomic``) and versioned backups
(``backups``)."""
