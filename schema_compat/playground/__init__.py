"""`schema-compat serve`: a local web page that shows every provider's view of a server.

A paste, a dropped file or a live server from the user's client configs goes in; the page
shows the provider x tool matrix, each cell's findings and the side-by-side diff, and hands
back the transformed tools and the reports. The HTTP server (server.py) is the standard
library's; every request passes the checks in security.py first. The page itself is plain
HTML, CSS and JavaScript in assets/, shipped as package data: nothing is built or fetched.

Nothing here is imported by the rest of the CLI: `serve` imports it when it runs.
"""
