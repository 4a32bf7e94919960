"""What the benchmarks compare the product with, kept out of the product: a LangChain-style pipeline
(langchain_pipeline), the ranking before selection awareness (legacy_ranking), the frozen no-model
answer composer of an earlier revision (extractive), the named ablations of the ranking (presets), and
messages written one by one as the history store once did (per_message)."""
