"""The store protocols (typing.Protocol) that use cases depend on; `db` implements them and
the in-memory stores of the tests may too. They take and return `core.records` models."""
