"""ObsiGate: a self-hosted gateway between Obsidian-style markdown vaults and AI agents."""

__version__ = "0.1.0"
