"""Reader studies, the LLM judge and agreement analysis. Must not import tui, textual or rich."""
