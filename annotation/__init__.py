"""Reader studies, the LLM judge and agreement analysis."""
