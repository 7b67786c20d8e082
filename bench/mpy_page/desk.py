"""The solver's desk of bench/mpy_page: web/forward.py's ForwardingDesk, joined to the
solver's worker through the page's transport (page.js: window.ppSolver).

The page's config writes this file where web/desk.py would be, so web/main.py runs as it
is and makes its table with this SolverDesk. Nothing of the solver runs or is imported
here: Pyodide in a worker (pyodide-worker.mjs, web/deskworker.py) answers.
"""

from pyscript import window
from pyscript.ffi import create_proxy

from web.forward import ForwardingDesk


class SolverDesk(ForwardingDesk):
    """The forwarding desk, posting to the page's worker and hearing its answers."""

    def __init__(self, table) -> None:
        super().__init__(table)
        solver = window.ppSolver
        self.post = solver.post
        solver.listen(create_proxy(self.receive))
