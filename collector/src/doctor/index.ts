export { diskCheck } from './disk-check.js';
export {
  type DoctorCheck,
  MAX_BACKLOG_AGE_S,
  MAX_CLOCK_SKEW_S,
  MIN_FREE_BYTES,
  MIN_FREE_SHARE,
} from './doctor-check.js';
export { type DoctorOptions, runDoctor } from './run-doctor.js';
