"""The finance vocabulary, in one place for storage/ and agent/: line items (US-GAAP concepts, how questions
name them and filings print them), and, as they move here, periods, fiscal calendars, scale captions and forms.
Imports nothing of the project."""
