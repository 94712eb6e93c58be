"""The tool catalogue: one module per family of tools, each a set of ``@tool`` declarations.

:func:`load` imports every module of this package, found on disk rather than listed by hand, in the order of
their ``ORDER`` (the order ``tools/list`` shows: discovery, reading, links, searching, recent, backups, writing).
Adding a family is adding a module with an ``ORDER``; adding a tool is adding a function to one.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from obsigate.tools.registry import REGISTRY, ToolSpec


@cache
def load() -> tuple[str, ...]:
    """Import (and so register) every catalogue module, then put the registry in the modules' ``ORDER``
    (registration order within a module); the modules' names, in that order.

    Raises:
        TypeError: a module without an integer ``ORDER``, or two with the same one (the order would depend on
            file names).
    """
    modules = [importlib.import_module(f".{info.name}", __name__) for info in pkgutil.iter_modules(__path__)]
    orders: dict[str, int] = {}
    for module in modules:
        order = getattr(module, "ORDER", None)
        if not isinstance(order, int) or order in orders.values():
            raise TypeError(f"{module.__name__}: ORDER must be an integer no other catalogue module has")
        orders[module.__name__] = order

    def rank(spec: ToolSpec) -> int:
        return orders.get((spec.origin or spec).func.__module__, len(orders))

    REGISTRY.order_by(rank)
    return tuple(sorted(orders, key=orders.__getitem__))
