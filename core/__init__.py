"""The headless domain: case model, role views, agents, engine, batches and metrics."""
