"""Plain-text presentation shared by the command line and the app: untrusted text made
harmless, and the results tables. Imports neither textual nor rich."""
