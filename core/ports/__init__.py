"""The store protocols (`typing.Protocol`) the use cases depend on; `db` implements them.

Protocol methods take and return pydantic models (`core.records`), never row dicts.
"""
