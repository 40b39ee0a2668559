"""The bedside test suite."""
