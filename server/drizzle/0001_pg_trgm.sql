-- Trigram similarity for typo-tolerant product search (PGlite loads the extension in its worker).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
