"""Confirmations of writes: the token store (:mod:`.store`) and the propose/apply/settle flow (:mod:`.flow`).

Empty on purpose: ``tools.context`` imports the store, and the flow imports ``tools.context``; loading the flow
here would make that a cycle.
"""
