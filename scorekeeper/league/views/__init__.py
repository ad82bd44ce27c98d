"""The league's pages: ``seasons`` (leagues, seasons, standings and their downloads) and
``players`` (a club's players and one player's page)."""
