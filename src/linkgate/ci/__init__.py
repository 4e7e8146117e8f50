"""Write linkgate's gate into CI: the GitHub Actions job, its trigger and comment, fan-out."""
