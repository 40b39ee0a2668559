"""Tests on the peers' own samples (../shared/peers, or $BEDSIDE_PEERS): an extra run, left
out of the default run (see tests/conftest.py); .ci/run makes it after the README's command."""
