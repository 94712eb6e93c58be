"""The loopback web servers of tests/fakes/web_sites.py, shared per module."""

from fakes.web_sites import sites

__all__ = ["sites"]
