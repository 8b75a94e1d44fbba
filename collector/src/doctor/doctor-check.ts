/** One line of `faultline doctor`: what was checked, the verdict, and what was seen or what to do. */
export interface DoctorCheck {
  name: string;
  verdict: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
}

/** Clock skew against the server beyond which rollup minutes and alert windows drift (seconds). */
export const MAX_CLOCK_SKEW_S = 2;
/** Free space below which a data or WAL directory fails (bytes, and share of the disk). */
export const MIN_FREE_BYTES = 1024 ** 3;
export const MIN_FREE_SHARE = 0.05;
/** Acknowledged spans waiting longer than this for their insert fail the backlog check (seconds). */
export const MAX_BACKLOG_AGE_S = 60;
