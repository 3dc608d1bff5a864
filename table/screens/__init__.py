"""Screens: the view model (`view`), pure renderers (`render`), suit signs
(`suits`), texts in three languages (`i18n`), and the bundled font."""
