"""The web front end: `jamaica serve`, a game server with a browser client."""
