"""Storage: the item table (DynamoDB subset), blob store, session store (seed 002), workflow store (seed 000)."""
