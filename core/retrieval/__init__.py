"""Searching for the doctor's `SEARCH:` tool: documents read into passages for the local
corpus (`documents`, `html_text`), the optional web search endpoint (`web`), and the search
that asks both and words the passages for the doctor (`search`)."""
