"""Tools for organisers of games at real tables: the score sheet and the MCR tournament.

No web, no database: :mod:`.sheet` settles the hands people enter with the rule sets' own
scorers and payments, :mod:`.tournament` seats and ranks the players of an MCR tournament.
The server and ``majiang sheet`` keep both in the database.
"""
