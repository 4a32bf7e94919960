"""The LangGraph agent: routing, tools, citations, prompts, models, and the ChatService the UI calls.

Start at agent/graph.py (the flowchart) and agent/service.py (`ChatService.ask`).
"""
