"""The Textual app and the `bedside` command line: the composition root.

Only this package imports textual. Headless commands import their modules lazily so
`bedside cases list` never pays for textual or litellm.
"""
