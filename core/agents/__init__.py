"""Agents of a consultation, behind the small protocol in `core.agents.base`.
"""
