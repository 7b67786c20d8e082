"""A stand-in for web/desk.py in bench/mpy_page (MicroPython cannot import the solver).

The page's config writes this file where web/desk.py would be, so web/main.py runs as it
is. What the table asks of the solver's desk is answered without a solver: hints from
engine.hint (the rules' own), no verdict yet, no winnable lists, no daily deal known. In
the app this would be a proxy to Pyodide in a worker (docs/architecture.md §8).
"""

import engine


class SolverDesk:
    """The table's solver part, answered "not yet"."""

    def __init__(self, table) -> None:
        self.table = table
        self.dailies = self
        self.hold_gc = False

    def position_changed(self) -> None:
        pass

    def game_replaced(self) -> None:
        pass

    def hint(self) -> dict:
        return self.table.render("hint", hint=engine.hint(self.table.game))

    def hint_step(self) -> dict:
        return self.table.render("none")

    def watch(self, ms=None) -> dict:
        return {"event": "watch", "done": True, "verdict": None, "unwinnable": False,
                "rewind": None}

    def rewind(self) -> dict:
        return self.table.render("none")

    def daily(self, variant=None, date="") -> dict:
        return self.table.render("illegal", announce="The daily deal needs the solver.")

    def find(self, variant=None, date="", ms=None) -> dict:
        return {"event": "daily_find", "found": False, "deal": None,
                "error": "the daily deal needs the solver"}

    def draw_seed(self, variant: str, check: bool = True) -> int:
        return self.table.random_seed()

    def is_daily(self, variant: str, seed: int, day: str) -> bool:
        return False

    def change_level(self, changes) -> None:
        pass

    def change_winnable(self, changes) -> None:
        pass

    def fields(self, payload: dict, event: str) -> None:
        payload["verdict"] = None
        payload["unwinnable"] = False
        payload["rewind"] = None
        if event == "settings":
            payload["winnable_counts"] = {v: 0 for v in engine.VARIANTS}
            payload["level_counts"] = {v: {} for v in engine.VARIANTS}
