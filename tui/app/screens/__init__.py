"""The app's screens. A screen talks to the app only through `base.BedsideScreen.bedside`
(the `AppServices` protocol), never by importing the application module."""
