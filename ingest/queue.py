"""Job queues (seed 004): a high- and a low-priority queue, each with a dead-letter queue.

One ``JobQueue`` Protocol (``ingest/queue_port.py``), two adapters with the same semantics:

* ``SqsJobQueue`` (``ingest/queue_sqs.py``) — Amazon SQS: long polling, ``ChangeMessageVisibility`` to extend
  a running job, DLQs by the queues' redrive policy (``maxReceiveCount``; created by infra/, by moto in tests).
* ``SqliteJobQueue`` (``ingest/queue_sqlite.py``) — one SQLite file: visibility timeout, receive count, and a
  message received more than ``max_receives`` times moves to its dead-letter queue instead of being delivered
  (SQS's rule).

Small documents go to the high queue. ``receive`` takes from both queues by smooth weighted round robin
(``high_share``, 70/30 by default): whichever queue is due is asked first, and if it is empty the other one
is, so neither queue starves and no worker idles while work is waiting.
"""

from __future__ import annotations

from ingest.queue_port import PRIORITIES, DeadLetter, JobQueue, Message, Priority, PriorityPicker
from ingest.queue_sqlite import SqliteJobQueue
from ingest.queue_sqs import SqsJobQueue

__all__ = ["PRIORITIES", "DeadLetter", "JobQueue", "Message", "Priority", "PriorityPicker", "SqliteJobQueue",
           "SqsJobQueue"]
