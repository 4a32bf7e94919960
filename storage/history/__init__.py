"""Chat history in MongoDB, one module per job:

- store.py            `HistoryStore`: the connection, conversations, messages and whole turns (the API module;
                      the errors and id helpers are importable from it too)
- registry.py         the source-id registry of a conversation (`allocate_source_ids`, the citation counters)
- messages.py         a message checked and shaped into its document, and read back
- tool_json.py        the one parser of a tool's JSON content (also used by agent.tool_output.ToolOutput)
- validation.py       ids, user ids, titles, and that a conversation is the user's
- uri.py              MONGODB_URI checked, shown without credentials, and refusals explained
- errors.py           `HistoryError` and its subclasses
- outbox.py           turns kept on disk while the store is down
- embedded_server.py  the nx-27017 server used when no MONGODB_URI is set
"""
