#!/bin/bash
# Runs once, when the ClickHouse server's volume is new (the image runs /docker-entrypoint-initdb.d).
# Creates the read-only user the dashboard and the SQL console use: SELECT on Faultline's database
# only, and readonly=2: no write, no DDL, and readonly itself cannot be lowered, while a query may
# still set its own limits (the dashboard sends max_execution_time). The writer user (CLICKHOUSE_USER)
# creates it. Its password comes from FAULTLINE_READER_PASSWORD and only its SHA-256 (hex digits,
# nothing to escape) reaches the SQL.
set -euo pipefail
: "${FAULTLINE_READER_PASSWORD:?set FAULTLINE_READER_PASSWORD for the dashboard's read-only ClickHouse user}"
hash=$(printf '%s' "$FAULTLINE_READER_PASSWORD" | sha256sum | cut -d' ' -f1)
clickhouse client --user "$CLICKHOUSE_USER" --password "$CLICKHOUSE_PASSWORD" --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS faultline;
CREATE SETTINGS PROFILE IF NOT EXISTS faultline_readonly SETTINGS readonly = 2;
CREATE USER IF NOT EXISTS faultline_reader IDENTIFIED WITH sha256_hash BY '${hash}'
  SETTINGS PROFILE 'faultline_readonly';
GRANT SELECT ON faultline.* TO faultline_reader;
SQL
