"""Chat history: the MongoDB store (conversations, messages, the source-id registry), the outbox that keeps
turns while the store is down, and the embedded nx-27017 server used when no MONGODB_URI is set."""
