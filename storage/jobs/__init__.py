"""PDF processing jobs outside the app process: Celery tasks (`celery_app`, `tasks`) whose progress and
cancel flag live in MongoDB (`records`), and the one ingestion outcome both runners share (`runner`)."""
