"""Where links point: Obsidian's link resolution (``resolve``: ``getLinkpathDest``) and the link rewriting
that keeps every link on its target when files move (``rewrite``)."""
