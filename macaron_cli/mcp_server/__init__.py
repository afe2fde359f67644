"""`macaron memory serve`: the person's memory as an MCP server for their other agents.

`access` answers each tool and the profile through the privacy gate for the client that
asks (a destination; the cloud unless the person declared it otherwise) and writes every
call to the ledger; `server` puts those answers on the MCP wire (stdio, or streamable HTTP
behind a bearer token from `token`). The store loads in the background, so a client that
starts the server per session is answered at once.
"""
