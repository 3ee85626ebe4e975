"""``docchat selftest``: fault and load scenarios against real processes on loopback (issue 13).

Each scenario starts what it needs (``docchat up`` servers, ``docchat worker`` processes, DynamoDB Local) in a
scratch folder, is bounded in count and time, and returns a :class:`chat.selftest.report.Result`; the command
prints them as one table of attempts and failures. ``--short`` runs a reduced version in seconds (make test).
"""
