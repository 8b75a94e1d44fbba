import { collectorModule } from '../../../../src/server/collector-module';
import { readSilenceBody, silenceErrorResponse } from '../../../../src/server/silence-request';
import { listSilences, silenceBook } from '../../../../src/server/silences';

export const dynamic = 'force-dynamic';

// Behind the dashboard's gate (src/server/auth): same origin, JSON body, signed in under an auth
// mode. The body is the alerts API's (collector/README.md, Silences), validated by the same code.

/** GET → { silences }: those in force and those that ended in the last day, newest first. */
export async function GET(): Promise<Response> {
  try {
    const { silenceJson } = await collectorModule();
    return Response.json({ silences: (await listSilences()).map(silenceJson) });
  } catch (err) {
    return silenceErrorResponse(err);
  }
}

/**
 * POST {"service"?, "class"?, "alertname"?, "duration" | "endsAt", "startsAt"?, "author", "reason"}
 * → 201 and the silence; 400 naming the field, what is wrong and the fix.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { parseSilenceInput, silenceJson } = await collectorModule();
    const spec = parseSilenceInput(await readSilenceBody(request), Date.now());
    const created = await (await silenceBook()).create(spec);
    return Response.json(silenceJson(created), {
      status: 201,
      headers: { location: `/api/alerts/silences/${encodeURIComponent(created.id)}` },
    });
  } catch (err) {
    return silenceErrorResponse(err);
  }
}
