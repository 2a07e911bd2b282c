"""The database migrations as package data: NNNN_name.sql, PostgreSQL's own texts in postgres/."""
