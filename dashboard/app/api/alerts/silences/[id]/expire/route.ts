import { collectorModule } from '../../../../../../src/server/collector-module';
import {
  readSilenceBody,
  SilenceRequestError,
  silenceErrorResponse,
} from '../../../../../../src/server/silence-request';
import { silenceBook } from '../../../../../../src/server/silences';

export const dynamic = 'force-dynamic';

/**
 * POST {"author": "ana"} → 200 and the silence, ended now (at Alertmanager too); 404 for an
 * unknown id. A POST with a JSON body, not DELETE: the dashboard's gate takes JSON writes only.
 */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await ctx.params;
    const body = await readSilenceBody(request);
    const raw = typeof body === 'object' && body !== null ? (body as { author?: unknown }).author : undefined;
    if (raw !== undefined && (typeof raw !== 'string' || raw.length > 200))
      throw new SilenceRequestError(
        400,
        'author is who expires the silence: a string of at most 200 characters',
      );
    const author = (raw ?? '').trim();
    if (author === '')
      throw new SilenceRequestError(
        400,
        'author is missing: give who expires the silence (a name or handle)',
      );
    const expired = await (await silenceBook()).expire(id, author);
    if (!expired) throw new SilenceRequestError(404, `no silence ${id}: the Alerts page lists them`);
    const { silenceJson } = await collectorModule();
    return Response.json(silenceJson(expired));
  } catch (err) {
    return silenceErrorResponse(err);
  }
}
