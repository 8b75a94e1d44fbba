import { collectorModule } from './collector-module';

/** A silence is a few hundred bytes of JSON; anything near this is not one. */
export const MAX_SILENCE_BODY_BYTES = 16 * 1024;

/** A request the silence routes refuse: its status and a message saying what to change. */
export class SilenceRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request's JSON body, bounded; refusals say what was wrong. */
export async function readSilenceBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_SILENCE_BODY_BYTES)
    throw new SilenceRequestError(413, `a silence is at most ${MAX_SILENCE_BODY_BYTES} bytes of JSON`);
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_SILENCE_BODY_BYTES)
    throw new SilenceRequestError(413, `a silence is at most ${MAX_SILENCE_BODY_BYTES} bytes of JSON`);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new SilenceRequestError(400, `the body is not JSON (${text.length} bytes): send a JSON object`);
  }
}

/** Refusals as JSON { error } with their status; the input's own (SilenceInputError) as 400. */
export async function silenceErrorResponse(err: unknown): Promise<Response> {
  if (err instanceof SilenceRequestError)
    return Response.json({ error: err.message }, { status: err.status });
  const { SilenceInputError } = await collectorModule();
  if (err instanceof SilenceInputError) return Response.json({ error: err.message }, { status: 400 });
  console.error('faultline: silence request failed:', err);
  return Response.json({ error: 'the silence could not be saved; see the dashboard log' }, { status: 500 });
}
