"""Tests that need the peer samples (imported AgentClinic, AI Hospital and RJUA files)."""
