"""UI helpers for the Streamlit pages: safe text, citations, page images, identity, resources."""
