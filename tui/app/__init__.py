"""The Textual app: `application.BedsideApp`, its screens, widgets and the rating app.

Nothing here is imported by the command line at start-up; `tui.cli.interactive` imports
the app only when it opens it. This package never imports `tui.cli`.
"""
