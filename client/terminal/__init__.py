"""The terminal client: a thin Textual front end that draws what the server sends."""
