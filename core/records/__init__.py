"""The pydantic models that cross the store boundary: what the `core.ports` protocols take and
return, and what `db` builds from its rows (so `db`, below `annotation`, can return them)."""
