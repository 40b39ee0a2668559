"""Agents of a consultation, behind the small protocol in `core.agents.base`.

Must not import: textual, rich, litellm, or any other bedside package.
"""
