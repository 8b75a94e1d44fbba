// Output formats shared by the dashboard (CSV export, what pages show) and the CLI (tables, CSV):
// pure, no store, so the dashboard's client code can import them.
export { toCsv } from './to-csv.js';
export { MAX_TABLE_CELL, toTextTable } from './to-text-table.js';
export { visibleText } from './visible-text.js';
