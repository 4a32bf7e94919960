"""Retrieval over the selected documents: hybrid ranking, the semantic cache, query expansion, the period /
form / issuer a question names and the selection prior built from it."""
