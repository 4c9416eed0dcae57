"""`schema-compat serve`: a local web page that shows every provider's view of a server.

A paste, a dropped file or a live server from the user's client configs goes in; the page
shows the provider x tool matrix, each cell's findings and the side-by-side diff, and hands
back the transformed tools and the reports, with the nearest settings file applied as
`check` applies it (analysis.PageSettings). analysis.py computes all of it with the library;
api.py is the page's API apart from HTTP. The HTTP server (server.py) is the
standard library's, and every request passes the checks in security.py first; the static
site (`make site`) calls the same API from the page, in Pyodide (static.py). The page itself
is plain HTML, CSS and JavaScript in assets/, shipped as package data: nothing is built or
fetched.

Nothing here is imported by the rest of the CLI: `serve` imports it when it runs.
"""
