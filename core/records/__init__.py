"""The pydantic models that cross the store boundary: what `db` returns to the use cases,
the app and the command line (runs, consultations, metrics; studies and ratings).

They live in `core` because `db`, below every other package, must return them.
"""
