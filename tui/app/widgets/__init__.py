"""Widgets: attributes down, messages up. A widget never touches the database or a model."""
