"""PDF processing jobs: one job model (`records.JobRecord`) and two runners with one interface, a thread of the
app process (`thread_jobs`) or Celery workers (`celery_jobs`, tasks in `celery_app`, `tasks`) whose progress
and cancel flag live in MongoDB (`records`); the one ingestion outcome both share (`runner`). The UI only
shows jobs."""
