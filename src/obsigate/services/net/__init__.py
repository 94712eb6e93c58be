"""Outbound HTTP for every tool that reaches outside the server (``fetch_url``, ``web_search``, later the browser,
an API client, maps): one guard (:mod:`.guard`, a pure decision) and one client (:mod:`.client`) that connects only
to the addresses the guard passed. Nothing else in ObsiGate opens an outbound connection on a model's behalf."""
