"""``python -m obsigate`` runs the CLI."""

from obsigate.cli import app

app()
