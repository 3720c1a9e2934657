"""The terminal front end (Textual): `jamaica play` and `jamaica replay`."""
